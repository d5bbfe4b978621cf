//! The fuzz corpora on stable: every file of `fuzz/corpus/<target>/` (what cargo-fuzz kept,
//! minimised) and of `fuzz/regressions/<target>/` (inputs that once crashed a target), and every
//! seed, through the very function the cargo-fuzz target runs
//! (`elicit_runtime::fuzz_targets`). A target that panics on any of them fails the test, so
//! a regression the fuzzer once found fails CI without nightly or libFuzzer.
//!
//! `scripts/fuzz` runs the fuzzer itself; after a change to the seeds, write them out with
//! `RUSTFLAGS="--cfg fuzzing" CARGO_TARGET_DIR=target/fuzz-replay cargo test -p elicit-runtime --test it fuzz_corpus::write_seeds -- --ignored`.

use elicit_runtime::fuzz_targets::corpus::{assert_committed, replay, replay_committed};
use elicit_runtime::fuzz_targets::{TARGETS, seeds};

#[test]
fn every_target_has_a_committed_corpus_and_a_cargo_fuzz_binary() {
    for (name, _) in TARGETS {
        assert_committed(name);
    }
}

#[test]
fn every_corpus_and_regression_input_replays_without_a_panic() {
    let replayed: usize = TARGETS
        .iter()
        .map(|(name, target)| replay_committed(name, *target))
        .sum();
    assert!(replayed > 0, "no corpus replayed");
}

#[test]
fn every_seed_replays_without_a_panic() {
    for (name, target) in TARGETS {
        let seeds = seeds(name);
        assert!(!seeds.is_empty(), "no seeds for `{name}`");
        for (i, seed) in seeds.iter().enumerate() {
            replay(name, target, seed, &format_args!("seed {i}"));
        }
    }
}

/// Writes every target's seeds into its corpus as `seed-<n>` (run on demand, see above).
#[test]
#[ignore = "writes fuzz/corpus/; run on demand"]
fn write_seeds() {
    for (name, _) in TARGETS {
        elicit_runtime::fuzz_targets::corpus::write_seeds(name, &seeds(name));
    }
}
