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

use super::convert::{input_required, to_mcp_error};
use super::peer::session;
use super::service::{is_bridged, require_bridge};
use crate::interrupt::Interrupt;
use crate::request::{ElicitContext, Reply};
use crate::server::ElicitServer;

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
    let legacy = session(request);
    let mut builder = server.context(method, &raw).principal(principal);
    if let Some((caps, peer)) = legacy {
        builder = builder.legacy(caps, peer);
    }
    builder.build().map_err(|e| to_mcp_error(e.error))
}

/// How a finished handler or an input-required round becomes one rmcp response type.
type Responses<R, Response> = (
    fn(R) -> Response,
    fn(rmcp::model::InputRequiredResult) -> Response,
);

/// Builds the context, runs `handler`, and turns its result or round into rmcp's response.
async fn run<P: Serialize, R, Response>(
    server: &ElicitServer,
    method: &str,
    request: &P,
    context_in: &RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R, Interrupt>,
    (complete, input): Responses<R, Response>,
) -> Result<Response, McpError> {
    let mut cx = context(server, method, request, context_in, principal)?;
    let result = handler(&mut cx).await;
    cx.settle(&result).await;
    match cx.finish(result).map_err(to_mcp_error)? {
        Reply::Result(result) => Ok(complete(result)),
        Reply::InputRequired(ask) => {
            require_bridge(&ask, is_bridged(context_in)).map_err(to_mcp_error)?;
            Ok(input(input_required(&ask)?))
        }
    }
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
    let responses = (
        CallToolResponse::Complete as fn(_) -> _,
        CallToolResponse::InputRequired as fn(_) -> _,
    );
    run(
        server,
        "tools/call",
        &request,
        &context_in,
        principal,
        handler,
        responses,
    )
    .await
}

/// [`call_tool`] for `prompts/get`.
pub async fn get_prompt(
    server: &ElicitServer,
    request: GetPromptRequestParams,
    context_in: RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<GetPromptResult, Interrupt>,
) -> Result<GetPromptResponse, McpError> {
    let responses = (
        GetPromptResponse::Complete as fn(_) -> _,
        GetPromptResponse::InputRequired as fn(_) -> _,
    );
    run(
        server,
        "prompts/get",
        &request,
        &context_in,
        principal,
        handler,
        responses,
    )
    .await
}

/// [`call_tool`] for `resources/read`.
pub async fn read_resource(
    server: &ElicitServer,
    request: ReadResourceRequestParams,
    context_in: RequestContext<RoleServer>,
    principal: Option<&str>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<ReadResourceResult, Interrupt>,
) -> Result<ReadResourceResponse, McpError> {
    let responses = (
        ReadResourceResponse::Complete as fn(_) -> _,
        ReadResourceResponse::InputRequired as fn(_) -> _,
    );
    run(
        server,
        "resources/read",
        &request,
        &context_in,
        principal,
        handler,
        responses,
    )
    .await
}
