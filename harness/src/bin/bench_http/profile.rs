//! Where the time goes: the CPU each process spent per flow (from `/proc/PID/stat`), Redis's
//! own count of commands and their time (`INFO commandstats`), and, with `--perf-dir`, a
//! `perf record` (cpu-clock samples) of each side's replicas during the first number of
//! clients, its self time summed by what the symbol belongs to.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use crate::procfs::cpu_ticks;

/// The processes of the run (pids from `--pids`), and Redis's port.
#[derive(Clone, Default)]
pub(crate) struct Processes {
    demo: Vec<u32>,
    floor: Vec<u32>,
    haproxy: Vec<u32>,
    redis: Vec<u32>,
    redis_port: Option<u16>,
}

impl Processes {
    /// `--pids demo=P,P floor=P,P haproxy=P redis=P` (each optional) and `--redis-port PORT`.
    pub(crate) fn from_args(args: &[String]) -> Result<Processes, String> {
        let mut processes = Processes {
            redis_port: match super::flag(args, "--redis-port") {
                Some(port) => Some(port.parse().map_err(|_| "bad --redis-port")?),
                None => None,
            },
            ..Processes::default()
        };
        let Some(at) = args.iter().position(|a| a == "--pids") else {
            return Ok(processes);
        };
        for entry in args[at + 1..].iter().take_while(|a| !a.starts_with("--")) {
            let (name, pids) = entry.split_once('=').ok_or("--pids NAME=PID,PID …")?;
            let pids = pids
                .split(',')
                .map(|p| p.parse().map_err(|_| format!("bad pid {p:?}")))
                .collect::<Result<Vec<u32>, String>>()?;
            match name {
                "demo" => processes.demo = pids,
                "floor" => processes.floor = pids,
                "haproxy" => processes.haproxy = pids,
                "redis" => processes.redis = pids,
                other => return Err(format!("unknown process {other:?}")),
            }
        }
        Ok(processes)
    }

    fn groups(&self, side: &str) -> Vec<(&'static str, Vec<u32>)> {
        let replicas = if side == "demo" {
            &self.demo
        } else {
            &self.floor
        };
        let mut groups = vec![
            ("replicas", replicas.clone()),
            ("haproxy", self.haproxy.clone()),
            ("load generator", vec![std::process::id()]),
        ];
        if side == "demo" {
            groups.insert(1, ("redis", self.redis.clone()));
        }
        groups
    }
}

fn redis_cli(port: u16, args: &[&str]) -> String {
    Command::new("redis-cli")
        .args(["-h", "127.0.0.1", "-p", &port.to_string()])
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Counters at the start of a measured phase.
pub(crate) struct Cpu {
    side: String,
    start: Vec<(&'static str, u64)>,
}

/// What a phase used.
pub(crate) struct Used {
    /// CPU ticks by process group.
    ticks: Vec<(&'static str, u64)>,
    /// Redis commands: name, calls, microseconds (Redis's own time).
    redis: Vec<(String, u64, u64)>,
}

impl Cpu {
    pub(crate) fn start(processes: &Processes, side: &str) -> Cpu {
        if let (Some(port), "demo") = (processes.redis_port, side) {
            redis_cli(port, &["CONFIG", "RESETSTAT"]);
        }
        let start = processes
            .groups(side)
            .into_iter()
            .map(|(name, pids)| (name, pids.iter().map(|&p| cpu_ticks(p)).sum()))
            .collect();
        Cpu {
            side: side.to_owned(),
            start,
        }
    }

    pub(crate) fn stop(self, processes: &Processes) -> Used {
        let ticks = processes
            .groups(&self.side)
            .into_iter()
            .zip(self.start)
            .map(|((name, pids), (_, start))| {
                (
                    name,
                    pids.iter()
                        .map(|&p| cpu_ticks(p))
                        .sum::<u64>()
                        .saturating_sub(start),
                )
            })
            .collect();
        let mut redis = Vec::new();
        if let (Some(port), "demo") = (processes.redis_port, self.side.as_str()) {
            for line in redis_cli(port, &["INFO", "commandstats"]).lines() {
                let Some((name, stats)) = line
                    .strip_prefix("cmdstat_")
                    .and_then(|l| l.split_once(':'))
                else {
                    continue;
                };
                let stat = |key: &str| {
                    stats
                        .split(',')
                        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
                        .and_then(|v| v.parse::<u64>().ok())
                        .unwrap_or(0)
                };
                if !(name.starts_with("config") || name.starts_with("info")) {
                    redis.push((name.to_owned(), stat("calls"), stat("usec")));
                }
            }
        }
        Used { ticks, redis }
    }
}

impl Used {
    /// Adds `other` (the same side's next phase) into this one.
    pub(crate) fn merge(&mut self, other: Used) {
        for ((_, a), (_, b)) in self.ticks.iter_mut().zip(other.ticks) {
            *a += b;
        }
        for (name, calls, usec) in other.redis {
            match self.redis.iter_mut().find(|r| r.0 == name) {
                Some(r) => {
                    r.1 += calls;
                    r.2 += usec;
                }
                None => self.redis.push((name, calls, usec)),
            }
        }
    }

    /// `replicas 812 us, redis 95 us, …` per flow, and Redis's commands per flow.
    pub(crate) fn per_flow(&self, flows: u64) -> String {
        let flows = flows.max(1) as f64;
        let mut line = String::new();
        for (name, ticks) in &self.ticks {
            let _ = write!(line, "{name} {:.0} us, ", *ticks as f64 * 1e4 / flows);
        }
        line.truncate(line.len().saturating_sub(2));
        if !self.redis.is_empty() {
            let calls: u64 = self.redis.iter().map(|r| r.1).sum();
            let usec: u64 = self.redis.iter().map(|r| r.2).sum();
            let _ = write!(
                line,
                "; Redis {:.1} commands per flow, {:.0} us of its own time (",
                calls as f64 / flows,
                usec as f64 / flows
            );
            let names: Vec<String> = self
                .redis
                .iter()
                .map(|(name, calls, _)| format!("{name} {:.2}", *calls as f64 / flows))
                .collect();
            let _ = write!(line, "{})", names.join(", "));
        }
        line
    }
}

/// A `perf record` of one side's replicas over the measured part of a phase.
pub(crate) struct Perf(Option<tokio::task::JoinHandle<()>>);

impl Perf {
    pub(crate) fn record(
        processes: &Processes,
        side: &str,
        dir: &str,
        warmup: Duration,
        measure: Duration,
    ) -> Perf {
        let pids = if side == "demo" {
            &processes.demo
        } else {
            &processes.floor
        };
        if pids.is_empty() {
            return Perf(None);
        }
        let pids = pids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let out = format!("{dir}/{side}.data");
        Perf(Some(tokio::spawn(async move {
            tokio::time::sleep(warmup).await;
            let secs = format!("{:.1}", measure.as_secs_f64());
            let recorded = tokio::process::Command::new("perf")
                .args([
                    "record",
                    "-q",
                    "-e",
                    "cpu-clock",
                    "-F",
                    "999",
                    "-p",
                    &pids,
                    "-o",
                    &out,
                ])
                .args(["--", "sleep", &secs])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .await;
            if !recorded.is_ok_and(|s| s.success()) {
                eprintln!("bench_http: perf record failed (profile left out)");
            }
        })))
    }

    pub(crate) async fn finish(self) {
        if let Some(task) = self.0 {
            let _ = task.await;
        }
    }
}

/// What a symbol belongs to, by the first pattern it contains.
const GROUPS: &[(&str, &[&str])] = &[
    (
        "sealing (AES-GCM, SHA-256, base64, elicit-state)",
        &[
            "aes",
            "gcm",
            "ghash",
            "polyval",
            "sha2",
            "sha256",
            "base64",
            "elicit_state",
            "ctutils",
            "rand",
            "chacha",
        ],
    ),
    (
        "Redis client (redis-rs, elicit-redis)",
        &["redis", "combine"],
    ),
    ("elicit (runtime, rmcp adapter, demo)", &["elicit"]),
    ("rmcp", &["rmcp"]),
    (
        "hyper/axum/tower/http",
        &["hyper", "axum", "tower", "http", "h2::"],
    ),
    ("serde/serde_json", &["serde"]),
    ("tokio", &["tokio", "mio"]),
    (
        "allocator and memcpy (libc)",
        &[
            "malloc", "free", "realloc", "memcpy", "memmove", "memset", "_int_", "cfree",
        ],
    ),
    ("kernel (syscalls, loopback TCP)", &["[k]"]),
    (
        "hash maps (std, hashbrown, indexmap)",
        &["hash", "indexmap"],
    ),
];

/// Prints each side's perf self time by group.
pub(crate) fn report(dir: &str) {
    for side in ["floor", "demo"] {
        let data = format!("{dir}/{side}.data");
        let Ok(out) = Command::new("perf")
            .args([
                "report",
                "-i",
                &data,
                "--stdio",
                "--no-children",
                "--sort",
                "sym",
            ])
            .stderr(std::process::Stdio::null())
            .output()
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let mut shares = vec![0.0f64; GROUPS.len() + 1];
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let line = line.trim();
            let Some((share, symbol)) = line.split_once('%') else {
                continue;
            };
            let Ok(share) = share.trim().parse::<f64>() else {
                continue;
            };
            let symbol = symbol.to_ascii_lowercase();
            let group = GROUPS
                .iter()
                .position(|(_, patterns)| patterns.iter().any(|p| symbol.contains(p)))
                .unwrap_or(GROUPS.len());
            shares[group] += share;
        }
        let mut line = format!("perf, {side} replicas' CPU by self time:");
        for (i, share) in shares.iter().enumerate() {
            let name = GROUPS.get(i).map_or("other", |g| g.0);
            let _ = write!(line, " {name} {share:.1}%,");
        }
        line.pop();
        println!("{line}");
    }
}
