//! The `host_request` and `html_read` fuzz corpora on stable: every file of
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/`, and every seed, through the very
//! function the cargo-fuzz target runs (`elicit_host::fuzz_targets`). Built only with
//! `--cfg fuzzing`, as `./scripts/test` runs it:
//! `RUSTFLAGS="--cfg fuzzing" CARGO_TARGET_DIR=target/fuzz-replay cargo test -p elicit-host --test fuzz_corpus`.
//! After a change to the seeds, write them out with `... --test fuzz_corpus write_seeds -- --ignored`.
#![cfg(fuzzing)]

use elicit_host::fuzz_targets::{TARGETS, seeds};
use elicit_runtime::fuzz_targets::corpus::{assert_committed, replay, replay_committed};

#[test]
fn each_target_has_a_committed_corpus_and_a_cargo_fuzz_binary() {
    for (name, _) in TARGETS {
        assert_committed(name);
    }
}

#[test]
fn every_corpus_regression_and_seed_replays_without_a_panic() {
    for (name, target) in TARGETS {
        assert!(replay_committed(name, target) > 0, "no corpus replayed");
        for (i, seed) in seeds(name).iter().enumerate() {
            replay(name, target, seed, &format_args!("seed {i}"));
        }
    }
}

/// Writes the seeds into the corpora as `seed-<n>` (run on demand, see above).
#[test]
#[ignore = "writes fuzz/corpus/; run on demand"]
fn write_seeds() {
    for (name, _) in TARGETS {
        elicit_runtime::fuzz_targets::corpus::write_seeds(name, &seeds(name));
    }
}
