//! [`RedisReplayGuard`]: single use of sealed states across replicas, and refusal of the
//! states sealed before Redis lost its data.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use elicit_state::BoxFuture;
use elicit_state::StoreError;
use elicit_state::{Redemption, ReplayGuard, StateError};

use crate::connection::Link;
use crate::script::Script;
use crate::target::Target;
use crate::{epoch, keep_until, keyspace};

/// Why a redemption is refused while Redis may evict keys.
const MAY_EVICT: &str = "this Redis may now evict the keys that remember spent states \
    (a `maxmemory` is set and `maxmemory-policy` is no longer `noeviction`): no requestState is \
    redeemed until it is set back; see elicit-redis's docs, \"What Redis must promise\"";

/// The script that records a state id while the epoch holds.
static REDEEM: LazyLock<Script> = LazyLock::new(|| Script::new(epoch::REDEEM));

/// A [`ReplayGuard`] in Redis: a state id is redeemed with `SET … NX PXAT`, so single use
/// holds across replicas; `"{<namespace>}:elicit:epoch"`, checked in the same script, makes a
/// Redis that lost its data refuse the states sealed before the loss
/// ([`StateError::ReplayMemoryLost`]; see [the crate docs](crate)).
///
/// Async, on a multiplexed connection opened on first use (or by [`connect`](Self::connect)),
/// and bounded: a redemption fails closed with [`StateError::ReplayGuardUnavailable`] once
/// [`REDIS_CONNECT_TIMEOUT`](crate::REDIS_CONNECT_TIMEOUT) (connecting) or
/// [`REDIS_RESPONSE_TIMEOUT`](crate::REDIS_RESPONSE_TIMEOUT) (the answer) runs out, or
/// whatever [`with_timeouts`](Self::with_timeouts) set; after a timeout or a broken connection
/// the next redemption connects again. Only requests whose handler asks with a state wait for
/// it (see [`ReplayGuard`]).
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_redis::RedisReplayGuard;
///
/// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?
///     .with_timeouts(Duration::from_millis(300), Duration::from_millis(200));
/// let sealer = StateSealer::new(KeyRing::generate(), "myapp").with_replay_guard(Arc::new(guard));
/// # let _ = sealer;
/// # Ok::<(), elicit_runtime::url::StoreError>(())
/// ```
pub struct RedisReplayGuard {
    link: Arc<Link>,
    prefix: String,
}

impl std::fmt::Debug for RedisReplayGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (connect, response) = self.link.timeouts();
        f.debug_struct("RedisReplayGuard")
            .field("prefix", &self.prefix)
            .field("connect_timeout", &connect)
            .field("response_timeout", &response)
            .finish_non_exhaustive()
    }
}

impl RedisReplayGuard {
    /// A guard in `namespace` on `link` (a store's, or its own).
    pub(crate) fn on(link: Arc<Link>, keyspace: &str) -> Self {
        RedisReplayGuard {
            link,
            prefix: format!("{keyspace}:elicit:replay:"),
        }
    }

    /// A guard on the Redis at `url`; keys are `"{<namespace>}:elicit:replay:{id}"` (the
    /// namespace in braces: see [the crate docs](crate#keys-and-redis-cluster)). Connects on
    /// first use.
    /// [`RedisCompletionStore::replay_guard`](crate::RedisCompletionStore::replay_guard) makes one on a store's connection instead.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL, or `namespace` is empty or holds a brace.
    ///
    /// ```
    /// use elicit_redis::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.timeouts(), (REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new(url: &str, namespace: &str) -> Result<Self, StoreError> {
        Self::on_target(Target::single(url), namespace)
    }

    /// A guard on the Redis Cluster reached through any of `urls` (each `redis://host:port` of
    /// a node: the client learns the rest): every key of `namespace` lives in one slot (see
    /// [the crate docs](crate#keys-and-redis-cluster)). Connects on first use.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `urls` is empty or one is not a Redis URL, or `namespace` is empty
    /// or holds a brace.
    ///
    /// ```
    /// use elicit_redis::RedisReplayGuard;
    ///
    /// let urls = ["redis://10.0.0.1:6379", "redis://10.0.0.2:6379"];
    /// let guard = RedisReplayGuard::new_cluster(&urls, "myapp")?;
    /// assert!(guard.checks_setup());
    /// assert!(RedisReplayGuard::new_cluster(&[], "myapp").is_err());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new_cluster(urls: &[&str], namespace: &str) -> Result<Self, StoreError> {
        Self::on_target(Target::cluster(urls), namespace)
    }

    /// [`new_cluster`](Self::new_cluster), connected now (see [`connect`](Self::connect)).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] as [`new_cluster`](Self::new_cluster) says, or if the cluster cannot
    /// be reached in time or does not keep what [the crate docs](crate#what-redis-must-promise)
    /// require on every primary.
    pub async fn connect_cluster(urls: &[&str], namespace: &str) -> Result<Self, StoreError> {
        let guard = Self::new_cluster(urls, namespace)?;
        guard.link.epoch().await.map_err(StoreError::new)?;
        Ok(guard)
    }

    fn on_target(target: Result<Target, String>, namespace: &str) -> Result<Self, StoreError> {
        let keyspace = keyspace(namespace).map_err(StoreError::new)?;
        let link = Link::new(target.map_err(StoreError::new)?, &keyspace);
        Ok(Self::on(Arc::new(link), &keyspace))
    }

    /// [`new`](Self::new), connected now (within the connect timeout), so that a wrong URL or
    /// a Redis that is down shows at startup, and the namespace's epoch is read before the
    /// server seals its first state.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL or Redis cannot be reached in time.
    pub async fn connect(url: &str, namespace: &str) -> Result<Self, StoreError> {
        let guard = Self::new(url, namespace)?;
        guard.link.epoch().await.map_err(StoreError::new)?;
        Ok(guard)
    }

    /// The same guard with other bounds: `connect` for opening a connection, `response` for
    /// each command. It opens its own connection on first use.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_redis::RedisReplayGuard;
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?
    ///     .with_timeouts(Duration::from_secs(2), Duration::from_secs(1));
    /// assert_eq!(guard.timeouts(), (Duration::from_secs(2), Duration::from_secs(1)));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn with_timeouts(self, connect: Duration, response: Duration) -> Self {
        RedisReplayGuard {
            link: Arc::new(self.link.with_timeouts(connect, response)),
            ..self
        }
    }

    /// The connect and response timeouts.
    ///
    /// ```
    /// use elicit_redis::{REDIS_RESPONSE_TIMEOUT, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.timeouts().1, REDIS_RESPONSE_TIMEOUT);
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn timeouts(&self) -> (Duration, Duration) {
        self.link.timeouts()
    }

    /// With replicas connected to the primary, waits (within the response timeout) until all
    /// of them hold the spent state, so a failover to any of them still refuses it; fails
    /// closed when fewer confirm.
    async fn replicated(&self, hex: &str) -> Result<(), StateError> {
        let replicas = self.link.setup().replicas;
        if replicas == 0 {
            return Ok(());
        }
        let (_, response) = self.link.timeouts();
        // Redis's own wait ends first, so a slow replica reads as "fewer confirmed".
        let within = response * 3 / 4;
        let mut wait = redis::cmd("WAIT");
        wait.arg(replicas)
            .arg(u64::try_from(within.as_millis()).unwrap_or(u64::MAX).max(1));
        let acked = self
            .link
            .wait_for_replicas(&wait)
            .await
            .map_err(StateError::ReplayGuardUnavailable)?;
        if acked < replicas {
            tracing::warn!(target: "elicit", state = %hex, acked, replicas, "elicit: spent state not on every replica");
            return Err(StateError::ReplayGuardUnavailable(format!(
                "{acked} of {replicas} Redis replicas confirmed the spent state within {within:?}"
            )));
        }
        Ok(())
    }

    /// The same guard without the check of what Redis promises (eviction, persistence, the
    /// primary): for a provider that hides `CONFIG`, when you keep the settings in
    /// [the crate docs](crate#what-redis-must-promise) some other way. Without them a spent
    /// state can run again after Redis loses part of its data.
    ///
    /// ```
    /// use elicit_redis::RedisReplayGuard;
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?.trusting_setup();
    /// assert!(!guard.checks_setup());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn trusting_setup(self) -> Self {
        RedisReplayGuard {
            link: Arc::new(self.link.trusting_setup()),
            ..self
        }
    }

    /// Whether each new connection checks what Redis promises (the default).
    ///
    /// ```
    /// use elicit_redis::RedisReplayGuard;
    ///
    /// assert!(RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?.checks_setup());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn checks_setup(&self) -> bool {
        self.link.checks_setup()
    }

    /// The same guard reading what Redis promises again `every` so long instead of every
    /// [`REDIS_SETUP_RECHECK`](crate::REDIS_SETUP_RECHECK): before the first command after
    /// the interval, on the open connection, failing closed while a setting is wrong. A live
    /// change to persistence or the role is noticed within it; eviction is checked in every
    /// redemption whatever the interval. `Duration::ZERO` checks before every command. It opens
    /// its own connection on first use.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_redis::{REDIS_SETUP_RECHECK, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.setup_recheck(), REDIS_SETUP_RECHECK);
    /// let guard = guard.with_setup_recheck(Duration::from_secs(10));
    /// assert_eq!(guard.setup_recheck(), Duration::from_secs(10));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn with_setup_recheck(self, every: Duration) -> Self {
        RedisReplayGuard {
            link: Arc::new(self.link.with_setup_recheck(every)),
            ..self
        }
    }

    /// How long a reading of what Redis promises holds (see
    /// [`with_setup_recheck`](Self::with_setup_recheck)).
    ///
    /// ```
    /// use elicit_redis::{REDIS_SETUP_RECHECK, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.setup_recheck(), REDIS_SETUP_RECHECK);
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn setup_recheck(&self) -> Duration {
        self.link.setup_recheck()
    }
}

impl ReplayGuard for RedisReplayGuard {
    fn redeem(&self, state: Redemption) -> BoxFuture<'_, Result<(), StateError>> {
        Box::pin(async move {
            let hex: String = state.id.iter().map(|b| format!("{b:02x}")).collect();
            let key = format!("{}{hex}", self.prefix);
            let mut epoch = self
                .link
                .epoch()
                .await
                .map_err(StateError::ReplayGuardUnavailable)?;
            // The marker changes at most twice in a row (written again, then marked as lost).
            for _ in 0..3 {
                if !epoch.admits(state.issued_at) {
                    tracing::warn!(
                        target: "elicit",
                        state = %hex,
                        epoch = %epoch.raw,
                        "elicit: requestState sealed before Redis lost its data refused"
                    );
                    return Err(StateError::ReplayMemoryLost);
                }
                let keys = [self.link.epoch_key(), &key, self.link.evictions_key()];
                let until = keep_until(state.expires_at).to_string();
                let args = [epoch.raw.as_str(), &until, self.link.check_flag()];
                match self.link.run::<i64>(&REDEEM, &keys, &args).await {
                    Ok(1) => return self.replicated(&hex).await,
                    Ok(0) => return Err(StateError::Replayed),
                    Ok(epoch::MAY_EVICT) => {
                        tracing::error!(target: "elicit", state = %hex, "elicit: Redis refused: {MAY_EVICT}");
                        return Err(StateError::ReplayGuardUnavailable(MAY_EVICT.to_owned()));
                    }
                    Ok(_) => {}
                    Err(e) => return Err(StateError::ReplayGuardUnavailable(e)),
                }
                epoch = self
                    .link
                    .refresh_epoch()
                    .await
                    .map_err(StateError::ReplayGuardUnavailable)?;
            }
            Err(StateError::ReplayGuardUnavailable(
                "the Redis epoch marker kept changing".to_owned(),
            ))
        })
    }
}
