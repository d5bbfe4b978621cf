//! The like-for-like floor of `scripts/bench-whole-call`: a bare rmcp server that sends, byte
//! for byte, what `demo-server` sends for the bench's flow, and does nothing else.
//!
//! ```text
//! bench-floor        # MCP on stdio
//! ```
//!
//! The bench calls `book_table {"restaurant": "Chez Rust"}`, gets `input_required`, retries
//! with a decline and gets the final text; the client also lists the tools once. This server
//! gives the demo's own answers to those requests: the same `initialize` result (capabilities,
//! server info, instructions), the same `tools/list` result, the same `input_required` result
//! (the same form, and a `requestState` the length of the demo's: one the demo sealed, captured
//! once) and the same final result. It is a plain rmcp `ServerHandler` on the transport the
//! demo uses, rmcp's `rmcp::transport::stdio_pipes()`: no elicit code on the request path,
//! nothing sealed, opened or validated. So the demo's time over this floor's is what elicit
//! itself costs, with the client's parsing of the demo's bigger messages counted on both
//! sides. It runs on a current-thread runtime, as the demo does on stdio. (`rmcp-floor`, the bare
//! floor, serves tiny answers through rmcp's `stdio()` on a multi-threaded runtime.)
//!
//! The answers are `harness/bench/floor_answers.json`, parsed into rmcp's types once at
//! startup and cloned per request. `harness/tests/bench_floor.rs` keeps that fixture equal to
//! what the demo sends, and this server's lines equal to the demo's.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InputRequiredResult, ListToolsResult,
    PaginatedRequestParams, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::Deserialize;

/// What `demo-server` answered to the bench's requests (see `harness/tests/bench_floor.rs`).
const ANSWERS: &str = include_str!("../../bench/floor_answers.json");

/// The demo's answers, in rmcp's types.
#[derive(Deserialize)]
struct Answers {
    initialize: ServerConfig,
    #[serde(rename = "tools/list")]
    tools: ListToolsResult,
    #[serde(rename = "book_table/input_required")]
    input_required: InputRequiredResult,
    #[serde(rename = "book_table/declined")]
    declined: CallToolResult,
}

#[derive(Clone)]
struct Floor(Arc<Answers>);

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        self.0.initialize.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(self.0.tools.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != "book_table" {
            return Err(McpError::invalid_params(
                format!("bench-floor answers book_table only, not {}", request.name),
                None,
            ));
        }
        // The bench always declines: any retry gets the declined result.
        Ok(match request.input_responses {
            None => CallToolResponse::InputRequired(self.0.input_required.clone()),
            Some(_) => CallToolResponse::Complete(self.0.declined.clone()),
        })
    }
}

// The demo's stdio runtime (see `demo_server.rs`): one thread.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let answers: Answers = serde_json::from_str(ANSWERS)
        .map_err(|e| format!("harness/bench/floor_answers.json: {e}"))?;
    // The demo's own stdio loop: the same transport, and the same end when the client leaves.
    elicit_examples::demo::run::serve_until_closed(Floor(Arc::new(answers))).await
}
