//! `rmcp-floor`: the bare floor of `scripts/bench-whole-call`, an rmcp stdio server with no
//! elicit code at all and the smallest answers the bench's flow accepts.
//!
//! ```text
//! rmcp-floor      # MCP on stdio until the client leaves
//! ```
//!
//! `tools/list` lists one tool, `book_table`, whose input schema is an empty object. Its first
//! call answers `input_required` with one form of one string field and the `requestState`
//! `"s"`; any retry carrying answers completes with the text `declined`. Nothing is sealed,
//! opened or validated, and the messages are a fraction of the demo's size: the demo's time over
//! this floor's is what elicit and the demo's bigger messages cost together (`bench-floor`
//! separates the two). It runs on a multi-threaded runtime through rmcp's `stdio()`, rmcp's
//! own default.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

/// The one tool, and the form its first call answers with.
#[derive(Clone)]
struct Floor {
    tool: Tool,
    asked: InputRequiredResult,
}

impl Floor {
    fn new() -> Result<Floor, serde_json::Error> {
        let schema = serde_json::from_value(json!({"type": "object"}))?;
        let asked = serde_json::from_value(json!({
            "resultType": "input_required",
            "requestState": "s",
            "inputRequests": {
                "b": {
                    "method": "elicitation/create",
                    "params": {
                        "mode": "form",
                        "message": "m",
                        "requestedSchema": {
                            "type": "object",
                            "properties": {"n": {"type": "string"}},
                        },
                    },
                },
            },
        }))?;
        Ok(Floor {
            tool: Tool::new("book_table", "b", Arc::new(schema)),
            asked,
        })
    }
}

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![self.tool.clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        Ok(match request.input_responses {
            None => CallToolResponse::InputRequired(self.asked.clone()),
            Some(_) => {
                CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(
                    "declined".to_owned(),
                )]))
            }
        })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let running = Floor::new()?.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
