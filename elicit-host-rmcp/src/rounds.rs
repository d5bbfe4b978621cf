//! Driving a 2026-07-28 call through its `input_required` rounds as a person would: each
//! question asked once, refused ones answered `cancel` without failing the call, the exact
//! `requestState` echoed, a page the person opened waited for (not asked again), and every
//! bound named when it is hit. A 2025-11-25 `-32042` is driven the same way: the pages opened,
//! their completions awaited, the call retried.

use std::collections::HashMap;
use std::future::Future;
use std::time::{Duration, Instant};

use elicit_host::{Elicitation, UrlRequest};
use elicit_wire::ElicitResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CreateTaskResult,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequest, InputRequiredResult,
    InputResponses, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
};
use rmcp::service::Peer;
use rmcp::{ErrorData as McpError, RoleClient, ServiceError};
use serde_json::Value;

use crate::answerer::Answerer;
use crate::ask::{ask, parse, to_rmcp};
use crate::asker::Asker;
use crate::host::Host;
use crate::links::{Server, State};
use crate::outcome::{Call, CallError, Elicited, Outcome};

/// The least time from one request of a waiting round to the next, doubling to the cap (a
/// server that held the retry longer is retried at once): as the
/// Python SDK's client (50 ms to 250 ms) while nobody is on a page…
const IDLE_BACKOFF: (Duration, Duration) = (Duration::from_millis(50), Duration::from_millis(250));
/// …and gentler while the person is (a server that does not hold the retry is not polled
/// four times a second for minutes).
const PAGE_BACKOFF: (Duration, Duration) = (Duration::from_millis(250), Duration::from_secs(1));
/// How long a 2025-11-25 `-32042` retry waits for the server to report its pages complete
/// before retrying anyway (the report is optional), asking the host whether to go on.
const COMPLETION_CHECK: Duration = Duration::from_secs(2);

/// One of the three requests that may answer `input_required`.
trait Retried: Clone + Send + Sync {
    type Output;
    fn once(
        &self,
        peer: &Peer<RoleClient>,
    ) -> impl Future<Output = Result<Step<Self::Output>, ServiceError>> + Send;
    fn retry_with(&mut self, responses: Option<InputResponses>, state: Option<String>);
    fn has_state(&self) -> bool;
}

enum Step<T> {
    Done(T),
    Round(InputRequiredResult),
    Task(CreateTaskResult),
}

/// The three are alike but for their types, the `*_once` method and (prompts and resources
/// never become tasks) the task arm.
macro_rules! retried {
    ($params:ty, $output:ty, $response:ident, $once:ident $(, $task:ident)?) => {
        impl Retried for $params {
            type Output = $output;
            async fn once(&self, peer: &Peer<RoleClient>) -> Result<Step<$output>, ServiceError> {
                Ok(match peer.$once(self.clone()).await? {
                    $response::Complete(result) => Step::Done(result),
                    $response::InputRequired(round) => Step::Round(round),
                    $($response::$task(task) => Step::Task(task),)?
                    _ => return Err(ServiceError::UnexpectedResponse),
                })
            }
            fn retry_with(&mut self, responses: Option<InputResponses>, state: Option<String>) {
                self.input_responses = responses;
                self.request_state = state;
            }
            fn has_state(&self) -> bool {
                self.request_state.is_some()
            }
        }
    };
}

retried!(
    CallToolRequestParams,
    CallToolResult,
    CallToolResponse,
    call_tool_once,
    Task
);
retried!(
    GetPromptRequestParams,
    GetPromptResult,
    GetPromptResponse,
    get_prompt_once
);
retried!(
    ReadResourceRequestParams,
    ReadResourceResult,
    ReadResourceResponse,
    read_resource_once
);

impl<H: Host> Answerer<H> {
    /// `tools/call`, every `input_required` round answered through the host.
    ///
    /// Each round's questions are asked one after another in key order and answered under
    /// their keys; one that must not be shown (malformed, out of grammar, a mode not declared,
    /// a URL the report refuses) is answered `cancel` or `decline` while the others are asked.
    /// The retry is a new request with the exact `requestState`. After the person opens a
    /// page, rounds that ask for the same page again (the server still waiting) are answered
    /// `accept` without showing it again, as long as [`Host::keep_waiting`] says so and the
    /// [wait](crate::Limits::with_max_wait) lasts; they do not count as rounds.
    pub async fn call_tool(
        &self,
        peer: &Peer<RoleClient>,
        params: CallToolRequestParams,
    ) -> Call<CallToolResult> {
        self.drive(peer, params).await
    }

    /// `prompts/get`, driven as [`call_tool`](Self::call_tool).
    pub async fn get_prompt(
        &self,
        peer: &Peer<RoleClient>,
        params: GetPromptRequestParams,
    ) -> Call<GetPromptResult> {
        self.drive(peer, params).await
    }

    /// `resources/read`, driven as [`call_tool`](Self::call_tool).
    pub async fn read_resource(
        &self,
        peer: &Peer<RoleClient>,
        params: ReadResourceRequestParams,
    ) -> Call<ReadResourceResult> {
        self.drive(peer, params).await
    }

    async fn drive<R: Retried>(&self, peer: &Peer<RoleClient>, params: R) -> Call<R::Output> {
        let mut run = Run {
            answerer: self,
            asker: self.asker(peer),
            server: Server::of(peer),
            elicitations: Vec::new(),
            open: HashMap::new(),
            new_rounds: 0,
            waiting_since: None,
            backoff: None,
        };
        let result = run.go(peer, params).await;
        let failed = result.is_err();
        let mut elicitations = run.elicitations;
        if failed {
            for elicited in &mut elicitations {
                if elicited.outcome == Outcome::Opened {
                    elicited.outcome = Outcome::Unfinished;
                    self.shared.host.outcome(elicited);
                }
            }
        }
        Call {
            result,
            elicitations,
        }
    }
}

struct Open {
    index: usize,
    since: Instant,
    page: String,
}

/// One call's rounds: what was asked, which pages are open, how long it has waited.
struct Run<'a, H> {
    answerer: &'a Answerer<H>,
    asker: Asker,
    /// The connection, whose 2025-11-25 ids are its own.
    server: Server,
    elicitations: Vec<Elicited>,
    /// Open pages by the key they were asked under: the index of their elicitation, when they
    /// were opened, and the page (the URL without its query: a server asking again may send
    /// a fresh link to the same flow).
    open: HashMap<String, Open>,
    new_rounds: usize,
    waiting_since: Option<Instant>,
    backoff: Option<Duration>,
}

impl<H: Host> Run<'_, H> {
    async fn go<R: Retried>(
        &mut self,
        peer: &Peer<RoleClient>,
        mut params: R,
    ) -> Result<R::Output, CallError> {
        loop {
            let sent = Instant::now();
            let step = match params.once(peer).await {
                Ok(step) => step,
                Err(ServiceError::McpError(error))
                    if i64::from(error.code.0) == elicit_wire::URL_ELICITATION_REQUIRED =>
                {
                    self.count_round()?;
                    self.open_required(error).await?;
                    continue;
                }
                Err(error) => return Err(refused_state(error, params.has_state())),
            };
            let round = match step {
                Step::Done(output) => return Ok(output),
                Step::Task(task) => return Err(CallError::Task(Box::new(task))),
                Step::Round(round) => round,
            };
            let requests = round.input_requests.unwrap_or_default();
            if requests.is_empty() && round.request_state.is_none() {
                return Err(CallError::EmptyRound);
            }
            let new_question = requests
                .iter()
                .any(|(key, request)| self.still_open(key, request).is_none());
            if new_question {
                self.count_round()?;
            }
            let mut responses = InputResponses::new();
            for (key, request) in requests {
                let reply = self.answer(key.clone(), request).await?;
                let reply = serde_json::to_value(to_rmcp(&reply)).map_err(|e| {
                    CallError::Service(ServiceError::McpError(McpError::internal_error(
                        e.to_string(),
                        None,
                    )))
                })?;
                responses.insert(key, reply);
            }
            if !new_question {
                self.wait_a_little(sent).await?;
            }
            params.retry_with(
                (!responses.is_empty()).then_some(responses),
                round.request_state,
            );
        }
    }

    /// One more round of new questions, within the limit.
    fn count_round(&mut self) -> Result<(), CallError> {
        let rounds = self.answerer.limits.max_rounds();
        if self.new_rounds >= rounds {
            return Err(CallError::TooManyRounds { rounds });
        }
        self.new_rounds += 1;
        self.waiting_since = None;
        self.backoff = None;
        Ok(())
    }

    /// A round with nothing new: pause (backing off) unless the server held the request that
    /// long already, within the wait.
    async fn wait_a_little(&mut self, sent: Instant) -> Result<(), CallError> {
        let since = *self.waiting_since.get_or_insert_with(Instant::now);
        let waited = since.elapsed();
        let max_wait = self.answerer.limits.max_wait();
        if waited >= max_wait {
            return Err(CallError::WaitedOut { waited });
        }
        let (first, cap) = if self.open.is_empty() {
            IDLE_BACKOFF
        } else {
            PAGE_BACKOFF
        };
        let pause = self.backoff.map_or(first, |last| (last * 2).min(cap));
        self.backoff = Some(pause);
        let pause = pause.saturating_sub(sent.elapsed()).min(max_wait - waited);
        tokio::time::sleep(pause).await;
        Ok(())
    }

    /// The reply to one entry of a round.
    async fn answer(
        &mut self,
        key: String,
        request: InputRequest,
    ) -> Result<ElicitResult, CallError> {
        let request = match request {
            InputRequest::Elicitation(request) => request,
            InputRequest::CreateMessage(_) => {
                return Err(not_elicitation("sampling/createMessage"));
            }
            InputRequest::ListRoots(_) => return Err(not_elicitation("roots/list")),
            _ => return Err(not_elicitation("an unknown request")),
        };
        if let Some((index, since)) =
            self.still_open(&key, &InputRequest::Elicitation(request.clone()))
        {
            return Ok(self.keep_waiting(&key, index, since).await);
        }
        let answerer = self.answerer;
        let params = serde_json::to_value(&request.params).unwrap_or(Value::Null);
        let elicitation = match parse(&params, answerer.url_mode) {
            Ok(elicitation) => elicitation,
            Err(outcome) => {
                let reply = match outcome {
                    Outcome::Unsupported(_) | Outcome::Malformed(_) => ElicitResult::cancel(),
                    _ => ElicitResult::decline(),
                };
                self.record(Some(key), None, outcome);
                return Ok(reply);
            }
        };
        let timeout = answerer.limits.answer_timeout();
        let (reply, outcome) = ask(
            &answerer.shared.host,
            &self.asker,
            timeout,
            &elicitation,
            std::future::pending(),
        )
        .await;
        if let (Outcome::Opened, Elicitation::Url(request)) = (&outcome, &elicitation) {
            let open = Open {
                index: self.elicitations.len(),
                since: Instant::now(),
                page: page_of(&request.url),
            };
            self.open.insert(key.clone(), open);
        }
        self.record(Some(key), Some(elicitation), outcome);
        Ok(reply)
    }

    /// The open page `request` asks for again (under the same key, the same page), if it is one.
    fn still_open(&self, key: &str, request: &InputRequest) -> Option<(usize, Instant)> {
        let InputRequest::Elicitation(request) = request else {
            return None;
        };
        let rmcp::model::ElicitRequestParams::UrlElicitationParams { url, .. } = &request.params
        else {
            return None;
        };
        let open = self.open.get(key)?;
        (open.page == page_of(url)).then_some((open.index, open.since))
    }

    /// The same page asked again while the person is on it: `accept` again without showing
    /// it, unless the host stops waiting.
    async fn keep_waiting(&mut self, key: &str, index: usize, opened: Instant) -> ElicitResult {
        let Some(Elicitation::Url(request)) = self.elicitations[index].elicitation.clone() else {
            return ElicitResult::cancel();
        };
        let host = &self.answerer.shared.host;
        if host
            .keep_waiting(&self.asker, &request, opened.elapsed())
            .await
        {
            return ElicitResult::accept_empty();
        }
        self.open.remove(key);
        let elicited = &mut self.elicitations[index];
        elicited.outcome = Outcome::Unfinished;
        host.outcome(elicited);
        ElicitResult::cancel()
    }

    /// 2025-11-25 `-32042`: each required page not seen before shown for consent, then a
    /// pause until the server reports them complete (or a while passes) before the retry. A
    /// page already open is not shown again; one the person refused, asked again, is a replay.
    async fn open_required(&mut self, error: McpError) -> Result<(), CallError> {
        let entries = error
            .data
            .as_ref()
            .and_then(|data| data.get("elicitations"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let inner = self.answerer;
        let mut links = Vec::new();
        for entry in &entries {
            let outcome = match parse(entry, inner.url_mode) {
                Ok(Elicitation::Url(request)) => match request.elicitation_id.clone() {
                    Some(id) => {
                        links.push((id, request));
                        continue;
                    }
                    None => Outcome::Malformed(elicit_host::RequestError::Malformed {
                        member: "elicitationId",
                        problem: "is missing",
                    }),
                },
                Ok(Elicitation::Form(_)) => Outcome::Unsupported(crate::Mode::Form),
                Err(outcome) => outcome,
            };
            self.record(None, None, outcome);
            return Err(CallError::UrlNotCompleted { error });
        }
        if links.is_empty() {
            return Err(CallError::UrlNotCompleted { error });
        }
        if links
            .iter()
            .any(|(id, _)| inner.shared.links.state(&self.server, id).is_none())
        {
            self.count_round()?;
        }
        for (id, request) in &links {
            match inner.shared.links.state(&self.server, id) {
                Some(State::Opened | State::Completed) => continue,
                Some(State::Answered) => {
                    self.record(
                        None,
                        Some(Elicitation::Url(request.clone())),
                        Outcome::Replayed,
                    );
                    return Err(CallError::UrlNotCompleted { error });
                }
                None => {}
            }
            inner.shared.links.first_sight(&self.server, id);
            let elicitation = Elicitation::Url(request.clone());
            let timeout = inner.limits.answer_timeout();
            let (_, outcome) = ask(
                &inner.shared.host,
                &self.asker,
                timeout,
                &elicitation,
                std::future::pending(),
            )
            .await;
            let opened = outcome == Outcome::Opened;
            if opened {
                inner.shared.links.opened(&self.server, id, request);
            }
            self.record(None, Some(elicitation), outcome);
            if !opened {
                return Err(CallError::UrlNotCompleted { error });
            }
        }
        self.await_completions(&links, error).await
    }

    /// Until every link is reported complete, or [`COMPLETION_CHECK`] passes (the server may
    /// never report: the notification is optional), within the wait; the host says whether to
    /// go on waiting.
    async fn await_completions(
        &mut self,
        links: &[(String, UrlRequest)],
        error: McpError,
    ) -> Result<(), CallError> {
        let inner = self.answerer;
        let ids: Vec<String> = links.iter().map(|(id, _)| id.clone()).collect();
        let since = *self.waiting_since.get_or_insert_with(Instant::now);
        let max_wait = inner.limits.max_wait();
        let mut completions = inner.shared.links.watch();
        let check = Instant::now();
        while !inner.shared.links.all_completed(&self.server, &ids) {
            let waited = since.elapsed();
            if waited >= max_wait {
                return Err(CallError::WaitedOut { waited });
            }
            let left = COMPLETION_CHECK.saturating_sub(check.elapsed());
            if left.is_zero() {
                let (_, request) = &links[0];
                if !inner
                    .shared
                    .host
                    .keep_waiting(&self.asker, request, waited)
                    .await
                {
                    return Err(CallError::UrlNotCompleted { error });
                }
                return Ok(());
            }
            let _ = tokio::time::timeout(left.min(max_wait - waited), completions.changed()).await;
        }
        for elicited in &mut self.elicitations {
            if elicited.outcome == Outcome::Opened {
                elicited.outcome = Outcome::Completed;
            }
        }
        Ok(())
    }

    fn record(&mut self, key: Option<String>, elicitation: Option<Elicitation>, outcome: Outcome) {
        let elicited = self.answerer.report(&self.asker, key, elicitation, outcome);
        self.elicitations.push(elicited);
    }
}

/// A URL without its query and fragment: the page, whatever link to it.
fn page_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            parsed.set_query(None);
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => url.to_owned(),
    }
}

fn not_elicitation(method: &str) -> CallError {
    CallError::NotAnElicitation {
        method: method.to_owned(),
    }
}

/// A `-32602` answering a retry that carried state, with a reason about the state, is the
/// server refusing it (expired, altered, replayed); anything else is as it came.
fn refused_state(error: ServiceError, sent_state: bool) -> CallError {
    if let ServiceError::McpError(refusal) = &error
        && sent_state
        && refusal.code == rmcp::model::ErrorCode::INVALID_PARAMS
    {
        let reason = refusal
            .data
            .as_ref()
            .and_then(|data| data.get("reason"))
            .and_then(Value::as_str);
        let about_state = matches!(reason, Some(r) if r.contains("state") || r == "already_redeemed")
            || refusal.message.contains("requestState");
        if about_state {
            return CallError::StateRefused {
                reason: reason.map(str::to_owned),
                message: refusal.message.to_string(),
            };
        }
    }
    CallError::Service(error)
}
