//! Redis-backed completion store and replay guard (feature `redis`): the browser callback,
//! the client's retry and a replayed `requestState` may each reach a different replica.
//!
//! Every Redis operation is async, over one multiplexed connection opened on first use, and
//! bounded: connecting by a connect timeout ([`REDIS_CONNECT_TIMEOUT`] unless set), each
//! command by a response timeout ([`REDIS_RESPONSE_TIMEOUT`]). A Redis that is down, slow or
//! half-open fails the one operation that needed it within those bounds, with an error that
//! says which wait ran out; the replay guard then refuses the state (fail closed). After a
//! timeout or a broken connection, the next operation connects again.

mod connection;
mod epoch;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::future::BoxFuture;
use crate::state::{Completion, CompletionStore, StoreError};
use crate::state::{MAX_CLOCK_SKEW, Redemption, ReplayGuard, StateError};
use connection::Link;
pub use connection::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT};

fn millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
        .max(1)
}

/// How long past a token's expiry its Redis keys live: Redis expires keys by its own clock,
/// tokens expire by the replica's, and replicas accept a token up to [`MAX_CLOCK_SKEW`] off;
/// twice that covers a Redis clock as far off the other way.
const SKEW_MARGIN: Duration = Duration::from_secs(2 * MAX_CLOCK_SKEW.as_secs());

/// `PXAT` for a key that must outlive a token expiring at `at` on any replica's clock.
fn keep_until(at: SystemTime) -> u64 {
    millis(at.checked_add(SKEW_MARGIN).unwrap_or(at))
}

fn replay_prefix(namespace: &str) -> String {
    format!("{namespace}:elicit:replay:")
}

/// A [`CompletionStore`] in Redis. Entries expire with their handle (`PXAT`); the first record
/// wins (`SET … NX`) and redemption is atomic (`SET … XX GET`).
///
/// Every command is async, on a multiplexed connection opened on first use, and bounded: by
/// default [`REDIS_CONNECT_TIMEOUT`] to connect and [`REDIS_RESPONSE_TIMEOUT`] per command
/// ([`with_timeouts`](Self::with_timeouts) sets others). A command whose wait runs out fails
/// with a [`StoreError`] saying which; after a timeout or a broken connection the next command
/// connects again. [`replay_guard`](Self::replay_guard) gives a [`RedisReplayGuard`] on the
/// same connection.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::RedisCompletionStore;
///
/// let store = RedisCompletionStore::connect("redis://127.0.0.1:6379", "myapp").await?;
/// let sealer = StateSealer::new(KeyRing::generate(), "myapp")
///     .with_replay_guard(Arc::new(store.replay_guard()));
/// let server = ElicitServer::new(sealer).with_completion_store(Arc::new(store));
/// # let _ = server; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisCompletionStore {
    link: Arc<Link>,
    namespace: String,
    prefix: String,
}

impl std::fmt::Debug for RedisCompletionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (connect, response) = self.link.timeouts();
        f.debug_struct("RedisCompletionStore")
            .field("prefix", &self.prefix)
            .field("connect_timeout", &connect)
            .field("response_timeout", &response)
            .finish_non_exhaustive()
    }
}

impl RedisCompletionStore {
    /// A store on `url` that connects on first use; keys are
    /// `"{namespace}:elicit:completion:{id}"`.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL.
    ///
    /// ```
    /// use elicit_runtime::url::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT, RedisCompletionStore};
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(store.timeouts(), (REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT));
    /// assert!(RedisCompletionStore::new("http://nope", "myapp").is_err());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new(url: &str, namespace: &str) -> Result<Self, StoreError> {
        let link = Link::new(url, namespace).map_err(StoreError::new)?;
        Ok(RedisCompletionStore {
            link: Arc::new(link),
            namespace: namespace.to_owned(),
            prefix: format!("{namespace}:elicit:completion:"),
        })
    }

    /// [`new`](Self::new), connected now (within the connect timeout), so that a wrong URL or
    /// a Redis that is down shows at startup.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL or Redis cannot be reached in time.
    pub async fn connect(url: &str, namespace: &str) -> Result<Self, StoreError> {
        let store = Self::new(url, namespace)?;
        store.link.epoch().await.map_err(StoreError::new)?;
        Ok(store)
    }

    /// The same store with other bounds: `connect` for opening a connection, `response` for
    /// each command. It opens its own connection on first use (guards made earlier by
    /// [`replay_guard`](Self::replay_guard) keep theirs).
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_runtime::url::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?
    ///     .with_timeouts(Duration::from_millis(200), Duration::from_millis(100));
    /// assert_eq!(store.timeouts(), (Duration::from_millis(200), Duration::from_millis(100)));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn with_timeouts(self, connect: Duration, response: Duration) -> Self {
        RedisCompletionStore {
            link: Arc::new(self.link.with_timeouts(connect, response)),
            ..self
        }
    }

    /// The connect and response timeouts.
    ///
    /// ```
    /// use elicit_runtime::url::{REDIS_CONNECT_TIMEOUT, RedisCompletionStore};
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(store.timeouts().0, REDIS_CONNECT_TIMEOUT);
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn timeouts(&self) -> (Duration, Duration) {
        self.link.timeouts()
    }

    /// A replay guard in the same namespace, on this store's connection and timeouts.
    ///
    /// ```
    /// use elicit_runtime::url::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(store.replay_guard().timeouts(), store.timeouts());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn replay_guard(&self) -> RedisReplayGuard {
        RedisReplayGuard {
            link: Arc::clone(&self.link),
            prefix: replay_prefix(&self.namespace),
        }
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }
}

fn decode(raw: Option<String>) -> Result<Option<Completion>, StoreError> {
    raw.map(|json| {
        serde_json::from_str(&json).map_err(|e| StoreError::new(format!("corrupt entry: {e}")))
    })
    .transpose()
}

impl CompletionStore for RedisCompletionStore {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let json =
                serde_json::to_string(&completion).map_err(|e| StoreError::new(e.to_string()))?;
            let mut set = redis::cmd("SET");
            set.arg(self.key(id))
                .arg(json)
                .arg("NX")
                .arg("PXAT")
                .arg(keep_until(expires_at));
            let set: Option<String> = self.link.query(&set).await.map_err(StoreError::new)?;
            Ok(set.is_some())
        })
    }

    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(async move {
            let mut get = redis::cmd("GET");
            get.arg(self.key(id));
            let raw: Option<String> = self.link.query(&get).await.map_err(StoreError::new)?;
            decode(raw)
        })
    }

    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(async move {
            let tombstone = serde_json::to_string(&Completion::Redeemed)
                .map_err(|e| StoreError::new(e.to_string()))?;
            let mut set = redis::cmd("SET");
            set.arg(self.key(id))
                .arg(tombstone)
                .arg("XX")
                .arg("GET")
                .arg("PXAT")
                .arg(keep_until(expires_at));
            let before: Option<String> = self.link.query(&set).await.map_err(StoreError::new)?;
            decode(before)
        })
    }
}

/// A [`ReplayGuard`] in Redis: a state id is redeemed with `SET … NX PXAT`, so single use
/// holds across replicas.
///
/// Async, on a multiplexed connection opened on first use, and bounded: a redemption fails
/// closed with [`StateError::ReplayGuardUnavailable`] once [`REDIS_CONNECT_TIMEOUT`]
/// (connecting) or [`REDIS_RESPONSE_TIMEOUT`] (the answer) runs out, or whatever
/// [`with_timeouts`](Self::with_timeouts) set; after a timeout or a broken connection the next
/// redemption connects again. Only requests whose handler asks with a state wait for it (see
/// [`ReplayGuard`]).
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::RedisReplayGuard;
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
    /// A guard on `url`; keys are `"{namespace}:elicit:replay:{id}"`. Connects on first use.
    /// [`RedisCompletionStore::replay_guard`] makes one on a store's connection instead.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL.
    ///
    /// ```
    /// use elicit_runtime::url::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.timeouts(), (REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new(url: &str, namespace: &str) -> Result<Self, StoreError> {
        let link = Link::new(url, namespace).map_err(StoreError::new)?;
        Ok(RedisReplayGuard {
            link: Arc::new(link),
            prefix: replay_prefix(namespace),
        })
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
    /// use elicit_runtime::url::RedisReplayGuard;
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
    /// use elicit_runtime::url::{REDIS_RESPONSE_TIMEOUT, RedisReplayGuard};
    ///
    /// let guard = RedisReplayGuard::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(guard.timeouts().1, REDIS_RESPONSE_TIMEOUT);
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn timeouts(&self) -> (Duration, Duration) {
        self.link.timeouts()
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
                let mut redeem = redis::cmd("EVAL");
                redeem
                    .arg(epoch::REDEEM)
                    .arg(2)
                    .arg(self.link.epoch_key())
                    .arg(&key)
                    .arg(&epoch.raw)
                    .arg(keep_until(state.expires_at));
                match self.link.query::<i64>(&redeem).await {
                    Ok(1) => return Ok(()),
                    Ok(0) => return Err(StateError::Replayed),
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
