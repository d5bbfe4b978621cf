//! One incoming request seen from a handler: its protocol era, the client's capabilities, the
//! answers it carries (fresh `inputResponses` and earlier rounds sealed in `requestState`),
//! the questions asked this round, and the result those turn into.
//!
//! The way through: [`ContextBuilder::build`] opens the typed round state → the handler asks
//! through the [`InputChannel`] → the first question redeems the state with the replay guard
//! (`redeem`), then the round's answers (the channel's `RoundRules`, which the context owns)
//! find each answer or record the question → [`ElicitContext::respond`] seals the next state
//! or returns the result.

mod adapter;
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

use crate::channel::{ChannelRules, InputChannel, RoundRules};
use crate::interrupt::Interrupt;
use crate::legacy::LegacyPeer;
use crate::server::ElicitServer;
use crate::state::question_digest_raw;
use crate::state::{Binding, BindingBuf, OpenedState};
use crate::wire::{
    ClientCapabilities, ElicitMode, INTERNAL_ERROR, InputRequest, InputResponse, JsonRpcError,
    MRTR_METHODS, ProtocolEra,
};
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
    /// The round this request's questions belong to: what the channel's rules
    /// ([`ChannelRules`]) read and write, lent to them without this context.
    pub(crate) rules: RoundRules,
    arguments: Value,
    capabilities: ClientCapabilities,
    /// Whether the state this request carried still has to be redeemed with the replay guard,
    /// or was.
    redemption: RedeemStatus,
    /// What the `tracing` events of this request report.
    trace: RoundTrace,
}

impl fmt::Debug for ElicitContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitContext")
            .field("era", &self.rules.era)
            .field("method", &self.rules.call.method)
            .field("target", &self.rules.call.target)
            .field("capabilities", &self.capabilities)
            .field(
                "pending",
                &self.rules.answers.pending.keys().collect::<Vec<_>>(),
            )
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
        let call = BindingBuf {
            method: method.to_owned(),
            target,
            args_digest: crate::state::args_digest(&arguments),
            principal: principal.map(str::to_owned),
        };
        let opens_urls = capabilities.supports(ElicitMode::Url);
        ElicitContext {
            rules: RoundRules::new(server, era, call, opens_urls, peer),
            arguments,
            capabilities,
            redemption: RedeemStatus::NotNeeded,
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
        let rules = &mut self.rules;
        rules.opened_state = Some(opened);
        if rules.server.sealer().has_replay_guard() {
            self.redemption = RedeemStatus::Pending;
        }
        self.trace.round = state.round.saturating_add(1);
        self.trace.asked_at = expires_at.checked_sub(rules.server.sealer().ttl());
        rules.answers.asked_before = Some(state.asked);
        rules.answers.carried = state.answers;
        rules.answers.reasks = state.reasks;
        rules.url_flows = state.url_flows;
    }

    /// The protocol era of this request.
    pub fn era(&self) -> ProtocolEra {
        self.rules.era
    }

    /// The client capabilities this request declared (2026-07-28) or the session declared
    /// (2025-11-25).
    pub fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    /// The tool name, prompt name or resource URI of this request.
    pub fn target(&self) -> &str {
        &self.rules.call.target
    }

    /// The request's arguments (`{}` when absent).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The authenticated principal, if one was given.
    pub fn principal(&self) -> Option<&str> {
        self.rules.call.principal.as_deref()
    }

    /// Records the first error a question ended in (see `first_error`).
    pub(crate) fn note_error<V>(&mut self, result: Result<V, Interrupt>) -> Result<V, Interrupt> {
        if let Err(e) = &result
            && let Some(error) = e.as_error()
        {
            self.rules.failed(error);
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
        let found = self.rules.answers.lookup(key, digest)?;
        if let Some(response) = &found
            && self.rules.answers.fresh
        {
            self.trace_answer(key, response, None);
        }
        Ok(found)
    }

    /// The keys of this round's questions.
    pub(crate) fn pending_keys(&self) -> Vec<&str> {
        self.rules
            .answers
            .pending
            .keys()
            .map(String::as_str)
            .collect()
    }

    /// Adds a question to this round (2026-07-28).
    pub(crate) fn ask_in_round(&mut self, key: &str, digest: &str, request: InputRequest) {
        self.rules.answers.ask(key, digest, request);
    }

    pub(crate) fn binding(&self) -> Binding<'_> {
        self.rules.binding()
    }

    /// The server this request is handled by.
    pub(crate) fn server(&self) -> &ElicitServer {
        &self.rules.server
    }

    async fn input_inner(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<InputResponse, Interrupt> {
        match self.rules.era {
            ProtocolEra::Legacy2025 => {
                let Some(peer) = self.rules.peer.clone() else {
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
                let method = &self.rules.call.method;
                if !MRTR_METHODS.contains(&method.as_str()) {
                    return Err(Interrupt::error(JsonRpcError::new(
                        INTERNAL_ERROR,
                        format!(
                            "`{method}` cannot ask for input: only tools/call, prompts/get and resources/read can",
                        ),
                        None,
                    )));
                }
                let rules = &mut self.rules;
                if rules
                    .url_mode_built()
                    .is_some_and(|url| url.take_again(key))
                {
                    // A URL question asked again: the accept this request carried is spent.
                    rules.answers.forget(key);
                }
                match self.lookup(key, digest).await? {
                    Some(response) => Ok(self.rules.answers.defined_only(key, &request, response)),
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
        ChannelRules::request(&mut self.rules)
    }
}
