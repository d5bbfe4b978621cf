//! The pool of 2025-11-25 requests waiting on a URL-mode page: bounded in all, and per user, so
//! one user (or one silent client) cannot hold every wait.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many waits one user may hold at once, unless
/// [`ElicitServer::with_max_url_waits_per_user`](crate::ElicitServer::with_max_url_waits_per_user)
/// says otherwise.
pub const DEFAULT_MAX_URL_WAITS_PER_USER: usize = 8;

#[derive(Debug, Clone)]
pub(crate) struct UrlWaits {
    all: Arc<Semaphore>,
    /// How many permits `all` was made with.
    size: usize,
    per_user: usize,
    /// Waits held, by principal (hashed by the caller; never logged).
    held: Arc<Mutex<HashMap<Vec<u8>, usize>>>,
}

/// One wait: released (in all and for its user) when dropped.
pub(crate) struct UrlWait {
    _all: OwnedSemaphorePermit,
    held: Arc<Mutex<HashMap<Vec<u8>, usize>>>,
    user: Vec<u8>,
}

impl UrlWaits {
    pub fn new(all: usize, per_user: usize) -> Self {
        // Tokio's semaphore holds at most `MAX_PERMITS`; more would panic.
        let size = all.min(Semaphore::MAX_PERMITS);
        UrlWaits {
            all: Arc::new(Semaphore::new(size)),
            size,
            per_user,
            held: Arc::default(),
        }
    }

    pub fn all(&self) -> usize {
        self.size
    }

    pub fn per_user(&self) -> usize {
        self.per_user
    }

    pub fn with_per_user(&self, per_user: usize) -> Self {
        UrlWaits {
            per_user,
            ..self.clone()
        }
    }

    /// A wait for `user`, if both the pool and the user's share have room.
    pub fn try_acquire(&self, user: &[u8]) -> Option<UrlWait> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let mine = held.get(user).copied().unwrap_or(0);
        if mine >= self.per_user {
            return None;
        }
        let permit = Arc::clone(&self.all).try_acquire_owned().ok()?;
        held.insert(user.to_vec(), mine + 1);
        Some(UrlWait {
            _all: permit,
            held: Arc::clone(&self.held),
            user: user.to_vec(),
        })
    }
}

impl Drop for UrlWait {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = held.get_mut(&self.user) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_gets_their_share_and_no_more_and_drops_release_both_counts() {
        let waits = UrlWaits::new(3, 2);
        let a1 = waits.try_acquire(b"alice").unwrap();
        let _a2 = waits.try_acquire(b"alice").unwrap();
        assert!(waits.try_acquire(b"alice").is_none(), "alice's share is 2");
        let _b1 = waits.try_acquire(b"bob").unwrap();
        assert!(
            waits.try_acquire(b"carol").is_none(),
            "the pool of 3 is full"
        );
        drop(a1);
        assert!(
            waits.try_acquire(b"carol").is_some(),
            "alice's wait went back to the pool"
        );
        assert_eq!(waits.held.lock().unwrap().get(&b"alice".to_vec()), Some(&1));
    }

    #[test]
    fn a_pool_larger_than_tokio_can_hold_is_clamped_not_a_panic() {
        let waits = UrlWaits::new(usize::MAX, usize::MAX);
        assert!(waits.try_acquire(b"alice").is_some());
    }
}
