#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Layers, lowest first. Each module uses only modules on the lines above its own, and exactly
// those in its parentheses (its `crate::` paths; `../shared/tools/module_cycles.py` finds no
// cycle). `wire` and `state` are elicit-wire's and elicit-state's items at their paths, and
// `schema` is elicit-wire's, re-exported.
// - wire, state, keyed, future: none; choice (schema);
// - progress (future), waits (future: the pool of waits on URL-mode pages), interrupt (wire),
//   legacy (future, wire), field (choice, schema);
// - cancel (future, interrupt, wire), server (state, waits);
// - channel (cancel, interrupt, keyed, legacy, progress, server, state, wire): the input
//   channel, the rules its questions follow, and the round a request keeps them in
//   (`RoundRules`, with the round's answers and its `UrlMode`), so the rules reach a request's
//   round without naming the request;
// - request (cancel, channel, interrupt, keyed, legacy, progress, server, state, waits, wire):
//   the context, which owns its round's `RoundRules`;
// - form (channel, field, interrupt, request, schema, state, wire),
//   tasks (channel, interrupt, request, state, wire);
// - url (cancel, channel, form, interrupt, progress, server, state, waits, wire).
// URL mode's parts that lower layers name stay with them (`UrlLink` in interrupt, `UrlSettings`
// in server, the wait pool in waits, `UrlMode` in channel): in url, which asks through the
// channel, they would tie it into a cycle. `url` re-exports the public ones (`url::UrlLink`,
// `url::UrlSettings`, `url::UrlMode`).
// SDK and web-framework adapters are crates of their own (elicit-rmcp, elicit-axum: an
// adapter's channel names its SDK's error as `InputChannel::Error`), and so are the
// Redis-backed stores (elicit-redis) and the test helpers (elicit-testing), on this crate's
// public API.
mod future;
mod keyed;
// The protocol is the `elicit-wire` crate: its items at the paths they always had.
#[doc(inline)]
pub use elicit_wire::schema;
pub mod state;
pub mod wire;

mod choice;
pub mod field;
mod interrupt;
pub mod legacy;
mod progress;
mod waits;

mod cancel;
mod server;

mod channel;

pub mod request;

pub mod form;
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
