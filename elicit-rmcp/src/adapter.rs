//! Plumbing for a server that wires rmcp by hand: what [`#[elicit_rmcp::handler]`](crate::handler)
//! and [`ElicitHandler`](crate::ElicitHandler) do for a router-based server, in parts.
//!
//! A server built with `#[tool_router]` and `#[elicit_rmcp::handler]` needs nothing here. Reach
//! for these when you write `ServerHandler::call_tool` (or `get_prompt`, `read_resource`)
//! yourself, serve over a transport of your own, or convert between rmcp's types and the
//! core's:
//!
//! | item | what it is for |
//! |---|---|
//! | [`call_tool`], [`get_prompt`], [`read_resource`] | a hand-written handler method that runs one closure with the request's context |
//! | [`context`] | the context of one rmcp request, for a dispatch of your own |
//! | [`WireFix`] | the wire fix around what you serve, when [`serve_stdio`](crate::serve_stdio) or `streamable_http` (feature `http`) does not serve it for you |
//! | [`Tools`] | a tool router seen through an [`ElicitHandler`](crate::ElicitHandler) ([`ElicitHandler::tools`](crate::ElicitHandler::tools)), as `#[tool_handler(router = …)]` takes it |
//! | [`RmcpPeer`] | rmcp's peer as the core's 2025-11-25 channel, for a context built by hand |
//! | [`input_required`], [`to_mcp_error`], [`from_mcp_error`] | the core's wire types as rmcp's, and back |
//!
//! ```
//! use elicit_rmcp::adapter::{from_mcp_error, to_mcp_error};
//! use elicit_rmcp::wire::JsonRpcError;
//!
//! let error = JsonRpcError::new(-32602, "no such reservation", None);
//! let rmcp_error = to_mcp_error(error.clone());
//! assert_eq!(rmcp_error.code.0, -32602);
//! assert_eq!(from_mcp_error(rmcp_error), error);
//! ```

pub use crate::convert::{from_mcp_error, input_required, to_mcp_error};
pub use crate::dispatch::{call_tool, context, get_prompt, read_resource};
pub use crate::handler::Tools;
pub use crate::peer::RmcpPeer;
pub use crate::service::WireFix;
