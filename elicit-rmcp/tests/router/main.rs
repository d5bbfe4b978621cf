//! A router-based rmcp server (`#[tool_router]`, `#[prompt_router]`, typed `Parameters<T>`,
//! the `Elicit` extractor, `ElicitHandler`) driven in process by rmcp's own client over rmcp's
//! own transport, on both revisions: 2026-07-28 (the client discovers the server, sends
//! per-request `_meta`, gets `input_required` and retries with `inputResponses` and
//! `requestState`) and 2025-11-25 (`initialize`; the server pushes `elicitation/create` to
//! the client's handler).
//!
//! A tap between client and server records every line, so the assertions are on the exact
//! JSON that went over the wire.

mod expect;
mod harness;
mod http_auth;
mod servers;

mod asked;
mod context_requests;
mod extractors;
mod filled;
mod forms;
mod http_held;
mod http_principal;
mod http_router;
mod http_tasks;
mod progress;
mod prompts;
mod properties;
mod reask;
mod scripted;
mod scripted_rounds;
mod secret_page;
mod tasks;
mod url_mode;
mod wiring;
