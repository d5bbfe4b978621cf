//! Runnable examples of `elicit`: the demo server (`demo-server`) and its bundled client
//! (`demo`). The harnesses that test and measure elicit (the soak, held retries, the
//! benchmarks, the conformance server) are in `elicit-harness` (`harness/`).

pub mod demo;
pub mod web_host;
