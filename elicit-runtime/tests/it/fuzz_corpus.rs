//! The fuzz corpora on stable: every file of `fuzz/corpus/<target>/` (what cargo-fuzz kept,
//! minimised) and of `fuzz/regressions/<target>/` (inputs that once crashed a target), and every
//! seed, through the very function the cargo-fuzz target runs
//! (`elicit_runtime::fuzz_targets`). A target that panics on any of them fails the test, so
//! a regression the fuzzer once found fails CI without nightly or libFuzzer.
//!
//! `scripts/fuzz` runs the fuzzer itself; after a change to the seeds, write them out with
//! `RUSTFLAGS="--cfg fuzzing" CARGO_TARGET_DIR=target/fuzz-replay cargo test -p elicit-runtime --test it fuzz_corpus::write_seeds -- --ignored`.

use std::fs;
use std::path::{Path, PathBuf};

use elicit_runtime::fuzz_targets::{TARGETS, Target, seeds};

/// `fuzz/<kind>/<target>` in the repository.
fn dir(kind: &str, target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(kind)
        .join(target)
}

/// The files of `dir` (none if it does not exist), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target` on `input`, naming the input if it panics.
fn replay(name: &str, target: Target, input: &[u8], what: &dyn std::fmt::Display) {
    let outcome = std::panic::catch_unwind(|| target(input));
    assert!(outcome.is_ok(), "fuzz target `{name}` panics on {what}");
}

#[test]
fn every_target_has_a_committed_corpus_and_a_cargo_fuzz_binary() {
    for (name, _) in TARGETS {
        assert!(
            !files(&dir("corpus", name)).is_empty(),
            "fuzz/corpus/{name}/ is empty"
        );
        let bin = dir("fuzz_targets", &format!("{name}.rs"));
        assert!(bin.is_file(), "no cargo-fuzz target {}", bin.display());
    }
}

#[test]
fn every_corpus_and_regression_input_replays_without_a_panic() {
    let mut replayed = 0;
    for (name, target) in TARGETS {
        for kind in ["corpus", "regressions"] {
            for file in files(&dir(kind, name)) {
                let input = fs::read(&file).expect("a corpus file");
                replay(name, target, &input, &file.display());
                replayed += 1;
            }
        }
    }
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
        let corpus = dir("corpus", name);
        fs::create_dir_all(&corpus).expect("creating the corpus directory");
        for (i, seed) in seeds(name).iter().enumerate() {
            fs::write(corpus.join(format!("seed-{i:02}")), seed).expect("writing a seed");
        }
    }
}
