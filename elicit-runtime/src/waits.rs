//! The pool of requests left open while a person acts: 2025-11-25 requests waiting on a
//! URL-mode page or on a pushed question's answer, and 2026-07-28 retries held for a page.
//! Bounded in all, and per user, so one user (or one silent client) cannot hold every wait;
//! and fair when full, so neither one account with many waits nor many accounts with one wait
//! each can keep a newcomer out:
//!
//! - a user holding at least two waits fewer than the busiest user takes that user's oldest
//!   wait;
//! - a user holding no wait takes the oldest wait of the pool once it has been held
//!   [`YIELD_AFTER`].
//!
//! A wait taken ends early: a held 2026-07-28 retry asks its question again (the page's
//! outcome is read by the next retry), a 2025-11-25 wait ends `busy`.
//!
//! Cost: O(log n) time per acquire and per release, n the waits held (three ordered maps and a
//! hash map, no scan). Memory grows with the waits held, not with the pool's size: by the
//! sizes of what each wait keeps (its entries in those maps, its user's 32-byte hash and
//! sequence set once per user, the flag that tells it it was taken), under 500 bytes per wait
//! with every wait held by a different user, the worst case: the default 256 waits hold under
//! 128 kB.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// The most waits a pool holds, whatever it is asked for (as tokio's semaphore counts).
pub(crate) const MAX_WAITS: usize = usize::MAX >> 3;

/// How long a wait is held before a user holding none may take it from a full pool: long
/// enough that a held retry is not ended by every newcomer (each ending costs the client a
/// round), short against the 30 s a retry is held, so accounts renewing one wait each cannot
/// keep a full pool to themselves.
pub(crate) const YIELD_AFTER: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub(crate) struct UrlWaits {
    size: usize,
    per_user: usize,
    held: Arc<Mutex<Held>>,
}

/// A user's principal hash (the caller hashes; never logged).
type User = Arc<[u8]>;

/// The waits held, indexed three ways so that every operation is O(log n).
#[derive(Debug, Default)]
struct Held {
    next: u64,
    /// Every wait by its sequence number: oldest first.
    all: BTreeMap<u64, Slot>,
    /// Each user's waits, oldest first.
    by_user: HashMap<User, BTreeSet<u64>>,
    /// Users by how many waits they hold: busiest last.
    by_count: BTreeSet<(usize, User)>,
}

#[derive(Debug)]
struct Slot {
    user: User,
    since: Instant,
    taken: Arc<Taken>,
}

/// Set once a wait was given to another user.
#[derive(Debug, Default)]
struct Taken {
    taken: AtomicBool,
    notify: Notify,
}

/// One wait: released (in all and for its user) when dropped, unless another user took it.
pub(crate) struct UrlWait {
    held: Arc<Mutex<Held>>,
    seq: u64,
    taken: Arc<Taken>,
}

impl UrlWaits {
    pub(crate) fn new(all: usize, per_user: usize) -> Self {
        UrlWaits {
            size: all.min(MAX_WAITS),
            per_user,
            held: Arc::default(),
        }
    }

    /// How many waits are held now.
    pub(crate) fn held(&self) -> usize {
        lock(&self.held).all.len()
    }

    /// A wait for `user`, if the user's share has room and the pool does, or can make it by
    /// taking a wait as the module's rules say.
    pub(crate) fn try_acquire(&self, user: &[u8]) -> Option<UrlWait> {
        self.try_acquire_at(user, Instant::now())
    }

    /// [`try_acquire`](Self::try_acquire) at `now`.
    fn try_acquire_at(&self, user: &[u8], now: Instant) -> Option<UrlWait> {
        let mut held = lock(&self.held);
        let mine = held.by_user.get(user).map_or(0, BTreeSet::len);
        if mine >= self.per_user {
            return None;
        }
        if held.all.len() >= self.size {
            let seq = held.to_take(mine, now)?;
            let slot = held.remove(seq)?;
            slot.taken.taken.store(true, Ordering::Release);
            slot.taken.notify.notify_one();
        }
        let seq = held.next;
        held.next += 1;
        let user: User = held
            .by_user
            .get_key_value(user)
            .map_or_else(|| Arc::from(user), |(known, _)| Arc::clone(known));
        let taken = Arc::new(Taken::default());
        held.all.insert(
            seq,
            Slot {
                user: Arc::clone(&user),
                since: now,
                taken: Arc::clone(&taken),
            },
        );
        held.by_count.remove(&(mine, Arc::clone(&user)));
        held.by_count.insert((mine + 1, Arc::clone(&user)));
        held.by_user.entry(user).or_default().insert(seq);
        Some(UrlWait {
            held: Arc::clone(&self.held),
            seq,
            taken,
        })
    }
}

impl Held {
    /// In a full pool, the wait a user holding `mine` may take, if any: the busiest user's
    /// oldest if that user holds at least two more, else for a user holding none the pool's
    /// oldest once held [`YIELD_AFTER`].
    fn to_take(&self, mine: usize, now: Instant) -> Option<u64> {
        let (most, busiest) = self.by_count.last()?;
        if *most >= mine + 2 {
            return self.by_user.get(busiest)?.first().copied();
        }
        let (&oldest, slot) = self.all.first_key_value()?;
        (mine == 0 && now.saturating_duration_since(slot.since) >= YIELD_AFTER).then_some(oldest)
    }

    /// Takes wait `seq` out of every index.
    fn remove(&mut self, seq: u64) -> Option<Slot> {
        let slot = self.all.remove(&seq)?;
        let waits = self.by_user.get_mut(&slot.user)?;
        waits.remove(&seq);
        let left = waits.len();
        if left == 0 {
            self.by_user.remove(&slot.user);
        }
        self.by_count.remove(&(left + 1, Arc::clone(&slot.user)));
        if left > 0 {
            self.by_count.insert((left, Arc::clone(&slot.user)));
        }
        Some(slot)
    }
}

impl UrlWait {
    /// Runs `work` unless this wait is given to another user first (then `work` is dropped
    /// and the answer is `taken()`). Without a wait, just `work`.
    pub(crate) fn unless_taken<'a, W: Future + 'a>(
        wait: Option<&'a UrlWait>,
        work: W,
        taken: impl FnOnce() -> W::Output + 'a,
    ) -> impl Future<Output = W::Output> + 'a {
        let gone = async move {
            let Some(wait) = wait else {
                return std::future::pending().await;
            };
            // `notify_one` keeps its permit for a waiter that comes later.
            while !wait.taken.taken.load(Ordering::Acquire) {
                wait.taken.notify.notified().await;
            }
        };
        crate::future::unless(work, gone, |()| taken())
    }
}

impl Drop for UrlWait {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        // Set under the same lock: a wait another user took gave its slot away with it.
        if self.taken.taken.load(Ordering::Acquire) {
            return;
        }
        held.remove(self.seq);
    }
}

fn lock(held: &Mutex<Held>) -> MutexGuard<'_, Held> {
    held.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests;
