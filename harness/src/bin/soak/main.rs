//! The soak: two demo-server replicas on loopback streamable HTTP, sharing one key ring
//! (`ELICIT_KEYS`) and one real Redis, and CLIENTS concurrent rmcp clients each running FLOWS
//! whole MRTR flows on 2026-07-28 (forms, two questions in one round, URL mode), every round
//! on the other replica than the one before, every final retry replayed once more (it must
//! be refused). Redis is restarted a third of the way through. `scripts/soak` builds and runs
//! it; it exits non-zero on any error outside the restart, any lost or doubly redeemed
//! completion, any hang, or memory growing past the bound.
//!
//! ```text
//! soak --server target/release/demo-server --redis redis://127.0.0.1:6390 \
//!      --redis-script scripts/redis-server [--clients 8] [--flows 50] [--deadline 120] \
//!      [--restart-at 0.35 | --no-restart] [--rss-growth-kib 8192]
//! ```

mod flows;
#[path = "../../mcp_client.rs"]
mod mcp_client;
mod processes;
#[path = "../../procfs.rs"]
#[expect(dead_code, reason = "the soak reads memory only, not CPU time")]
mod procfs;
mod report;
mod stats;
mod window;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use elicit_runtime::state::KeyRing;

use flows::Client;
use processes::{RedisControl, Replica};
use procfs::rss_kib;
use report::{Outcome, report};
use stats::Tally;
use window::Window;

struct Options {
    server: PathBuf,
    redis: String,
    redis_script: PathBuf,
    clients: usize,
    flows: usize,
    deadline: Duration,
    restart_at: Option<f64>,
    rss_growth_kib: u64,
}

fn parse() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut server = None;
    let mut redis = None;
    let mut redis_script = None;
    let mut options = Options {
        server: PathBuf::new(),
        redis: String::new(),
        redis_script: PathBuf::new(),
        clients: 8,
        flows: 50,
        deadline: Duration::from_secs(120),
        restart_at: Some(0.35),
        rss_growth_kib: 8192,
    };
    while let Some(flag) = args.next() {
        if flag == "--no-restart" {
            options.restart_at = None;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: bad number {v:?}"))
        };
        match flag.as_str() {
            "--server" => server = Some(PathBuf::from(value)),
            "--redis" => redis = Some(value),
            "--redis-script" => redis_script = Some(PathBuf::from(value)),
            "--clients" => options.clients = number(&value)?.max(1) as usize,
            "--flows" => options.flows = number(&value)?.max(1) as usize,
            "--deadline" => options.deadline = Duration::from_secs(number(&value)?),
            "--rss-growth-kib" => options.rss_growth_kib = number(&value)?,
            "--restart-at" => {
                let at: f64 = value
                    .parse()
                    .map_err(|_| format!("bad fraction {value:?}"))?;
                options.restart_at = Some(at.clamp(0.0, 1.0));
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    options.server = server.ok_or("--server PATH is required")?;
    options.redis = redis.ok_or("--redis URL is required")?;
    options.redis_script = redis_script.ok_or("--redis-script PATH is required")?;
    Ok(options)
}

/// Memory of both replicas at one point of the run.
#[derive(Clone, Copy, Default)]
struct Rss {
    /// Flows done when it was sampled.
    done: usize,
    kib: [u64; 2],
}

fn sample(replicas: &[u32; 2], done: usize) -> Rss {
    Rss {
        done,
        kib: replicas.map(rss_kib),
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse() {
        Ok(options) => options,
        Err(problem) => {
            eprintln!("soak: {problem}");
            return ExitCode::from(2);
        }
    };
    match run(options).await {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(problem) => {
            eprintln!("soak: {problem}");
            ExitCode::FAILURE
        }
    }
}

async fn run(options: Options) -> Result<bool, String> {
    let keys = KeyRing::generate_config_entry(1);
    let mut replicas = Vec::new();
    for _ in 0..2 {
        replicas.push(Replica::start(&options.server, &keys, &options.redis).await?);
    }
    let origins = [replicas[0].origin.as_str(), replicas[1].origin.as_str()];
    let pids = [replicas[0].pid, replicas[1].pid];
    println!(
        "soak: replicas {} (pid {}) and {} (pid {}), Redis {}; {} clients x {} flows",
        origins[0], pids[0], origins[1], pids[1], options.redis, options.clients, options.flows
    );

    let window = Arc::new(Window::default());
    let mut clients = Vec::new();
    for id in 0..options.clients {
        clients.push(Client::connect(id, origins, window.clone()).await?);
    }
    let idle = sample(&pids, 0);

    let total = options.clients * options.flows;
    let done = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let deadline = started + options.deadline;
    let mut tasks = Vec::new();
    for mut client in clients {
        let done = done.clone();
        let flows = options.flows;
        tasks.push(tokio::spawn(async move {
            client.run(flows, &done, deadline).await;
            client.close().await
        }));
    }

    let watched = watch(&options, &pids, &done, &window, &tasks, started).await;
    let (restart, restart_done_at) = match watched.restart {
        None => (None, None),
        Some(task) => match task.await {
            Ok((result, at)) => (Some(result), Some(at)),
            Err(e) => (Some(Err(format!("the restart task failed: {e}"))), None),
        },
    };
    let mut tally = collect(tasks).await;
    let elapsed = watched.all_done.unwrap_or_else(|| started.elapsed());
    let end = sample(&pids, done.load(Ordering::Relaxed));
    for replica in &mut replicas {
        if let Ok(Some(status)) = replica.child.try_wait() {
            tally.hard_errors.push(format!(
                "replica {} exited during the run: {status}",
                replica.pid
            ));
        }
        let _ = replica.child.kill().await;
    }

    let outcome = Outcome {
        tally,
        total,
        elapsed,
        rss: [
            idle,
            watched.warm.unwrap_or_default(),
            watched.middle.unwrap_or_default(),
            end,
        ],
        restart,
        restart_done_at,
    };
    Ok(report(&options, &window, outcome))
}

/// What [`watch`] saw while the clients ran.
struct Watched {
    /// Memory at 10 % of the flows done (warm) and at 50 % (middle).
    warm: Option<Rss>,
    middle: Option<Rss>,
    /// The Redis restart, if it began: its result and how many flows were done when it ended.
    restart: Option<tokio::task::JoinHandle<(Result<(), String>, usize)>>,
    /// When the last flow ended (the late replays after it are not throughput).
    all_done: Option<Duration>,
}

/// Samples memory at 10 % and 50 % of the flows and restarts Redis at `restart_at`, until
/// every client is finished or the deadline (counted from `started`) passes.
async fn watch(
    options: &Options,
    pids: &[u32; 2],
    done: &Arc<AtomicUsize>,
    window: &Arc<Window>,
    tasks: &[tokio::task::JoinHandle<Tally>],
    started: Instant,
) -> Watched {
    let total = options.clients * options.flows;
    let deadline = started + options.deadline;
    let redis = RedisControl {
        script: options.redis_script.clone(),
        url: options.redis.clone(),
    };
    let mut watched = Watched {
        warm: None,
        middle: None,
        restart: None,
        all_done: None,
    };
    loop {
        let now = done.load(Ordering::Relaxed);
        if watched.all_done.is_none() && now >= total {
            watched.all_done = Some(started.elapsed());
        }
        if watched.warm.is_none() && now * 10 >= total {
            watched.warm = Some(sample(pids, now));
        }
        if watched.middle.is_none() && now * 2 >= total {
            watched.middle = Some(sample(pids, now));
        }
        if let (None, Some(at)) = (&watched.restart, options.restart_at)
            && now as f64 >= at * total as f64
        {
            // In a task of its own: the samples above go on while Redis is away.
            let (window, done, redis) = (window.clone(), done.clone(), redis.clone());
            watched.restart = Some(tokio::spawn(async move {
                window.begin();
                let result = redis.restart().await;
                window.end();
                (result, done.load(Ordering::Relaxed))
            }));
        }
        if tasks.iter().all(tokio::task::JoinHandle::is_finished) || Instant::now() > deadline {
            return watched;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every client's counts, merged; a client that failed or did not stop is a hard error.
async fn collect(tasks: Vec<tokio::task::JoinHandle<Tally>>) -> Tally {
    let mut tally = Tally::default();
    for task in tasks {
        match tokio::time::timeout(Duration::from_secs(30), task).await {
            Ok(Ok(counts)) => tally.merge(counts),
            Ok(Err(e)) => tally.hard_errors.push(format!("a client task failed: {e}")),
            Err(_) => tally
                .hard_errors
                .push("a client did not stop within 30 s of the deadline".into()),
        }
    }
    tally
}
