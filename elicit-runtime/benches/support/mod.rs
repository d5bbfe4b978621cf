//! Shared by the bench targets: a counting mode for instruction counts under callgrind.
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

use std::hint::black_box;

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;

/// The routine name and call count asked for by `ELICIT_BENCH_COUNT`, if any.
pub fn count_mode() -> Option<(String, u64)> {
    let spec = std::env::var("ELICIT_BENCH_COUNT").ok()?;
    let (name, n) = spec.rsplit_once(':')?;
    Some((name.to_owned(), n.parse().ok()?))
}

/// Benchmarks `routine` as `name` in `group` (criterion `iter`), or in counting mode runs it
/// the requested number of times if `name` is the one asked for.
pub fn bench<O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    mut routine: impl FnMut() -> O,
) {
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

/// Whether criterion should run the benchmarks it is given (false in counting mode).
pub fn timing() -> bool {
    count_mode().is_none()
}
