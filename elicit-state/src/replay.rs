//! Single use: remember redeemed state ids until their tokens expire (in process by default).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use super::StateError;
use crate::BoxFuture;

/// What a [`ReplayGuard`] is asked to redeem: one opened state, by its id and lifetime, at the
/// time the caller checked it.
///
/// A guard reads the fields; [`StateSealer::redeem`](super::StateSealer::redeem) builds it from
/// an [`Opened`](super::Opened) state. A guard backed by a store that may lose its data uses
/// `issued_at` to refuse states sealed before the loss (whether they were spent before cannot
/// be known).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use elicit_runtime::state::Redemption;
///
/// let now = SystemTime::now();
/// let state = Redemption::new([7; 16], now, now + Duration::from_secs(600), now);
/// assert_eq!(state.id, [7; 16]);
/// assert_eq!(state.expires_at, state.issued_at + Duration::from_secs(600));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Redemption {
    /// The state's random id (16 bytes, unique per sealed token).
    pub id: [u8; 16],
    /// When the state was sealed (whole seconds, by the sealing replica's clock).
    pub issued_at: SystemTime,
    /// When the state stops opening; the guard must remember `id` at least until then.
    pub expires_at: SystemTime,
    /// The time the caller checked the state against (so guard and sealer agree on one clock).
    pub now: SystemTime,
}

impl Redemption {
    /// The redemption of state `id`, sealed at `issued_at`, expiring at `expires_at`, checked
    /// at `now`.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use elicit_runtime::state::Redemption;
    ///
    /// let t = SystemTime::UNIX_EPOCH;
    /// assert_eq!(Redemption::new([0; 16], t, t, t).now, t);
    /// ```
    #[must_use]
    pub fn new(
        id: [u8; 16],
        issued_at: SystemTime,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Self {
        Redemption {
            id,
            issued_at,
            expires_at,
            now,
        }
    }
}

/// The opened state a request carried, kept until it is redeemed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenedState {
    /// The state's random id ([`Redemption::id`]).
    pub id: [u8; 16],
    /// When the state was sealed ([`Redemption::issued_at`]).
    pub issued_at: SystemTime,
    /// When the state stops opening ([`Redemption::expires_at`]).
    pub expires_at: SystemTime,
}

impl OpenedState {
    /// Its redemption as of `now`.
    pub fn redemption(&self, now: SystemTime) -> Redemption {
        Redemption::new(self.id, self.issued_at, self.expires_at, now)
    }
}

/// Server-side memory of redeemed state ids, for state that must be used at most once.
///
/// Sealing binds a token to a principal, a request and a short lifetime, but a client can still
/// send the same token twice within that lifetime. The MCP spec says servers needing one-time
/// redemption must enforce it server-side. Every [`StateSealer`](super::StateSealer) starts
/// with an in-process [`MemoryReplayGuard`]; give a shared one (Redis) to
/// [`StateSealer::with_replay_guard`](super::StateSealer::with_replay_guard) when replicas
/// serve the same clients. Each state the request context opens is redeemed once, when the handler first asks (the moment an answer
/// carried in it could be used), or before `respond` seals a round that asked nothing. A
/// handler that never asks never calls the guard. Code opening tokens itself calls
/// [`StateSealer::redeem`](super::StateSealer::redeem) after
/// [`open`](super::StateSealer::open).
///
/// `redeem` must be atomic (check and record in one step) and must keep the id at least until
/// `expires_at`, after which the token cannot open anyway and the id may be forgotten. A guard
/// whose store can lose what it remembered (a restart without persistence, a flush) must notice
/// and refuse every state sealed before the loss with [`StateError::ReplayMemoryLost`]: such a
/// state may have been spent already.
///
/// The method returns a boxed future ([`BoxFuture`](crate::BoxFuture)) so that a guard
/// backed by a network store waits without blocking the runtime (the `elicit-redis` crate's
/// `RedisReplayGuard` is one, built on this trait from outside the crate); such a guard must bound that wait (connect and response timeouts) and,
/// if the store cannot answer in time, fail closed with [`StateError::ReplayGuardUnavailable`].
/// An in-process guard returns a ready future.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use elicit_runtime::state::{MemoryReplayGuard, Redemption, ReplayGuard, StateError};
/// use pollster::block_on;
///
/// let guard = MemoryReplayGuard::new();
/// let now = SystemTime::now();
/// let state = |id| Redemption::new(id, now, now + Duration::from_secs(600), now);
/// assert_eq!(block_on(guard.redeem(state([1; 16]))), Ok(()));
/// assert_eq!(block_on(guard.redeem(state([1; 16]))), Err(StateError::Replayed));
/// assert_eq!(block_on(guard.redeem(state([2; 16]))), Ok(()));
/// ```
pub trait ReplayGuard: Send + Sync {
    /// Records `state.id` as redeemed, or returns [`StateError::Replayed`] if it was redeemed
    /// before.
    ///
    /// # Errors
    ///
    /// [`StateError::Replayed`] for an id seen before; [`StateError::ReplayMemoryLost`] for a
    /// state sealed before the guard's store lost what it remembered;
    /// [`StateError::ReplayGuardUnavailable`] if the guard cannot decide (in time).
    fn redeem(&self, state: Redemption) -> BoxFuture<'_, Result<(), StateError>>;
}

/// Below this many entries the map is never swept.
const MIN_SWEEP_AT: usize = 1024;

/// An in-process [`ReplayGuard`]: a `Mutex<HashMap>` from state id to expiry.
///
/// Expired entries are swept as it goes: when the map has grown to twice its size after the last
/// sweep, the next redemption drops every entry whose token has expired. The cost is amortised
/// O(1) per redemption and the memory stays proportional to the number of tokens redeemed within
/// one TTL.
///
/// Only protects one process: servers running several instances need a shared store.
/// [`StateSealer::new`](super::StateSealer::new) starts with one of these; give one yourself
/// to look at it (its size, say):
///
/// ```
/// use std::sync::Arc;
/// use elicit_runtime::state::{KeyRing, MemoryReplayGuard, StateSealer};
///
/// let guard = Arc::new(MemoryReplayGuard::new());
/// let sealer = StateSealer::new(KeyRing::generate(), "example-server")
///     .with_replay_guard(guard.clone());
/// assert!(guard.is_empty());
/// # let _ = sealer;
/// ```
pub struct MemoryReplayGuard {
    inner: Mutex<Inner>,
}

struct Inner {
    seen: HashMap<[u8; 16], SystemTime>,
    sweep_at: usize,
}

impl MemoryReplayGuard {
    /// An empty guard.
    ///
    /// ```
    /// use elicit_runtime::state::MemoryReplayGuard;
    ///
    /// assert!(MemoryReplayGuard::new().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self {
            inner: Mutex::new(Inner {
                seen: HashMap::new(),
                sweep_at: MIN_SWEEP_AT,
            }),
        }
    }

    /// How many ids are remembered (including expired ones not swept yet).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use elicit_runtime::state::{MemoryReplayGuard, Redemption, ReplayGuard};
    ///
    /// let guard = MemoryReplayGuard::new();
    /// let now = SystemTime::now();
    /// let state = Redemption::new([0; 16], now, now + Duration::from_secs(60), now);
    /// pollster::block_on(guard.redeem(state)).unwrap();
    /// assert_eq!(guard.len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().seen.len()
    }

    /// Whether no id is remembered.
    ///
    /// ```
    /// use elicit_runtime::state::MemoryReplayGuard;
    ///
    /// assert!(MemoryReplayGuard::default().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lock().seen.is_empty()
    }

    /// Forgets every id whose token has expired at `now` (redemptions also do this on their own
    /// from time to time).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use elicit_runtime::state::{MemoryReplayGuard, Redemption, ReplayGuard};
    ///
    /// let guard = MemoryReplayGuard::new();
    /// let now = SystemTime::now();
    /// let state = Redemption::new([0; 16], now, now + Duration::from_secs(60), now);
    /// pollster::block_on(guard.redeem(state)).unwrap();
    /// guard.prune(now + Duration::from_secs(61));
    /// assert!(guard.is_empty());
    /// ```
    pub fn prune(&self, now: SystemTime) {
        let mut inner = self.lock();
        inner.sweep(now);
    }

    /// The map, even if another thread panicked while holding the lock (the map is always in a
    /// consistent state between statements, so poisoning carries no risk here).
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Inner {
    fn sweep(&mut self, now: SystemTime) {
        self.seen.retain(|_, expires_at| *expires_at > now);
        self.sweep_at = MIN_SWEEP_AT.max(self.seen.len().saturating_mul(2));
    }
}

impl Default for MemoryReplayGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MemoryReplayGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryReplayGuard")
            .field("entries", &self.len())
            .finish()
    }
}

impl ReplayGuard for MemoryReplayGuard {
    fn redeem(&self, state: Redemption) -> BoxFuture<'_, Result<(), StateError>> {
        Box::pin(std::future::ready(self.redeem_now(
            state.id,
            state.expires_at,
            state.now,
        )))
    }
}

impl MemoryReplayGuard {
    /// [`ReplayGuard::redeem`], done at once.
    fn redeem_now(
        &self,
        id: [u8; 16],
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<(), StateError> {
        let mut inner = self.lock();
        if inner.seen.contains_key(&id) {
            return Err(StateError::Replayed);
        }
        if inner.seen.len() >= inner.sweep_at {
            inner.sweep(now);
        }
        inner.seen.insert(id, expires_at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    /// The guard's verdict, waited for.
    fn redeem(
        guard: &dyn ReplayGuard,
        id: [u8; 16],
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<(), StateError> {
        pollster::block_on(guard.redeem(Redemption::new(id, now, expires_at, now)))
    }

    fn id(n: u64) -> [u8; 16] {
        let mut id = [0u8; 16];
        id[..8].copy_from_slice(&n.to_be_bytes());
        id
    }

    #[test]
    fn second_redemption_is_a_replay() {
        let guard = MemoryReplayGuard::new();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let exp = now + Duration::from_secs(600);
        assert_eq!(redeem(&guard, id(1), exp, now), Ok(()));
        assert_eq!(redeem(&guard, id(1), exp, now), Err(StateError::Replayed));
        assert_eq!(
            redeem(&guard, id(1), exp, now + Duration::from_secs(599)),
            Err(StateError::Replayed)
        );
        assert_eq!(redeem(&guard, id(2), exp, now), Ok(()));
        assert_eq!(guard.len(), 2);
    }

    #[test]
    fn memory_stays_bounded_under_steady_traffic() {
        let guard = MemoryReplayGuard::new();
        let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let mut peak = 0;
        for i in 0..20_000u64 {
            let now = base + Duration::from_secs(i);
            // About ten tokens are alive at any moment.
            redeem(&guard, id(i), now + Duration::from_secs(10), now).unwrap();
            peak = peak.max(guard.len());
        }
        assert!(peak <= 2 * MIN_SWEEP_AT, "peak {peak}");
        guard.prune(base + Duration::from_secs(30_000));
        assert!(guard.is_empty());
    }

    #[test]
    fn live_entries_survive_sweeps() {
        let guard = MemoryReplayGuard::new();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let long = now + Duration::from_secs(3600);
        redeem(&guard, id(u64::MAX), long, now).unwrap();
        for i in 0..5_000u64 {
            redeem(&guard, id(i), now, now).unwrap(); // expired at once
        }
        assert_eq!(
            redeem(&guard, id(u64::MAX), long, now),
            Err(StateError::Replayed)
        );
    }

    #[test]
    fn concurrent_redemptions_admit_exactly_one() {
        let guard = Arc::new(MemoryReplayGuard::new());
        let now = SystemTime::now();
        let exp = now + Duration::from_secs(60);
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let guard = Arc::clone(&guard);
                std::thread::spawn(move || redeem(&*guard, id(42), exp, now).is_ok())
            })
            .collect();
        let admitted = handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .filter(|ok| *ok)
            .count();
        assert_eq!(admitted, 1);
    }

    #[test]
    fn guard_is_object_safe_and_shareable() {
        let guard: Arc<dyn ReplayGuard> = Arc::new(MemoryReplayGuard::default());
        let now = SystemTime::now();
        assert!(redeem(&*guard, id(7), now, now).is_ok());
    }
}
