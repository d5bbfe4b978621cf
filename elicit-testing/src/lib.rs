#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod answers;
mod review;

/// The proptest this crate's [`answers`] strategies are built with.
pub use proptest;
pub use review::review;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use elicit_runtime::form::ElicitForm;
use elicit_runtime::request::{ElicitContext, Reply};
use elicit_runtime::wire::{InputRequest, InputRequiredResult, JsonRpcError, PROTOCOL_2026_07_28};
use elicit_runtime::{ElicitServer, Interrupt};

/// `inputResponses` built from form types, keyed by each form's key.
///
/// ```
/// use elicit_runtime::ElicitForm;
/// use elicit_testing::Responses;
///
/// /// Guests?
/// #[derive(ElicitForm)]
/// struct Guests { count: u8 }
///
/// let responses = Responses::new().accept(&Guests { count: 3 }).into_value();
/// assert_eq!(responses, serde_json::json!({"guests": {"action": "accept", "content": {"count": 3}}}));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Responses(BTreeMap<String, Value>);

impl Responses {
    /// No responses.
    pub fn new() -> Self {
        Self::default()
    }
    /// Accepts form `T` with `value`.
    pub fn accept<T: ElicitForm>(self, value: &T) -> Self {
        self.raw(
            T::key(),
            json!({"action": "accept", "content": value.to_content()}),
        )
    }
    /// Accepts form `T` with arbitrary (possibly invalid) content.
    pub fn accept_content<T: ElicitForm>(self, content: Value) -> Self {
        self.raw(T::key(), json!({"action": "accept", "content": content}))
    }
    /// Declines form `T`.
    pub fn decline<T: ElicitForm>(self) -> Self {
        self.raw(T::key(), json!({"action": "decline"}))
    }
    /// Cancels form `T`.
    pub fn cancel<T: ElicitForm>(self) -> Self {
        self.raw(T::key(), json!({"action": "cancel"}))
    }
    /// Any response under any key.
    pub fn raw(mut self, key: impl Into<String>, response: Value) -> Self {
        self.0.insert(key.into(), response);
        self
    }
    /// The `inputResponses` object.
    pub fn into_value(self) -> Value {
        Value::Object(self.0.into_iter().collect())
    }
}

/// A scripted 2026-07-28 client: sends a request, answers each round's input requests with a
/// closure, retries with `inputResponses` and the echoed `requestState`, and records rounds.
///
/// ```
/// use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_testing::TestClient;
/// use pollster::block_on;
/// use serde_json::json;
///
/// /// How many guests?
/// #[derive(ElicitForm)]
/// struct Guests { count: u8 }
///
/// async fn handler(cx: &mut ElicitContext) -> Result<String, Interrupt> {
///     Ok(match Guests::ask(cx).await? {
///         Answer::Accepted(g) => format!("{} guests", g.count),
///         _ => "no answer".into(),
///     })
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "test"));
/// let client = TestClient::new(server);
/// let run = block_on(client.call_tool(
///     "book", json!({}),
///     |_key, _request| json!({"action": "accept", "content": {"count": 4}}),
///     handler,
/// )).unwrap();
/// assert_eq!(run.result, "4 guests");
/// assert_eq!(run.rounds.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct TestClient {
    server: ElicitServer,
    capabilities: Value,
    principal: Option<String>,
    max_rounds: usize,
}

/// What [`TestClient`] saw: the final result and every `InputRequiredResult` before it.
#[derive(Debug, Clone)]
pub struct TestRun<R> {
    /// The handler's final result.
    pub result: R,
    /// Each round's `InputRequiredResult`, in order.
    pub rounds: Vec<InputRequiredResult>,
}

impl TestClient {
    /// A client declaring form and URL elicitation, sampling and roots.
    pub fn new(server: ElicitServer) -> Self {
        TestClient {
            server,
            capabilities: json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
            principal: None,
            max_rounds: 10,
        }
    }
    /// Declares these client capabilities instead (`json!({})` for none).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }
    /// Calls as this authenticated principal.
    pub fn principal(mut self, principal: impl Into<String>) -> Self {
        self.principal = Some(principal.into());
        self
    }

    /// `params` for a first `tools/call` with the 2026-07-28 `_meta` envelope.
    pub fn tool_params(&self, name: &str, arguments: Value) -> Value {
        json!({
            "name": name,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": PROTOCOL_2026_07_28,
                "io.modelcontextprotocol/clientCapabilities": self.capabilities,
                "io.modelcontextprotocol/clientInfo": {"name": "elicit-test-client", "version": "0"}
            }
        })
    }

    /// Runs one round: builds the context, runs `handler`, finishes.
    pub async fn round<R>(
        &self,
        method: &str,
        params: &Value,
        handler: &mut impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
    ) -> Result<Reply<R>, JsonRpcError> {
        let mut cx = self
            .server
            .context(method, params)
            .principal(self.principal.as_deref())
            .build()
            .map_err(|e| e.error)?;
        let result = handler(&mut cx).await;
        cx.respond(result).await
    }

    /// Calls tool `name` until it completes, answering every input request with `answer`
    /// (given the key and the request; returns the bare result object).
    pub async fn call_tool<R>(
        &self,
        name: &str,
        arguments: Value,
        mut answer: impl FnMut(&str, &InputRequest) -> Value,
        mut handler: impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
    ) -> Result<TestRun<R>, JsonRpcError> {
        let first = self.tool_params(name, arguments);
        let mut params = first.clone();
        let mut rounds = Vec::new();
        for _ in 0..self.max_rounds {
            match self.round("tools/call", &params, &mut handler).await? {
                Reply::Result(result) => return Ok(TestRun { result, rounds }),
                Reply::InputRequired(ask) => {
                    let mut responses = Map::new();
                    for (key, request) in ask.input_requests().into_iter().flatten() {
                        responses.insert(key.clone(), answer(key, request));
                    }
                    params = first.clone();
                    if !responses.is_empty() {
                        params["inputResponses"] = Value::Object(responses);
                    }
                    if let Some(state) = ask.request_state() {
                        params["requestState"] = Value::from(state);
                    }
                    rounds.push(ask);
                }
                // Only `round` shows a link: a test of the link fallback reads the reply itself.
                Reply::Link(link) => {
                    return Err(JsonRpcError::new(
                        elicit_runtime::wire::INTERNAL_ERROR,
                        format!("the call ended with a link instead of a result: {link}"),
                        Some(serde_json::json!({"url": link.url})),
                    ));
                }
                _ => lockstep("reply"),
            }
        }
        Err(JsonRpcError::new(
            elicit_runtime::wire::INTERNAL_ERROR,
            format!("no result after {} rounds", self.max_rounds),
            None,
        ))
    }
}

/// The arm for a variant of one of the core's `#[non_exhaustive]` enums that this crate does
/// not know. It cannot be reached: this crate requires the exact `elicit-runtime` version it
/// is released with, so it knows every variant there is.
#[cold]
fn lockstep(what: &str) -> ! {
    panic!(
        "elicit-testing {} met a {what} it does not know; it must be used with elicit-runtime {0}",
        env!("CARGO_PKG_VERSION")
    )
}
