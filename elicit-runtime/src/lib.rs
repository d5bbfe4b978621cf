#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Layers, lowest first; each module uses only those above it in this list:
// elicit-wire (wire, schema: a crate of its own) → future/progress → state → interrupt/cancel/channel/legacy →
// field/choice → form → server → request → url/tasks. SDK and web-framework adapters are
// crates of their own (elicit-rmcp, elicit-axum: an adapter's channel names its SDK's error
// as `InputChannel::Error`), and so are the Redis-backed stores (elicit-redis) and the test
// helpers (elicit-testing), on this crate's public API.
mod future;
mod keyed;
mod progress;
// The protocol is the `elicit-wire` crate: its items at the paths they always had.
#[doc(inline)]
pub use elicit_wire::schema;
pub mod state;
pub mod wire;

mod cancel;
mod channel;
mod interrupt;
pub mod legacy;

mod choice;
pub mod field;
pub mod form;

mod server;
mod waits;

pub mod request;

pub mod tasks;
pub mod url;

pub use channel::{ChannelRules, InputChannel};
pub use choice::ElicitEnum;
#[doc(inline)]
pub use elicit_macros::elicit_url;
#[doc(inline)]
pub use elicit_macros::{ElicitEnum, ElicitForm, ElicitUrl};
pub use field::ElicitField;
pub use form::{Answer, ElicitForm, Question};
pub use interrupt::Interrupt;
pub use request::{ContextError, ElicitContext, LOCAL_PRINCIPAL, Reply};
pub use server::ElicitServer;
pub use url::{ElicitUrl, UrlAnswer};

#[doc(hidden)]
pub mod __private;

// The bodies of the fuzz targets, outside `src/` and outside the published package: compiled
// only with `--cfg fuzzing` (cargo-fuzz sets it; `./scripts/test` replays the corpora with it).
// They derive forms in this crate, and derived code names `::elicit_runtime`.
#[cfg(fuzzing)]
extern crate self as elicit_runtime;
#[cfg(fuzzing)]
#[doc(hidden)]
#[path = "../fuzz_targets/mod.rs"]
pub mod fuzz_targets;
