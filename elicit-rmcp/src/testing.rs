//! A scripted client for whole rmcp servers (feature `testing`): rmcp's own client drives
//! your [`ServerHandler`] in process, over rmcp's in-memory transport, on either protocol era,
//! answering each question the way the script says, and returns the final result together
//! with every JSON-RPC message exchanged.
//!
//! It checks what a real client checks, and fails the test with a message saying what the
//! server did wrong: an elicitation outside the declared capabilities (URL mode to a form-only
//! client, anything to a client without elicitation), a `requestedSchema` elicit's strict
//! parser refuses, a retry whose `requestState` is not the one the server sent, a question the
//! script has no reply for, or a server that keeps asking past the round limit.
//!
//! ```
//! use elicit_rmcp::{Elicit, ElicitHandler, Principal};
//! use elicit_rmcp::state::{KeyRing, StateSealer};
//! use elicit_rmcp::testing::{ScriptedClient, Side, UserReply};
//! use elicit_rmcp::wire::ProtocolEra;
//! use elicit_rmcp::{Answer, ElicitForm, ElicitServer};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};
//! use serde_json::json;
//!
//! /// How many guests?
//! #[derive(ElicitForm)]
//! struct Guests {
//!     #[elicit(minimum = 1, maximum = 12)]
//!     count: u8,
//! }
//!
//! #[derive(Clone)]
//! struct Server {
//!     tool_router: ToolRouter<Self>,
//!     elicit: ElicitHandler,
//! }
//!
//! #[tool_router]
//! impl Server {
//!     #[tool(description = "Book a table")]
//!     async fn book(&self, mut cx: Elicit) -> Result<String, McpError> {
//!         Ok(match Guests::ask(&mut cx).await? {
//!             Answer::Accepted(guests) => format!("table for {}", guests.count),
//!             Answer::Declined | Answer::Cancelled => "not booked".to_owned(),
//!         })
//!     }
//! }
//!
//! #[tool_handler(router = self.elicit.tools(&self.tool_router))]
//! impl ServerHandler for Server {}
//!
//! fn server() -> Server {
//!     let sealer = StateSealer::new(KeyRing::generate(), "test");
//!     Server {
//!         tool_router: Server::tool_router(),
//!         elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
//!     }
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! for era in ProtocolEra::ALL {
//!     let run = ScriptedClient::new(era)
//!         .reply::<Guests>(UserReply::Accept(json!({"count": 4})))
//!         .call_tool(server(), "book", json!({}))
//!         .await;
//!     assert_eq!(run.text(), "table for 4");
//!     match era {
//!         // One `input_required` round, then the retry with the answer.
//!         ProtocolEra::Mrtr2026 => assert_eq!(run.transcript.rounds("tools/call").len(), 1),
//!         // The question pushed to the client as `elicitation/create`.
//!         ProtocolEra::Legacy2025 => {
//!             let pushed = run.transcript.requests(Side::Server, "elicitation/create");
//!             assert_eq!(pushed[0]["message"], "How many guests?");
//!         }
//!         _ => unreachable!("a newer era"),
//!     }
//!
//!     let declined = ScriptedClient::new(era)
//!         .reply::<Guests>(UserReply::Decline)
//!         .call_tool(server(), "book", json!({}))
//!         .await;
//!     assert_eq!(declined.text(), "not booked");
//! }
//! # });
//! ```

mod checks;
mod script;
mod transcript;
mod user;

use std::future::Future;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, InputRequest, InputRequiredResult, InputResponses,
    JsonObject, ProtocolVersion,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData, RoleClient, ServerHandler, ServiceExt,
};
use serde_json::Value;

use crate::WireFix;
use crate::form::ElicitForm;
use crate::url::{ElicitUrl, LandingPage};
use crate::wire::ProtocolEra;
use script::{Browser, Entry, form_properties, url_key};
use transcript::Tap;
use user::{Handler, User};

/// The core's testing kit (`Responses`, `TestClient`, `answers`, `review`): one `testing`
/// module for a server on rmcp.
#[doc(no_inline)]
pub use elicit_runtime::testing::*;
pub use script::UserReply;
pub use transcript::{Message, Side, Transcript};

/// The elicitation capability the client declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capabilities {
    /// Form mode only.
    Form,
    /// Form and URL mode (the default).
    FormAndUrl,
    /// No elicitation at all.
    None,
}

/// The final result of a scripted call and every message exchanged on the way.
#[derive(Debug, Clone)]
pub struct Run<T> {
    /// The final result, or the JSON-RPC error the server answered with.
    pub result: Result<T, ErrorData>,
    /// Every JSON-RPC message, both ways, in order (the handshake included).
    pub transcript: Transcript,
}

impl<T: std::fmt::Debug> Run<T> {
    /// The JSON-RPC error the call ended with (panics if it succeeded).
    #[track_caller]
    pub fn error(&self) -> &ErrorData {
        match &self.result {
            Err(e) => e,
            Ok(result) => panic!("expected a JSON-RPC error, the call succeeded: {result:?}"),
        }
    }
}

impl Run<CallToolResult> {
    /// The tool result's text blocks, joined by newlines (panics on a JSON-RPC error).
    #[track_caller]
    pub fn text(&self) -> String {
        match &self.result {
            Ok(result) => result
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
                .collect::<Vec<_>>()
                .join("\n"),
            Err(e) => panic!("the call failed with a JSON-RPC error: {e:?}"),
        }
    }
}

/// A scripted MCP client: which era it speaks, what it declares, and how its user answers
/// each question (see the [module documentation](self) for an example).
///
/// Replies are keyed by question key. On 2026-07-28 every question arrives under its key; a
/// 2025-11-25 `elicitation/create` carries none, so there a form is recognised by its
/// property names (the form given to [`ScriptedClient::reply`], or the names given to
/// [`ScriptedClient::reply_to_form`]) and a URL request by the key sealed in its link (opened
/// on the [browser](ScriptedClient::browser)'s landing page), or as the only URL question of
/// the script.
#[derive(Clone)]
pub struct ScriptedClient {
    era: ProtocolEra,
    capabilities: Capabilities,
    entries: Vec<Entry>,
    browser: Option<Browser>,
    max_rounds: usize,
    timeout: Duration,
}

impl ScriptedClient {
    /// The round limit: more `input_required` rounds (or pushed questions) than this fail.
    pub const MAX_ROUNDS: usize = 16;

    /// A client speaking `era`, declaring form and URL elicitation, with no replies yet.
    pub fn new(era: ProtocolEra) -> Self {
        ScriptedClient {
            era,
            capabilities: Capabilities::FormAndUrl,
            entries: Vec::new(),
            browser: None,
            max_rounds: Self::MAX_ROUNDS,
            timeout: Duration::from_secs(30),
        }
    }

    /// Declares `capabilities` instead of form and URL elicitation.
    pub fn capabilities(mut self, capabilities: Capabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Answers form `T`, asked under its own key, with `reply`.
    pub fn reply<T: ElicitForm>(self, reply: UserReply) -> Self {
        self.reply_as::<T>(T::key(), reply)
    }

    /// Answers form `T` asked under `key` (a question whose key was changed at the call site).
    pub fn reply_as<T: ElicitForm>(self, key: &str, reply: UserReply) -> Self {
        self.reply_to_form(key, form_properties::<T>(), reply)
    }

    /// Accepts form `T` with `form`'s content.
    pub fn accept<T: ElicitForm>(self, form: &T) -> Self {
        self.reply::<T>(UserReply::accept_form(form))
    }

    /// Answers the form asked under `key`, whose `requestedSchema` has these `properties`
    /// (how it is recognised on 2025-11-25), with `reply`.
    pub fn reply_to_form<S: Into<String>>(
        mut self,
        key: &str,
        properties: impl IntoIterator<Item = S>,
        reply: UserReply,
    ) -> Self {
        let properties = properties.into_iter().map(Into::into).collect();
        self.entries.retain(|e| e.key != key);
        self.entries.push(Entry {
            key: key.to_owned(),
            reply,
            properties: Some(properties),
        });
        self
    }

    /// Answers URL elicitation `T` with `reply` (usually [`UserReply::CompleteUrl`]).
    pub fn reply_url<T: ElicitUrl>(self, reply: UserReply) -> Self {
        self.reply_url_as(&url_key::<T>(), reply)
    }

    /// Answers the URL-mode question asked under `key` with `reply`.
    pub fn reply_url_as(mut self, key: &str, reply: UserReply) -> Self {
        self.entries.retain(|e| e.key != key);
        self.entries.push(Entry {
            key: key.to_owned(),
            reply,
            properties: None,
        });
        self
    }

    /// The landing page URL-mode links lead to, and the user signed in to the browser that
    /// opens them (for [`UserReply::CompleteUrl`]).
    pub fn browser(mut self, page: LandingPage, user: impl Into<String>) -> Self {
        self.browser = Some(Browser {
            page,
            user: user.into(),
        });
        self
    }

    /// Fails after `rounds` rounds instead of [`ScriptedClient::MAX_ROUNDS`].
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Fails when the call has no result after `timeout` (30 seconds by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Calls tool `name` with `arguments` (a JSON object) on `server` until it completes.
    ///
    /// Panics, saying why, if the server breaks a rule a client enforces (see the
    /// [module documentation](self)).
    pub async fn call_tool<S: ServerHandler>(
        &self,
        server: S,
        name: &str,
        arguments: Value,
    ) -> Run<CallToolResult> {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(object(arguments));
        self.run(server, "tools/call", params).await
    }

    /// Gets prompt `name` with `arguments` (a JSON object) from `server` until it completes.
    pub async fn get_prompt<S: ServerHandler>(
        &self,
        server: S,
        name: &str,
        arguments: Value,
    ) -> Run<GetPromptResult> {
        let mut params = GetPromptRequestParams::new(name.to_owned());
        params.arguments = Some(object(arguments));
        self.run(server, "prompts/get", params).await
    }

    async fn run<S: ServerHandler, P: Retry>(
        &self,
        server: S,
        method: &str,
        params: P,
    ) -> Run<P::Output> {
        let user = Arc::new(User {
            script: self.clone(),
            problems: Mutex::new(Vec::new()),
            pushed: AtomicUsize::new(0),
        });
        let (client, tap) = self.connect(server, Handler(user.clone())).await;
        let driven = self.drive(&client, &tap, &user, method, params);
        let outcome = tokio::time::timeout(self.timeout, driven).await;
        let _ = client.cancel().await;
        self.enforce(&tap, &user, method);
        match outcome {
            Ok(result) => Run {
                result,
                transcript: tap.transcript(),
            },
            Err(_) => panic!(
                "`{method}` had no result after {:?}; messages so far: {:#?}",
                self.timeout,
                tap.transcript().messages()
            ),
        }
    }

    /// Fails the test on the first rule the server broke, or the first problem the user met.
    fn enforce(&self, tap: &Tap, user: &User, method: &str) {
        let transcript = tap.transcript();
        if let Some(problem) = checks::violation(&transcript, method, self.capabilities) {
            panic!("{problem}");
        }
        if let Some(problem) = user.problems().first() {
            panic!("{problem}");
        }
    }

    /// Sends `params`, and on 2026-07-28 answers each `input_required` round and retries.
    async fn drive<P: Retry>(
        &self,
        client: &RunningService<RoleClient, Handler>,
        tap: &Tap,
        user: &User,
        method: &str,
        mut params: P,
    ) -> Result<P::Output, ErrorData> {
        let mut last_keys = Vec::new();
        for _ in 0..self.max_rounds {
            let round = match params.send(client).await {
                Ok(Step::Done(result)) => return Ok(result),
                Ok(Step::Round(round)) => round,
                Err(ServiceError::McpError(e)) => return Err(e),
                Err(other) => panic!("the request failed below JSON-RPC: {other}"),
            };
            if self.era == ProtocolEra::Legacy2025 {
                user.problem(format!(
                    "the server answered input_required on a 2025-11-25 session: {round:?}"
                ));
                return Err(ErrorData::internal_error(
                    "input_required on 2025-11-25",
                    None,
                ));
            }
            // What a real client checks before it shows anything.
            self.enforce(tap, user, method);
            let mut responses = InputResponses::new();
            let asked = round.input_requests.clone().unwrap_or_default();
            last_keys = asked.keys().cloned().collect();
            if asked.is_empty() {
                // A state-only round: the server waits for something (a page); retry shortly.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            for (key, request) in asked {
                let InputRequest::Elicitation(request) = request else {
                    user.problem(format!(
                        "unanswered question {key}: the scripted client answers elicitations only"
                    ));
                    continue;
                };
                if let Some(answer) = user.answer(&key, &request.params).await {
                    responses.insert(key, answer);
                }
            }
            self.enforce(tap, user, method);
            let state = round.request_state.clone();
            params.retry((!responses.is_empty()).then_some(responses), state);
        }
        panic!(
            "no final result after {} rounds: the server keeps asking (the last round asked {last_keys:?})",
            self.max_rounds
        );
    }

    async fn connect<S: ServerHandler>(
        &self,
        server: S,
        user: Handler,
    ) -> (RunningService<RoleClient, Handler>, Tap) {
        let tap = Tap::default();
        let (client_io, client_tap) = tokio::io::duplex(1 << 16);
        let (server_tap, server_io) = tokio::io::duplex(1 << 16);
        let (client_read, client_write) = tokio::io::split(client_tap);
        let (server_read, server_write) = tokio::io::split(server_tap);
        tokio::spawn(tap.clone().pump(client_read, server_write, Side::Client));
        tokio::spawn(tap.clone().pump(server_read, client_write, Side::Server));
        tokio::spawn(async move {
            if let Ok(running) = WireFix::new(server).serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = match self.era {
            ProtocolEra::Legacy2025 => user.serve(client_io).await,
            _ => {
                let lifecycle = ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                };
                user.serve_with_lifecycle(client_io, lifecycle).await
            }
        };
        let client = client.unwrap_or_else(|e| {
            panic!(
                "the client could not connect ({:?}): {e}; messages: {:#?}",
                self.era,
                tap.transcript().messages()
            )
        });
        (client, tap)
    }
}

/// What one request returned.
enum Step<R> {
    Done(R),
    Round(InputRequiredResult),
}

/// A request the client can send once and retry with `inputResponses` and `requestState`.
trait Retry: Clone + Send {
    type Output: std::fmt::Debug;
    fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> impl Future<Output = Result<Step<Self::Output>, ServiceError>>;
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>);
}

impl Retry for CallToolRequestParams {
    type Output = CallToolResult;
    async fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> Result<Step<CallToolResult>, ServiceError> {
        match client.call_tool_once(self.clone()).await? {
            CallToolResponse::Complete(result) => Ok(Step::Done(result)),
            CallToolResponse::InputRequired(round) => Ok(Step::Round(round)),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        self.input_responses = responses;
        self.request_state = state;
    }
}

impl Retry for GetPromptRequestParams {
    type Output = GetPromptResult;
    async fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> Result<Step<GetPromptResult>, ServiceError> {
        match client.get_prompt_once(self.clone()).await? {
            GetPromptResponse::Complete(result) => Ok(Step::Done(result)),
            GetPromptResponse::InputRequired(round) => Ok(Step::Round(round)),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        self.input_responses = responses;
        self.request_state = state;
    }
}

/// `value` as a JSON object (panics otherwise: arguments are always an object).
#[track_caller]
fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be a JSON object, not {other}"),
    }
}
