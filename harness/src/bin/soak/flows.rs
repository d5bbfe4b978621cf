//! One soak client: rmcp's own client, on protocol 2026-07-28 (`server/discover`, then
//! stateless streamable HTTP requests), connected to both replicas. Each flow is a whole MRTR
//! tool call whose rounds alternate between the replicas, so every `requestState` (and every
//! URL-mode completion) crosses them; its final retry is then replayed to the other replica,
//! which must refuse it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, InputRequiredResult, InputResponses, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use crate::stats::Tally;
use crate::window::Window;

/// How long one call (or page) may take before the soak calls it hung.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// How often a round failed during the Redis restart is sent again (every [`RETRY_PAUSE`]).
const MAX_ATTEMPTS: usize = 100;
const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// How often a flow whose state the restart spent is begun again.
const MAX_FLOW_RESTARTS: usize = 3;

/// The uniform JSON-RPC error for a refused `requestState`.
const INVALID_STATE: i32 = -32602;

use crate::mcp_client::Handler;

/// The four demo tools, each a whole flow.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Book,
    Cancel,
    Trip,
    Connect,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Book, Kind::Cancel, Kind::Trip, Kind::Connect];

    fn tool(self) -> &'static str {
        match self {
            Kind::Book => "book_table",
            Kind::Cancel => "cancel_reservation",
            Kind::Trip => "plan_trip",
            Kind::Connect => "connect_account",
        }
    }

    fn arguments(self, tag: &str) -> Value {
        match self {
            Kind::Book => json!({"restaurant": format!("Chez {tag}")}),
            Kind::Cancel => json!({"reservation_id": format!("R-{tag}")}),
            Kind::Trip => json!({"destination": format!("Rome {tag}")}),
            Kind::Connect => json!({"service": format!("svc-{tag}")}),
        }
    }

    /// The keys of the first round's `inputRequests`, sorted.
    fn asked(self) -> &'static [&'static str] {
        match self {
            Kind::Book => &["booking"],
            Kind::Cancel => &["confirm"],
            Kind::Trip => &["dates", "travelers"],
            Kind::Connect => &["connect"],
        }
    }

    fn answers(self) -> InputResponses {
        let accept = |content: Value| json!({"action": "accept", "content": content});
        let mut answers = InputResponses::new();
        match self {
            Kind::Book => {
                answers.insert(
                    "booking".into(),
                    accept(json!({
                        "date": "2026-12-24", "time": "20:00", "guests": 4, "seating": "terrace",
                        "extras": ["high_chair", "birthday_cake"], "email": "ada@example.com",
                    })),
                );
            }
            Kind::Cancel => {
                answers.insert("confirm".into(), accept(json!({"confirm": true})));
            }
            Kind::Trip => {
                answers.insert(
                    "dates".into(),
                    accept(json!({"start": "2026-12-24", "nights": 2})),
                );
                answers.insert(
                    "travelers".into(),
                    accept(json!({"adults": 2, "children": 1})),
                );
            }
            Kind::Connect => {
                answers.insert("connect".into(), json!({"action": "accept"}));
            }
        }
        answers
    }

    fn expected(self, tag: &str) -> String {
        match self {
            Kind::Book => format!(
                "accept: table for 4 at Chez {tag} on 2026-12-24 at 20:00, seating terrace, \
                 extras high_chair + birthday_cake, confirmation to ada@example.com"
            ),
            Kind::Cancel => format!("accept: reservation R-{tag} cancelled"),
            Kind::Trip => {
                format!(
                    "accept: 2 nights in Rome {tag} from 2026-12-24 for 2 adults and 1 children"
                )
            }
            Kind::Connect => format!("accept: connected svc-{tag} as demo-user@svc-{tag}"),
        }
    }
}

/// Why a flow stopped short.
enum Stop {
    /// Counted already (a hard error, a lost completion); go on with the next flow.
    Failed,
    /// The restart spent this flow's state: begin it again.
    Stale,
}

/// One client, connected to both replicas.
pub(crate) struct Client {
    id: usize,
    replicas: [RunningService<RoleClient, Handler>; 2],
    http: reqwest::Client,
    window: Arc<Window>,
    pub tally: Tally,
    /// Whether the current flow met the Redis restart (its errors are the restart's cost).
    tainted: bool,
    /// The last final retries completed before the restart, replayed again once Redis is
    /// back: a Redis that forgot its spent states on restart would let them through.
    before_restart: VecDeque<Final>,
}

/// A flow's final retry, kept to replay it later.
struct Final {
    replica: usize,
    retry: CallToolRequestParams,
    kind: Kind,
    tag: String,
}

/// How many final retries from before the restart each client replays after it.
const LATE_REPLAYS: usize = 4;

fn describe(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(e) => format!("JSON-RPC {} {:?}", e.code.0, e.message),
        other => format!("transport: {other}"),
    }
}

fn micros(since: Instant) -> u32 {
    u32::try_from(since.elapsed().as_micros()).unwrap_or(u32::MAX)
}

/// The text of a tool result (its first text content).
fn text_of(result: &impl serde::Serialize) -> String {
    let value = serde_json::to_value(result).unwrap_or_default();
    value["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

impl Client {
    /// Connects client `id` to both replicas (`http://…/mcp`) on 2026-07-28.
    pub(crate) async fn connect(
        id: usize,
        origins: [&str; 2],
        window: Arc<Window>,
    ) -> Result<Client, String> {
        let mut replicas = Vec::new();
        for origin in origins {
            let config = StreamableHttpClientTransportConfig::with_uri(format!("{origin}/mcp"));
            let transport = StreamableHttpClientTransport::from_config(config);
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            let running = tokio::time::timeout(
                CALL_TIMEOUT,
                Handler("elicit-soak").serve_with_lifecycle(transport, lifecycle),
            )
            .await
            .map_err(|_| format!("client {id}: {origin} did not answer server/discover"))?
            .map_err(|e| format!("client {id}: cannot connect to {origin}: {e}"))?;
            replicas.push(running);
        }
        let replicas: [_; 2] = replicas.try_into().map_err(|_| "two replicas")?;
        Ok(Client {
            id,
            replicas,
            // A browser keeps cookies: the landing page ties each link to the browser that
            // opened it first.
            http: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("a reqwest client"),
            window,
            tally: Tally::default(),
            tainted: false,
            before_restart: VecDeque::new(),
        })
    }

    /// Runs `flows` whole flows, counting each into `done`.
    pub(crate) async fn run(&mut self, flows: usize, done: &AtomicUsize, deadline: Instant) {
        for n in 0..flows {
            if Instant::now() > deadline {
                self.tally.hard_errors.push(format!(
                    "client {}: deadline reached with {} of {flows} flows done",
                    self.id, n
                ));
                return;
            }
            let kind = Kind::ALL[(self.id + n) % Kind::ALL.len()];
            let tag = format!("{}-{n}", self.id);
            let first = (self.id + n) % 2;
            self.tainted = false;
            let mut restarts = 0;
            loop {
                match self.flow(kind, &tag, first).await {
                    Ok(()) => break,
                    Err(Stop::Failed) => break,
                    Err(Stop::Stale) if restarts < MAX_FLOW_RESTARTS => {
                        restarts += 1;
                        self.tally.flows_restarted += 1;
                    }
                    Err(Stop::Stale) => {
                        self.tally.hard_errors.push(format!(
                            "{} {tag}: still refused after {restarts} fresh starts",
                            kind.tool()
                        ));
                        break;
                    }
                }
            }
            done.fetch_add(1, Ordering::Relaxed);
        }
        self.replay_after_restart(deadline).await;
    }

    /// Once Redis has been back a while, replays the final retries kept from before the
    /// restart: a Redis that forgot its spent states would let them through.
    async fn replay_after_restart(&mut self, deadline: Instant) {
        if !self.window.begun() {
            return;
        }
        while !self.window.over(Instant::now()) {
            if Instant::now() > deadline {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        for late in std::mem::take(&mut self.before_restart) {
            self.tally.late_replays += 1;
            self.replay(late.replica, &late.retry, late.kind, &late.tag)
                .await;
        }
    }

    /// One whole flow: the call, its answers on the other replica, the replay on the first.
    async fn flow(&mut self, kind: Kind, tag: &str, first: usize) -> Result<(), Stop> {
        let Value::Object(arguments) = kind.arguments(tag) else {
            unreachable!("arguments are objects")
        };
        let call = CallToolRequestParams::new(kind.tool()).with_arguments(arguments);
        let round = match self.call(first, &call).await? {
            CallToolResponse::InputRequired(round) => round,
            other => {
                return Err(self.hard(format!("{} {tag}: no question: {other:?}", kind.tool())));
            }
        };
        let asked: Vec<&str> = round
            .input_requests
            .iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .collect();
        if asked != kind.asked() {
            return Err(self.hard(format!("{} {tag}: asked {asked:?}", kind.tool())));
        }
        let Some(state) = round.request_state.clone() else {
            return Err(self.hard(format!(
                "{} {tag}: a round without requestState",
                kind.tool()
            )));
        };
        if matches!(kind, Kind::Connect) {
            let url = link_of(&round)
                .ok_or_else(|| self.hard(format!("connect {tag}: no url in {round:?}")))?;
            self.open_page(&url, tag).await?;
        }
        let retry = call
            .with_input_responses(kind.answers())
            .with_request_state(state);
        let second = 1 - first;
        match self.call(second, &retry).await? {
            CallToolResponse::Complete(result) => {
                let text = text_of(&result);
                if text != kind.expected(tag) {
                    return Err(self.hard(format!("{} {tag}: got {text:?}", kind.tool())));
                }
            }
            CallToolResponse::InputRequired(_) => {
                // The page recorded the completion before it answered 200: a round now (the
                // held retry found nothing and asked the link again) means the store lost it.
                self.tally
                    .lost
                    .push(format!("connect {tag}: completed page, retry still waits"));
                return Err(Stop::Failed);
            }
            other => {
                return Err(self.hard(format!("{} {tag}: retry answered {other:?}", kind.tool())));
            }
        }
        *self.tally.completed.entry(kind.tool()).or_default() += 1;
        self.replay(first, &retry, kind, tag).await;
        if !self.window.begun() {
            if self.before_restart.len() == LATE_REPLAYS {
                self.before_restart.pop_front();
            }
            self.before_restart.push_back(Final {
                replica: first,
                retry,
                kind,
                tag: tag.to_owned(),
            });
        }
        Ok(())
    }

    /// Sends the final retry once more, to the other replica: it must be refused.
    async fn replay(
        &mut self,
        replica: usize,
        retry: &CallToolRequestParams,
        kind: Kind,
        tag: &str,
    ) {
        let sent = Instant::now();
        let answer = tokio::time::timeout(
            CALL_TIMEOUT,
            self.replicas[replica].call_tool_once(retry.clone()),
        )
        .await;
        match answer {
            Err(_) => {
                let e = format!(
                    "{} {tag}: the replay hung past {CALL_TIMEOUT:?}",
                    kind.tool()
                );
                self.tally.hard_errors.push(e);
            }
            Ok(Err(ServiceError::McpError(e))) if e.code.0 == INVALID_STATE => {
                self.tally.calls.push(micros(sent));
                self.tally.replays_refused += 1;
            }
            Ok(Err(e)) if self.window.covers(Instant::now()) || self.tainted => {
                *self
                    .tally
                    .replays_refused_otherwise
                    .entry(describe(&e))
                    .or_default() += 1;
            }
            Ok(Err(e)) => {
                let e = format!("{} {tag}: replay failed: {}", kind.tool(), describe(&e));
                self.tally.hard_errors.push(e);
            }
            Ok(Ok(CallToolResponse::Complete(result))) => {
                let e = format!(
                    "{} {tag}: replay redeemed again: {}",
                    kind.tool(),
                    text_of(&result)
                );
                self.tally.double_redemptions.push(e);
            }
            Ok(Ok(other)) => {
                let e = format!("{} {tag}: replay answered {other:?}", kind.tool());
                self.tally.double_redemptions.push(e);
            }
        }
    }

    fn hard(&mut self, problem: String) -> Stop {
        self.tally.hard_errors.push(problem);
        Stop::Failed
    }

    /// An error now: the restart's cost (send again), or a hard error.
    fn failed(&mut self, what: String, context: &str) -> Result<(), Stop> {
        if self.tainted || self.window.covers(Instant::now()) {
            self.tainted = true;
            *self.tally.restart_errors.entry(what).or_default() += 1;
            Ok(())
        } else {
            Err(self.hard(format!("client {} {context}: {what}", self.id)))
        }
    }

    /// One round on `replica`, sent again while Redis restarts.
    async fn call(
        &mut self,
        replica: usize,
        params: &CallToolRequestParams,
    ) -> Result<CallToolResponse, Stop> {
        for attempt in 0..MAX_ATTEMPTS {
            let sent = Instant::now();
            let answer = tokio::time::timeout(
                CALL_TIMEOUT,
                self.replicas[replica].call_tool_once(params.clone()),
            )
            .await;
            match answer {
                Ok(Ok(response)) => {
                    self.tally.calls.push(micros(sent));
                    if attempt > 0 {
                        self.tally.rounds_retried_ok += 1;
                    }
                    return Ok(response);
                }
                Ok(Err(e)) => {
                    let stale = matches!(&e, ServiceError::McpError(e) if e.code.0 == INVALID_STATE)
                        && params.request_state.is_some();
                    self.failed(describe(&e), params.name.as_ref())?;
                    // Redis is back and the state is still refused: the restart spent it.
                    if stale && self.window.over(Instant::now()) {
                        return Err(Stop::Stale);
                    }
                    continue_after_pause().await;
                }
                // Redis's timeouts are far shorter: a call this slow is a hang, never a cost.
                Err(_) => {
                    return Err(self.hard(format!(
                        "client {} {}: hung past {CALL_TIMEOUT:?}",
                        self.id, params.name
                    )));
                }
            }
        }
        Err(self.hard(format!(
            "client {} {}: still failing after {MAX_ATTEMPTS} attempts",
            self.id, params.name
        )))
    }

    /// Opens a URL-mode link as the user's browser would: the confirmation page (GET), then
    /// its form posted back with the page's token, from the page's own origin (200).
    async fn open_page(&mut self, url: &str, tag: &str) -> Result<(), Stop> {
        for attempt in 0..MAX_ATTEMPTS {
            let sent = Instant::now();
            let what = match self.confirm_page(url).await {
                Ok(reqwest::StatusCode::OK) => {
                    self.tally.pages.push(micros(sent));
                    if attempt > 0 {
                        self.tally.rounds_retried_ok += 1;
                    }
                    return Ok(());
                }
                // Sent again after a failure: the first confirmation recorded it after all
                // (every refusal reads the same: 404).
                Ok(reqwest::StatusCode::NOT_FOUND) if attempt > 0 => return Ok(()),
                Ok(status) => format!("page HTTP {}", status.as_u16()),
                Err(e) if e.is_timeout() => {
                    return Err(
                        self.hard(format!("connect {tag}: page hung past {CALL_TIMEOUT:?}"))
                    );
                }
                Err(e) => format!("page: {e}"),
            };
            self.failed(what, &format!("connect {tag} page"))?;
            continue_after_pause().await;
        }
        Err(self.hard(format!(
            "connect {tag}: page failing after {MAX_ATTEMPTS} attempts"
        )))
    }

    /// GET the page; if it is the confirmation page, POST its form with Confirm. The status
    /// of the last answer.
    async fn confirm_page(&self, url: &str) -> Result<reqwest::StatusCode, reqwest::Error> {
        crate::mcp_client::confirm_page(&self.http, url, CALL_TIMEOUT).await
    }

    /// Closes both connections.
    pub(crate) async fn close(self) -> Tally {
        for replica in self.replicas {
            let _ = replica.cancel().await;
        }
        self.tally
    }
}

async fn continue_after_pause() {
    tokio::time::sleep(RETRY_PAUSE).await;
}

/// The URL of the round's `connect` request.
fn link_of(round: &InputRequiredResult) -> Option<String> {
    let request = round.input_requests.as_ref()?.get("connect")?;
    let value = serde_json::to_value(request).ok()?;
    (value["params"]["mode"] == "url")
        .then(|| value["params"]["url"].as_str().map(str::to_owned))
        .flatten()
}
