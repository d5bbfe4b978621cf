//! The bodies of the fuzz targets in `fuzz/` (compiled with `--cfg fuzzing`: cargo-fuzz sets
//! it, and `./scripts/test` when it replays the corpora), shared by cargo-fuzz and
//! the integration test that replays the committed corpora on stable (`tests/it/fuzz_corpus.rs`),
//! so both run exactly the same code on an input. Not for applications; may change in any
//! release.
//!
//! Every target takes arbitrary bytes and must never panic, hang or overflow its stack. Beyond
//! "no panic", each asserts what must hold of the inputs it accepts (round trips, the derived
//! decoder agreeing with the schema model, a state sealed for a request opening for its
//! retry), so a panic is a bug in `elicit-runtime`.
//!
//! Sealed inputs would stop a fuzzer at the AEAD tag, which it cannot forge. So the targets that
//! open tokens also take plaintexts they seal with the fixed test key first (the frame's first
//! byte says which), and the request and landing-page targets seal what the input describes for
//! the very request they then make: the mutations reach every check behind the authentication.
//!
//! ```text
//! use elicit_runtime::fuzz_targets::{TARGETS, seeds};
//!
//! for (name, target) in TARGETS {
//!     for seed in seeds(name) {
//!         target(&seed);
//!     }
//! }
//! ```

mod context;
pub mod corpus;
mod fixtures;
mod form;
mod links;
mod page;
mod schema;
mod seeds;
mod tokens;

pub use context::context_round;
pub use fixtures::{Booking, ConnectGithub, Extra, Seating, block_on};
pub use form::form_content;
pub use links::{landing_server, mint_link};
pub use page::landing_page_open;
pub use schema::requested_schema;
pub use seeds::seeds;
pub use tokens::{state_open, url_handle_open};

/// A fuzz target: arbitrary bytes in, a panic only on a bug.
pub type Target = fn(&[u8]);

/// Every target under its name in `fuzz/fuzz_targets/` and `fuzz/corpus/`.
pub const TARGETS: [(&str, Target); 6] = [
    ("form_content", form_content),
    ("requested_schema", requested_schema),
    ("context_round", context_round),
    ("state_open", state_open),
    ("url_handle_open", url_handle_open),
    ("landing_page_open", landing_page_open),
];
