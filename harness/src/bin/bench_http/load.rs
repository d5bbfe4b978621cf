//! The load: CLIENTS rmcp clients on 2026-07-28 through the load balancer, each running whole
//! flows back to back (a form round, a two-question round, a URL flow whose page is confirmed
//! on the other replica than the one that sent the link) until the phase ends. Every answer is
//! checked; calls, pages and whole flows are timed once the warm-up is over.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, InputRequiredResult, ProtocolVersion, ServerConfig,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use crate::flows::{Kind, final_text};

/// A call or page slower than this is a hang.
const TIMEOUT: Duration = Duration::from_secs(30);

use crate::mcp_client::Handler;

/// Connects to `mcp` (`http://…/mcp`) on 2026-07-28.
pub(crate) async fn connect(mcp: &str) -> Result<RunningService<RoleClient, Handler>, String> {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(mcp),
    );
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    tokio::time::timeout(
        TIMEOUT,
        Handler("elicit-bench-http").serve_with_lifecycle(transport, lifecycle),
    )
    .await
    .map_err(|_| format!("{mcp} did not answer server/discover"))?
    .map_err(|e| format!("cannot connect to {mcp}: {e}"))
}

/// The server's `initialize` result and each tool's first round (`capture`).
pub(crate) async fn capture(
    mcp: &str,
) -> Result<(ServerConfig, Vec<(&'static str, InputRequiredResult)>), String> {
    let client = connect(mcp).await?;
    let info = client.peer_info().ok_or("no server info")?;
    let mut rounds = Vec::new();
    for kind in Kind::ALL {
        let call =
            CallToolRequestParams::new(kind.tool()).with_arguments(kind.arguments("capture"));
        match client.call_tool_once(call).await {
            Ok(CallToolResponse::InputRequired(round)) => rounds.push((kind.tool(), round)),
            other => return Err(format!("{}: no question: {other:?}", kind.tool())),
        }
    }
    let _ = client.cancel().await;
    // The peer info is the `initialize` result's fields; the floor serves them as one.
    let info = serde_json::to_value(&*info)
        .and_then(serde_json::from_value)
        .map_err(|e| format!("the server's info: {e}"))?;
    Ok((info, rounds))
}

/// One side under test: its load balancer's MCP endpoint and its two replicas' origins.
pub(crate) struct Side {
    pub name: &'static str,
    pub mcp: String,
    pub replicas: [String; 2],
}

/// What one phase measured (microseconds, from the end of the warm-up to the end).
#[derive(Default)]
pub(crate) struct Samples {
    pub calls: Vec<u32>,
    pub pages: Vec<u32>,
    pub flows: Vec<u32>,
    pub errors: Vec<String>,
    /// Flows finished, by kind, during the measured part.
    pub finished: [u64; 3],
}

impl Samples {
    pub(crate) fn merge(&mut self, other: Samples) {
        self.calls.extend(other.calls);
        self.pages.extend(other.pages);
        self.flows.extend(other.flows);
        self.errors.extend(other.errors);
        for (a, b) in self.finished.iter_mut().zip(other.finished) {
            *a += b;
        }
    }
}

fn micros(since: Instant) -> u32 {
    u32::try_from(since.elapsed().as_micros()).unwrap_or(u32::MAX)
}

/// The phase's clock: flows begun before `measured` are warm-up; none begins after `stop`.
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    pub measured: Instant,
    pub stop: Instant,
}

/// Runs `clients` clients on `side` until `clock.stop` (or, with `flows`, that many each).
pub(crate) async fn run(
    side: &Side,
    clients: usize,
    clock: Clock,
    flows: Option<usize>,
) -> Result<Samples, String> {
    let side = Arc::new((side.mcp.clone(), side.replicas.clone()));
    let mut connecting = tokio::task::JoinSet::new();
    for _ in 0..clients {
        let side = side.clone();
        connecting.spawn(async move { connect(&side.0).await });
    }
    let mut connected = Vec::new();
    while let Some(client) = connecting.join_next().await {
        connected.push(client.map_err(|e| e.to_string())??);
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (id, client) in connected.into_iter().enumerate() {
        let side = side.clone();
        tasks.spawn(async move {
            let http = reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("a reqwest client");
            let mut samples = Samples::default();
            let mut n = 0;
            while flows.is_none_or(|f| n < f) && (flows.is_some() || Instant::now() < clock.stop) {
                let kind = Kind::ALL[(id + n) % Kind::ALL.len()];
                let begun = Instant::now();
                let mut timed = Samples::default();
                let tag = format!("{id}-{n}");
                match flow(&client, &http, &side.1, kind, &tag, &mut timed).await {
                    Ok(()) if begun >= clock.measured || flows.is_some() => {
                        timed.flows.push(micros(begun));
                        timed.finished[kind as usize] += 1;
                        samples.merge(timed);
                    }
                    Ok(()) => {}
                    Err(e) => samples.errors.push(format!("{} {tag}: {e}", kind.tool())),
                }
                n += 1;
            }
            let _ = client.cancel().await;
            samples
        });
    }
    let mut all = Samples::default();
    while let Some(samples) = tasks.join_next().await {
        all.merge(samples.map_err(|e| e.to_string())?);
    }
    Ok(all)
}

/// One whole flow, its calls and page timed into `timed`.
async fn flow(
    client: &RunningService<RoleClient, Handler>,
    http: &reqwest::Client,
    replicas: &[String; 2],
    kind: Kind,
    tag: &str,
    timed: &mut Samples,
) -> Result<(), String> {
    let call = CallToolRequestParams::new(kind.tool()).with_arguments(kind.arguments(tag));
    let round = match timed_call(client, call.clone(), timed).await? {
        CallToolResponse::InputRequired(round) => round,
        other => return Err(format!("no question: {other:?}")),
    };
    let state = round
        .request_state
        .clone()
        .ok_or("a round without requestState")?;
    if kind == Kind::Url {
        let link = link_of(&round).ok_or("no link")?;
        let page = on_other_replica(&link, replicas)?;
        let sent = Instant::now();
        confirm(http, &page).await?;
        timed.pages.push(micros(sent));
    }
    let answers = kind.answers();
    let expected = final_text(kind, &kind.arguments(tag), &answers).ok_or("no expected text")?;
    let retry = call.with_input_responses(answers).with_request_state(state);
    match timed_call(client, retry, timed).await? {
        CallToolResponse::Complete(result) => {
            let value = serde_json::to_value(&result).unwrap_or_default();
            let text = value["content"][0]["text"].as_str().unwrap_or_default();
            if text != expected {
                return Err(format!("got {text:?}, expected {expected:?}"));
            }
            Ok(())
        }
        other => Err(format!("retry answered {other:?}")),
    }
}

async fn timed_call(
    client: &RunningService<RoleClient, Handler>,
    params: CallToolRequestParams,
    timed: &mut Samples,
) -> Result<CallToolResponse, String> {
    let sent = Instant::now();
    let answer = tokio::time::timeout(TIMEOUT, client.call_tool_once(params))
        .await
        .map_err(|_| format!("hung past {TIMEOUT:?}"))?
        .map_err(|e| e.to_string())?;
    timed.calls.push(micros(sent));
    Ok(answer)
}

/// The link moved to the other replica than the one it points at.
fn on_other_replica(link: &str, replicas: &[String; 2]) -> Result<String, String> {
    for (i, origin) in replicas.iter().enumerate() {
        if let Some(rest) = link.strip_prefix(origin.as_str()) {
            return Ok(format!("{}{rest}", replicas[1 - i]));
        }
    }
    Err(format!(
        "the link {link} is on neither replica {replicas:?}"
    ))
}

/// Opens the page as a browser would and confirms it: 200, or an error.
async fn confirm(http: &reqwest::Client, url: &str) -> Result<(), String> {
    let status = crate::mcp_client::confirm_page(http, url, TIMEOUT)
        .await
        .map_err(|e| format!("page: {e}"))?;
    if status != reqwest::StatusCode::OK {
        return Err(format!("page answered HTTP {}", status.as_u16()));
    }
    Ok(())
}

/// The URL of the round's `connect` request.
fn link_of(round: &InputRequiredResult) -> Option<String> {
    let request = round.input_requests.as_ref()?.get("connect")?;
    let value = serde_json::to_value(request).ok()?;
    value["params"]["url"].as_str().map(str::to_owned)
}
