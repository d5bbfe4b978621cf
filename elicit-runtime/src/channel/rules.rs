//! The bookkeeping every question on a channel obeys, in one concrete type: a channel says
//! whose rules its questions follow, and cannot get the rules themselves wrong.

use serde_json::Value;

use super::round_rules::RoundRules;
use super::{Reask, UrlMode};
use crate::server::DEFAULT_MAX_REASKS;
use crate::wire::JsonRpcError;

/// The rules of the round a channel's questions belong to: the first error wins over "input
/// required", a form's re-ask count is sealed so the client cannot reset it, an answer counts
/// only with provenance where the question requires it, only what a form declares is carried
/// on, and URL-mode links are bound to the call and followed up as the era says.
///
/// [`InputChannel::rules`](crate::InputChannel::rules) returns them. A request context
/// ([`ElicitContext`](crate::ElicitContext)) and every SDK adapter's channel (an
/// [`AdapterChannel`](crate::request::AdapterChannel)) lend the request's; a channel with no
/// request ([`ChannelRules::none`], the default) asks each question on its own, and one that
/// waits for answers where it is, as a task's worker does, lends a [`UrlMode`]
/// ([`ChannelRules::url_mode`]).
///
/// ```
/// use elicit_runtime::url::UrlMode;
/// use elicit_runtime::{ChannelRules, InputChannel, Interrupt};
/// use elicit_runtime::wire::{ClientCapabilities, InputRequest, InputResponse};
///
/// /// A channel that puts questions to a local terminal and can open links.
/// struct Terminal {
///     capabilities: ClientCapabilities,
///     url: UrlMode,
/// }
///
/// impl InputChannel for Terminal {
///     type Error = Interrupt;
///     fn stop(&self, interrupt: Interrupt) -> Interrupt {
///         interrupt
///     }
///     fn capabilities(&self) -> &ClientCapabilities {
///         &self.capabilities
///     }
///     async fn input(
///         &mut self,
///         _key: &str,
///         _digest: &str,
///         _request: InputRequest,
///     ) -> Result<InputResponse, Interrupt> {
///         // Show the question, read the person's answer…
///         Ok(InputResponse::from_value(serde_json::json!({"action": "decline"})))
///     }
///     fn rules(&mut self) -> ChannelRules<'_> {
///         ChannelRules::url_mode(&mut self.url)
///     }
/// }
///
/// /// Delete the draft?
/// #[derive(ElicitForm)]
/// struct Confirm {
///     sure: bool,
/// }
///
/// # use elicit_runtime::{Answer, ElicitForm, ElicitServer};
/// # use elicit_runtime::state::{Binding, KeyRing, StateSealer, args_digest};
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "local"));
/// let args = args_digest(&serde_json::json!({}));
/// let binding = Binding { method: "tools/call", target: "delete", args_digest: args, principal: None };
/// let mut terminal = Terminal {
///     capabilities: serde_json::from_value(serde_json::json!({"elicitation": {}}))?,
///     url: UrlMode::waiting(&server, binding),
/// };
/// let answer = pollster::block_on(Confirm::ask(&mut terminal))?;
/// assert!(matches!(answer, Answer::Declined));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ChannelRules<'a>(Kind<'a>);

enum Kind<'a> {
    None,
    Url(&'a mut UrlMode),
    Request(&'a mut RoundRules),
}

impl std::fmt::Debug for ChannelRules<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.0 {
            Kind::None => "none",
            Kind::Url(_) => "url_mode",
            Kind::Request(_) => "request",
        };
        f.debug_tuple("ChannelRules").field(&kind).finish()
    }
}

impl<'a> ChannelRules<'a> {
    /// No round: each question is asked on its own (no answers carried, no re-ask kept
    /// between asks), with the default re-ask limit, and URL-mode questions fail with
    /// `-32603` saying the channel cannot put them.
    pub fn none() -> Self {
        ChannelRules(Kind::None)
    }

    /// No round, but URL-mode questions bound and followed up as `mode` says (a channel that
    /// waits for the page where it is, built with [`UrlMode::waiting`]).
    pub fn url_mode(mode: &'a mut UrlMode) -> Self {
        ChannelRules(Kind::Url(mode))
    }

    /// The rules of a request's round.
    pub(crate) fn request(round: &'a mut RoundRules) -> Self {
        ChannelRules(Kind::Request(round))
    }

    /// The next answer under `key` counts only if this round provably asked that exact
    /// question.
    pub(crate) fn require_provenance(self, key: &str) {
        if let Kind::Request(round) = self.0 {
            round.require_provenance(key);
        }
    }

    /// What of the answer under `key` is carried on: for a form, only its declared fields.
    pub(crate) fn answered(self, key: &str, kept: Value) {
        if let Kind::Request(round) = self.0 {
            round.keep_answer(key, kept);
        }
    }

    /// An error a question ended in: the round keeps the first.
    pub(crate) fn failed(self, error: &JsonRpcError) {
        if let Kind::Request(round) = self.0 {
            round.failed(error);
        }
    }

    /// How many times a form question whose answer fails its checks is asked again.
    pub(crate) fn max_reasks(self) -> u8 {
        match self.0 {
            Kind::Request(round) => round.max_reasks(),
            Kind::None | Kind::Url(_) => DEFAULT_MAX_REASKS,
        }
    }

    /// The re-ask of the question with digest `origin` under `key` an earlier round put.
    pub(crate) fn reask_under_way(self, key: &str, origin: &str) -> Option<Reask> {
        match self.0 {
            Kind::Request(round) => round.reask_under_way(key, origin),
            Kind::None | Kind::Url(_) => None,
        }
    }

    /// The question under `key` is asked again as `reask` says.
    pub(crate) fn reasking(self, key: &str, reask: &Reask) {
        if let Kind::Request(round) = self.0 {
            round.reasking(key, reask);
        }
    }

    /// The request's round whose rules these are, if any: what a URL question that ends the
    /// call with a link reads and records.
    pub(crate) fn into_round(self) -> Option<&'a mut RoundRules> {
        match self.0 {
            Kind::Request(round) => Some(round),
            Kind::None | Kind::Url(_) => None,
        }
    }

    /// URL mode on this channel, if it can put URL-mode questions.
    pub(crate) fn into_url_mode(self) -> Option<&'a mut UrlMode> {
        match self.0 {
            Kind::None => None,
            Kind::Url(mode) => Some(mode),
            Kind::Request(round) => Some(round.url_mode()),
        }
    }
}
