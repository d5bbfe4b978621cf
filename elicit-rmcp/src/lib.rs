#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
//!
//! # This crate
//!
//! `elicit-rmcp` is `elicit-runtime` (re-exported whole: forms, URL mode, sealed state,
//! rounds) plus what a server on the official Rust SDK, `rmcp`, needs: the [`Elicit`]
//! extractor, [`ElicitHandler`] beside a `#[tool_router]`, [`serve_stdio`] (and, feature
//! `http`, `streamable_http`) to serve it, and (in [`adapter`]) the parts for hand wiring.
//! rmcp's types appear only here, so a new rmcp major is a new major of this crate alone.
//!
//! **Which way to ask**: a parameter [`#[elicit_rmcp::asks]`](asks) fills before the body
//! ([`Filled`] for arguments the model left out, [`Accepted`] for a confirmation, [`Asked`] for
//! an answer to match on, a [`form::Resolve`] for a value the server may know), `Form::ask` on
//! [`Elicit`] for a question that depends on the body's work, a `#[elicit_url]` type for a
//! page, [`Elicit::task`] for long work: one line each, with links, in
//! [`guide::which_way_to_ask`]. Plumbing for a server that wires rmcp by hand is in [`adapter`].
//!
//! | feature | what it adds |
//! |---|---|
//! | `http` | `streamable_http`: rmcp's `StreamableHttpService` with [`adapter::WireFix`] around it |
//! | `redis` | `redis`: the `elicit-redis` crate's `RedisCompletionStore` and `RedisReplayGuard`, shared by replicas |
//! | `testing` | `testing`: the `elicit-testing` helpers plus `ScriptedClient`, rmcp's own client driving a whole server in process (for `[dev-dependencies]`) |
//!
//! No feature is on by default. The ready landing route for URL mode is the `elicit-axum` crate.
//!
//! # Field order
//!
//! Clients show a form's fields in the order of its `properties`. This crate hands rmcp the
//! form in declaration order (rmcp's `ElicitationSchema::property_order`). rmcp 3.11 itself,
//! however, writes every request's params through a `serde_json::Value`
//! (`WithMeta::serialize`), both for a pushed `elicitation/create` and inside
//! `inputRequests`, which is why this crate turns on serde_json's `preserve_order` (the core
//! does not).

/// The core, whole: a server on rmcp depends on this crate alone.
#[doc(inline)]
pub use elicit_runtime::*;
// The derives and `elicit_url`, in the flavour whose generated code names `::elicit_rmcp`
// (the glob above brings the core's, which name `::elicit_runtime`, a crate this user may not
// depend on); their documentation is the core's.
#[doc(inline)]
pub use elicit_macros::rmcp_elicit_url as elicit_url;
#[doc(inline)]
pub use elicit_macros::{
    RmcpElicitEnum as ElicitEnum, RmcpElicitForm as ElicitForm, RmcpElicitUrl as ElicitUrl,
};

/// Wires an rmcp server through elicit: on `impl ServerHandler for Server`, in place of
/// rmcp's `#[tool_handler]` (and `#[prompt_handler]`), so that its tool (and prompt) methods
/// can take [`Elicit`].
///
/// It writes what rmcp's `#[tool_handler]` writes (`call_tool`, `list_tools`, `get_tool` and,
/// when the impl has none, `get_info`), with the calls run through the server's
/// [`ElicitHandler`]; with `prompts`, also `get_prompt` (carrying the retry's
/// `inputResponses` and `requestState`, which rmcp's `#[prompt_handler]` drops) and
/// `list_prompts`. Its own mistakes are compile errors on the spot: on anything but a trait
/// impl, beside rmcp's `#[tool_handler]` or `#[prompt_handler]`, or on an impl that writes
/// `call_tool` (or, with `prompts`, `get_prompt`; with `tasks`, `get_task`, `update_task` or
/// `cancel_task`) itself, which would bypass elicit. A tool
/// that takes [`Elicit`] on a server without it fails its calls with an error naming this
/// attribute.
///
/// | argument | default | what it is |
/// |---|---|---|
/// | `tools = EXPR` | `Self::tool_router()`, as for rmcp's `#[tool_handler]`, but built on first use and kept for the process (rmcp builds it on every call, twice over HTTP; an impl generic over types or lifetimes still does) | the `ToolRouter<Self>` |
/// | `prompts`, `prompts = EXPR` | off; `Self::prompt_router()` when bare, kept the same way | the `PromptRouter<Self>` |
/// | `tasks` | off | serve `tasks/get`, `tasks/update` and `tasks/cancel` through the [`ElicitHandler`] (its `get_task`, `update_task`, `cancel_task`) and announce the tasks extension in `get_info`, so that tools may answer with a task ([`Elicit::task`], guide chapter 9) |
/// | `elicit = EXPR` | `self.elicit` | the [`ElicitHandler`] |
/// | `name = "…"`, `version = "…"`, `instructions = "…"`, `meta = EXPR` | rmcp's: `"rmcp"` and its version; with `name` alone, your crate's version | passed on to rmcp's `#[tool_handler]`: the `serverInfo` and instructions of `get_info` |
///
/// ```
/// use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler};
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::{PromptMessage, Role};
/// use rmcp::{ErrorData as McpError, ServerHandler, prompt, prompt_router, schemars, tool, tool_router};
///
/// /// Which tone?
/// #[derive(ElicitForm)]
/// struct Tone {
///     #[elicit(title = "Formal")]
///     formal: bool,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Topic {
///     topic: String,
/// }
///
/// #[derive(Clone)]
/// struct Server {
///     elicit: ElicitHandler,
/// }
///
/// #[tool_router]
/// impl Server {
///     #[tool(description = "Write a note")]
///     async fn note(&self, Parameters(t): Parameters<Topic>, mut cx: Elicit) -> Result<String, McpError> {
///         let formal = matches!(Tone::ask(&mut cx).await?, Answer::Accepted(Tone { formal: true }));
///         Ok(format!("a {} note on {}", if formal { "formal" } else { "casual" }, t.topic))
///     }
/// }
///
/// #[prompt_router]
/// impl Server {
///     #[prompt(description = "Draft an email")]
///     async fn email(&self, Parameters(t): Parameters<Topic>, mut cx: Elicit) -> Result<Vec<PromptMessage>, McpError> {
///         let formal = matches!(Tone::ask(&mut cx).await?, Answer::Accepted(Tone { formal: true }));
///         let text = format!("Draft a {} email about {}", if formal { "formal" } else { "casual" }, t.topic);
///         Ok(vec![PromptMessage::new_text(Role::User, text)])
///     }
/// }
///
/// // Tools and prompts, both through elicit; `get_info` announces both.
/// #[elicit_rmcp::handler(prompts)]
/// impl ServerHandler for Server {}
///
/// let server = Server {
///     elicit: ElicitHandler::local("notes"),
/// };
/// let capabilities = server.get_info().capabilities;
/// assert!(capabilities.tools.is_some() && capabilities.prompts.is_some());
/// ```
pub use elicit_macros::rmcp_handler as handler;

/// Questions as parameters: on an rmcp tool or prompt method (above `#[tool]` or
/// `#[prompt]`), each [`Asked<Form>`](Asked) parameter is the user's answer and each
/// [`Accepted<Form>`](Accepted) parameter the accepted form, asked **before the body runs**;
/// a [`Filled<Args>`](Filled) parameter (in place of `Parameters<Args>`) is the tool's
/// arguments with what the model left out or got wrong asked of the user (`Args` derives
/// `ElicitForm` only: the tool's input schema is the form's).
///
/// It rewrites the method the way a hand-written one asks: every question first, so that on
/// 2026-07-28 they go out in one `input_required` round (on 2025-11-25 one after another),
/// then the `?`s, then the body. Keys, re-asks, strict provenance, sealing to the arguments
/// and tasks are exactly those of hand-written asks. The method asks through its own
/// [`Elicit`] parameter when it has one (so the body can ask more), or through one the
/// attribute adds; it returns `Result<_, rmcp::ErrorData>`.
///
/// `#[ask(…)]` on a question parameter:
///
/// | argument | what it does |
/// |---|---|
/// | `message = EXPR` | the message shown; any expression of the parameters before it (`format!("Cancel {}?", args.id)`): the answer is sealed to the arguments either way |
/// | `otherwise = EXPR` | `Accepted` and `Filled`: the method returns `Ok(EXPR.into())` on a decline or cancel, without running the body (or once for all, `#[elicit_rmcp::asks(otherwise = …)]`) |
/// | `resolve = EXPR` | a [`form::Resolve`] value: its value when the server knows it, otherwise its question |
/// | `key = "…"`, `defaults = EXPR`, `strict`, `reasks = N` | as on [`Question`] |
///
/// ```
/// use elicit_rmcp::{Accepted, Answer, Asked, ElicitForm, ElicitHandler};
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};
///
/// /// Please confirm
/// #[derive(ElicitForm)]
/// struct Confirm {
///     #[elicit(title = "Yes, cancel it")]
///     confirm: bool,
/// }
///
/// /// Tell the restaurant why?
/// #[derive(ElicitForm)]
/// struct Reason {
///     #[elicit(max_length = 200)]
///     reason: Option<String>,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct CancelArgs {
///     reservation_id: String,
/// }
///
/// #[derive(Clone)]
/// struct Server {
///     elicit: ElicitHandler,
/// }
///
/// #[tool_router]
/// impl Server {
///     /// Cancel a reservation after the user confirms
///     #[elicit_rmcp::asks]
///     #[tool]
///     async fn cancel_reservation(
///         &self,
///         Parameters(args): Parameters<CancelArgs>,
///         #[ask(message = format!("Cancel reservation {}?", args.reservation_id), otherwise = "kept")]
///         Confirm { confirm }: Accepted<Confirm>,
///         reason: Asked<Reason>,
///     ) -> Result<String, McpError> {
///         // Both were asked in one round; the body runs only once the user confirmed.
///         let why = match reason {
///             Answer::Accepted(Reason { reason: Some(why) }) => why,
///             _ => "no reason given".into(),
///         };
///         Ok(if confirm { format!("cancelled ({why})") } else { "kept".into() })
///     }
/// }
///
/// #[elicit_rmcp::handler]
/// impl ServerHandler for Server {}
/// # let _ = Server { elicit: ElicitHandler::local("x") };
/// ```
pub use elicit_macros::rmcp_asks as asks;

mod asked;
mod channel;
mod convert;
mod dispatch;
mod extract;
mod handler;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use http::streamable_http;
mod peer;
mod rmcp_schema;
mod round;
mod service;
mod stdio;
mod task;
mod task_store;

pub mod adapter;

pub use asked::{Accepted, Asked, Filled};
pub use extract::Elicit;
pub use handler::{ElicitHandler, Principal};
pub use stdio::serve_stdio;
pub use task::TaskOrCall;
pub use task_store::TaskSettings;

/// Not public API: what code generated by `elicit-macros` for rmcp servers names. May change
/// in any release.
#[doc(hidden)]
pub mod __private {
    pub use elicit_runtime::__private::*;
    pub use rmcp;
    pub use rmcp::tool_handler;
    // Left on the impl beside rmcp's `#[tool_handler]`, which then writes a `get_info` that
    // announces prompts too (it looks for a sibling attribute named `prompt_handler`).
    pub use elicit_macros::rmcp_prompts_announced as prompt_handler;

    pub use crate::asked::{Expanded, Expansion, ModelArguments, Unexpanded};
    pub use crate::form::fill_in;
    pub use crate::handler::list_prompts;
    pub use rmcp::handler::server::wrapper::Parameters;
}

/// The Redis-backed completion store and replay guard several replicas share (the
/// `elicit-redis` crate, re-exported whole), so a server on rmcp adds no other dependency line.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use elicit_rmcp::ElicitServer;
/// use elicit_rmcp::redis::RedisCompletionStore;
/// use elicit_rmcp::state::{KeyRing, StateSealer};
/// use elicit_rmcp::url::UrlSettings;
///
/// let store = RedisCompletionStore::connect("redis://127.0.0.1:6379", "myapp").await?;
/// let sealer = StateSealer::new(KeyRing::from_env("ELICIT_KEYS")?, "myapp")
///     .with_replay_guard(Arc::new(store.replay_guard()));
/// let server = ElicitServer::new(sealer).with_url(UrlSettings::new(Arc::new(store)));
/// # let _ = server; Ok(()) }
/// ```
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use elicit_redis as redis;

/// The guide: chapters with tested examples, from a first form to production settings,
/// testing and performance.
pub mod guide;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

#[cfg(test)]
mod tests;
