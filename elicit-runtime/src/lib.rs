#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Layers, lowest first; each module uses only those above it in this list:
// ordered → wire → schema → state → interrupt/channel/legacy → field/choice → form → server → request
// → url/tasks → testing; rmcp3 (one trait impl). SDK and web-framework adapters are crates of
// their own (elicit-rmcp, elicit-axum) on this crate's public API.
mod future;
mod ordered;
pub mod wire;

pub mod schema;
pub mod state;

mod channel;
mod interrupt;
pub mod legacy;

mod choice;
pub mod field;
pub mod form;

mod server;

pub mod request;

pub mod tasks;
pub mod url;

#[cfg(feature = "testing")]
pub mod testing;

pub use channel::InputChannel;
pub use choice::ElicitEnum;
pub use elicit_macros::{ElicitEnum, ElicitForm, ElicitUrl, elicit_url};
pub use field::ElicitField;
pub use form::{Answer, ElicitForm, Question};
pub use interrupt::Interrupt;
pub use request::{ContextError, ElicitContext, Reply};
pub use server::ElicitServer;
pub use url::{ElicitUrl, UrlAnswer};

#[doc(hidden)]
pub mod __private;

#[cfg(feature = "rmcp3")]
mod rmcp3;

// The bodies of the fuzz targets, outside `src/` and outside the published package: compiled
// only with `--cfg fuzzing` (cargo-fuzz sets it; `./scripts/test` replays the corpora with it).
// They derive forms in this crate, and derived code names `::elicit_runtime`.
#[cfg(fuzzing)]
extern crate self as elicit_runtime;
#[cfg(fuzzing)]
#[doc(hidden)]
#[path = "../fuzz_targets/mod.rs"]
pub mod fuzz_targets;
