//! One incoming request seen from a handler: its protocol era, the client's capabilities, the
//! answers it carries (fresh `inputResponses` and earlier rounds sealed in `requestState`),
//! the questions asked this round, and the result those turn into.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::answer::{Answer, Interrupt};
use crate::form::ElicitForm;
use crate::legacy::LegacyPeer;
use crate::question::{Prepared, Question, question_digest_raw};
use crate::schema::RequestedSchema;
use crate::state::{Binding, StateError, StateSealer};
use crate::url::CompletionStore;
use crate::wire::{
    ClientCapabilities, ElicitAction, ElicitMode, ElicitParams, ElicitResult, FormParams,
    INTERNAL_ERROR, InputRequest, InputRequiredResult, InputResponse, JsonRpcError,
    META_SERVER_INFO, MRTR_METHODS, ProtocolEra, RequestMeta, RetryFields,
};

/// Server-wide elicitation settings: the sealer for `requestState` (keys, audience, expiry,
/// replay guard) and the server's identity. Cheap to clone; share one per server.
///
/// ```
/// use elicit_runtime::Elicitation;
/// use elicit_runtime::state::{KeyRing, StateSealer};
///
/// let server = Elicitation::new(StateSealer::new(KeyRing::generate(), "booking-server"))
///     .with_server_info("booking-server", "1.0.0");
/// # let _ = server;
/// ```
#[derive(Clone)]
pub struct Elicitation {
    inner: Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    sealer: StateSealer,
    server_info: Option<Value>,
    completions: Option<Arc<dyn CompletionStore>>,
    single_use: bool,
    url_origin: Option<String>,
}

impl fmt::Debug for Elicitation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicitation")
            .field("sealer", &self.inner.sealer)
            .field("server_info", &self.inner.server_info)
            .field("completion_store", &self.inner.completions.is_some())
            .field("single_use", &self.inner.single_use)
            .finish()
    }
}

impl Elicitation {
    /// Settings that seal `requestState` with `sealer`.
    pub fn new(sealer: StateSealer) -> Self {
        Elicitation {
            inner: Arc::new(Inner {
                sealer,
                server_info: None,
                completions: None,
                single_use: false,
                url_origin: None,
            }),
        }
    }

    fn with(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = Inner::clone(&self.inner);
        f(&mut inner);
        Elicitation {
            inner: Arc::new(inner),
        }
    }

    /// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to every `InputRequiredResult`.
    pub fn with_server_info(self, name: &str, version: &str) -> Self {
        let info = json!({"name": name, "version": version});
        self.with(|inner| inner.server_info = Some(info))
    }

    /// Where URL-mode pages record completions (needed for `#[elicit_url]`). Use a shared
    /// store (e.g. Redis) when the page and the retry may reach different replicas.
    pub fn with_completion_store(self, store: Arc<dyn CompletionStore>) -> Self {
        self.with(|inner| inner.completions = Some(store))
    }

    /// Makes each URL-mode completion usable once: the first retry that reads it redeems it,
    /// later ones are refused.
    pub fn with_single_use_completions(self) -> Self {
        self.with(|inner| inner.single_use = true)
    }

    /// Serves URL-mode pages from `origin` (`scheme://host[:port]`) instead of the origin
    /// written in `#[elicit_url]`, e.g. a landing page on an ephemeral loopback port in
    /// development. The path and query of each URL stay as declared. The origin must be
    /// `https`, or `http` on `localhost`, `127.0.0.1` or `[::1]`.
    pub fn with_url_origin(self, origin: &str) -> Result<Self, String> {
        let origin = origin.trim_end_matches('/').to_owned();
        let (scheme, authority) = origin
            .split_once("://")
            .ok_or("an origin is `scheme://host[:port]`")?;
        if authority.is_empty() || authority.contains(['/', '?', '#', '@']) {
            return Err(
                "an origin is `scheme://host[:port]`, without path, query or user info".into(),
            );
        }
        let host = authority
            .rsplit_once(':')
            .filter(|(h, p)| !h.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .map_or(authority, |(h, _)| h);
        let loopback = matches!(host, "localhost" | "127.0.0.1" | "[::1]");
        match scheme {
            "https" => {}
            "http" if loopback => {}
            _ => {
                return Err(
                    "the origin must be https (http only on localhost, 127.0.0.1 or [::1])".into(),
                );
            }
        }
        Ok(self.with(|inner| inner.url_origin = Some(origin)))
    }

    /// The link for a URL template with the handle filled in.
    pub(crate) fn link(&self, template: &str, handle: &str) -> String {
        let url = template.replace("{handle}", handle);
        match (&self.inner.url_origin, url.split_once("://")) {
            (Some(origin), Some((_, rest))) => {
                let path_at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                format!("{origin}{}", &rest[path_at..])
            }
            _ => url,
        }
    }

    /// The completion store of URL mode, if configured.
    pub fn completion_store(&self) -> Option<&Arc<dyn CompletionStore>> {
        self.inner.completions.as_ref()
    }

    /// Whether URL-mode completions are single use.
    pub fn single_use_completions(&self) -> bool {
        self.inner.single_use
    }

    /// The sealer for `requestState`.
    pub fn sealer(&self) -> &StateSealer {
        &self.inner.sealer
    }

    /// Starts a context for one incoming request: `method` (`tools/call`, `prompts/get`,
    /// `resources/read`) and its `params` exactly as received.
    pub fn context<'a>(&'a self, method: &'a str, params: &'a Value) -> ContextBuilder<'a> {
        ContextBuilder {
            server: self,
            method,
            params,
            principal: None,
            legacy: None,
        }
    }
}

/// Builds an [`ElicitContext`]; see [`Elicitation::context`].
pub struct ContextBuilder<'a> {
    server: &'a Elicitation,
    method: &'a str,
    params: &'a Value,
    principal: Option<&'a str>,
    legacy: Option<(ClientCapabilities, Option<Arc<dyn LegacyPeer>>)>,
}

impl<'a> ContextBuilder<'a> {
    /// The authenticated principal (e.g. the `sub` of the MCP authorization token). Sealed
    /// state is bound to it: another principal cannot use it.
    pub fn principal(mut self, principal: impl Into<Option<&'a str>>) -> Self {
        self.principal = principal.into();
        self
    }

    /// The session, when the connection negotiated 2025-11-25 in `initialize`: the
    /// capabilities the client declared there, and the peer that sends server-to-client
    /// requests. Used only when the request carries no 2026-07-28 `_meta`.
    pub fn legacy(
        mut self,
        capabilities: ClientCapabilities,
        peer: Option<Arc<dyn LegacyPeer>>,
    ) -> Self {
        self.legacy = Some((capabilities, peer));
        self
    }

    /// Reads the request: era and capabilities from `_meta` (never from earlier requests),
    /// `inputResponses`, and `requestState`, which is opened and checked against this request.
    pub fn build(self) -> Result<ElicitContext, ContextError> {
        let meta = RequestMeta::from_params(self.params)
            .map_err(|e| ContextError::new(e.to_json_rpc_error(), e.to_string()))?;
        let (era, capabilities, peer) = match (meta, self.legacy) {
            (Some(meta), legacy) => match meta.era() {
                Some(ProtocolEra::Mrtr2026) => {
                    (ProtocolEra::Mrtr2026, meta.client_capabilities, None)
                }
                Some(ProtocolEra::Legacy2025) => match legacy {
                    Some((caps, peer)) => (ProtocolEra::Legacy2025, caps, peer),
                    None => {
                        let msg = format!(
                            "protocol version `{}` needs an `initialize` handshake; this server speaks 2026-07-28 here",
                            meta.protocol_version
                        );
                        return Err(ContextError::new(
                            JsonRpcError::invalid_params(
                                msg.clone(),
                                Some(json!({"supported": ["2026-07-28"]})),
                            ),
                            msg,
                        ));
                    }
                },
                None => {
                    let msg = format!("unsupported protocol version `{}`", meta.protocol_version);
                    return Err(ContextError::new(
                        JsonRpcError::invalid_params(
                            msg.clone(),
                            Some(json!({"supported": ["2025-11-25", "2026-07-28"]})),
                        ),
                        msg,
                    ));
                }
            },
            (None, Some((caps, peer))) => (ProtocolEra::Legacy2025, caps, peer),
            (None, None) => {
                let msg = "missing `_meta` protocol version and client capabilities";
                return Err(ContextError::new(
                    JsonRpcError::invalid_params(
                        "Missing required `_meta` key `io.modelcontextprotocol/protocolVersion`",
                        None,
                    ),
                    msg,
                ));
            }
        };
        let (target, arguments) = target_and_arguments(self.method, self.params);
        let mut cx = ElicitContext {
            server: self.server.clone(),
            era,
            method: self.method.to_owned(),
            target,
            args_digest: crate::state::args_digest(&arguments),
            arguments,
            principal: self.principal.map(str::to_owned),
            capabilities,
            responses: BTreeMap::new(),
            asked_before: None,
            carried: BTreeMap::new(),
            resolved: BTreeMap::new(),
            pending: BTreeMap::new(),
            notes: BTreeMap::new(),
            peer,
            first_error: None,
        };
        if era == ProtocolEra::Mrtr2026 {
            let retry = RetryFields::from_params(self.params)
                .map_err(|e| ContextError::new(e.to_json_rpc_error(), e.to_string()))?;
            if let Some(responses) = retry.input_responses {
                cx.responses = responses.into_inner();
            }
            if let Some(token) = retry.request_state {
                cx.open_state(&token)?;
            }
        }
        Ok(cx)
    }
}

/// A request that cannot be served, with the precise reason for the server's logs.
///
/// The client sees only [`ContextError::error`]; for a bad `requestState` that is always the
/// same `-32602 "Invalid or expired requestState"`, whatever went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextError {
    /// The JSON-RPC error for the client.
    pub error: JsonRpcError,
    /// What exactly went wrong, for logs (boxed: the error type stays small).
    pub reason: Box<str>,
}

impl ContextError {
    fn new(error: JsonRpcError, reason: impl Into<String>) -> Self {
        ContextError {
            error,
            reason: reason.into().into_boxed_str(),
        }
    }

    fn state(error: &StateError) -> Self {
        ContextError::new(
            JsonRpcError::invalid_request_state(),
            format!("requestState refused: {error}"),
        )
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.error.message)
    }
}

impl std::error::Error for ContextError {}

/// How a handler's request ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<R> {
    /// The handler finished with its result.
    Complete(R),
    /// The handler needs input first: send this as the result (2026-07-28 only).
    InputRequired(InputRequiredResult),
}

/// An answer seen in an earlier round or in this one.
#[derive(Debug, Clone, PartialEq)]
struct Carried {
    digest: String,
    response: Value,
}

/// One request being handled: ask questions with [`ElicitContext::ask`], then turn the
/// handler's result into the response with [`ElicitContext::finish`].
///
/// ```
/// use elicit_runtime::{Answer, ElicitContext, ElicitForm, Elicitation, Interrupt, Outcome};
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
/// let server = Elicitation::new(StateSealer::new(KeyRing::generate(), "demo"));
/// let params = json!({
///     "name": "book_table", "arguments": {},
///     "_meta": {
///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
///     }
/// });
/// let mut cx = server.context("tools/call", &params).build().unwrap();
/// let result = elicit_runtime::testing::block_on(book(&mut cx));
/// let Outcome::InputRequired(ask) = cx.finish(result).unwrap() else { panic!() };
/// assert!(ask.input_requests().unwrap().contains_key("booking"));
/// ```
pub struct ElicitContext {
    pub(crate) server: Elicitation,
    pub(crate) era: ProtocolEra,
    method: String,
    target: String,
    arguments: Value,
    /// Digest of the canonical arguments, computed once per request.
    args_digest: [u8; 16],
    pub(crate) principal: Option<String>,
    capabilities: ClientCapabilities,
    responses: BTreeMap<String, InputResponse>,
    /// Keys asked in the previous round, with their digests; `None` without `requestState`.
    asked_before: Option<BTreeMap<String, String>>,
    carried: BTreeMap<String, Carried>,
    resolved: BTreeMap<String, Carried>,
    pub(crate) pending: BTreeMap<String, (String, InputRequest)>,
    /// Server-side notes carried from round to round in `requestState` (e.g. URL handles).
    pub(crate) notes: BTreeMap<String, Value>,
    pub(crate) peer: Option<Arc<dyn LegacyPeer>>,
    /// The first error any question ended in: it wins over "input required", so a batch
    /// whose later question failed reports the failure, not the earlier question.
    first_error: Option<JsonRpcError>,
}

impl fmt::Debug for ElicitContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitContext")
            .field("era", &self.era)
            .field("method", &self.method)
            .field("target", &self.target)
            .field("capabilities", &self.capabilities)
            .field("pending", &self.pending.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl ElicitContext {
    /// The protocol era of this request.
    pub fn era(&self) -> ProtocolEra {
        self.era
    }

    /// The client capabilities this request declared (2026-07-28) or the session declared
    /// (2025-11-25).
    pub fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    /// Whether the client can show an elicitation of this mode.
    pub fn supports(&self, mode: ElicitMode) -> bool {
        self.capabilities.supports(mode)
    }

    /// The tool name, prompt name or resource URI of this request.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The request's arguments (`{}` when absent).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The authenticated principal, if one was given.
    pub fn principal(&self) -> Option<&str> {
        self.principal.as_deref()
    }

    /// Asks a form question.
    ///
    /// On 2026-07-28: returns the answer if this request (or an earlier round, through
    /// `requestState`) carries one for exactly this question; otherwise adds the question to
    /// this round and returns [`Interrupt::input_required`], so `?` ends the handler. Ask
    /// several questions before the first `?` to batch them into one round. On 2025-11-25:
    /// sends `elicitation/create` to the client and waits for the reply.
    ///
    /// Fails with `-32021` when the client did not declare form elicitation (see
    /// [`ElicitContext::ask_if_supported`] for questions the handler can do without), and with
    /// `-32602` listing every bad field when accepted content breaks the form's constraints.
    pub async fn ask<T: ElicitForm>(
        &mut self,
        question: Question<T>,
    ) -> Result<Answer<T>, Interrupt> {
        let result = self.ask_inner(question).await;
        self.note_error(result)
    }

    /// Records the first error a question ended in (see `first_error`).
    pub(crate) fn note_error<V>(&mut self, result: Result<V, Interrupt>) -> Result<V, Interrupt> {
        if let Err(e) = &result
            && let Some(error) = e.as_error()
            && self.first_error.is_none()
        {
            self.first_error = Some(error.clone());
        }
        result
    }

    async fn ask_inner<T: ElicitForm>(
        &mut self,
        question: Question<T>,
    ) -> Result<Answer<T>, Interrupt> {
        let prepared = question.prepare()?;
        if !self.supports(ElicitMode::Form) {
            return Err(missing_capability(ElicitMode::Form));
        }
        let request = InputRequest::from(ElicitParams::Form(FormParams::new(
            prepared.message(),
            prepared.schema().clone(),
        )));
        let response = self
            .input_inner(prepared.key(), prepared.digest(), request)
            .await?;
        decode_answer(&prepared, response)
    }

    /// Asks a form question only if the client can show forms; `Ok(None)` otherwise.
    pub async fn ask_if_supported<T: ElicitForm>(
        &mut self,
        question: Question<T>,
    ) -> Result<Option<Answer<T>>, Interrupt> {
        if !self.supports(ElicitMode::Form) {
            return Ok(None);
        }
        self.ask(question).await.map(Some)
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
    }

    /// Sends any input request under `key` (2026-07-28: into this round; 2025-11-25: to the
    /// peer) and resolves to the client's raw result. `digest` binds the answer to the
    /// question: an answer recorded under another digest is not used.
    pub async fn input(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<Value, Interrupt> {
        let result = self.input_inner(key, digest, request).await;
        self.note_error(result)
    }

    async fn input_inner(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<Value, Interrupt> {
        match self.era {
            ProtocolEra::Legacy2025 => {
                let Some(peer) = self.peer.clone() else {
                    return Err(Interrupt::error(JsonRpcError::new(
                        INTERNAL_ERROR,
                        "no back channel to send the request on: give the context a legacy peer",
                        None,
                    )));
                };
                peer.request(&request).await.map_err(Interrupt::error)
            }
            ProtocolEra::Mrtr2026 => {
                if !MRTR_METHODS.contains(&self.method.as_str()) {
                    return Err(Interrupt::error(JsonRpcError::new(
                        INTERNAL_ERROR,
                        format!(
                            "`{}` cannot ask for input: only tools/call, prompts/get and resources/read can",
                            self.method
                        ),
                        None,
                    )));
                }
                match self.lookup(key, digest)? {
                    Some(response) => Ok(response),
                    None => {
                        self.pending
                            .insert(key.to_owned(), (digest.to_owned(), request));
                        Err(Interrupt::input_required())
                    }
                }
            }
        }
    }

    /// Ends this round without new questions: the client retries with the sealed state (and
    /// may back off). Use it to poll for something finishing elsewhere.
    pub fn retry_later(&self) -> Interrupt {
        Interrupt::input_required()
    }

    /// The answer to `key`, if this request or an earlier round holds one for `digest`.
    pub(crate) fn lookup(&mut self, key: &str, digest: &str) -> Result<Option<Value>, Interrupt> {
        let conflict = || {
            Interrupt::error(JsonRpcError::new(
                INTERNAL_ERROR,
                format!("two different questions were asked under the key `{key}` in one request"),
                None,
            ))
        };
        if let Some(done) = self.resolved.get(key) {
            return if done.digest == digest {
                Ok(Some(done.response.clone()))
            } else {
                Err(conflict())
            };
        }
        if let Some((asked, _)) = self.pending.get(key) {
            return if asked == digest {
                Ok(None)
            } else {
                Err(conflict())
            };
        }
        if let Some(earlier) = self.carried.get(key).filter(|c| c.digest == digest) {
            let earlier = earlier.clone();
            let response = earlier.response.clone();
            self.resolved.insert(key.to_owned(), earlier);
            return Ok(Some(response));
        }
        let Some(response) = self.responses.get(key) else {
            return Ok(None);
        };
        // With sealed state, only an answer to the question asked last round, worded exactly
        // as now, counts; a reworded question is asked again. Without state (a one-shot call)
        // there is nothing the answer could be stale against.
        if let Some(asked) = &self.asked_before
            && asked.get(key).is_none_or(|d| d != digest)
        {
            return Ok(None);
        }
        let raw = match response {
            InputResponse::Malformed { error, .. } => {
                return Err(Interrupt::error(JsonRpcError::invalid_params(
                    format!("inputResponses.{key}: {error}"),
                    Some(json!({"key": key})),
                )));
            }
            InputResponse::Elicit(result) => normalized(result),
            InputResponse::Sampling(v) | InputResponse::Roots(v) | InputResponse::Unknown(v) => {
                v.clone()
            }
        };
        self.resolved.insert(
            key.to_owned(),
            Carried {
                digest: digest.to_owned(),
                response: raw.clone(),
            },
        );
        Ok(Some(raw))
    }

    pub(crate) fn binding(&self) -> Binding<'_> {
        Binding {
            method: &self.method,
            target: &self.target,
            args_digest: self.args_digest,
            principal: self.principal.as_deref(),
        }
    }

    fn open_state(&mut self, token: &str) -> Result<(), ContextError> {
        let opened = self
            .server
            .sealer()
            .open_now(token, &self.binding())
            .map_err(|e| ContextError::state(&e))?;
        let payload = &opened.payload;
        let bad = || {
            ContextError::new(
                JsonRpcError::invalid_request_state(),
                "requestState payload is not ours",
            )
        };
        let mut asked = BTreeMap::new();
        for (key, digest) in payload
            .get("asked")
            .and_then(Value::as_object)
            .ok_or_else(bad)?
        {
            asked.insert(key.clone(), digest.as_str().ok_or_else(bad)?.to_owned());
        }
        for (key, entry) in payload
            .get("answers")
            .and_then(Value::as_object)
            .ok_or_else(bad)?
        {
            let digest = entry.get("d").and_then(Value::as_str).ok_or_else(bad)?;
            let response = entry.get("r").cloned().ok_or_else(bad)?;
            self.carried.insert(
                key.clone(),
                Carried {
                    digest: digest.to_owned(),
                    response,
                },
            );
        }
        if let Some(notes) = payload.get("x").and_then(Value::as_object) {
            self.notes = notes.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        }
        self.asked_before = Some(asked);
        Ok(())
    }

    /// Turns the handler's result into the response: the result itself, an
    /// `InputRequiredResult` with this round's questions and the sealed state, or the error.
    pub fn finish<R>(self, result: Result<R, Interrupt>) -> Result<Outcome<R>, JsonRpcError> {
        let interrupt = match result {
            Ok(value) => return Ok(Outcome::Complete(value)),
            Err(interrupt) => interrupt,
        };
        if let Some(error) = interrupt.into_error().or_else(|| self.first_error.clone()) {
            return Err(error);
        }
        if self.era != ProtocolEra::Mrtr2026 {
            return Err(JsonRpcError::new(
                INTERNAL_ERROR,
                "input required on a 2025-11-25 connection: questions go to the peer there",
                None,
            ));
        }
        let mut answers = Map::new();
        for (key, c) in self.carried.iter().chain(&self.resolved) {
            answers.insert(key.clone(), json!({"d": c.digest, "r": c.response}));
        }
        let asked: Map<String, Value> = self
            .pending
            .iter()
            .map(|(k, (d, _))| (k.clone(), Value::from(d.as_str())))
            .collect();
        let notes: Map<String, Value> = self
            .notes
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let payload = json!({"asked": asked, "answers": answers, "x": notes});
        let token = self
            .server
            .sealer()
            .seal_now(&self.binding(), &payload)
            .map_err(|e| {
                JsonRpcError::new(
                    INTERNAL_ERROR,
                    format!("cannot seal requestState: {e}"),
                    None,
                )
            })?;
        let requests: BTreeMap<String, InputRequest> = self
            .pending
            .into_iter()
            .map(|(k, (_, request))| (k, request))
            .collect();
        let requests = (!requests.is_empty()).then_some(requests);
        let mut result = InputRequiredResult::new(requests, Some(token))
            .map_err(|e| JsonRpcError::new(INTERNAL_ERROR, e.to_string(), None))?;
        if let Some(info) = &self.server.inner.server_info {
            let mut meta = Map::new();
            meta.insert(META_SERVER_INFO.to_owned(), info.clone());
            result = result.with_meta(meta);
        }
        Ok(Outcome::InputRequired(result))
    }
}

/// What of an elicitation result is worth keeping: the action, and content only on accept.
pub(crate) fn normalized(result: &ElicitResult) -> Value {
    match (&result.action, &result.content) {
        (ElicitAction::Accept, Some(content)) => json!({"action": "accept", "content": content}),
        (action, _) => json!({"action": action}),
    }
}

fn missing_capability(mode: ElicitMode) -> Interrupt {
    Interrupt::error(JsonRpcError::missing_elicitation_capability(mode))
}

/// Decodes a raw elicitation result for `prepared` into a typed answer.
pub(crate) fn decode_answer<T: ElicitForm>(
    prepared: &Prepared,
    response: Value,
) -> Result<Answer<T>, Interrupt> {
    let key = prepared.key();
    let result: ElicitResult = serde_json::from_value(response).map_err(|e| {
        Interrupt::error(JsonRpcError::invalid_params(
            format!("the answer to `{key}` is not an elicitation result: {e}"),
            Some(json!({"key": key})),
        ))
    })?;
    decode_result(key, prepared.schema(), result)
}

pub(crate) fn decode_result<T: ElicitForm>(
    key: &str,
    schema: &RequestedSchema,
    result: ElicitResult,
) -> Result<Answer<T>, Interrupt> {
    match result.action {
        ElicitAction::Accept => {
            let content = Value::Object(result.content.unwrap_or_default());
            T::decode_with(&content, schema)
                .map(Answer::Accepted)
                .map_err(|errors| {
                    let fields: Vec<Value> = errors
                        .errors()
                        .iter()
                        .map(|e| json!({"field": e.field, "reason": e.reason}))
                        .collect();
                    Interrupt::error(JsonRpcError::invalid_params(
                        format!("the answer to `{key}` is invalid: {errors}"),
                        Some(json!({"key": key, "errors": fields})),
                    ))
                })
        }
        ElicitAction::Decline => Ok(Answer::Declined),
        ElicitAction::Cancel => Ok(Answer::Cancelled),
    }
}

/// What `requestState` is bound to: the tool or prompt name and arguments, or the URI.
fn target_and_arguments(method: &str, params: &Value) -> (String, Value) {
    let text = |key: &str| {
        params
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    match method {
        "resources/read" => (text("uri"), json!({})),
        _ => (
            text("name"),
            params
                .get("arguments")
                .cloned()
                .filter(|a| !a.is_null())
                .unwrap_or_else(|| json!({})),
        ),
    }
}

impl From<ContextError> for JsonRpcError {
    fn from(error: ContextError) -> Self {
        error.error
    }
}
