//! The load benchmark over streamable HTTP (`scripts/bench-http` runs it; read that script for
//! the setup and the figures). Three modes:
//!
//! ```text
//! bench_http keys                                  # a fresh ELICIT_KEYS for the replicas
//! bench_http capture --mcp URL > answers.json      # the demo's rounds, for the floor
//! bench_http floor --http PORT --answers FILE      # a floor replica (bare rmcp)
//! bench_http load --demo URL --demo-replicas O1,O2 --floor URL --floor-replicas O3,O4 \
//!     [--clients 64,256] [--secs 10] [--warmup 2] [--pids demo=P,P floor=P,P haproxy=P redis=P]
//!     [--redis-port PORT] [--perf-dir DIR] [--smoke]
//! ```
//!
//! `load` runs, for each number of clients, the floor, the demo, the demo again and the floor
//! again (each through its own load balancer frontend; `--secs` each), and prints per side,
//! over both of its phases: flows and calls per second, p50/p99 of a call,
//! of a page, of a whole flow, and the CPU each process spent per flow; then the demo's ratio
//! to the floor. `--smoke` runs 3 flows per client and fails on any error.

mod floor;
mod flows;
mod load;
#[path = "../../mcp_client.rs"]
mod mcp_client;
#[path = "../../procfs.rs"]
#[expect(dead_code, reason = "the benchmark reads CPU time only, not memory")]
mod procfs;
mod profile;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use load::{Clock, Samples, Side};
use profile::{Cpu, Processes};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let result = runtime.block_on(async {
        match args.first().map(String::as_str) {
            Some("capture") => capture(&args[1..]).await,
            Some("floor") => floor_mode(&args[1..]).await,
            Some("load") => load_mode(&args[1..]).await,
            Some("keys") => {
                println!(
                    "{}",
                    elicit_runtime::state::KeyRing::generate_config_entry(1)
                );
                Ok(())
            }
            _ => Err("usage: bench_http keys|capture|floor|load …".into()),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("bench_http: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// `--flag value` pairs (and bare `--smoke`).
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn required<'a>(args: &'a [String], name: &str) -> Result<&'a str, String> {
    flag(args, name).ok_or_else(|| format!("{name} is required"))
}

fn pair(text: &str) -> Result<[String; 2], String> {
    let parts: Vec<String> = text.split(',').map(str::to_owned).collect();
    parts
        .try_into()
        .map_err(|_| format!("two comma-separated values, not {text:?}"))
}

async fn capture(args: &[String]) -> Result<(), String> {
    let (initialize, rounds) = load::capture(required(args, "--mcp")?).await?;
    let answers = floor::Answers {
        initialize,
        rounds: rounds.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&answers).map_err(|e| e.to_string())?
    );
    Ok(())
}

async fn floor_mode(args: &[String]) -> Result<(), String> {
    let port = required(args, "--http")?
        .parse()
        .map_err(|_| "bad --http port")?;
    let path = required(args, "--answers")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let answers = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    floor::serve(port, answers).await
}

async fn load_mode(args: &[String]) -> Result<(), String> {
    let smoke = args.iter().any(|a| a == "--smoke");
    let sides = [
        Side {
            name: "floor",
            mcp: required(args, "--floor")?.to_owned(),
            replicas: pair(required(args, "--floor-replicas")?)?,
        },
        Side {
            name: "demo",
            mcp: required(args, "--demo")?.to_owned(),
            replicas: pair(required(args, "--demo-replicas")?)?,
        },
    ];
    let clients: Vec<usize> = flag(args, "--clients")
        .unwrap_or("64,256")
        .split(',')
        .map(|c| c.parse().map_err(|_| format!("bad --clients {c:?}")))
        .collect::<Result<_, _>>()?;
    let secs = |name, default| -> Result<Duration, String> {
        let text = flag(args, name).unwrap_or(default);
        text.parse::<f64>()
            .map(Duration::from_secs_f64)
            .map_err(|_| format!("bad {name} {text:?}"))
    };
    let (measure, warmup) = (secs("--secs", "10")?, secs("--warmup", "2")?);
    let processes = Processes::from_args(args)?;
    let perf_dir = flag(args, "--perf-dir");

    let mut failed = false;
    let mut profiled = [false; 2];
    // Floor, demo, demo, floor: a load that drifts during the run weighs on both sides alike.
    let order: &[usize] = if smoke { &[0, 1] } else { &[0, 1, 1, 0] };
    for &n in &clients {
        let mut totals: [Option<(Samples, Duration, profile::Used)>; 2] = [None, None];
        for &which in order {
            let side = &sides[which];
            let cpu = Cpu::start(&processes, side.name);
            let started = Instant::now();
            let clock = Clock {
                measured: started + warmup,
                stop: started + warmup + measure,
            };
            let perf = match perf_dir {
                Some(dir) if !smoke && !profiled[which] => {
                    profiled[which] = true;
                    Some(profile::Perf::record(
                        &processes, side.name, dir, warmup, measure,
                    ))
                }
                _ => None,
            };
            let flows = smoke.then_some(3);
            // CPU and Redis counters from the end of the warm-up.
            let counters = {
                let processes = processes.clone();
                let name = side.name;
                tokio::spawn(async move {
                    tokio::time::sleep_until(clock.measured.into()).await;
                    Cpu::start(&processes, name)
                })
            };
            let samples = load::run(side, n, clock, flows).await?;
            let elapsed = if smoke {
                started.elapsed()
            } else {
                clock.stop.saturating_duration_since(clock.measured)
            };
            let cpu = if smoke {
                cpu
            } else {
                counters.await.map_err(|e| e.to_string())?
            };
            let used = cpu.stop(&processes);
            if let Some(perf) = perf {
                perf.finish().await;
            }
            if !samples.errors.is_empty() {
                failed = true;
                eprintln!(
                    "bench_http: {} at {n} clients: {} errors, first: {}",
                    side.name,
                    samples.errors.len(),
                    samples.errors[0]
                );
            }
            if smoke && samples.finished.iter().sum::<u64>() != 3 * n as u64 {
                failed = true;
                eprintln!(
                    "bench_http: {} at {n} clients: not every flow finished",
                    side.name
                );
            }
            match &mut totals[which] {
                Some((all, time, cpu)) => {
                    all.merge(samples);
                    *time += elapsed;
                    cpu.merge(used);
                }
                none => *none = Some((samples, elapsed, used)),
            }
        }
        let mut rows: Vec<_> = sides
            .iter()
            .zip(totals)
            .filter_map(|(side, total)| {
                let (samples, elapsed, used) = total?;
                Some((side.name, Row::of(samples, elapsed), used))
            })
            .collect();
        print_rows(n, &mut rows);
    }
    if let Some(dir) = perf_dir
        && !smoke
    {
        profile::report(dir);
    }
    if failed {
        Err("some flows failed".into())
    } else {
        Ok(())
    }
}

/// One side's figures for one number of clients.
struct Row {
    flows_per_s: f64,
    calls_per_s: f64,
    flows: u64,
    call: [Duration; 2],
    page: [Duration; 2],
    flow: [Duration; 2],
}

impl Row {
    fn of(mut samples: Samples, elapsed: Duration) -> Row {
        let flows: u64 = samples.finished.iter().sum();
        let secs = elapsed.as_secs_f64().max(1e-9);
        Row {
            flows_per_s: flows as f64 / secs,
            calls_per_s: samples.calls.len() as f64 / secs,
            flows,
            call: p50_p99(&mut samples.calls),
            page: p50_p99(&mut samples.pages),
            flow: p50_p99(&mut samples.flows),
        }
    }
}

fn p50_p99(samples: &mut [u32]) -> [Duration; 2] {
    samples.sort_unstable();
    [0.5, 0.99].map(|q| {
        if samples.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
        Duration::from_micros(u64::from(samples[rank - 1]))
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_rows(clients: usize, rows: &mut [(&str, Row, profile::Used)]) {
    println!("{clients} clients:");
    for (name, row, used) in rows.iter() {
        println!(
            "  {name:<5} {:>7.1} flows/s {:>7.1} calls/s ({} flows)  call p50 {:.2} ms p99 {:.2} ms  \
             page p50 {:.2} ms p99 {:.2} ms  flow p50 {:.2} ms p99 {:.2} ms",
            row.flows_per_s,
            row.calls_per_s,
            row.flows,
            ms(row.call[0]),
            ms(row.call[1]),
            ms(row.page[0]),
            ms(row.page[1]),
            ms(row.flow[0]),
            ms(row.flow[1]),
        );
        println!("        CPU per flow: {}", used.per_flow(row.flows));
    }
    if let [(_, floor, _), (_, demo, _), ..] = rows {
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
        println!(
            "  demo/floor: throughput {:.2}x (goal >= 0.90), call p99 {:.2}x (goal <= 1.10), \
             call p50 {:.2}x, flow p99 {:.2}x",
            demo.flows_per_s / floor.flows_per_s.max(1e-9),
            ratio(demo.call[1], floor.call[1]),
            ratio(demo.call[0], floor.call[0]),
            ratio(demo.flow[1], floor.flow[1]),
        );
    }
}
