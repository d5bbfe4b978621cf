//! Runnable examples of `elicit`: the demo server (`demo-server`), its bundled client
//! (`demo`) and the conformance fixture server (`conformance-server`).

pub mod demo;
pub mod web_host;
