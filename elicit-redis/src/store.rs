//! [`RedisCompletionStore`]: where URL-mode pages record completions, shared by replicas.

use std::sync::{Arc, LazyLock};
use std::time::{Duration, SystemTime};

use elicit_state::BoxFuture;
use elicit_state::{Completion, CompletionStore, StoreError};

use crate::connection::Link;
use crate::guard::RedisReplayGuard;
use crate::notify::Listener;
use crate::script::Script;
use crate::target::Target;
use crate::{keep_until, keyspace};

/// Records a completion (`KEYS[1]`, `SET NX PXAT ARGV[2]` of `ARGV[1]`) and, only when it is the
/// first, publishes the flow id (`ARGV[4]`) on the namespace's channel (`ARGV[3]`): `1`
/// recorded, `0` recorded before. One round trip, and no message without its record: whoever
/// is woken finds it. The channel is an argument, not a key: classic `PUBLISH` reaches every
/// node of a cluster whatever slot the script runs in.
static RECORD: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2]) then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
  return 1
end
return 0
",
    )
});

/// A [`CompletionStore`] in Redis. Entries expire with their handle (`PXAT`); the first record
/// wins (`SET … NX`, in one script with the `PUBLISH` that wakes the retries held on it on
/// every replica) and redemption is atomic (`SET … XX GET`).
///
/// Every command is async, on a multiplexed connection opened on first use, and bounded: by
/// default [`REDIS_CONNECT_TIMEOUT`](crate::REDIS_CONNECT_TIMEOUT) to connect and [`REDIS_RESPONSE_TIMEOUT`](crate::REDIS_RESPONSE_TIMEOUT) per command
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
/// use elicit_runtime::url::UrlSettings;
/// use elicit_redis::RedisCompletionStore;
///
/// let store = RedisCompletionStore::connect("redis://127.0.0.1:6379", "myapp").await?;
/// let sealer = StateSealer::new(KeyRing::generate(), "myapp")
///     .with_replay_guard(Arc::new(store.replay_guard()));
/// let server = ElicitServer::new(sealer).with_url(UrlSettings::new(Arc::new(store)));
/// # let _ = server; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisCompletionStore {
    link: Arc<Link>,
    /// `{namespace}`: what every key of the namespace begins with.
    keyspace: String,
    prefix: String,
    listener: Arc<Listener>,
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
    /// A store on the Redis at `url` that connects on first use; keys are
    /// `"{<namespace>}:elicit:completion:{id}"` (the namespace in braces: see
    /// [the crate docs](crate#keys-and-redis-cluster)).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `url` is not a Redis URL, or `namespace` is empty or holds a brace.
    ///
    /// ```
    /// use elicit_redis::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT, RedisCompletionStore};
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(store.timeouts(), (REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT));
    /// assert!(RedisCompletionStore::new("http://nope", "myapp").is_err());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new(url: &str, namespace: &str) -> Result<Self, StoreError> {
        Self::on_target(Target::single(url), namespace)
    }

    /// A store on the Redis Cluster reached through any of `urls` (each `redis://host:port`
    /// of a node: the client learns the rest), connecting on first use: every key of
    /// `namespace` lives in one slot, and the completion subscriber listens on one node at a
    /// time, trying the next after a failure (see
    /// [the crate docs](crate#keys-and-redis-cluster)).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if `urls` is empty or one is not a Redis URL, or `namespace` is empty
    /// or holds a brace.
    ///
    /// ```
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let urls = ["redis://10.0.0.1:6379", "redis://10.0.0.2:6379"];
    /// let store = RedisCompletionStore::new_cluster(&urls, "myapp")?;
    /// assert!(store.replay_guard().checks_setup());
    /// assert!(RedisCompletionStore::new_cluster(&urls, "my{app}").is_err());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    pub fn new_cluster(urls: &[&str], namespace: &str) -> Result<Self, StoreError> {
        Self::on_target(Target::cluster(urls), namespace)
    }

    /// [`new_cluster`](Self::new_cluster), connected and subscribed now (see
    /// [`connect`](Self::connect)).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] as [`new_cluster`](Self::new_cluster) says, or if the cluster cannot
    /// be reached in time or does not keep what [the crate docs](crate#what-redis-must-promise)
    /// require on every primary.
    pub async fn connect_cluster(urls: &[&str], namespace: &str) -> Result<Self, StoreError> {
        let store = Self::new_cluster(urls, namespace)?;
        store.link.epoch().await.map_err(StoreError::new)?;
        store.listen().await;
        Ok(store)
    }

    fn on_target(target: Result<Target, String>, namespace: &str) -> Result<Self, StoreError> {
        let keyspace = keyspace(namespace).map_err(StoreError::new)?;
        let link = Link::new(target.map_err(StoreError::new)?, &keyspace);
        let listener = listener_for(&link, &keyspace);
        Ok(RedisCompletionStore {
            link: Arc::new(link),
            prefix: format!("{keyspace}:elicit:completion:"),
            keyspace,
            listener: Arc::new(listener),
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
        store.listen().await;
        Ok(store)
    }

    /// The same store with other bounds: `connect` for opening a connection, `response` for
    /// each command. It opens its own connection on first use (guards made earlier by
    /// [`replay_guard`](Self::replay_guard) keep theirs).
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?
    ///     .with_timeouts(Duration::from_millis(200), Duration::from_millis(100));
    /// assert_eq!(store.timeouts(), (Duration::from_millis(200), Duration::from_millis(100)));
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn with_timeouts(self, connect: Duration, response: Duration) -> Self {
        let link = self.link.with_timeouts(connect, response);
        let listener = listener_for(&link, &self.keyspace);
        RedisCompletionStore {
            link: Arc::new(link),
            listener: Arc::new(listener),
            ..self
        }
    }

    /// Starts the completion subscriber and waits (within the connect and response timeouts)
    /// until it is subscribed, so the next held retry is woken by a record on any replica
    /// instead of polling. [`connect`](Self::connect) does this; a store made with
    /// [`new`](Self::new) subscribes on its first wait. Returns whether it is subscribed.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), elicit_runtime::url::StoreError> {
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert!(store.listen().await, "a Redis that accepts SUBSCRIBE");
    /// # Ok(()) }
    /// ```
    pub async fn listen(&self) -> bool {
        self.listener.start();
        let (connect, response) = self.link.timeouts();
        let until = tokio::time::Instant::now() + connect + response;
        while !self.listener.is_live() && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.listener.is_live()
    }

    /// The same store (and the guards [`replay_guard`](Self::replay_guard) makes from it)
    /// without the check of what Redis promises: for a provider that hides `CONFIG`, when you
    /// keep the settings in [the crate docs](crate#what-redis-must-promise) some other way.
    ///
    /// ```
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?.trusting_setup();
    /// assert!(!store.replay_guard().checks_setup());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn trusting_setup(self) -> Self {
        RedisCompletionStore {
            link: Arc::new(self.link.trusting_setup()),
            ..self
        }
    }

    /// The same store (and the guards [`replay_guard`](Self::replay_guard) makes from it)
    /// reading what Redis promises again `every` so long instead of every
    /// [`REDIS_SETUP_RECHECK`](crate::REDIS_SETUP_RECHECK); see
    /// [`RedisReplayGuard::with_setup_recheck`]. It opens its own connection on first use.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?
    ///     .with_setup_recheck(Duration::ZERO);
    /// assert_eq!(store.replay_guard().setup_recheck(), Duration::ZERO);
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn with_setup_recheck(self, every: Duration) -> Self {
        RedisCompletionStore {
            link: Arc::new(self.link.with_setup_recheck(every)),
            ..self
        }
    }

    /// The connect and response timeouts.
    ///
    /// ```
    /// use elicit_redis::{REDIS_CONNECT_TIMEOUT, RedisCompletionStore};
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
    /// use elicit_redis::RedisCompletionStore;
    ///
    /// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
    /// assert_eq!(store.replay_guard().timeouts(), store.timeouts());
    /// # Ok::<(), elicit_runtime::url::StoreError>(())
    /// ```
    #[must_use]
    pub fn replay_guard(&self) -> RedisReplayGuard {
        RedisReplayGuard::on(Arc::clone(&self.link), &self.keyspace)
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }
}

/// The subscriber of a store on `link`: completions of a namespace are published on
/// `"{<namespace>}:elicit:completed"`, the flow id as the message.
fn listener_for(link: &Link, keyspace: &str) -> Listener {
    Listener::new(
        link.target().subscribers(),
        format!("{keyspace}:elicit:completed"),
        link.timeouts(),
    )
}

/// [`Completion::Redeemed`] as stored (its JSON: a test checks it against serde's).
const REDEEMED: &str = r#"{"status":"redeemed"}"#;

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
            let key = self.key(id);
            let until = keep_until(expires_at).to_string();
            let args = [json.as_str(), &until, self.listener.channel(), id];
            let recorded: i64 = self
                .link
                .run(&RECORD, &[&key], &args)
                .await
                .map_err(StoreError::new)?;
            if recorded == 0 {
                return Ok(false);
            }
            // The script published the id: the requests held on this flow on every replica
            // wake (one whose subscription missed it finds the record when its hold ends; the
            // client's next retry reads it at once). Those held here wake now.
            self.listener.ring(id);
            Ok(true)
        })
    }

    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(async move {
            let get = || {
                let mut get = redis::cmd("GET");
                get.arg(self.key(id));
                get
            };
            let raw: Option<String> = self.link.query(get).await.map_err(StoreError::new)?;
            decode(raw)
        })
    }

    /// A bell for flow `id` while this store's subscription to the namespace's completions
    /// is live (woken by a record on any replica sharing the Redis); `None` otherwise, and
    /// the waiter polls.
    fn watch(&self, id: &str) -> Option<BoxFuture<'static, ()>> {
        self.listener.watch(id)
    }

    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(async move {
            let set = || {
                let mut set = redis::cmd("SET");
                set.arg(self.key(id))
                    .arg(REDEEMED)
                    .arg("XX")
                    .arg("GET")
                    .arg("PXAT")
                    .arg(keep_until(expires_at));
                set
            };
            let before: Option<String> = self.link.query(set).await.map_err(StoreError::new)?;
            decode(before)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Completion, REDEEMED, decode};

    #[test]
    fn the_stored_tombstone_is_serdes_json_of_redeemed() {
        assert_eq!(
            serde_json::to_string(&Completion::Redeemed).unwrap(),
            REDEEMED
        );
        assert_eq!(
            decode(Some(REDEEMED.to_owned())).unwrap(),
            Some(Completion::Redeemed)
        );
    }
}
