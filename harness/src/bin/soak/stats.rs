//! What the soak counts: latencies, completions, replays, and every error with its exact text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// One client's tally (merged into the run's at the end, so the hot path takes no lock).
#[derive(Default)]
pub(crate) struct Tally {
    /// Microseconds of every answered `tools/call` round (results and `input_required`).
    pub calls: Vec<u32>,
    /// Microseconds of every answered landing-page GET.
    pub pages: Vec<u32>,
    /// Flows that ended with exactly the expected text, by tool.
    pub completed: BTreeMap<&'static str, u64>,
    /// Final retries replayed once more and refused with the uniform requestState error.
    pub replays_refused: u64,
    /// Final retries from before the Redis restart replayed again after it (each counted in
    /// the replay outcomes too).
    pub late_replays: u64,
    /// Replays refused by an error other than the uniform one (while Redis was restarting).
    pub replays_refused_otherwise: BTreeMap<String, u64>,
    /// Replays the server answered with a result: a completion redeemed twice.
    pub double_redemptions: Vec<String>,
    /// URL flows whose page completed but whose retry did not see the completion.
    pub lost: Vec<String>,
    /// Errors outside the Redis restart, wrong texts, flows that never finished.
    pub hard_errors: Vec<String>,
    /// Errors of calls and pages while Redis restarted, by exact code and message.
    pub restart_errors: BTreeMap<String, u64>,
    /// Rounds that failed during the restart and then succeeded when sent again.
    pub rounds_retried_ok: u64,
    /// Flows begun again from their first call because the restart spent their state.
    pub flows_restarted: u64,
}

impl Tally {
    /// Adds `other` into this one.
    pub(crate) fn merge(&mut self, other: Tally) {
        self.calls.extend(other.calls);
        self.pages.extend(other.pages);
        for (k, v) in other.completed {
            *self.completed.entry(k).or_default() += v;
        }
        self.replays_refused += other.replays_refused;
        self.late_replays += other.late_replays;
        for (k, v) in other.replays_refused_otherwise {
            *self.replays_refused_otherwise.entry(k).or_default() += v;
        }
        self.double_redemptions.extend(other.double_redemptions);
        self.lost.extend(other.lost);
        self.hard_errors.extend(other.hard_errors);
        for (k, v) in other.restart_errors {
            *self.restart_errors.entry(k).or_default() += v;
        }
        self.rounds_retried_ok += other.rounds_retried_ok;
        self.flows_restarted += other.flows_restarted;
    }

    /// Flows completed with the expected text.
    pub(crate) fn completions(&self) -> u64 {
        self.completed.values().sum()
    }
}

/// The `q`-quantile (0..=1) of `sorted` microseconds, nearest rank.
pub(crate) fn quantile(sorted: &[u32], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Duration::from_micros(u64::from(sorted[rank - 1]))
}

/// `p50 / p99 / max` of `samples` (sorted here), in milliseconds.
pub(crate) fn latency_line(samples: &mut [u32]) -> String {
    samples.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut line = String::new();
    let _ = write!(
        line,
        "n={} p50={:.2}ms p90={:.2}ms p99={:.2}ms max={:.2}ms",
        samples.len(),
        ms(quantile(samples, 0.50)),
        ms(quantile(samples, 0.90)),
        ms(quantile(samples, 0.99)),
        ms(quantile(samples, 1.0)),
    );
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(quantile(&v, 0.5), Duration::from_micros(50));
        assert_eq!(quantile(&v, 0.99), Duration::from_micros(99));
        assert_eq!(quantile(&v, 1.0), Duration::from_micros(100));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
