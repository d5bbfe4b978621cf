//! The hand-dispatched way: a `call_tool` (or `get_prompt`, `read_resource`) that runs one
//! closure with the request's context. Router-based servers use
//! [`ElicitHandler`](super::ElicitHandler) instead.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde::Serialize;
use serde_json::Value;

use super::round;
use super::service::is_bridged;
use crate::ElicitServer;
use crate::Interrupt;
use crate::request::ElicitContext;

/// Builds the elicitation context of one rmcp request: `method`, its params (as rmcp parsed
/// them) and the request context (per-request `_meta` on 2026-07-28; the `initialize`
/// capabilities and the peer on 2025-11-25).
pub fn context<P: Serialize>(
    server: &ElicitServer,
    method: &str,
    params: &P,
    request: &RequestContext<RoleServer>,
    principal: Option<&str>,
) -> Result<ElicitContext, McpError> {
    let mut raw =
        serde_json::to_value(params).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    let meta = serde_json::to_value(&request.meta).unwrap_or(Value::Null);
    if let (Value::Object(map), Value::Object(meta)) = (&mut raw, meta)
        && !meta.is_empty()
    {
        map.insert("_meta".to_owned(), Value::Object(meta));
    }
    round::build(server.context(method, raw), request, principal)
}

/// One of rmcp's three response types a handler's round can end in.
trait Response: Sized {
    /// What the handler returns.
    type Result;
    /// The method it answers.
    const METHOD: &'static str;
    fn complete(result: Self::Result) -> Self;
    fn input(round: rmcp::model::InputRequiredResult) -> Self;
    /// A URL-mode link as the response, where the method can end with one (tools only).
    fn link(link: crate::url::UrlLink) -> Option<Self>;
}

macro_rules! response {
    ($response:ident, $result:ty, $method:literal, $link:expr) => {
        impl Response for $response {
            type Result = $result;
            const METHOD: &'static str = $method;
            fn complete(result: $result) -> Self {
                $response::Complete(result)
            }
            fn input(round: rmcp::model::InputRequiredResult) -> Self {
                $response::InputRequired(round)
            }
            fn link(link: crate::url::UrlLink) -> Option<Self> {
                $link(link)
            }
        }
    };
}

response!(
    CallToolResponse,
    CallToolResult,
    "tools/call",
    round::link_result
);
response!(GetPromptResponse, GetPromptResult, "prompts/get", |_| None);
response!(
    ReadResourceResponse,
    ReadResourceResult,
    "resources/read",
    |_| None
);

/// Builds the context, runs `handler`, and turns its result or round into rmcp's response.
async fn run<P: Serialize, R: Response>(
    server: &ElicitServer,
    request: &P,
    context_in: &RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R::Result, Interrupt>,
) -> Result<R, McpError> {
    let mut cx = context(server, R::METHOD, request, context_in, principal)?;
    let result = handler(&mut cx).await;
    round::respond(
        cx,
        result,
        is_bridged(context_in),
        R::complete,
        R::input,
        R::link,
    )
    .await
}

/// Runs a tool handler for one `tools/call`: builds the context, runs `handler`, and returns
/// its result, the input-required round, or the JSON-RPC error.
pub async fn call_tool(
    server: &ElicitServer,
    request: CallToolRequestParams,
    context_in: RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<CallToolResult, Interrupt>,
) -> Result<CallToolResponse, McpError> {
    run(server, &request, &context_in, principal, handler).await
}

/// [`call_tool`] for `prompts/get`.
pub async fn get_prompt(
    server: &ElicitServer,
    request: GetPromptRequestParams,
    context_in: RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<GetPromptResult, Interrupt>,
) -> Result<GetPromptResponse, McpError> {
    run(server, &request, &context_in, principal, handler).await
}

/// [`call_tool`] for `resources/read`.
pub async fn read_resource(
    server: &ElicitServer,
    request: ReadResourceRequestParams,
    context_in: RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<ReadResourceResult, Interrupt>,
) -> Result<ReadResourceResponse, McpError> {
    run(server, &request, &context_in, principal, handler).await
}
