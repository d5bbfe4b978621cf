//! What a run measured, printed, and whether it passed.

use std::time::Duration;

use crate::stats::{Tally, latency_line};
use crate::window::Window;
use crate::{Options, Rss, mib};

/// Everything a run measured.
pub(crate) struct Outcome {
    pub tally: Tally,
    /// Flows asked for (clients × flows).
    pub total: usize,
    /// Until the last flow ended.
    pub elapsed: Duration,
    /// Memory idle, warm (10 %), middle (50 %) and at the end.
    pub rss: [Rss; 4],
    /// The Redis restart's result, if it began.
    pub restart: Option<Result<(), String>>,
    /// Flows done when the restart ended.
    pub restart_done_at: Option<usize>,
}

/// Prints the figures, then every failed check; true when none failed.
pub(crate) fn report(options: &Options, window: &Window, mut outcome: Outcome) -> bool {
    print_figures(&mut outcome);
    print_restart(options, window, &outcome);
    let failures = failures(options, &outcome);
    for failure in &failures {
        println!("soak: FAIL {failure}");
    }
    if failures.is_empty() {
        println!("soak: OK — 0 errors, 0 lost, 0 redeemed twice, memory flat");
    }
    failures.is_empty()
}

fn print_figures(outcome: &mut Outcome) {
    let Outcome {
        tally,
        total,
        elapsed,
        rss,
        ..
    } = outcome;
    let secs = elapsed.as_secs_f64();
    let completions = tally.completions();
    println!(
        "soak: {completions} of {total} flows completed in {secs:.1} s: {:.0} flows/s",
        completions as f64 / secs
    );
    for (tool, n) in &tally.completed {
        println!("  {tool}: {n}");
    }
    println!(
        "soak: tools/call rounds {:.0}/s; latency {}",
        tally.calls.len() as f64 / secs,
        latency_line(&mut tally.calls)
    );
    println!("soak: landing pages {}", latency_line(&mut tally.pages));
    println!(
        "soak: replays refused {} (uniform -32602; {} of them from before the Redis restart, sent after it), refused otherwise during the restart {:?}, redeemed twice {}",
        tally.replays_refused,
        tally.late_replays,
        tally.replays_refused_otherwise,
        tally.double_redemptions.len()
    );
    let [idle, warm, middle, end] = *rss;
    for (i, label) in ["A", "B"].iter().enumerate() {
        println!(
            "soak: replica {label} RSS idle {:.1} MiB, warm ({} flows) {:.1} MiB, middle ({} flows) {:.1} MiB, end ({} flows) {:.1} MiB",
            mib(idle.kib[i]),
            warm.done,
            mib(warm.kib[i]),
            middle.done,
            mib(middle.kib[i]),
            end.done,
            mib(end.kib[i])
        );
    }
}

/// The Redis restart: when, for how long, and the errors clients saw meanwhile.
fn print_restart(options: &Options, window: &Window, outcome: &Outcome) {
    let tally = &outcome.tally;
    match (&outcome.restart, options.restart_at) {
        (None, None) => println!("soak: Redis not restarted (--no-restart)"),
        (Some(Ok(())), _) => {
            let down = window.downtime().unwrap_or_default();
            println!(
                "soak: Redis restarted after {} flows (away {:.0} ms): {} errors, {} rounds sent again and answered, {} flows begun again",
                outcome.restart_done_at.unwrap_or(0),
                down.as_secs_f64() * 1e3,
                tally.restart_errors.values().sum::<u64>(),
                tally.rounds_retried_ok,
                tally.flows_restarted,
            );
            for (what, n) in &tally.restart_errors {
                println!("  {n} x {what}");
            }
        }
        _ => {}
    }
}

/// The checks a run must pass: a clean Redis restart, flat memory, every flow completed, and
/// no error, lost completion or double redemption.
fn failures(options: &Options, outcome: &Outcome) -> Vec<String> {
    let mut failures = Vec::new();
    let tally = &outcome.tally;
    match (&outcome.restart, options.restart_at) {
        (Some(Ok(())), _) => {
            for what in tally.restart_errors.keys() {
                if !(what.starts_with("JSON-RPC ") || what.starts_with("page HTTP 5")) {
                    failures.push(format!("an unclean error during the restart: {what}"));
                }
            }
        }
        (Some(Err(e)), _) => failures.push(format!("the Redis restart failed: {e}")),
        (None, Some(_)) => failures.push("the run ended before the Redis restart".into()),
        (None, None) => {}
    }
    let [_, _, middle, end] = outcome.rss;
    let bound = |middle: u64| options.rss_growth_kib.max(middle / 10);
    for (i, label) in ["A", "B"].iter().enumerate() {
        let (m, e) = (middle.kib[i], end.kib[i]);
        if m == 0 || e == 0 {
            failures.push(format!("replica {label}: no memory sample"));
        } else if e > m + bound(m) {
            failures.push(format!(
                "replica {label}: RSS grew {:.1} MiB from the middle to the end (bound {:.1} MiB)",
                mib(e - m),
                mib(bound(m))
            ));
        }
    }
    let completions = tally.completions();
    if completions != outcome.total as u64 {
        failures.push(format!(
            "{} of {} flows did not complete",
            outcome.total as u64 - completions,
            outcome.total
        ));
    }
    for (label, problems) in [
        ("error", &tally.hard_errors),
        ("lost completion", &tally.lost),
        ("double redemption", &tally.double_redemptions),
    ] {
        if let Some(first) = problems.first() {
            failures.push(format!("{} x {label}; first: {first}", problems.len()));
        }
    }
    failures
}
