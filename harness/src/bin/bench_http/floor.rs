//! The floor: a bare rmcp server over streamable HTTP that answers the bench's rounds by hand.
//! Its first answer to each tool is the demo's own `input_required` result, captured once from
//! a running demo (`capture`), so the client parses the same bytes (the same forms, a
//! `requestState` of the same length, the URL request pointing at this replica's page); its
//! retry answers with the final text computed from the arguments and answers
//! ([`final_text`]). Nothing is sealed, opened, stored or looked up. Its landing page answers a
//! GET with a form carrying a token and the POST with 200, as the demo's does.
//!
//! It is served the way the demo serves: rmcp's `StreamableHttpService` (JSON responses) under
//! `/mcp` on the demo's bounded hyper server, on a multi-threaded runtime.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use elicit_examples::demo::bounded::{self, Bounds};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::flows::{Kind, final_text};

/// What `capture` recorded from the demo: its `initialize` result and each tool's first round.
#[derive(Serialize, Deserialize)]
pub(crate) struct Answers {
    pub initialize: ServerConfig,
    pub rounds: BTreeMap<String, InputRequiredResult>,
}

#[derive(Clone)]
struct Floor(Arc<Answers>);

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        self.0.initialize.clone()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(kind) = Kind::of_tool(&request.name) else {
            return Err(McpError::invalid_params("unknown tool", None));
        };
        let Some(answers) = &request.input_responses else {
            return Ok(CallToolResponse::InputRequired(
                self.0.rounds[kind.tool()].clone(),
            ));
        };
        let arguments = request.arguments.clone().unwrap_or_default();
        let text = final_text(kind, &arguments, answers)
            .ok_or_else(|| McpError::invalid_params("missing answers", None))?;
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![
            ContentBlock::text(text),
        ])))
    }
}

/// The page a link opens: a form with a token, as the demo's confirmation page has.
const PAGE: &str = "<!doctype html><form method=post><input type=hidden name=\"token\" \
    value=\"floor\"><button name=decision value=confirm>Confirm</button></form>";

/// Serves the floor on `port` with `answers` (the links rewritten to this replica's origin).
pub(crate) async fn serve(port: u16, mut answers: Answers) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .map_err(|e| format!("bind {port}: {e}"))?;
    let origin = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    for round in answers.rounds.values_mut() {
        let mut value = serde_json::to_value(&*round).map_err(|e| e.to_string())?;
        if let Some(requests) = value["inputRequests"].as_object_mut() {
            for request in requests.values_mut() {
                if let Some(Value::String(url)) = request.pointer_mut("/params/url") {
                    let path = url.splitn(4, '/').nth(3).unwrap_or_default().to_owned();
                    *url = format!("{origin}/{path}");
                }
            }
        }
        *round = serde_json::from_value(value).map_err(|e| e.to_string())?;
    }
    let floor = Floor(Arc::new(answers));
    let config = StreamableHttpServerConfig::default().with_json_response(true);
    let mcp: StreamableHttpService<Floor, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(floor.clone()), Arc::default(), config);
    // Any other path is the landing page: GET shows the form, POST confirms it.
    let page = get(|| async { axum::response::Html(PAGE) }).post(|| async { "confirmed" });
    let app = Router::new()
        .nest_service("/mcp", mcp)
        .fallback_service(page);
    eprintln!("bench floor: MCP at {origin}/mcp");
    bounded::serve(listener, app, Bounds::default())
        .await
        .map_err(|e| e.to_string())
}
