//! The round a request's questions belong to, as one concrete value: the request context owns
//! it and lends it through [`ChannelRules`](super::ChannelRules), so the rules reach it
//! without knowing the context. It holds what those rules read and write: the call the round
//! is bound to, the answers it sees and keeps, the first error, the re-asks under way, and URL
//! mode (built when the first URL question is asked) with what a call that ends with a link
//! needs.

use std::sync::Arc;

use serde_json::Value;

use super::Reask;
use super::answers::Answers;
use super::url_mode::{Follow, UrlFlow, UrlMode};
use crate::cancel::Cancellation;
use crate::interrupt::UrlLink;
use crate::keyed::Keyed;
use crate::legacy::LegacyPeer;
use crate::progress::ProgressSink;
use crate::server::ElicitServer;
use crate::state::{Binding, BindingBuf, OpenedState};
use crate::wire::{JsonRpcError, ProtocolEra};

/// The rules of one request's round, and what they need to know of the request.
pub(crate) struct RoundRules {
    pub(crate) server: ElicitServer,
    pub(crate) era: ProtocolEra,
    /// What the request is bound to (its arguments' digest computed once per request).
    pub(crate) call: BindingBuf,
    /// Whether the client declared URL-mode elicitation: a URL question for a client that did
    /// not may end the call with a link, as the server's settings say.
    pub(crate) opens_urls: bool,
    /// The answers this round sees, and its questions.
    pub(crate) answers: Answers,
    /// The first error any question ended in: it wins over "input required", so a batch
    /// whose later question failed reports the failure, not the earlier question. Boxed: only
    /// a failed request has one.
    first_error: Option<Box<JsonRpcError>>,
    /// URL-mode flows under way, carried from round to round in `requestState`.
    pub(crate) url_flows: Keyed<UrlFlow>,
    /// URL mode, once a URL-mode question was asked (it then holds `url_flows`). Boxed: a
    /// request that asks no URL question keeps no room for it.
    url: Option<Box<UrlMode>>,
    /// The link the link fallback ended the call with, for adapters that see only "not an
    /// error". Boxed: only such a call has one.
    pub(crate) link: Option<Box<UrlLink>>,
    pub(crate) peer: Option<Arc<dyn LegacyPeer>>,
    /// What ends a wait on a page early: the SDK's cancellation of this request.
    pub(crate) cancel: Option<Cancellation>,
    /// Where a wait on a page is reported: the SDK's sender for this request's progress token.
    pub(crate) progress: Option<ProgressSink>,
    /// The id and expiry of the `requestState` this request carried, once opened.
    pub(crate) opened_state: Option<OpenedState>,
}

impl RoundRules {
    /// The rules of a request to `server` in `era`, bound to `call`.
    pub(crate) fn new(
        server: ElicitServer,
        era: ProtocolEra,
        call: BindingBuf,
        opens_urls: bool,
        peer: Option<Arc<dyn LegacyPeer>>,
    ) -> Self {
        let strict = server.strict_provenance();
        RoundRules {
            server,
            era,
            call,
            opens_urls,
            answers: Answers {
                strict,
                ..Answers::default()
            },
            first_error: None,
            url_flows: Keyed::new(),
            url: None,
            link: None,
            peer,
            cancel: None,
            progress: None,
            opened_state: None,
        }
    }

    pub(crate) fn binding(&self) -> Binding<'_> {
        self.call.binding()
    }

    /// The next answer under `key` counts only if this round provably asked that exact
    /// question.
    pub(crate) fn require_provenance(&mut self, key: &str) {
        self.answers.strict_keys.insert(key.to_owned(), ());
    }

    /// What of the answer under `key` is carried on.
    pub(crate) fn keep_answer(&mut self, key: &str, kept: Value) {
        self.answers.keep(key, kept);
    }

    /// Records the first error a question ended in (see `first_error`).
    pub(crate) fn failed(&mut self, error: &JsonRpcError) {
        if self.first_error.is_none() {
            self.first_error = Some(Box::new(error.clone()));
        }
    }

    /// The first error a question ended in, if any.
    pub(crate) fn first_error(&self) -> Option<&JsonRpcError> {
        self.first_error.as_deref()
    }

    pub(crate) fn max_reasks(&self) -> u8 {
        self.server.max_reasks()
    }

    /// The re-ask of the question with digest `origin` under `key` an earlier round put.
    pub(crate) fn reask_under_way(&self, key: &str, origin: &str) -> Option<Reask> {
        self.answers
            .reasks
            .get(key)
            .filter(|reask| reask.is_for(origin))
            .cloned()
    }

    /// On 2026-07-28 the re-ask travels in the sealed state; on 2025-11-25 the next `input`
    /// sends it to the peer at once, and there is nothing to keep.
    pub(crate) fn reasking(&mut self, key: &str, reask: &Reask) {
        if self.era == ProtocolEra::Mrtr2026 {
            self.answers.reask(key, reask.clone());
        }
    }

    /// URL mode, built when first asked for. On 2026-07-28 the flows travel in the sealed
    /// state from round to round; on 2025-11-25 the handler waits for the page and then
    /// notifies the client.
    pub(crate) fn url_mode(&mut self) -> &mut UrlMode {
        let mode = match self.url.take() {
            Some(mode) => mode,
            None => Box::new(self.build_url_mode()),
        };
        self.url.insert(mode)
    }

    fn build_url_mode(&mut self) -> UrlMode {
        let follow = match self.era {
            ProtocolEra::Legacy2025 => Follow::Waits {
                peer: self.peer.clone(),
            },
            // 2026-07-28: `negotiate` admits no other era.
            _ => Follow::Rounds {
                flows: std::mem::take(&mut self.url_flows),
                opened_state: self.opened_state,
                again: Default::default(),
            },
        };
        let mut mode = UrlMode::new(&self.server, self.binding(), follow);
        mode.cancel = self.cancel.clone();
        mode.progress = self.progress.clone();
        mode
    }

    /// URL mode, if a URL question built it.
    pub(crate) fn url_mode_built(&mut self) -> Option<&mut UrlMode> {
        self.url.as_deref_mut()
    }

    /// The flows to carry into the next round's sealed state (taken).
    pub(crate) fn take_flows(&mut self) -> Keyed<UrlFlow> {
        match self.url.take() {
            Some(url) => url.into_flows(),
            None => std::mem::take(&mut self.url_flows),
        }
    }
}
