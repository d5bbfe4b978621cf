//! The integration tests of `elicit-runtime`, as modules of one test binary: each binary costs a
//! link of the crate and its dependencies, which dominates `cargo test` on a small machine.
//!
//! Run one module with a name filter, e.g. `cargo test -p elicit-runtime --test it url_flows::`.

mod common;
mod common_trace;
mod common_url;

mod form_decode;
mod form_props;
mod form_schema;
mod formats_clients;
#[cfg(fuzzing)]
mod fuzz_corpus;
mod hostile_requests;
mod legacy_era;
mod mrtr_flows;
mod mrtr_state;
mod round_tracing;
mod sdk_adapter;
mod tasks_input;
mod ui;
mod url_flows;
