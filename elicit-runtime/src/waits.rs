//! The pool of requests left open while a person acts: 2025-11-25 requests waiting on a
//! URL-mode page or on a pushed question's answer, and 2026-07-28 retries held for a page.
//! Bounded in all, and per user, so one user (or one silent client) cannot hold every wait;
//! and fair when full: a user holding fewer waits than the busiest one takes that user's
//! oldest wait (which ends early) instead of being refused, so many accounts that never
//! answer cannot keep everyone else out for a whole state lifetime.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;

use tokio::sync::Notify;

/// The most waits a pool holds, whatever it is asked for (as tokio's semaphore counts).
pub(crate) const MAX_WAITS: usize = usize::MAX >> 3;

#[derive(Debug, Clone)]
pub(crate) struct UrlWaits {
    size: usize,
    per_user: usize,
    held: Arc<Mutex<Held>>,
}

/// The waits held, oldest first for each user (principals hashed by the caller; never logged).
#[derive(Debug, Default)]
struct Held {
    total: usize,
    next: u64,
    by_user: HashMap<Vec<u8>, VecDeque<(u64, Arc<Taken>)>>,
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
    user: Vec<u8>,
    seq: u64,
    taken: Arc<Taken>,
}

impl UrlWaits {
    pub fn new(all: usize, per_user: usize) -> Self {
        UrlWaits {
            size: all.min(MAX_WAITS),
            per_user,
            held: Arc::default(),
        }
    }

    /// A wait for `user`, if the user's share has room and the pool does, or can make it by
    /// taking the oldest wait of a user who holds more than `user` would.
    pub fn try_acquire(&self, user: &[u8]) -> Option<UrlWait> {
        let mut held = lock(&self.held);
        let mine = held.by_user.get(user).map_or(0, VecDeque::len);
        if mine >= self.per_user {
            return None;
        }
        if held.total >= self.size {
            // Full: the slot of the busiest user's oldest wait, if fairness allows.
            let (busiest, most) = held
                .by_user
                .iter()
                .map(|(u, waits)| (u, waits.len()))
                .max_by_key(|(_, n)| *n)?;
            if most <= mine + 1 {
                return None;
            }
            let busiest = busiest.clone();
            let waits = held.by_user.get_mut(&busiest)?;
            let (_, oldest) = waits.pop_front()?;
            if waits.is_empty() {
                held.by_user.remove(&busiest);
            }
            oldest.taken.store(true, Ordering::Release);
            oldest.notify.notify_one();
            held.total -= 1;
        }
        let seq = held.next;
        held.next += 1;
        held.total += 1;
        let taken = Arc::new(Taken::default());
        held.by_user
            .entry(user.to_vec())
            .or_default()
            .push_back((seq, Arc::clone(&taken)));
        Some(UrlWait {
            held: Arc::clone(&self.held),
            user: user.to_vec(),
            seq,
            taken,
        })
    }
}

impl UrlWait {
    /// Runs `work` unless this wait is given to another user first (then `work` is dropped
    /// and the answer is `taken()`). Without a wait, just `work`.
    pub(crate) async fn unless_taken<T>(
        wait: Option<&UrlWait>,
        work: impl Future<Output = T>,
        taken: impl FnOnce() -> T,
    ) -> T {
        let Some(wait) = wait else {
            return work.await;
        };
        let gone = async {
            // `notify_one` keeps its permit for a waiter that comes later.
            while !wait.taken.taken.load(Ordering::Acquire) {
                wait.taken.notify.notified().await;
            }
        };
        let mut work = std::pin::pin!(work);
        let mut gone = std::pin::pin!(gone);
        let done = std::future::poll_fn(|cx| match work.as_mut().poll(cx) {
            Poll::Ready(done) => Poll::Ready(Some(done)),
            Poll::Pending => gone.as_mut().poll(cx).map(|()| None),
        })
        .await;
        done.unwrap_or_else(taken)
    }
}

impl Drop for UrlWait {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        // Set under the same lock: a wait another user took gave its slot away with it.
        if self.taken.taken.load(Ordering::Acquire) {
            return;
        }
        if let Some(waits) = held.by_user.get_mut(&self.user) {
            waits.retain(|(seq, _)| *seq != self.seq);
            if waits.is_empty() {
                held.by_user.remove(&self.user);
            }
        }
        held.total -= 1;
    }
}

fn lock(held: &Mutex<Held>) -> MutexGuard<'_, Held> {
    held.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests;
