//! The official Rust SDK (`rmcp`): an rmcp tool or prompt handler asks with one call, and the
//! answer, the input-required round or the error goes back as rmcp types.
//!
//! ```no_run
//! use elicit_runtime::adapters::rmcp::{ElicitService, call_tool};
//! use elicit_runtime::{Answer, ElicitForm, ElicitServer};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
//! use rmcp::service::RequestContext;
//! use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
//!
//! /// How many guests?
//! #[derive(ElicitForm)]
//! struct Guests { #[elicit(minimum = 1, maximum = 12)] count: u8 }
//!
//! #[derive(Clone)]
//! struct Server { elicit: ElicitServer }
//!
//! impl ServerHandler for Server {
//!     async fn call_tool(
//!         &self,
//!         request: CallToolRequestParams,
//!         context: RequestContext<RoleServer>,
//!     ) -> Result<CallToolResponse, McpError> {
//!         call_tool(&self.elicit, request, context, None, async |cx| {
//!             let text = match Guests::ask(cx).await? {
//!                 Answer::Accepted(g) => format!("accept: {} guests", g.count),
//!                 Answer::Declined => "decline".to_owned(),
//!                 Answer::Cancelled => "cancel".to_owned(),
//!             };
//!             Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
//!         })
//!         .await
//!     }
//! }
//! // Over stdio (`ServiceExt::serve`), serve `ElicitService::new(server)` instead of `server`.
//! // Over streamable HTTP, serve `server` and pass JSON responses through
//! // `strip_empty_elicitation_ids_json` (see `ElicitService` for why).
//! ```
//!
//! # Field order
//!
//! Clients show a form's fields in the order of its `properties`. This adapter hands rmcp the
//! form in declaration order (rmcp's `ElicitationSchema::property_order`), never through a
//! `serde_json::Value`, which sorts keys. rmcp 3.11 itself, however, writes every request's
//! params through a `Value` (`WithMeta::serialize`), both for a pushed `elicitation/create`
//! and inside `inputRequests`, so with rmcp the fields reach the client sorted by name unless
//! the application enables serde_json's `preserve_order` feature. elicit does not enable it:
//! it is a unified feature and would change every `Value` in the program.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientRequest, CustomResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, GetPromptResult, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerNotification,
    ServerRequest, ServerResult,
};
use rmcp::service::{NotificationContext, RequestContext, Service, ServiceError};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::interrupt::Interrupt;
use crate::legacy::{BoxFuture, LegacyPeer};
use crate::ordered::Ordered;
use crate::request::{ElicitContext, Reply};
use crate::server::ElicitServer;
use crate::wire::{
    ClientCapabilities, INTERNAL_ERROR, InputRequest, InputRequiredResult, JsonRpcError,
};

/// Our JSON-RPC error as rmcp's.
pub fn to_mcp_error(error: JsonRpcError) -> McpError {
    McpError::new(
        ErrorCode(i32::try_from(error.code).unwrap_or(-32603)),
        error.message,
        error.data,
    )
}

/// Our type as rmcp's, through JSON text: a `Value` in between would sort object keys and
/// reorder a form's `properties` (rmcp keeps the order it parses).
fn convert<T: Serialize, U: DeserializeOwned>(value: &T) -> Result<U, McpError> {
    serde_json::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|e| McpError::internal_error(format!("cannot convert to rmcp type: {e}"), None))
}

/// A back-channel request as rmcp parses one: `{"method", "params"}`, with `{}` for a request
/// that has no params.
struct Outgoing<'a>(&'a InputRequest);

impl Serialize for Outgoing<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let empty = Value::Object(serde_json::Map::new());
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("method", self.0.method())?;
        match self.0 {
            InputRequest::Elicit(p) => map.serialize_entry("params", p)?,
            InputRequest::Sampling(p) => map.serialize_entry("params", p)?,
            InputRequest::ListRoots(p) | InputRequest::Other { params: p, .. } => {
                map.serialize_entry("params", p.as_ref().unwrap_or(&empty))?
            }
        }
        map.end()
    }
}

/// rmcp's server peer as the 2025-11-25 back channel.
#[derive(Clone)]
pub struct RmcpPeer(rmcp::Peer<RoleServer>);

impl RmcpPeer {
    /// Wraps the peer of the request being handled.
    pub fn new(peer: rmcp::Peer<RoleServer>) -> Self {
        RmcpPeer(peer)
    }
}

fn service_error(error: ServiceError) -> JsonRpcError {
    match error {
        ServiceError::McpError(e) => {
            JsonRpcError::new(i64::from(e.code.0), e.message.to_string(), e.data)
        }
        other => JsonRpcError::new(
            INTERNAL_ERROR,
            format!("request to the client failed: {other}"),
            None,
        ),
    }
}

/// A request or notification rmcp's model does not take.
fn cannot_send(method: &str, error: &serde_json::Error) -> JsonRpcError {
    JsonRpcError::new(
        INTERNAL_ERROR,
        format!("rmcp cannot send `{method}`: {error}"),
        None,
    )
}

impl LegacyPeer for RmcpPeer {
    fn request<'a>(
        &'a self,
        request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        Box::pin(async move {
            let method = request.method();
            let request: ServerRequest = serde_json::to_string(&Outgoing(request))
                .and_then(|text| serde_json::from_str(&text))
                .map_err(|e| cannot_send(method, &e))?;
            let result = self.0.send_request(request).await.map_err(service_error)?;
            serde_json::to_value(result)
                .map_err(|e| JsonRpcError::new(INTERNAL_ERROR, e.to_string(), None))
        })
    }

    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> BoxFuture<'a, Result<(), JsonRpcError>> {
        Box::pin(async move {
            let notification: ServerNotification =
                serde_json::from_value(json!({"method": method, "params": params}))
                    .map_err(|e| cannot_send(method, &e))?;
            self.0
                .send_notification(notification)
                .await
                .map_err(service_error)
        })
    }
}

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
    let legacy = request.peer.peer_info().map(|info| {
        let caps: ClientCapabilities = convert(&info.capabilities).unwrap_or_default();
        let peer: Arc<dyn LegacyPeer> = Arc::new(RmcpPeer::new(request.peer.clone()));
        (caps, Some(peer))
    });
    let mut builder = server.context(method, &raw).principal(principal);
    if let Some((caps, peer)) = legacy {
        builder = builder.legacy(caps, peer);
    }
    builder.build().map_err(|e| to_mcp_error(e.error))
}

/// Our input-required result as rmcp's (see [`ElicitService`] for the URL-mode bridge).
pub fn input_required(
    result: &InputRequiredResult,
) -> Result<rmcp::model::InputRequiredResult, McpError> {
    convert(result)
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
    match cx.finish(result).map_err(to_mcp_error)? {
        Reply::Result(result) => Ok(complete(result)),
        Reply::InputRequired(ask) => Ok(input(input_required(&ask)?)),
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

/// Serves an rmcp handler with the one wire fix elicitations need.
///
/// rmcp 3.11 models URL-mode elicitation params with a required `elicitationId` (the
/// 2025-11-25 shape) and writes `"elicitationId": ""` when there is none. On 2026-07-28 a URL
/// request has no `elicitationId` at all, so this wrapper removes the empty member from
/// `inputRequests` of input-required results before they go out. Everything else passes
/// through untouched.
///
/// rmcp's `StreamableHttpService` takes a `ServerHandler`, not a `Service`, so over
/// streamable HTTP serve the handler itself (with `json_response` on) and apply
/// [`strip_empty_elicitation_ids_json`] to each JSON response body, as the demo's HTTP mode
/// does.
#[derive(Debug, Clone)]
pub struct ElicitService<H>(pub H);

impl<H> ElicitService<H> {
    /// Wraps `handler`.
    pub fn new(handler: H) -> Self {
        ElicitService(handler)
    }
}

/// Removes `"elicitationId": ""` from the URL requests of an input-required result (as JSON);
/// returns whether anything changed. A `Value` has sorted keys already; for transports that
/// serialize rmcp results themselves (e.g. a streamable HTTP layer), use
/// [`strip_empty_elicitation_ids_json`] on the response bytes, which keeps their order.
pub fn strip_empty_elicitation_ids(result: &mut Value) -> bool {
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return false;
    }
    let mut changed = false;
    if let Some(requests) = result
        .get_mut("inputRequests")
        .and_then(Value::as_object_mut)
    {
        for request in requests.values_mut() {
            if let Some(params) = request.get_mut("params").and_then(Value::as_object_mut)
                && params.get("mode").and_then(Value::as_str) == Some("url")
                && params.get("elicitationId").and_then(Value::as_str) == Some("")
            {
                params.remove("elicitationId");
                changed = true;
            }
        }
    }
    changed
}

/// [`strip_empty_elicitation_ids`] over the bytes of a JSON-RPC response (or of a bare
/// result): `Some` with the rewritten JSON when something was removed, `None` when the bytes
/// need no change (or are not JSON). Everything else, key order included, is written back as
/// it came, so a form asked for in the same round keeps its fields in order.
pub fn strip_empty_elicitation_ids_json(response: &[u8]) -> Option<Vec<u8>> {
    let mut message: Ordered = serde_json::from_slice(response).ok()?;
    let changed = match message.get_mut("result") {
        Some(result) => strip_ordered(result),
        None => strip_ordered(&mut message),
    };
    changed.then(|| serde_json::to_vec(&message).ok()).flatten()
}

fn strip_ordered(result: &mut Ordered) -> bool {
    let is = |value: Option<&Ordered>, text: &str| matches!(value, Some(Ordered::String(s)) if s == text);
    if !is(result.get("resultType"), "input_required") {
        return false;
    }
    let Some(Ordered::Object(requests)) = result.get_mut("inputRequests") else {
        return false;
    };
    let mut changed = false;
    for (_, request) in requests {
        if let Some(params) = request.get_mut("params")
            && is(params.get("mode"), "url")
            && is(params.get("elicitationId"), "")
        {
            params.take("elicitationId");
            changed = true;
        }
    }
    changed
}

/// rmcp can only carry the rewritten result as a `CustomResult` holding a `Value`, whose
/// objects are sorted by key: in a round that asks for a URL and a form at once, the form's
/// fields reach a stdio client sorted by name. Rounds without an id-less URL request pass
/// through typed, in order.
fn bridge_url_requests(result: ServerResult) -> ServerResult {
    let ServerResult::InputRequiredResult(ask) = &result else {
        return result;
    };
    let Ok(mut value) = serde_json::to_value(ask) else {
        return result;
    };
    if strip_empty_elicitation_ids(&mut value) {
        ServerResult::CustomResult(CustomResult::new(value))
    } else {
        result
    }
}

impl<H: ServerHandler> Service<RoleServer> for ElicitService<H> {
    async fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, McpError> {
        Service::handle_request(&self.0, request, context)
            .await
            .map(bridge_url_requests)
    }

    async fn handle_notification(
        &self,
        notification: rmcp::model::ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), McpError> {
        Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> <RoleServer as rmcp::service::ServiceRole>::Info {
        Service::get_info(&self.0)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&self.0)
    }
}

#[cfg(test)]
mod tests;
