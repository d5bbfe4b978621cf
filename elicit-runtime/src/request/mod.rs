//! One incoming request seen from a handler: its protocol era, the client's capabilities, the
//! answers it carries (fresh `inputResponses` and earlier rounds sealed in `requestState`),
//! the questions asked this round, and the result those turn into.
//!
//! The way through: [`ContextBuilder::build`] opens the typed round state → the handler asks
//! through the [`InputChannel`] → the first question redeems the state with the replay guard
//! (`redeem`), then `answers` finds each answer or records the question →
//! [`ElicitContext::respond`] seals the next state or returns the result.

mod adapter;
mod answers;
mod build;
mod error;
mod finish;
mod params;
mod pushed;
mod redeem;
pub(crate) mod round;
mod trace;

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};

/// The principal of a server with one local user (a stdio server on the person's own
/// machine): what `elicit_rmcp::Principal::local()` (and so `ElicitHandler::local`) gives
/// every request, and the user `elicit_axum::LocalBrowser` finishes links for. One name, so
/// the two cannot disagree; it is also the key a resolver or a page hook saves that user's
/// values under.
///
/// ```
/// assert_eq!(elicit_runtime::LOCAL_PRINCIPAL, "local");
/// ```
pub const LOCAL_PRINCIPAL: &str = "local";

pub(crate) use crate::cancel::Cancellation;
pub use adapter::AdapterChannel;
pub use build::ContextBuilder;
pub use error::ContextError;
pub use finish::Reply;
pub use params::{RequestParams, RequestParts};
use round::RoundState;
pub(crate) use round::UrlFlow;

use crate::channel::{ChannelRules, Follow, InputChannel, Reask, Round, UrlMode};
use crate::interrupt::Interrupt;
use crate::interrupt::UrlLink;
use crate::keyed::Keyed;
use crate::legacy::LegacyPeer;
use crate::server::ElicitServer;
use crate::state::question_digest_raw;
use crate::state::{Binding, BindingBuf, OpenedState};
use crate::wire::{
    ClientCapabilities, INTERNAL_ERROR, InputRequest, InputResponse, JsonRpcError, MRTR_METHODS,
    ProtocolEra,
};
use answers::Answers;
use redeem::RedeemStatus;
use trace::RoundTrace;

/// One request being handled: ask questions through it (`Form::ask(&mut cx)`), then turn the
/// handler's result into the response with [`ElicitContext::respond`].
///
/// ```
/// use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// /// Book a table
/// #[derive(ElicitForm)]
/// struct Booking {
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
/// }
///
/// async fn book(cx: &mut ElicitContext) -> Result<String, Interrupt> {
///     Ok(match Booking::ask(cx).await? {
///         Answer::Accepted(b) => format!("booked for {}", b.guests),
///         Answer::Declined | Answer::Cancelled => "not booked".into(),
///     })
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
/// let params = json!({
///     "name": "book_table", "arguments": {},
///     "_meta": {
///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
///     }
/// });
/// let mut cx = server.context("tools/call", &params).build().unwrap();
/// let result = pollster::block_on(book(&mut cx));
/// let Reply::InputRequired(ask) = pollster::block_on(cx.respond(result)).unwrap() else { panic!() };
/// assert!(ask.input_requests().unwrap().contains_key("booking"));
/// ```
pub struct ElicitContext {
    pub(crate) server: ElicitServer,
    pub(crate) era: ProtocolEra,
    /// What the request is bound to (its arguments' digest computed once per request).
    call: BindingBuf,
    arguments: Value,
    capabilities: ClientCapabilities,
    answers: Answers,
    /// URL-mode flows under way, carried from round to round in `requestState`.
    pub(crate) url_flows: Keyed<UrlFlow>,
    /// URL mode, once a URL-mode question was asked (it then holds `url_flows`).
    pub(crate) url: Option<UrlMode>,
    /// The link the link fallback ended the call with, for adapters that see only "not an error".
    pub(crate) link: Option<UrlLink>,
    pub(crate) peer: Option<Arc<dyn LegacyPeer>>,
    /// What ends a wait on a page early: the SDK's cancellation of this request.
    pub(crate) cancel: Option<Cancellation>,
    /// Where a wait on a page is reported: the SDK's sender for this request's progress token.
    pub(crate) progress: Option<crate::progress::ProgressSink>,
    /// The id and expiry of the `requestState` this request carried, once opened.
    pub(crate) opened_state: Option<OpenedState>,
    /// Whether that state still has to be redeemed with the replay guard, or was.
    redemption: RedeemStatus,
    /// The first error any question ended in: it wins over "input required", so a batch
    /// whose later question failed reports the failure, not the earlier question.
    first_error: Option<JsonRpcError>,
    /// What the `tracing` events of this request report.
    trace: RoundTrace,
}

impl fmt::Debug for ElicitContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitContext")
            .field("era", &self.era)
            .field("method", &self.call.method)
            .field("target", &self.call.target)
            .field("capabilities", &self.capabilities)
            .field("pending", &self.answers.pending.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl ElicitContext {
    #[allow(clippy::too_many_arguments)] // one call site: `ContextBuilder::build`
    fn new(
        server: ElicitServer,
        era: ProtocolEra,
        method: &str,
        target: String,
        arguments: Value,
        principal: Option<&str>,
        capabilities: ClientCapabilities,
        peer: Option<Arc<dyn LegacyPeer>>,
    ) -> Self {
        let strict = server.strict_provenance();
        ElicitContext {
            server,
            era,
            call: BindingBuf {
                method: method.to_owned(),
                target,
                args_digest: crate::state::args_digest(&arguments),
                principal: principal.map(str::to_owned),
            },
            arguments,
            capabilities,
            answers: Answers {
                strict,
                ..Answers::default()
            },
            url_flows: Keyed::new(),
            url: None,
            link: None,
            peer,
            cancel: None,
            progress: None,
            opened_state: None,
            redemption: RedeemStatus::NotNeeded,
            first_error: None,
            trace: RoundTrace {
                round: 1,
                ..RoundTrace::default()
            },
        }
    }

    /// Continues from the state an earlier round sealed (`opened` says which token it came in).
    /// With a replay guard, the state is redeemed when it is first used, not here.
    fn resume(&mut self, state: RoundState, opened: OpenedState) {
        let expires_at = opened.expires_at;
        self.opened_state = Some(opened);
        if self.server.sealer().has_replay_guard() {
            self.redemption = RedeemStatus::Pending;
        }
        self.trace.round = state.round.saturating_add(1);
        self.trace.asked_at = expires_at.checked_sub(self.server.sealer().ttl());
        self.answers.asked_before = Some(state.asked);
        self.answers.carried = state.answers;
        self.answers.reasks = state.reasks;
        self.url_flows = state.url_flows;
    }

    /// The protocol era of this request.
    pub fn era(&self) -> ProtocolEra {
        self.era
    }

    /// The client capabilities this request declared (2026-07-28) or the session declared
    /// (2025-11-25).
    pub fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    /// The tool name, prompt name or resource URI of this request.
    pub fn target(&self) -> &str {
        &self.call.target
    }

    /// The request's arguments (`{}` when absent).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The authenticated principal, if one was given.
    pub fn principal(&self) -> Option<&str> {
        self.call.principal.as_deref()
    }

    /// Records the first error a question ended in (see `first_error`).
    pub(crate) fn note_error<V>(&mut self, result: Result<V, Interrupt>) -> Result<V, Interrupt> {
        if let Err(e) = &result
            && let Some(error) = e.as_error()
        {
            self.failed(error);
        }
        result
    }

    /// Asks the client's model for a completion (`sampling/createMessage` with `params`
    /// exactly as the spec shapes them); resolves to the raw `CreateMessageResult`.
    pub async fn sample(&mut self, key: &str, params: Value) -> Result<Value, Interrupt> {
        if !self.capabilities.supports_sampling() {
            let error = Interrupt::error(JsonRpcError::missing_capability(json!({"sampling": {}})));
            return self.note_error(Err(error));
        }
        let digest = question_digest_raw(key, "sampling/createMessage", &params);
        self.input(key, &digest, InputRequest::Sampling(params))
            .await
            .map(InputResponse::into_value)
    }

    /// Asks for the client's roots (`roots/list`); resolves to the raw `ListRootsResult`.
    pub async fn list_roots(&mut self, key: &str) -> Result<Value, Interrupt> {
        if !self.capabilities.supports_roots() {
            let error = Interrupt::error(JsonRpcError::missing_capability(json!({"roots": {}})));
            return self.note_error(Err(error));
        }
        let digest = question_digest_raw(key, "roots/list", &Value::Null);
        self.input(key, &digest, InputRequest::ListRoots(None))
            .await
            .map(InputResponse::into_value)
    }

    /// Ends this round without new questions: the client retries with the sealed state (and
    /// may back off). Use it to poll for something finishing elsewhere.
    pub fn retry_later(&self) -> Interrupt {
        Interrupt::input_required()
    }

    /// The answer to `key` for `digest`, if this request or an earlier round holds one.
    ///
    /// The one way to an answer (forms, questions, sampling, roots and URL mode all come
    /// here), so the first lookup redeems the state this request carried.
    pub(crate) async fn lookup(
        &mut self,
        key: &str,
        digest: &str,
    ) -> Result<Option<InputResponse>, Interrupt> {
        self.redeem_state().await.map_err(Interrupt::error)?;
        let found = self.answers.lookup(key, digest)?;
        if let Some(response) = &found
            && self.answers.fresh
        {
            self.trace_answer(key, response, None);
        }
        Ok(found)
    }

    /// The keys of this round's questions.
    pub(crate) fn pending_keys(&self) -> Vec<&str> {
        self.answers.pending.keys().map(String::as_str).collect()
    }

    /// Adds a question to this round (2026-07-28).
    pub(crate) fn ask_in_round(&mut self, key: &str, digest: &str, request: InputRequest) {
        self.answers.ask(key, digest, request);
    }

    pub(crate) fn binding(&self) -> Binding<'_> {
        self.call.binding()
    }

    async fn input_inner(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<InputResponse, Interrupt> {
        match self.era {
            ProtocolEra::Legacy2025 => {
                let Some(peer) = self.peer.clone() else {
                    return Err(Interrupt::error(JsonRpcError::new(
                        INTERNAL_ERROR,
                        "no back channel to send the request on: give the context a legacy peer",
                        None,
                    )));
                };
                self.push(peer.as_ref(), key, &request).await
            }
            // 2026-07-28: `negotiate` admits no other era.
            _ => {
                if !MRTR_METHODS.contains(&self.call.method.as_str()) {
                    return Err(Interrupt::error(JsonRpcError::new(
                        INTERNAL_ERROR,
                        format!(
                            "`{}` cannot ask for input: only tools/call, prompts/get and resources/read can",
                            self.call.method
                        ),
                        None,
                    )));
                }
                if self.url.as_mut().is_some_and(|url| url.take_again(key)) {
                    // A URL question asked again: the accept this request carried is spent.
                    self.answers.forget(key);
                }
                match self.lookup(key, digest).await? {
                    Some(response) => Ok(self.answers.defined_only(key, &request, response)),
                    None => {
                        self.ask_in_round(key, digest, request.for_2026());
                        Err(Interrupt::input_required())
                    }
                }
            }
        }
    }
}

/// So that what takes an adapter's channel (`AsMut<ElicitContext>`) takes a request's context.
impl AsMut<ElicitContext> for ElicitContext {
    fn as_mut(&mut self) -> &mut ElicitContext {
        self
    }
}

impl InputChannel for ElicitContext {
    type Error = Interrupt;

    fn stop(&self, interrupt: Interrupt) -> Interrupt {
        interrupt
    }

    fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    async fn input(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<InputResponse, Interrupt> {
        let result = self.input_inner(key, digest, request).await;
        self.note_error(result)
    }

    fn rules(&mut self) -> ChannelRules<'_> {
        ChannelRules::request(self)
    }
}

/// The round's rules ([`ChannelRules`]) as this request keeps them.
impl Round for ElicitContext {
    fn keep_answer(&mut self, key: &str, kept: Value) {
        self.answers.keep(key, kept);
    }

    fn max_reasks(&self) -> u8 {
        self.server.max_reasks()
    }

    fn require_provenance(&mut self, key: &str) {
        self.answers.strict_keys.insert(key.to_owned());
    }

    fn reask_under_way(&mut self, key: &str, origin: &str) -> Option<Reask> {
        self.answers
            .reasks
            .get(key)
            .filter(|reask| reask.is_for(origin))
            .cloned()
    }

    /// On 2026-07-28 the re-ask travels in the sealed state; on 2025-11-25 the next `input`
    /// sends it to the peer at once, and there is nothing to keep.
    fn reasking(&mut self, key: &str, reask: &Reask) {
        if self.era == ProtocolEra::Mrtr2026 {
            self.answers.reask(key, reask.clone());
        }
    }

    fn failed(&mut self, error: &JsonRpcError) {
        if self.first_error.is_none() {
            self.first_error = Some(error.clone());
        }
    }

    fn request(&mut self) -> &mut dyn std::any::Any {
        self
    }

    /// On 2026-07-28 the flows travel in the sealed state from round to round; on
    /// 2025-11-25 the handler waits for the page and then notifies the client.
    fn url_mode(&mut self) -> Option<&mut UrlMode> {
        if self.url.is_none() {
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
            self.url = Some(mode);
        }
        self.url.as_mut()
    }
}
