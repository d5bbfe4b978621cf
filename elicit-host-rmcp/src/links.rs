//! The 2025-11-25 URL elicitations this client has seen, by server and `elicitationId`: a
//! repeated id is a replay, a completion is taken once, and waiters learn of it. Each server's
//! ids are kept apart (one server can neither replay nor complete another's), and bounded:
//! [`REMEMBERED_URL_REQUESTS`] per server, the oldest forgotten first, each holding its id
//! and, once the person opened its page, the request (within the caps `parse` keeps).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, Weak};

use elicit_host::UrlRequest;
use rmcp::RoleClient;
use rmcp::model::ServerPeerInfo;
use rmcp::service::Peer;
use tokio::sync::watch;

use crate::limits::REMEMBERED_URL_REQUESTS;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Being asked, or answered other than by opening.
    Answered,
    /// Opened; waiting for `notifications/elicitation/complete`.
    Opened,
    /// Completed.
    Completed,
}

/// Which server a request came from: the handshake rmcp keeps for the connection, by identity
/// (held weakly, so the allocation, and with it the identity, outlives the connection only as
/// long as its ids are remembered). A connection without a handshake has none.
#[derive(Clone)]
pub(crate) struct Server(Option<Weak<ServerPeerInfo>>);

impl Server {
    pub(crate) fn of(peer: &Peer<RoleClient>) -> Self {
        Server(peer.peer_info().map(|info| Arc::downgrade(&info)))
    }

    fn is(&self, other: &Server) -> bool {
        match (&self.0, &other.0) {
            (Some(this), Some(other)) => Weak::ptr_eq(this, other),
            (None, None) => true,
            _ => false,
        }
    }

    /// Its connection is closed (nothing can come from it again).
    fn gone(&self) -> bool {
        self.0.as_ref().is_some_and(|info| info.strong_count() == 0)
    }
}

struct Link {
    state: State,
    /// The request, once its page was opened: reported again when it completes.
    opened: Option<UrlRequest>,
}

pub(crate) struct Links {
    servers: Mutex<Vec<(Server, Seen)>>,
    completions: watch::Sender<u64>,
}

#[derive(Default)]
struct Seen {
    order: VecDeque<Arc<str>>,
    by_id: HashMap<Arc<str>, Link>,
}

impl Seen {
    /// The bytes it holds: the tables and every id and opened request.
    fn bytes(&self) -> usize {
        let slot = size_of::<(Arc<str>, Link)>() + 1;
        let tables = self.by_id.capacity() * slot + self.order.capacity() * size_of::<Arc<str>>();
        let entries: usize = self
            .by_id
            .iter()
            .map(|(id, link)| {
                // An `Arc<str>`'s two counts, then the text.
                2 * size_of::<usize>()
                    + id.len()
                    + link.opened.as_ref().map_or(0, |request| {
                        request.message.capacity()
                            + request.url.capacity()
                            + request.elicitation_id.as_ref().map_or(0, String::capacity)
                    })
            })
            .sum();
        tables + entries
    }
}

impl Links {
    pub(crate) fn new() -> Self {
        Links {
            servers: Mutex::new(Vec::new()),
            completions: watch::Sender::new(0),
        }
    }

    /// Records `id` from `server` as being asked; `false` when that server sent it before (a
    /// replay).
    pub(crate) fn first_sight(&self, server: &Server, id: &str) -> bool {
        let mut servers = self.lock();
        servers.retain(|(known, _)| !known.gone());
        let seen = match servers.iter().position(|(known, _)| known.is(server)) {
            Some(at) => &mut servers[at].1,
            None => {
                servers.push((server.clone(), Seen::default()));
                &mut servers.last_mut().expect("just pushed").1
            }
        };
        if seen.by_id.contains_key(id) {
            return false;
        }
        if seen.order.len() == REMEMBERED_URL_REQUESTS
            && let Some(oldest) = seen.order.pop_front()
        {
            seen.by_id.remove(&oldest);
        }
        let id: Arc<str> = Arc::from(id);
        seen.order.push_back(id.clone());
        let link = Link {
            state: State::Answered,
            opened: None,
        };
        seen.by_id.insert(id, link);
        true
    }

    /// What became of `id` from `server`, if it was seen.
    pub(crate) fn state(&self, server: &Server, id: &str) -> Option<State> {
        self.with(server, |seen| seen.by_id.get(id).map(|link| link.state))
            .flatten()
    }

    /// The person opened the page of `request` (`id`, from `server`).
    pub(crate) fn opened(&self, server: &Server, id: &str, request: &UrlRequest) {
        self.with(server, |seen| {
            if let Some(link) = seen.by_id.get_mut(id) {
                link.state = State::Opened;
                link.opened = Some(request.clone());
            }
        });
    }

    /// `server` reported `id` complete: the request, when `id` was open (unknown and
    /// already-completed ids are ignored, as the spec requires, and so are other servers').
    pub(crate) fn complete(&self, server: &Server, id: &str) -> Option<UrlRequest> {
        let done = self
            .with(server, |seen| {
                let link = seen.by_id.get_mut(id)?;
                if link.state != State::Opened {
                    return None;
                }
                link.state = State::Completed;
                link.opened.take()
            })
            .flatten()?;
        self.completions.send_modify(|count| *count += 1);
        Some(done)
    }

    /// Whether every one of `ids` from `server` is completed.
    pub(crate) fn all_completed(&self, server: &Server, ids: &[String]) -> bool {
        self.with(server, |seen| {
            ids.iter().all(|id| {
                seen.by_id
                    .get(id.as_str())
                    .is_some_and(|link| link.state == State::Completed)
            })
        })
        .unwrap_or(ids.is_empty())
    }

    /// A receiver that wakes on each completion.
    pub(crate) fn watch(&self) -> watch::Receiver<u64> {
        self.completions.subscribe()
    }

    /// The bytes all servers' remembered requests hold.
    pub(crate) fn bytes(&self) -> usize {
        self.lock().iter().map(|(_, seen)| seen.bytes()).sum()
    }

    fn with<T>(&self, server: &Server, f: impl FnOnce(&mut Seen) -> T) -> Option<T> {
        let mut servers = self.lock();
        let (_, seen) = servers.iter_mut().find(|(known, _)| known.is(server))?;
        Some(f(seen))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Server, Seen)>> {
        // Nothing panics while holding it; a poisoned lock still holds consistent data.
        self.servers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
