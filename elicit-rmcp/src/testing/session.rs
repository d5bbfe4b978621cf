//! A scripted client connected to one server, for as many calls as a test makes: scripted
//! calls (answered and retried the way the script says) and hand-made ones, sent as they are.

use std::collections::BTreeSet;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, GetPromptRequestParams, GetPromptResult, InputRequest,
    InputRequiredResult, InputResponses,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{RoleClient, ServerHandler};
use serde_json::Value;

use super::guard::Panics;
use super::request::{Retry, Step};
use super::round::{Round, ToolCall};
use super::run::{Ending, Run};
use super::transcript::{Side, Tap, Transcript};
use super::user::{Handler, User};
use super::{ScriptedClient, UserReply, checks, object};
use crate::wire::ProtocolEra;

/// A [`ScriptedClient`] connected to one server (see [`ScriptedClient::connect`]): scripted
/// calls, and hand-made ones such as a recorded retry replayed with other arguments, another
/// tool name or a tampered `requestState`.
///
/// Each call's [`Run`] holds the messages of that call only; [`Session::transcript`] has all
/// of them, the handshake included. The session checks the server as a scripted call does
/// (capabilities, form schemas, panics); a hand-made call is sent exactly as given, so the
/// rule that a retry echoes its round's `requestState` is not checked for it.
///
/// To replay as another principal, connect a second session to the same server wired for
/// that user: an [`ElicitHandler`](crate::ElicitHandler) over the same
/// [`ElicitServer`](crate::ElicitServer) (the same keys) with another
/// [`Principal`](crate::Principal), as a second user's connection to the same deployment is.
pub struct Session {
    pub(super) script: ScriptedClient,
    pub(super) client: RunningService<RoleClient, Handler>,
    pub(super) tap: Tap,
    pub(super) user: Arc<User>,
    pub(super) panics: Panics,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("era", &self.script.era)
            .field("messages", &self.tap.len())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Calls tool `name` with `arguments` (a JSON object), answering and retrying the way the
    /// script says, as [`ScriptedClient::call_tool`] does.
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Run<CallToolResult> {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(object(arguments));
        self.run("tools/call", params).await
    }

    /// Gets prompt `name` with `arguments` (a JSON object), as
    /// [`ScriptedClient::get_prompt`] does.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Run<GetPromptResult> {
        let mut params = GetPromptRequestParams::new(name.to_owned());
        params.arguments = Some(object(arguments));
        self.run("prompts/get", params).await
    }

    /// Sends `call` once, exactly as it is, and returns what the server answered: a result,
    /// a JSON-RPC error, or an `input_required` round (which the session does not answer).
    /// Questions the server pushes meanwhile (2025-11-25) are answered by the script.
    pub async fn send(&self, call: &ToolCall) -> Run<CallToolResult> {
        let start = self.tap.len();
        self.user.begin();
        let params = call.params();
        let sent = self.within_timeout("tools/call", start, self.once(&params, start));
        let ending = match sent.await {
            Ok(_) => Ending::InputRequired(self.last_round(start, Some(call.clone()))),
            Err(ended) => ended,
        };
        self.enforce(start, "tools/call");
        Run {
            ending,
            transcript: self.tap.transcript_from(start),
        }
    }

    /// Every message of the session so far, both ways, the handshake included.
    pub fn transcript(&self) -> Transcript {
        self.tap.transcript()
    }

    /// Ends the connection.
    pub async fn close(self) {
        let _ = self.client.cancel().await;
    }

    async fn run<P: Retry>(&self, method: &str, params: P) -> Run<P::Output> {
        let start = self.tap.len();
        self.user.begin();
        let ending = self
            .within_timeout(method, start, self.drive(method, params, start))
            .await;
        self.enforce(start, method);
        Run {
            ending,
            transcript: self.tap.transcript_from(start),
        }
    }

    /// `call`, failing the test (with what the server panicked with, if it did) when it has no
    /// result after the script's timeout.
    async fn within_timeout<T>(
        &self,
        method: &str,
        start: usize,
        call: impl Future<Output = T>,
    ) -> T {
        match tokio::time::timeout(self.script.timeout, call).await {
            Ok(done) => done,
            Err(_) => {
                self.enforce(start, method);
                panic!(
                    "`{method}` had no result after {:?}; messages so far: {:#?}",
                    self.script.timeout,
                    self.tap.transcript_from(start).messages()
                )
            }
        }
    }

    /// Fails the test on a panic of the server, the first rule it broke, or the first problem
    /// the user met, since the `start`th message.
    pub(super) fn enforce(&self, start: usize, method: &str) {
        if let Some(panic) = self.panics.first() {
            panic!("{panic}");
        }
        let transcript = self.tap.transcript_from(start);
        if let Some(problem) = checks::violation(&transcript, method, self.script.capabilities) {
            panic!("{problem}");
        }
        if let Some(problem) = self.user.problems().first() {
            panic!("{problem}");
        }
    }

    /// The last `input_required` result the server sent since the `start`th message.
    fn last_round(&self, start: usize, call: Option<ToolCall>) -> Round {
        let transcript = self.tap.transcript_from(start);
        let result = transcript
            .from(Side::Server)
            .filter(|m| m.get("method").is_none())
            .filter_map(|m| m.get("result"))
            .filter(|r| r["resultType"] == "input_required")
            .last()
            .cloned()
            .unwrap_or(Value::Null);
        Round::new(result, call)
    }

    /// Sends `params` once: the round it got, or how the call ended without one. A user who
    /// accepted a pushed URL-mode question without opening its page (2025-11-25) makes the
    /// client give the call up: dropping it sends `notifications/cancelled`, awaited here
    /// until it is on the wire.
    async fn once<P: Retry>(
        &self,
        params: &P,
        start: usize,
    ) -> Result<InputRequiredResult, Ending<P::Output>> {
        let unopened = self.user.left_url_unopened(&self.tap, start);
        match race(params.send(&self.client), unopened).await {
            Either::Left(Ok(Step::Done(result))) => Err(Ending::Complete(result)),
            Either::Left(Ok(Step::Round(round))) => Ok(round),
            Either::Left(Ok(Step::Task(task))) => Err(self.follow::<P>(task, start).await),
            Either::Left(Err(ServiceError::McpError(e))) => Err(Ending::Error(e)),
            Either::Left(Err(other)) => panic!("the request failed below JSON-RPC: {other}"),
            Either::Right(()) => {
                let cancelled = |m: &super::Message| {
                    m.from == Side::Client && m.json["method"] == "notifications/cancelled"
                };
                self.tap.wait_for(start, cancelled).await;
                Err(Ending::Cancelled)
            }
        }
    }

    /// Sends `params`, and on 2026-07-28 answers each `input_required` round and retries,
    /// until a result, an error, or a round with nothing new to answer.
    async fn drive<P: Retry>(
        &self,
        method: &str,
        mut params: P,
        start: usize,
    ) -> Ending<P::Output> {
        let user = &self.user;
        let mut last_keys = Vec::new();
        // URL-mode questions accepted without the page ever being opened.
        let mut unopened = BTreeSet::new();
        for _ in 0..self.script.max_rounds {
            let round = match self.once(&params, start).await {
                Ok(round) => round,
                Err(ended) => return ended,
            };
            if self.script.era == ProtocolEra::Legacy2025 {
                user.problem(format!(
                    "the server answered input_required on a 2025-11-25 session: {round:?}"
                ));
                return Ending::Error(rmcp::ErrorData::internal_error(
                    "input_required on 2025-11-25",
                    None,
                ));
            }
            // What a real client checks before it shows anything.
            self.enforce(start, method);
            let asked = round.input_requests.clone().unwrap_or_default();
            last_keys = asked.keys().cloned().collect::<Vec<_>>();
            let responses = self.answer(asked, &mut unopened).await;
            self.enforce(start, method);
            // Nothing new to say: the user left every question unanswered, or the server
            // still waits for a page the user never opens.
            if responses.is_empty() && (!last_keys.is_empty() || !unopened.is_empty()) {
                return Ending::InputRequired(self.last_round(start, params.tool_call()));
            }
            if last_keys.is_empty() {
                // A state-only round: the server waits for something (a page); retry shortly.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let state = round.request_state.clone();
            params.retry((!responses.is_empty()).then_some(responses), state);
        }
        panic!(
            "no final result after {} rounds: the server keeps asking (the last round asked {last_keys:?})",
            self.script.max_rounds
        );
    }

    /// The script's answers to one round's questions; a URL question accepted unopened once
    /// is not answered again.
    pub(super) async fn answer(
        &self,
        asked: std::collections::BTreeMap<String, InputRequest>,
        unopened: &mut BTreeSet<String>,
    ) -> InputResponses {
        let mut responses = InputResponses::new();
        for (key, request) in asked {
            let InputRequest::Elicitation(request) = request else {
                self.user.problem(format!(
                    "unanswered question {key}: the scripted client answers elicitations only"
                ));
                continue;
            };
            if unopened.contains(&key) {
                continue;
            }
            if self.user.reply_of(&key) == Some(&UserReply::AcceptUrl) {
                unopened.insert(key.clone());
            }
            if let Some(answer) = self.user.answer(&key, &request.params).await {
                responses.insert(key, answer);
            }
        }
        responses
    }
}

impl ScriptedClient {
    /// Connects to `server` (in process, as [`ScriptedClient::call_tool`] does) and keeps the
    /// connection for several calls, scripted or hand-made.
    ///
    /// ```
    /// use elicit_rmcp::{Elicit, ElicitHandler, Principal};
    /// use elicit_rmcp::state::{KeyRing, StateSealer};
    /// use elicit_rmcp::testing::{ScriptedClient, UserReply};
    /// use elicit_rmcp::wire::ProtocolEra;
    /// use elicit_rmcp::{Answer, ElicitForm, ElicitServer};
    /// use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
    /// use serde_json::json;
    ///
    /// /// Go ahead?
    /// #[derive(ElicitForm)]
    /// struct Go {
    ///     go: bool,
    /// }
    ///
    /// #[derive(Clone)]
    /// struct Server {
    ///     elicit: ElicitHandler,
    /// }
    ///
    /// #[tool_router]
    /// impl Server {
    ///     #[tool(description = "Launch")]
    ///     async fn launch(&self, mut cx: Elicit) -> Result<String, McpError> {
    ///         Ok(match Go::ask(&mut cx).await? {
    ///             Answer::Accepted(Go { go: true }) => "launched".to_owned(),
    ///             _ => "held".to_owned(),
    ///         })
    ///     }
    /// }
    ///
    /// #[elicit_rmcp::handler]
    /// impl ServerHandler for Server {}
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let sealer = StateSealer::new(KeyRing::generate(), "launcher");
    /// let server = Server {
    ///     elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
    /// };
    /// let session = ScriptedClient::new(ProtocolEra::Mrtr2026)
    ///     .reply::<Go>(UserReply::Accept(json!({"go": true})))
    ///     .connect(server)
    ///     .await;
    /// let run = session.call_tool("launch", json!({})).await;
    /// assert_eq!(run.text(), "launched");
    ///
    /// // The retry that launched, sent again as it was: the state was used once already.
    /// let retry = &run.transcript.tool_calls()[1];
    /// let replayed = session.send(retry).await;
    /// assert_eq!(replayed.error().message, "Invalid or expired requestState");
    /// session.close().await;
    /// # });
    /// ```
    pub async fn connect<S: ServerHandler>(&self, server: S) -> Session {
        let tap = Tap::default();
        let panics = Panics::default();
        let user = Arc::new(User::new(self.clone()));
        let client =
            super::connect::connect(self, server, Handler(user.clone()), &tap, &panics).await;
        Session {
            script: self.clone(),
            client,
            tap,
            user,
            panics,
        }
    }
}

enum Either<A, B> {
    Left(A),
    Right(B),
}

/// Whichever of `a` and `b` finishes first; the other is dropped.
async fn race<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    let (mut a, mut b) = (pin!(a), pin!(b));
    poll_fn(|cx| {
        if let Poll::Ready(done) = a.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(done));
        }
        if let Poll::Ready(done) = b.as_mut().poll(cx) {
            return Poll::Ready(Either::Right(done));
        }
        Poll::Pending
    })
    .await
}
