//! The committed corpora, for the tests that replay them on stable (this crate's
//! `it::fuzz_corpus` and `elicit-axum`'s `fuzz_corpus`).

use std::fs;
use std::path::{Path, PathBuf};

use super::Target;

/// `fuzz/<kind>/<target>` in the repository (`kind`: `corpus`, `regressions`, `fuzz_targets`).
pub fn dir(kind: &str, target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(kind)
        .join(target)
}

/// The files of `dir` (none if it does not exist), sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
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
pub fn replay(name: &str, target: Target, input: &[u8], what: &dyn std::fmt::Display) {
    let outcome = std::panic::catch_unwind(|| target(input));
    assert!(outcome.is_ok(), "fuzz target `{name}` panics on {what}");
}

/// Replays every file of `fuzz/corpus/<name>/` and `fuzz/regressions/<name>/` through `target`;
/// how many it replayed.
pub fn replay_committed(name: &str, target: Target) -> usize {
    let mut replayed = 0;
    for kind in ["corpus", "regressions"] {
        for file in files(&dir(kind, name)) {
            let input = fs::read(&file).expect("a corpus file");
            replay(name, target, &input, &file.display());
            replayed += 1;
        }
    }
    replayed
}

/// Asserts that target `name` has a committed corpus and a cargo-fuzz binary.
pub fn assert_committed(name: &str) {
    assert!(
        !files(&dir("corpus", name)).is_empty(),
        "fuzz/corpus/{name}/ is empty"
    );
    let bin = dir("fuzz_targets", &format!("{name}.rs"));
    assert!(bin.is_file(), "no cargo-fuzz target {}", bin.display());
}

/// Writes `seeds` into target `name`'s corpus as `seed-<n>`.
pub fn write_seeds(name: &str, seeds: &[Vec<u8>]) {
    let corpus = dir("corpus", name);
    fs::create_dir_all(&corpus).expect("creating the corpus directory");
    for (i, seed) in seeds.iter().enumerate() {
        fs::write(corpus.join(format!("seed-{i:02}")), seed).expect("writing a seed");
    }
}
