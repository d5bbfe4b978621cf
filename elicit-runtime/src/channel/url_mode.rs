//! What an input channel lends a URL-mode question: the binding its link is sealed with, and
//! how an accepted link is followed up. The channel decides (one place decides the era): a
//! 2026-07-28 request carries its flows from round to round in sealed state; a 2025-11-25
//! request and a task wait for the page where they are.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::cancel::Cancellation;
use crate::interrupt::Interrupt;
use crate::keyed::Keyed;
use crate::legacy::LegacyPeer;
use crate::progress::ProgressSink;
use crate::server::ElicitServer;
use crate::state::Completion;
use crate::state::{Binding, BindingBuf, CompletionStore, OpenedState};
use crate::wire::{INTERNAL_ERROR, JsonRpcError};

/// URL mode on an [`InputChannel`](crate::InputChannel): who asks, the call the link is bound
/// to, and the server whose keys seal it. A request context lends its own; a custom channel
/// that waits for answers where it is (as a task's worker does) builds one with
/// [`UrlMode::waiting`] and lends it through
/// [`ChannelRules::url_mode`](crate::ChannelRules::url_mode).
///
/// ```
/// use elicit_runtime::url::UrlMode;
/// use elicit_runtime::state::{Binding, KeyRing, StateSealer, args_digest};
/// use elicit_runtime::ElicitServer;
/// use serde_json::json;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar"));
/// let binding = Binding {
///     method: "tools/call",
///     target: "sync_calendar",
///     args_digest: args_digest(&json!({})),
///     principal: Some("user-123"),
/// };
/// let mode = UrlMode::waiting(&server, binding);
/// assert!(format!("{mode:?}").contains("sync_calendar"));
/// ```
#[derive(Clone)]
pub struct UrlMode {
    pub(crate) server: ElicitServer,
    call: BindingBuf,
    pub(crate) follow: Follow,
    /// The request's cancellation, which ends a wait on a page early.
    pub(crate) cancel: Option<Cancellation>,
    /// Where a wait on a page is reported, when the request asked for progress.
    pub(crate) progress: Option<ProgressSink>,
}

/// How an accepted link is followed up.
#[derive(Clone)]
pub(crate) enum Follow {
    /// A 2026-07-28 request: the flow whose link went out travels in sealed state; an accept
    /// is checked against the store once per round.
    Rounds {
        flows: Keyed<UrlFlow>,
        /// The `requestState` this request carried, if any.
        opened_state: Option<OpenedState>,
        /// Keys whose URL question is asked again in this round (the hold passed with no
        /// outcome): the answer this request carried for them is spent.
        again: BTreeSet<String>,
    },
    /// The channel waits for the page where it is, then tells the client through `peer`
    /// (2025-11-25), or no one (a task, which the client polls).
    Waits { peer: Option<Arc<dyn LegacyPeer>> },
}

impl fmt::Debug for UrlMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UrlMode")
            .field("method", &self.call.method)
            .field("target", &self.call.target)
            .field("principal", &self.call.principal.is_some())
            .field(
                "follow",
                &match self.follow {
                    Follow::Rounds { .. } => "rounds",
                    Follow::Waits { .. } => "waits",
                },
            )
            .finish_non_exhaustive()
    }
}

impl UrlMode {
    /// URL mode for a channel that waits where it is for the page to finish (a task's worker,
    /// or a channel of your own): links are sealed by `server` and bound to `binding`, which
    /// must name the principal.
    pub fn waiting(server: &ElicitServer, binding: Binding<'_>) -> Self {
        Self::new(server, binding, Follow::Waits { peer: None })
    }

    pub(crate) fn new(server: &ElicitServer, binding: Binding<'_>, follow: Follow) -> Self {
        UrlMode {
            server: server.clone(),
            call: binding.into(),
            follow,
            cancel: None,
            progress: None,
        }
    }

    pub(crate) fn binding(&self) -> Binding<'_> {
        self.call.binding()
    }

    /// The principal, which every URL-mode link is bound to.
    pub(crate) fn principal(&self) -> Result<&str, Interrupt> {
        self.call
            .principal
            .as_deref()
            .ok_or_else(|| internal("URL-mode elicitation needs an authenticated principal"))
    }

    /// The server's completion store, which every URL-mode flow ends in.
    pub(crate) fn store(&self) -> Result<Arc<dyn CompletionStore>, Interrupt> {
        self.server.url_settings().store().cloned().ok_or_else(|| {
            internal(
                "URL-mode elicitation needs a completion store: `ElicitServer::with_url(UrlSettings::new(store))`",
            )
        })
    }

    /// The flow an earlier round of this request sent a link for under `key`.
    pub(crate) fn earlier(&self, key: &str) -> Option<UrlFlow> {
        match &self.follow {
            Follow::Rounds { flows, .. } => flows.get(key).cloned(),
            Follow::Waits { .. } => None,
        }
    }

    /// Remembers the flow under `key` for the next round (2026-07-28; elsewhere a no-op).
    pub(crate) fn remember(&mut self, key: &str, flow: UrlFlow) {
        if let Follow::Rounds { flows, .. } = &mut self.follow {
            flows.insert(key.to_owned(), flow);
        }
    }

    /// Marks the URL question under `key` as asked again in this round (2026-07-28; elsewhere
    /// a no-op): the channel's next `input` under `key` puts the question instead of reading
    /// the answer this request carried.
    pub(crate) fn ask_again(&mut self, key: &str) {
        if let Follow::Rounds { again, .. } = &mut self.follow {
            again.insert(key.to_owned());
        }
    }

    /// Whether the question under `key` is to be asked again (once: the mark is taken).
    pub(crate) fn take_again(&mut self, key: &str) -> bool {
        match &mut self.follow {
            Follow::Rounds { again, .. } => again.remove(key),
            Follow::Waits { .. } => false,
        }
    }

    /// The flows to carry into the next round's sealed state.
    pub(crate) fn into_flows(self) -> Keyed<UrlFlow> {
        match self.follow {
            Follow::Rounds { flows, .. } => flows,
            Follow::Waits { .. } => Keyed::new(),
        }
    }
}

/// A URL-mode flow under way: its handle's id and expiry, and once read, how it ended (so a
/// single-use completion is redeemed once per request, not once per round).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UrlFlow {
    pub id: String,
    /// Expiry of the handle, in seconds since the Unix epoch.
    pub exp: u64,
    pub done: Option<Completion>,
}

pub(crate) fn internal(message: impl Into<String>) -> Interrupt {
    Interrupt::error(JsonRpcError::new(INTERNAL_ERROR, message, None))
}
