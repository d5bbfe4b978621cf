//! The 2025-11-25 URL elicitations this client has seen, by `elicitationId`: a repeated id is
//! a replay, a completion is taken once, and waiters learn of it. Bounded: the oldest are
//! forgotten first.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use elicit_host::UrlRequest;
use tokio::sync::watch;

use crate::asker::Asker;

/// How many ids are remembered.
const REMEMBERED: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Being asked, or answered other than by opening.
    Answered,
    /// Opened; waiting for `notifications/elicitation/complete`.
    Opened,
    /// Completed.
    Completed,
}

struct Link {
    state: State,
    asker: Asker,
    request: UrlRequest,
}

pub(crate) struct Links {
    seen: Mutex<Seen>,
    completions: watch::Sender<u64>,
}

#[derive(Default)]
struct Seen {
    order: VecDeque<String>,
    by_id: HashMap<String, Link>,
}

impl Links {
    pub(crate) fn new() -> Self {
        Links {
            seen: Mutex::new(Seen::default()),
            completions: watch::Sender::new(0),
        }
    }

    /// Records `id` as being asked; `false` when it was seen before (a replay).
    pub(crate) fn first_sight(&self, id: &str, asker: &Asker, request: &UrlRequest) -> bool {
        let mut seen = self.lock();
        if seen.by_id.contains_key(id) {
            return false;
        }
        if seen.order.len() == REMEMBERED
            && let Some(oldest) = seen.order.pop_front()
        {
            seen.by_id.remove(&oldest);
        }
        seen.order.push_back(id.to_owned());
        let link = Link {
            state: State::Answered,
            asker: asker.clone(),
            request: request.clone(),
        };
        seen.by_id.insert(id.to_owned(), link);
        true
    }

    /// What became of `id`, if it was seen.
    pub(crate) fn state(&self, id: &str) -> Option<State> {
        self.lock().by_id.get(id).map(|link| link.state)
    }

    /// The person opened `id`'s page.
    pub(crate) fn opened(&self, id: &str) {
        if let Some(link) = self.lock().by_id.get_mut(id) {
            link.state = State::Opened;
        }
    }

    /// The server reported `id` complete: who asked and what, when `id` was open (unknown and
    /// already-completed ids are ignored, as the spec requires).
    pub(crate) fn complete(&self, id: &str) -> Option<(Asker, UrlRequest)> {
        let done = {
            let mut seen = self.lock();
            let link = seen.by_id.get_mut(id)?;
            if link.state != State::Opened {
                return None;
            }
            link.state = State::Completed;
            (link.asker.clone(), link.request.clone())
        };
        self.completions.send_modify(|count| *count += 1);
        Some(done)
    }

    /// Whether every one of `ids` is completed.
    pub(crate) fn all_completed(&self, ids: &[String]) -> bool {
        let seen = self.lock();
        ids.iter().all(|id| {
            seen.by_id
                .get(id)
                .is_some_and(|link| link.state == State::Completed)
        })
    }

    /// A receiver that wakes on each completion.
    pub(crate) fn watch(&self) -> watch::Receiver<u64> {
        self.completions.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        // Nothing panics while holding it; a poisoned lock still holds consistent data.
        self.seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
