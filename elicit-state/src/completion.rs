//! Where completions of URL-mode flows are recorded, so the browser callback and the client's
//! retry may land on different server replicas.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::signals::CompletionSignals;
use crate::BoxFuture;

/// How an out-of-band flow ended, as recorded by the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Completion {
    /// The flow succeeded, with an optional server-side result.
    Completed {
        /// What the page wants the tool to see (e.g. which account was connected).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
    },
    /// The flow failed.
    Failed {
        /// Why.
        reason: String,
    },
    /// A completion that was already redeemed (single-use mode).
    Redeemed,
}

/// A store failure (e.g. Redis unreachable). A store of your own says what went wrong with
/// [`StoreError::new`]; the client is only ever told that the store did not answer.
///
/// ```
/// use elicit_runtime::url::StoreError;
///
/// let error = StoreError::new("connection refused");
/// assert_eq!(error.message(), "connection refused");
/// assert_eq!(error.to_string(), "completion store: connection refused");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// A failure described by `message` (for operators: it is logged, never sent to clients).
    pub fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "completion store: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

/// Records and reads completions of URL-mode flows, keyed by handle id. Entries expire with
/// their handle.
///
/// The methods return a boxed future ([`BoxFuture`](crate::BoxFuture)), so a store on
/// a network database waits without blocking the runtime; the `elicit-redis` crate's
/// `RedisCompletionStore` is one, built on this trait from outside the crate.
pub trait CompletionStore: Send + Sync {
    /// Records how flow `id` ended. The first record wins; later ones are ignored.
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// How flow `id` ended, if recorded and not expired.
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>>;
    /// Atomically reads flow `id` and marks it [`Completion::Redeemed`] (single use). Returns
    /// what was there before.
    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>>;

    /// A wake-up for a request waiting on flow `id`: resolves once a completion of `id` may
    /// have been recorded after this call (on any replica, if the store can tell), and may
    /// never resolve otherwise. The waiting request registers it *before* it looks at the
    /// store, so a record in between is not missed, and looks again when it resolves.
    ///
    /// While it holds a wake-up the request does not look at the store at all (10,000 held
    /// requests cost the store nothing while they wait), so a store that learns it may have
    /// missed records (its subscription broke) must resolve every wake-up it handed out
    /// ([`CompletionSignals::notify_all`](crate::CompletionSignals::notify_all)) and return
    /// `None` until it can tell again; a wake-up it never resolves leaves its request held
    /// until the hold ends, when the request looks once more.
    ///
    /// `None`, the default, says the store cannot tell: a waiting request then looks every
    /// 50 ms at first, backing off to every 200 ms, so it still sees a record within a quarter
    /// of a second. [`MemoryCompletionStore`] wakes its waiters at once through
    /// [`CompletionSignals`](crate::CompletionSignals); a store of your own can too.
    fn watch(&self, id: &str) -> Option<BoxFuture<'static, ()>> {
        let _ = id;
        None
    }
}

/// An in-process [`CompletionStore`]: for one server replica, tests and demos.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use elicit_runtime::url::{Completion, CompletionStore, MemoryCompletionStore};
/// use pollster::block_on;
///
/// let store = MemoryCompletionStore::new();
/// let expires = SystemTime::now() + Duration::from_secs(60);
/// block_on(store.record("h1", Completion::Completed { result: None }, expires)).unwrap();
/// assert_eq!(block_on(store.lookup("h1")).unwrap(), Some(Completion::Completed { result: None }));
/// ```
#[derive(Debug, Default)]
pub struct MemoryCompletionStore {
    entries: Mutex<Entries>,
    /// Wakes requests waiting on a flow when its outcome is recorded.
    signals: CompletionSignals,
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<String, (Completion, SystemTime)>,
    /// Expired entries are dropped once the map reaches this size, which then doubles the live
    /// count: each call costs amortised O(1) instead of a sweep over every entry.
    sweep_at: usize,
}

/// The smallest map that is swept.
const MIN_SWEEP_AT: usize = 64;

impl MemoryCompletionStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many entries are held, expired ones not yet swept included.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .map
            .len()
    }

    /// Whether the store holds no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn with<R>(
        &self,
        f: impl FnOnce(&mut HashMap<String, (Completion, SystemTime)>, SystemTime) -> R,
    ) -> R {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let now = SystemTime::now();
        if entries.map.len() >= entries.sweep_at.max(MIN_SWEEP_AT) {
            entries.map.retain(|_, (_, expires)| *expires > now);
            entries.sweep_at = entries.map.len().saturating_mul(2);
        }
        f(&mut entries.map, now)
    }
}

/// The entry for `id` unless it has expired.
fn live<'m>(
    map: &'m HashMap<String, (Completion, SystemTime)>,
    id: &str,
    now: SystemTime,
) -> Option<&'m Completion> {
    map.get(id)
        .filter(|(_, expires)| *expires > now)
        .map(|(c, _)| c)
}

impl CompletionStore for MemoryCompletionStore {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let recorded = self.with(|entries, now| {
            if live(entries, id, now).is_some() {
                return false;
            }
            entries.insert(id.to_owned(), (completion, expires_at));
            true
        });
        if recorded {
            self.signals.notify(id);
        }
        Box::pin(async move { Ok(recorded) })
    }

    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        let found = self.with(|entries, now| live(entries, id, now).cloned());
        Box::pin(async move { Ok(found) })
    }

    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        let before = self.with(|entries, now| {
            let before = live(entries, id, now).cloned();
            if before.is_some() {
                entries.insert(id.to_owned(), (Completion::Redeemed, expires_at));
            }
            before
        });
        Box::pin(async move { Ok(before) })
    }

    fn watch(&self, id: &str) -> Option<BoxFuture<'static, ()>> {
        Some(self.signals.watch(id))
    }
}

/// How often a request waiting on a page looks at a store that cannot wake it
/// ([`CompletionStore::watch`] is `None`): every `FIRST_POLL` at first, backing off to every
/// `MAX_POLL`, so a record is seen within a quarter of a second.
pub const FIRST_POLL: Duration = Duration::from_millis(50);
/// See [`FIRST_POLL`].
pub const MAX_POLL: Duration = Duration::from_millis(200);

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;

    /// Expired entries read as absent at once, and are swept in batches, so a store under
    /// steady traffic of short flows stays small without sweeping on every call.
    #[test]
    fn expired_entries_are_absent_and_swept_in_batches() {
        let store = MemoryCompletionStore::new();
        let past = SystemTime::now() - Duration::from_secs(1);
        let done = Completion::Completed { result: None };
        for n in 0..10_000 {
            let id = format!("flow-{n}");
            assert!(pollster::block_on(store.record(&id, done.clone(), past)).unwrap());
            assert_eq!(pollster::block_on(store.lookup(&id)).unwrap(), None);
            assert!(store.len() <= MIN_SWEEP_AT, "{} entries held", store.len());
        }
        // A live entry survives the sweeps.
        let later = SystemTime::now() + Duration::from_secs(60);
        assert!(pollster::block_on(store.record("live", done.clone(), later)).unwrap());
        for n in 0..1_000 {
            let _ = pollster::block_on(store.record(&format!("more-{n}"), done.clone(), past));
        }
        assert_eq!(
            pollster::block_on(store.lookup("live")).unwrap(),
            Some(done)
        );
    }
}
