//! The demo: an rmcp server whose tools elicit (forms, a bound confirmation, URL mode, a
//! batched round), and the landing page standing in for a third party.

pub mod bounded;
pub mod config;
pub mod forms;
pub mod run;
pub mod server;
