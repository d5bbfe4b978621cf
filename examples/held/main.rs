//! What 1,000 (or `--flows N`) URL-mode retries held at once cost, and how fast they wake.
//!
//! ```text
//! cargo run --release -p elicit-examples --example held                    # memory store only
//! cargo run --release -p elicit-examples --example held -- --redis URL     # and Redis, both ways
//! ```
//!
//! For each store it starts N 2026-07-28 flows (one user each), sends each flow's retry with
//! the `accept` so all N are held at once, measures the process's CPU time (user + system,
//! from `/proc/self/stat`) and resident memory (`VmRSS`) over a quiet hold of a few seconds,
//! then has every page record and measures, per flow, the time from its record to its retry's
//! answer. The stores, in the same run:
//!
//! * `memory`: `MemoryCompletionStore` (woken in process);
//! * `redis-pubsub`: `RedisCompletionStore`, the pages recording through a second store on
//!   the same namespace (another replica): woken by the record's `PUBLISH`;
//! * `redis-poll`: the same store with its bells hidden, so each held retry polls Redis (every
//!   50 ms, backing off to 200 ms): the baseline the subscription is measured against.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use elicit_redis::RedisCompletionStore;
use elicit_runtime::legacy::BoxFuture;
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, StoreError, UrlSettings,
};
use elicit_runtime::{ElicitServer, ElicitUrl, Reply, UrlAnswer};
use serde_json::{Value, json};

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(
    message = "Connect your GitHub account",
    url = "https://connect.example.com/github"
)]
struct ConnectGithub {
    repo: String,
}

/// A store that never hands out bells: its waiters poll.
struct Polled(Arc<dyn CompletionStore>);

impl CompletionStore for Polled {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.0.record(id, completion, expires_at)
    }
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.0.lookup(id)
    }
    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.0.redeem(id, expires_at)
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let (mut redis, mut flows, mut quiet) = (None, 1000usize, 5u64);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--redis" => redis = args.next(),
            "--flows" => flows = args.next().ok_or("--flows N")?.parse()?,
            "--quiet-secs" => quiet = args.next().ok_or("--quiet-secs S")?.parse()?,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    println!("{flows} flows held at once; hold 60 s; {quiet} s quiet window; 2 tokio workers");
    println!(
        "{:<13} {:>10} {:>12} {:>12} {:>9} {:>9} {:>9}",
        "store", "cpu(quiet)", "rss before", "rss +held", "wake p50", "wake p99", "wake max"
    );
    let memory = Arc::new(MemoryCompletionStore::new());
    measure("memory", memory, None, flows, quiet).await?;
    if let Some(url) = redis {
        for (name, polled) in [("redis-pubsub", false), ("redis-poll", true)] {
            let ns = format!("elicit-held:{}:{name}", std::process::id());
            let here = Arc::new(RedisCompletionStore::connect(&url, &ns).await?);
            let there: Arc<dyn CompletionStore> =
                Arc::new(RedisCompletionStore::connect(&url, &ns).await?);
            let store: Arc<dyn CompletionStore> =
                if polled { Arc::new(Polled(here)) } else { here };
            measure(name, store, Some(there), flows, quiet).await?;
        }
    }
    Ok(())
}

async fn measure(
    name: &str,
    store: Arc<dyn CompletionStore>,
    pages_store: Option<Arc<dyn CompletionStore>>,
    flows: usize,
    quiet: u64,
) -> Result<(), Error> {
    let sealer = StateSealer::new(KeyRing::generate(), "held");
    let server = ElicitServer::new(sealer.clone()).with_url(
        UrlSettings::new(store.clone())
            .with_hold(Duration::from_secs(60))
            .with_max_waits(flows * 2),
    );
    let server = Arc::new(server);
    // Round 1 of every flow: its link and the state to retry with.
    let mut retries = Vec::with_capacity(flows);
    for n in 0..flows {
        let user = format!("user-{n}");
        let first = call(None, None);
        let Reply::InputRequired(ask) = round(&server, &user, &first).await? else {
            return Err("round 1 asks".into());
        };
        let wire = serde_json::to_value(&ask)?;
        let url = wire["inputRequests"]["connect_github"]["params"]["url"]
            .as_str()
            .ok_or("a link")?;
        let handle = url
            .split_once("elicitation=")
            .ok_or("a handle")?
            .1
            .to_owned();
        let state = ask.request_state().ok_or("a state")?.to_owned();
        retries.push((
            user,
            handle,
            call(
                Some(&state),
                Some(json!({"connect_github": {"action": "accept"}})),
            ),
        ));
    }
    let rss_before = rss_kib();
    let mut held = tokio::task::JoinSet::new();
    let mut pages = Vec::with_capacity(flows);
    for (user, handle, params) in retries {
        let server = server.clone();
        let u = user.clone();
        held.spawn(async move {
            let reply = round(&server, &u, &params).await;
            let ok = reply.map(|r| matches!(r, Reply::Result(ref t) if t == "connected"));
            (u, Instant::now(), ok)
        });
        pages.push((user, handle));
    }
    // Let every retry reach its hold, then a quiet window: what holding costs.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (cpu0, t0) = (cpu_ticks(), Instant::now());
    tokio::time::sleep(Duration::from_secs(quiet)).await;
    let cpu = (cpu_ticks() - cpu0) as f64 / 100.0 / t0.elapsed().as_secs_f64();
    let rss_held = rss_kib();
    // Every person finishes on the page at once.
    // On Redis the pages run on "another replica": the same keys and namespace, its own
    // store and connections, so the wake-up travels through Redis.
    let pages_server =
        ElicitServer::new(sealer).with_url(UrlSettings::new(pages_store.unwrap_or(store)));
    let page = LandingPage::new(&pages_server);
    let mut recorded = std::collections::HashMap::with_capacity(flows);
    for (user, handle) in &pages {
        let opened = page.open::<ConnectGithub>(handle, user).await?;
        page.complete(&opened, None).await?;
        recorded.insert(user.clone(), Instant::now());
    }
    // Each flow's wake: from its own page's record to its retry's answer.
    let mut wakes = Vec::with_capacity(flows);
    while let Some(joined) = held.join_next().await {
        let (user, at, ok) = joined?;
        if !ok.map_err(|e| format!("{e:?}"))? {
            return Err("a held retry did not end connected".into());
        }
        wakes.push(at.saturating_duration_since(recorded[&user]));
    }
    wakes.sort();
    let pct = |p: usize| wakes[(wakes.len() * p / 100).min(wakes.len() - 1)];
    println!(
        "{:<13} {:>9.1}% {:>9} KiB {:>9} KiB {:>7} ms {:>7} ms {:>7} ms",
        name,
        cpu * 100.0,
        rss_before,
        rss_held.saturating_sub(rss_before),
        pct(50).as_millis(),
        pct(99).as_millis(),
        wakes[wakes.len() - 1].as_millis()
    );
    Ok(())
}

fn call(state: Option<&str>, responses: Option<Value>) -> Value {
    let mut params = json!({
        "name": "connect", "arguments": {"repo": "octo/hello"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}
        }
    });
    if let Some(state) = state {
        params["requestState"] = json!(state);
    }
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    params
}

async fn round(server: &ElicitServer, user: &str, params: &Value) -> Result<Reply<String>, Error> {
    let mut cx = server
        .context("tools/call", params)
        .principal(user)
        .build()
        .map_err(|e| format!("{e:?}"))?;
    let result = async {
        let state = ConnectGithub {
            repo: "octo/hello".into(),
        };
        Ok(match state.ask(&mut cx).await? {
            UrlAnswer::Completed { .. } => "connected".to_owned(),
            other => format!("{other:?}"),
        })
    }
    .await;
    cx.respond(result)
        .await
        .map_err(|e| format!("{e:?}").into())
}

/// The process's user + system CPU time in clock ticks (100 per second on Linux).
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the command: state is field 3, utime 14, stime 15 (1-based over the whole line).
    let field = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(14) + field(15)
}

/// Resident memory in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
