//! The bodies of the cargo-fuzz targets `host_request` and `html_read` in `fuzz/` (compiled
//! with `--cfg fuzzing`: cargo-fuzz sets it, and `./scripts/test` when it replays the corpora),
//! shared by cargo-fuzz and the test that replays the committed corpora on stable
//! (`tests/fuzz_corpus.rs`). Not for applications; may change in any release.
//!
//! Every target takes arbitrary bytes (what a hostile server or a forged post sends) and must
//! never panic, hang or overflow its stack; each asserts what must hold of what it accepts.

mod html_read;
mod request;

pub use html_read::html_read;
pub use request::host_request;

/// A fuzz target: arbitrary bytes in, a panic only on a bug.
pub type Target = fn(&[u8]);

/// Every target of this crate under its name in `fuzz/fuzz_targets/` and `fuzz/corpus/`.
pub const TARGETS: [(&str, Target); 2] = [("host_request", host_request), ("html_read", html_read)];

/// The seeds of target `name`: a small corpus that reaches every branch of the parser and the
/// reader, for the fuzzer to start from.
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    match name {
        "host_request" => request::seeds(),
        "html_read" => html_read::seeds(),
        _ => Vec::new(),
    }
}
