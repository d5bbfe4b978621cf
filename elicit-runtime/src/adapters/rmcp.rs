//! The official Rust SDK (`rmcp`): tools and prompts written with rmcp's own macros ask
//! through one extractor, [`Elicit`].
//!
//! A router-based server keeps `#[tool_router]`, `#[tool]`, typed `Parameters<T>` and
//! `#[tool_handler]`; it adds an [`ElicitHandler`] beside its router, names it in
//! `#[tool_handler(router = …)]`, and gives each method that asks an [`Elicit`] parameter:
//!
//! ```no_run
//! use elicit_runtime::adapters::rmcp::{Elicit, ElicitHandler, ElicitService, Principal};
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_runtime::{Answer, ElicitForm, ElicitServer};
//! use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
//! use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt, schemars};
//! use rmcp::{tool, tool_handler, tool_router};
//!
//! /// Please confirm
//! #[derive(ElicitForm)]
//! struct Confirm {
//!     #[elicit(title = "Yes, go ahead")]
//!     confirm: bool,
//! }
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct CancelArgs {
//!     /// The reservation to cancel
//!     reservation_id: String,
//! }
//!
//! #[derive(Clone)]
//! struct Server {
//!     tool_router: ToolRouter<Self>,
//!     elicit: ElicitHandler,
//! }
//!
//! #[tool_router]
//! impl Server {
//!     #[tool(description = "Cancel a reservation after the user confirms")]
//!     async fn cancel_reservation(
//!         &self,
//!         Parameters(args): Parameters<CancelArgs>,
//!         mut cx: Elicit,
//!     ) -> Result<String, McpError> {
//!         let question = Confirm::question()
//!             .message(format!("Cancel reservation {}?", args.reservation_id));
//!         Ok(match question.ask(&mut cx).await? {
//!             Answer::Accepted(Confirm { confirm: true }) => "cancelled".to_owned(),
//!             _ => "kept".to_owned(),
//!         })
//!     }
//! }
//!
//! #[tool_handler(router = self.elicit.tools(&self.tool_router))]
//! impl ServerHandler for Server {}
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let sealer = StateSealer::new(KeyRing::generate(), "my-server");
//! let server = Server {
//!     tool_router: Server::tool_router(),
//!     // Local stdio: one user, no authentication.
//!     elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
//! };
//! // `ElicitService` fixes rmcp's URL-mode requests on the wire (see its documentation).
//! ElicitService::new(server).serve(rmcp::transport::stdio_pipes()).await?.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! A server that dispatches by hand uses [`call_tool`], [`get_prompt`] or [`read_resource`]
//! with a closure instead.
//!
//! # Field order
//!
//! Clients show a form's fields in the order of its `properties`. This adapter hands rmcp the
//! form in declaration order (rmcp's `ElicitationSchema::property_order`), never through a
//! `serde_json::Value`. rmcp 3.11 itself, however, writes every request's params through a
//! `Value` (`WithMeta::serialize`), both for a pushed `elicitation/create` and inside
//! `inputRequests`, which is why the `rmcp` feature turns on serde_json's `preserve_order`.

mod convert;
mod dispatch;
mod extract;
mod handler;
#[cfg(feature = "rmcp-http")]
mod http;
mod peer;
mod round;
mod schema;
mod service;

pub use convert::{from_mcp_error, input_required, to_mcp_error};
pub use dispatch::{call_tool, context, get_prompt, read_resource};
pub use extract::Elicit;
pub use handler::{ElicitHandler, Principal, Tools};
pub use peer::RmcpPeer;
pub use service::{ElicitService, strip_empty_elicitation_ids, strip_empty_elicitation_ids_json};

#[cfg(test)]
mod tests;
