//! What 10,000 (or `--flows N`) URL-mode retries held at once cost, and how fast they wake.
//! `scripts/held` runs it once per store, each in a fresh process (the figures below).
//!
//! ```text
//! cargo run --release -p elicit-harness --bin held                    # memory store only
//! cargo run --release -p elicit-harness --bin held -- --redis URL     # and Redis, both ways
//!   --flows N  --quiet-secs S  --only memory|redis-pubsub|redis-poll
//!   --check    exit non-zero unless every hold ends connected and every wait comes back
//! ```
//!
//! `scripts/held 10000` on 2 cores (load average 1.7–2.3), 20 s quiet window:
//!
//! ```text
//! store         cpu(quiet)  rss +held  per flow  wake p50  wake p99  waits held after disconnect
//! memory             0.00%  36588 KiB    3746 B      0 ms      9 ms    0
//! redis-pubsub       0.00%  38468 KiB    3939 B      0 ms      3 ms    0
//! redis-poll        69.64%  36800 KiB    3768 B    100 ms    202 ms    0
//! ```
//!
//! Wake latency is from each page's record to its retry's answer, all 10,000 pages recorded
//! back to back on the same two workers, so on a loaded machine it is mostly queueing. A held
//! retry on a store that wakes it does not look at the store until woken (`redis-pubsub`
//! sends Redis nothing while held). Where a held retry's bytes go (`HEAP=1 scripts/held`,
//! dhat): its handler task (the request's context inline, 648 B, and the hold's own state
//! with tokio's task header; asking is a boxed step whose locals are gone by the hold), the
//! call's arguments (the context keeps them, copied to their size), the request's answers and
//! flows (one-entry sorted vectors), a wait in the pool (under 500 B) and its bell (under
//! 200 B). Each retry's params are parsed in its task from the JSON a client sends, as a
//! transport parses a request, and handed over owned, as the rmcp adapter does: what the
//! server keeps of the request is counted. What the harness keeps per flow (each flow's user,
//! page handle and the params' text) is built before the baseline. On Redis, the client sends
//! at most 128 commands at once per connection, so 10,000 retries arriving together do not
//! each hold the client's buffers.
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

#[path = "../../procfs.rs"]
mod procfs;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use elicit_redis::RedisCompletionStore;
use elicit_runtime::legacy::BoxFuture;
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, StoreError, UrlSettings,
};
use elicit_runtime::{ElicitServer, ElicitUrl, Reply, UrlAnswer};
use procfs::{cpu_ticks, rss_kib};
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

#[cfg(feature = "heap-profile")]
#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Live heap (bytes, blocks) now; `None` without the `heap-profile` feature.
fn heap() -> Option<(u64, u64)> {
    #[cfg(feature = "heap-profile")]
    {
        let stats = dhat::HeapStats::get();
        Some((stats.curr_bytes as u64, stats.curr_blocks as u64))
    }
    #[cfg(not(feature = "heap-profile"))]
    None
}

struct Options {
    flows: usize,
    quiet: u64,
    /// Exit non-zero unless every hold was woken connected and every wait was given back.
    check: bool,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    #[cfg(feature = "heap-profile")]
    let _profiler = dhat::Profiler::new_heap();
    let mut args = std::env::args().skip(1);
    let (mut redis, mut only) = (None, None::<String>);
    let mut options = Options {
        flows: 10_000,
        quiet: 5,
        check: false,
    };
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--redis" => redis = args.next(),
            "--flows" => options.flows = args.next().ok_or("--flows N")?.parse()?,
            "--quiet-secs" => options.quiet = args.next().ok_or("--quiet-secs S")?.parse()?,
            "--check" => options.check = true,
            "--only" => only = Some(args.next().ok_or("--only STORE")?),
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    println!(
        "{} flows held at once; hold 60 s; {} s quiet window; 2 tokio workers",
        options.flows, options.quiet
    );
    println!(
        "{:<13} {:>10} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "store",
        "cpu(quiet)",
        "rss before",
        "rss +held",
        "per flow",
        "wake p50",
        "wake p99",
        "wake max",
        "disconnect"
    );
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if wanted("memory") {
        let memory = Arc::new(MemoryCompletionStore::new());
        measure("memory", memory, None, &options).await?;
    }
    if let Some(url) = redis {
        for (name, polled) in [("redis-pubsub", false), ("redis-poll", true)] {
            if !wanted(name) {
                continue;
            }
            let ns = format!("elicit-held:{}:{name}", std::process::id());
            let here = Arc::new(RedisCompletionStore::connect(&url, &ns).await?);
            let there: Arc<dyn CompletionStore> =
                Arc::new(RedisCompletionStore::connect(&url, &ns).await?);
            let store: Arc<dyn CompletionStore> =
                if polled { Arc::new(Polled(here)) } else { here };
            measure(name, store, Some(there), &options).await?;
        }
    }
    Ok(())
}

/// One flow ready for its held retry: its user, its page's handle and the retry's params.
type Retry = (String, String, Value);

/// Round 1 of `flows` flows, numbered from `from`: each one's link and the state to retry with.
async fn first_rounds(
    server: &ElicitServer,
    from: usize,
    flows: usize,
) -> Result<Vec<Retry>, Error> {
    let mut retries = Vec::with_capacity(flows);
    for n in from..from + flows {
        let user = format!("user-{n}");
        let first = call(None, None);
        let Reply::InputRequired(ask) = round(server, &user, first).await? else {
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
    Ok(retries)
}

/// Each held retry's flow number, when it was answered, and whether it ended connected.
type Held = tokio::task::JoinSet<(usize, Instant, Result<bool, String>)>;

/// A flow's user and its page's handle.
type Page = (String, String);
/// A retry's user and its params as the client sends them (JSON text).
type Sent = (String, String);

/// Each flow's user and its page's handle, and each retry (its user and params as sent), split
/// before the baseline so that what grows while held is the server's, not this harness's
/// bookkeeping. The server's share includes the params parsed from the text, as a transport
/// parses a request's body.
fn split(retries: Vec<Retry>) -> (Vec<Page>, Vec<Sent>) {
    retries
        .into_iter()
        .map(|(user, handle, params)| ((user.clone(), handle), (user, params.to_string())))
        .unzip()
}

/// Sends every retry; returns once all of them hold a wait.
async fn hold(server: &Arc<ElicitServer>, retries: Vec<Sent>) -> Result<Held, Error> {
    let flows = retries.len();
    let before = server.url_waits_held();
    let mut held = Held::new();
    for (n, (user, body)) in retries.into_iter().enumerate() {
        let server = server.clone();
        held.spawn(async move {
            let reply = match serde_json::from_str(&body) {
                Ok(params) => round(&server, &user, params).await,
                Err(e) => Err(e.into()),
            };
            let ok = reply
                .map(|r| matches!(r, Reply::Result(ref t) if t == "connected"))
                .map_err(|e| format!("{e:?}"));
            (n, Instant::now(), ok)
        });
    }
    // Generous: on a loaded machine the Redis stores admit a few hundred retries a second.
    let deadline = Instant::now() + Duration::from_secs(300);
    while server.url_waits_held() < before + flows {
        if Instant::now() > deadline {
            return Err(format!(
                "only {} of {flows} retries held after 300 s",
                server.url_waits_held() - before
            )
            .into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(held)
}

async fn measure(
    name: &str,
    store: Arc<dyn CompletionStore>,
    pages_store: Option<Arc<dyn CompletionStore>>,
    options: &Options,
) -> Result<(), Error> {
    let flows = options.flows;
    let sealer = StateSealer::new(KeyRing::generate(), "held");
    let server = ElicitServer::new(sealer.clone()).with_url(
        UrlSettings::new(store.clone())
            .with_hold(Duration::from_secs(60))
            .with_max_waits(flows * 2),
    );
    let server = Arc::new(server);
    let (pages, retries) = split(first_rounds(&server, 0, flows).await?);
    // Everything a client would send, and the harness's bookkeeping, is built before the
    // baseline: what is measured is what the server keeps while it holds.
    let mut recorded = vec![Instant::now(); flows];
    let (rss_before, heap_before) = (rss_kib("self"), heap());
    let mut held = hold(&server, retries).await?;
    // A quiet window with every retry held: what holding costs.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (cpu0, t0) = (cpu_ticks("self"), Instant::now());
    tokio::time::sleep(Duration::from_secs(options.quiet)).await;
    let cpu = (cpu_ticks("self") - cpu0) as f64 / 100.0 / t0.elapsed().as_secs_f64();
    let (rss_held, heap_held) = (rss_kib("self"), heap());
    // Every person finishes on the page at once.
    // On Redis the pages run on "another replica": the same keys and namespace, its own
    // store and connections, so the wake-up travels through Redis.
    let pages_server =
        ElicitServer::new(sealer).with_url(UrlSettings::new(pages_store.unwrap_or(store)));
    let page = LandingPage::new(&pages_server);
    for ((user, handle), at) in pages.iter().zip(&mut recorded) {
        let opened = page.open::<ConnectGithub>(handle, user).await?;
        page.complete(&opened, None).await?;
        *at = Instant::now();
    }
    // Each flow's wake: from its own page's record to its retry's answer.
    let mut wakes = Vec::with_capacity(flows);
    while let Some(joined) = held.join_next().await {
        let (n, at, ok) = joined?;
        if !ok? {
            return Err("a held retry did not end connected".into());
        }
        wakes.push(at.saturating_duration_since(recorded[n]));
    }
    let after_wakes = server.url_waits_held();
    // Clients that go away: their requests' handlers are dropped mid-hold (as the
    // transport drops a request whose connection closed). Every wait must come back.
    let (_, retries) = split(first_rounds(&server, flows, flows).await?);
    let mut held = hold(&server, retries).await?;
    let gone = Instant::now();
    held.shutdown().await;
    let after_disconnect = server.url_waits_held();
    let released_in = gone.elapsed();
    wakes.sort();
    let pct = |p: usize| wakes[(wakes.len() * p / 100).min(wakes.len() - 1)];
    let growth = rss_held.saturating_sub(rss_before) * 1024;
    println!(
        "{:<13} {:>9.2}% {:>7} KiB {:>7} KiB {:>7} B {:>6} ms {:>6} ms {:>6} ms {:>12}",
        name,
        cpu * 100.0,
        rss_before,
        rss_held.saturating_sub(rss_before),
        growth / flows as u64,
        pct(50).as_millis(),
        pct(99).as_millis(),
        wakes[wakes.len() - 1].as_millis(),
        format!("{after_disconnect} held"),
    );
    if let (Some((b0, k0)), Some((b1, k1))) = (heap_before, heap_held) {
        println!(
            "{:<13} heap per held flow: {} B in {} blocks",
            "",
            b1.saturating_sub(b0) / flows as u64,
            k1.saturating_sub(k0) / flows as u64,
        );
    }
    if options.check {
        if after_wakes != 0 || after_disconnect != 0 {
            return Err(format!(
                "waits still held: {after_wakes} after every wake, {after_disconnect} after every client went away"
            )
            .into());
        }
        println!(
            "{:<13} check: {flows} held retries woken connected; {flows} dropped mid-hold gave back their waits in {} ms",
            "",
            released_in.as_millis()
        );
    }
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

/// One request of `user`'s, its params handed over owned, as the rmcp adapter does (what the
/// context keeps is moved out of them, not copied).
async fn round(server: &ElicitServer, user: &str, params: Value) -> Result<Reply<String>, Error> {
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
