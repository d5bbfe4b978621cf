//! One request's context and its end, for both ways of running a handler (the router wiring
//! and the hand-dispatched closures): building the context from the params as the client sent
//! them, and turning the handler's result into rmcp's response.

use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};

use super::convert::{input_required, to_mcp_error};
use super::peer::session;
use super::service::require_bridge;
use crate::Interrupt;
use crate::request::{ContextBuilder, ElicitContext, Reply};
use crate::url::UrlLink;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ProgressNotificationParam};

/// The context of one request from `builder` (the request's params with their `_meta`), the
/// 2025-11-25 session if the connection has one, and who is asking.
pub(super) fn build(
    builder: ContextBuilder<'_>,
    request: &RequestContext<RoleServer>,
    principal: Option<&str>,
) -> Result<ElicitContext, McpError> {
    // A held retry or a 2025-11-25 wait on a page ends when rmcp cancels the request (the
    // client's `notifications/cancelled`, or the connection closing), freeing its wait.
    let token = request.ct.clone();
    let mut builder = builder
        .principal(principal)
        .cancelled_by(move || token.clone().cancelled_owned());
    // A client that asked for progress is told while the request waits on a page; the
    // reports go to the token this request carried and to no other.
    if let Some(token) = request.meta.get_progress_token() {
        let peer = request.peer.clone();
        builder = builder.progress_by(move |report| {
            let (peer, token) = (peer.clone(), token.clone());
            async move {
                let note = ProgressNotificationParam::new(token, report.waited as f64)
                    .with_total(report.limit as f64)
                    .with_message(report.message);
                // Best effort: a lost report changes nothing but what the host shows.
                let _ = peer.notify_progress(note).await;
            }
        });
    }
    if let Some((caps, peer)) = session(request) {
        builder = builder.legacy(caps, peer);
    }
    builder.build().map_err(|e| to_mcp_error(e.error))
}

/// Ends the round: redeems the state if the round continues, then answers with the result
/// (`complete`), the round's `InputRequiredResult` (`input`; refused when the request did not
/// come through `WireFix` and the round asks for a URL) or the error.
pub(super) async fn respond<R, Response>(
    cx: ElicitContext,
    result: Result<R, Interrupt>,
    bridged: bool,
    complete: fn(R) -> Response,
    input: fn(rmcp::model::InputRequiredResult) -> Response,
    link: fn(UrlLink) -> Option<Response>,
) -> Result<Response, McpError> {
    match cx.respond(result).await.map_err(to_mcp_error)? {
        Reply::Result(result) => Ok(complete(result)),
        Reply::InputRequired(ask) => {
            require_bridge(&ask, bridged).map_err(to_mcp_error)?;
            Ok(input(input_required(ask)?))
        }
        Reply::Link(url) => link(url).ok_or_else(|| {
            McpError::internal_error("only a tool call can end with a URL-mode link", None)
        }),
        _ => Err(McpError::internal_error(
            "the request ended in a way this adapter does not know",
            None,
        )),
    }
}

/// A link as a tool's ordinary result: one text block the model can relay.
pub(super) fn link_result(link: UrlLink) -> Option<CallToolResponse> {
    Some(CallToolResponse::Complete(CallToolResult::success(vec![
        ContentBlock::text(link.to_string()),
    ])))
}
