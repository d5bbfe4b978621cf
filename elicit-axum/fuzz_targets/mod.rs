//! The body of the cargo-fuzz target `landing_route` in `fuzz/` (compiled with `--cfg fuzzing`:
//! cargo-fuzz sets it, and `./scripts/test` when it replays the corpus), shared by cargo-fuzz
//! and the test that replays the committed corpus on stable (`tests/fuzz_corpus.rs`). Not for
//! applications; may change in any release.
//!
//! The request, the browser's user, the posted form and the cross-site headers are arbitrary;
//! the link is either arbitrary text or one minted for the input's principal with the fixed test
//! keys, and the form's token either arbitrary or the one the confirmation page gives, so the
//! mutations reach every check behind the handle's authentication.

mod landing_route;

pub use landing_route::{landing_route, seeds};

pub use elicit_runtime::fuzz_targets::Target;

/// Every target of this crate under its name in `fuzz/fuzz_targets/` and `fuzz/corpus/`.
pub const TARGETS: [(&str, Target); 1] = [("landing_route", landing_route)];
