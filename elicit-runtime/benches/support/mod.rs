//! Shared by the bench targets: a counting mode for instruction counts under callgrind, and a
//! paired timing mode.
//!
//! With `ELICIT_BENCH_COUNT=<name>:<n>` in the environment, a bench binary runs the routine
//! registered as `<name>` exactly `n` times, once its setup is done, and nothing else (no
//! criterion sampling, warm-up or analysis). The instructions one call costs are then
//!
//! ```text
//! (Ir with n = N  −  Ir with n = 0) / N
//! ```
//!
//! measured with `valgrind --tool=callgrind`, which does not depend on how loaded the machine
//! is. From the workspace root, after `cargo bench -p elicit-runtime --no-run`:
//!
//! ```text
//! BIN=$(ls -t target/release/deps/mrtr_round-* | grep -v '\.d$' | head -1)
//! for n in 0 2000; do
//!   ELICIT_BENCH_COUNT=retry_round:$n valgrind --tool=callgrind \
//!     --callgrind-out-file=/dev/null "$BIN" 2>&1 | grep Collected | tail -1
//! done
//! ```
//!
//! (`tail -1`: criterion starts a short-lived child process to look for gnuplot, which
//! callgrind reports first.)
//!
//! Caveat: valgrind does not report the SHA extensions to the program, so `sha2` (which picks
//! its SHA-NI backend at run time) falls back to its portable code under callgrind. Counts of
//! SHA-heavy routines (HMAC-SHA256, SHA-256 digests) are therefore far above what runs natively
//! on a CPU with SHA-NI; AES-NI and PCLMULQDQ are reported, so AES-GCM counts are native.
//!
//! With `ELICIT_BENCH_PAIRED=<rounds>`, a bench binary that supports it times pairs of routines
//! in alternating short batches instead (see [`paired`]).

// Each bench target includes this module and uses only part of it.
#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;

/// The routine name and call count asked for by `ELICIT_BENCH_COUNT`, if any.
pub(crate) fn count_mode() -> Option<(String, u64)> {
    let spec = std::env::var("ELICIT_BENCH_COUNT").ok()?;
    let (name, n) = spec.rsplit_once(':')?;
    Some((name.to_owned(), n.parse().ok()?))
}

/// Benchmarks `routine` as `name` in `group` (criterion `iter`), or in counting mode runs it
/// the requested number of times if `name` is the one asked for.
pub(crate) fn bench<O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    mut routine: impl FnMut() -> O,
) {
    if paired_rounds().is_some() {
        return;
    }
    match count_mode() {
        Some((only, n)) => {
            if only == name {
                for _ in 0..n {
                    black_box(routine());
                }
            }
        }
        None => {
            group.bench_function(name, |b| b.iter(&mut routine));
        }
    }
}

/// Whether criterion should run the benchmarks it is given (false in counting and paired mode).
pub(crate) fn timing() -> bool {
    count_mode().is_none() && paired_rounds().is_none()
}

/// The number of rounds asked for by `ELICIT_BENCH_PAIRED`, if any.
pub(crate) fn paired_rounds() -> Option<usize> {
    std::env::var("ELICIT_BENCH_PAIRED").ok()?.parse().ok()
}

/// Times a batch: given `n`, makes `n` calls and returns the nanoseconds per call.
pub(crate) type Timer<'a> = Box<dyn FnMut(u32) -> f64 + 'a>;

fn per_call(start: Instant, n: u32) -> f64 {
    start.elapsed().as_secs_f64() * 1e9 / f64::from(n)
}

/// A [`Timer`] calling `routine` (output dropped inside the timed region).
pub(crate) fn timed<'a, O>(mut routine: impl FnMut() -> O + 'a) -> Timer<'a> {
    Box::new(move |n| {
        let start = Instant::now();
        for _ in 0..n {
            black_box(routine());
        }
        per_call(start, n)
    })
}

/// A [`Timer`] calling `routine` on inputs made by `setup` before the batch starts (criterion's
/// `iter_batched`): only `routine` and dropping its output are timed.
pub(crate) fn timed_with_input<'a, I, O>(
    mut setup: impl FnMut() -> I + 'a,
    mut routine: impl FnMut(I) -> O + 'a,
) -> Timer<'a> {
    Box::new(move |n| {
        let inputs: Vec<I> = (0..n).map(|_| setup()).collect();
        let start = Instant::now();
        for input in inputs {
            black_box(routine(input));
        }
        per_call(start, n)
    })
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times `a` and `b` in alternating batches of about 200 µs each (`rounds` of each, the one
/// that goes first swapping every round), so that both see the same machine load, and prints
/// per-call medians and minima and the median of the per-round ratios `a / b`.
pub(crate) fn paired(
    (name_a, mut a): (&str, Timer<'_>),
    (name_b, mut b): (&str, Timer<'_>),
    rounds: usize,
) {
    let batch = |routine_ns: f64| {
        let calls = Duration::from_micros(200).as_secs_f64() * 1e9 / routine_ns.max(1.0);
        // Saturating float-to-int conversion; at least one call.
        (calls as u32).max(1)
    };
    let (batch_a, batch_b) = (batch(a(50)), batch(b(50)));
    let (mut times_a, mut times_b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds.max(1) {
        let (ta, tb) = if round % 2 == 0 {
            let ta = a(batch_a);
            (ta, b(batch_b))
        } else {
            let tb = b(batch_b);
            (a(batch_a), tb)
        };
        times_a.push(ta);
        times_b.push(tb);
        ratios.push(ta / tb);
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (min_a, min_b) = (min(&times_a), min(&times_b));
    let (med_a, med_b) = (median(&mut times_a), median(&mut times_b));
    println!(
        "{name_a}: median {med_a:.1} ns, min {min_a:.1} ns | {name_b}: median {med_b:.1} ns, \
         min {min_b:.1} ns | ratio of medians {:.2}, median ratio {:.2}, ratio of minima {:.2} \
         ({} rounds)",
        med_a / med_b,
        median(&mut ratios),
        min_a / min_b,
        rounds.max(1)
    );
}
