//! Redis-backed completion store and replay guard (feature `redis`): the browser callback,
//! the client's retry and a replayed `requestState` may each reach a different replica.

use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::AsyncCommands as _;

use crate::future::BoxFuture;
use crate::state::{Completion, CompletionStore, StoreError};
use crate::state::{MAX_CLOCK_SKEW, ReplayGuard, StateError};

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

fn store_error(e: redis::RedisError) -> StoreError {
    StoreError(e.to_string())
}

/// A [`CompletionStore`] in Redis. Entries expire with their handle (`PXAT`); the first record
/// wins (`SET … NX`) and redemption is atomic (`SET … XX GET`).
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::RedisCompletionStore;
///
/// let store = RedisCompletionStore::connect("redis://127.0.0.1:6379", "myapp").await?;
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "myapp"))
///     .with_completion_store(Arc::new(store));
/// # let _ = server; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisCompletionStore {
    connection: redis::aio::MultiplexedConnection,
    prefix: String,
}

impl std::fmt::Debug for RedisCompletionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisCompletionStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisCompletionStore {
    /// Connects to `url`; keys are `"{namespace}:elicit:completion:{id}"`.
    pub async fn connect(url: &str, namespace: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url).map_err(store_error)?;
        let connection = client
            .get_multiplexed_async_connection()
            .await
            .map_err(store_error)?;
        Ok(RedisCompletionStore {
            connection,
            prefix: format!("{namespace}:elicit:completion:"),
        })
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }
}

fn decode(raw: Option<String>) -> Result<Option<Completion>, StoreError> {
    raw.map(|json| {
        serde_json::from_str(&json).map_err(|e| StoreError(format!("corrupt entry: {e}")))
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
            let json = serde_json::to_string(&completion).map_err(|e| StoreError(e.to_string()))?;
            let mut connection = self.connection.clone();
            let set: Option<String> = redis::cmd("SET")
                .arg(self.key(id))
                .arg(json)
                .arg("NX")
                .arg("PXAT")
                .arg(keep_until(expires_at))
                .query_async(&mut connection)
                .await
                .map_err(store_error)?;
            Ok(set.is_some())
        })
    }

    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let raw: Option<String> = connection.get(self.key(id)).await.map_err(store_error)?;
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
                .map_err(|e| StoreError(e.to_string()))?;
            let mut connection = self.connection.clone();
            let before: Option<String> = redis::cmd("SET")
                .arg(self.key(id))
                .arg(tombstone)
                .arg("XX")
                .arg("GET")
                .arg("PXAT")
                .arg(keep_until(expires_at))
                .query_async(&mut connection)
                .await
                .map_err(store_error)?;
            decode(before)
        })
    }
}

/// A [`ReplayGuard`] in Redis: a state id is redeemed with `SET … NX PXAT`, so single use
/// holds across replicas. Uses a blocking connection, as `ReplayGuard` is synchronous.
pub struct RedisReplayGuard {
    client: redis::Client,
    connection: Mutex<Option<redis::Connection>>,
    prefix: String,
}

impl std::fmt::Debug for RedisReplayGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisReplayGuard")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisReplayGuard {
    /// A guard on `url`; keys are `"{namespace}:elicit:replay:{id}"`. Connects lazily.
    pub fn new(url: &str, namespace: &str) -> Result<Self, StoreError> {
        Ok(RedisReplayGuard {
            client: redis::Client::open(url).map_err(store_error)?,
            connection: Mutex::new(None),
            prefix: format!("{namespace}:elicit:replay:"),
        })
    }
}

impl ReplayGuard for RedisReplayGuard {
    fn redeem(
        &self,
        id: [u8; 16],
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<(), StateError> {
        let unavailable = |e: redis::RedisError| StateError::ReplayGuardUnavailable(e.to_string());
        let mut slot = self.connection.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(self.client.get_connection().map_err(unavailable)?);
        }
        let Some(connection) = slot.as_mut() else {
            return Err(StateError::ReplayGuardUnavailable("no connection".into()));
        };
        let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
        let set: Result<Option<String>, _> = redis::cmd("SET")
            .arg(format!("{}{hex}", self.prefix))
            .arg(1)
            .arg("NX")
            .arg("PXAT")
            .arg(keep_until(expires_at))
            .query(connection);
        match set {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(StateError::Replayed),
            Err(e) => {
                // Drop a broken connection; the next call reconnects.
                *slot = None;
                Err(unavailable(e))
            }
        }
    }
}
