//! Helpers of the landing-route tests: the runtime's own URL-mode and tracing helpers, shared
//! by path so both crates test against one copy.

#[path = "../../../elicit-runtime/tests/it/common_trace/mod.rs"]
pub(crate) mod trace;
#[path = "../../../elicit-runtime/tests/it/common_url/mod.rs"]
pub(crate) mod url;
