//! The one wire fix rmcp 3.11 needs for 2026-07-28 URL-mode requests.

use std::borrow::Cow;

use rmcp::model::{ClientRequest, CustomResult, ProtocolVersion, ServerResult};
use rmcp::service::{NotificationContext, RequestContext, Service};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;

use crate::wire::{ElicitMode, INTERNAL_ERROR, InputRequest, InputRequiredResult, JsonRpcError};

/// Serves an rmcp server with the one wire fix elicitations need: wrap what you serve in it,
/// once, on either transport.
///
/// rmcp 3.11 models URL-mode elicitation params with a required `elicitationId` (the
/// 2025-11-25 shape) and writes `"elicitationId": ""` when there is none. On 2026-07-28 a URL
/// request has no `elicitationId` at all (clients refuse the empty one), so this wrapper
/// removes the empty member from the `inputRequests` of input-required results before they
/// go out. Everything else passes through untouched.
///
/// - stdio (or any rmcp transport): `WireFix::new(handler).serve(transport)`;
/// - streamable HTTP (feature `http`): `elicit_rmcp::streamable_http(server, config)` (that is
///   `WireFix::new(StreamableHttpService::new(…))`),
///   mounted as the tower service it is (JSON responses and server-sent events both).
///
/// Without it, a round that would send a 2026-07-28 URL request fails with an internal error
/// saying to add it (rather than sending clients an `elicitationId` they reject); forms are
/// not affected.
///
/// ```no_run
/// # #[derive(Clone)] struct Server;
/// # impl rmcp::ServerHandler for Server {}
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use elicit_rmcp::adapter::WireFix;
/// use rmcp::ServiceExt;
///
/// WireFix::new(Server).serve(rmcp::transport::stdio_pipes()).await?.waiting().await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct WireFix<H>(pub H);

impl<H> WireFix<H> {
    /// Wraps `handler` (stdio) or rmcp's `StreamableHttpService` (HTTP).
    pub fn new(handler: H) -> Self {
        WireFix(handler)
    }
}

/// Removes `"elicitationId": ""` from the URL requests of an input-required result (as JSON);
/// returns whether anything changed. Key order is kept (this crate turns on serde_json's
/// `preserve_order`, and the member is removed with `shift_remove`).
pub(crate) fn strip_empty_elicitation_ids(result: &mut Value) -> bool {
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
                params.shift_remove("elicitationId");
                changed = true;
            }
        }
    }
    changed
}

/// [`strip_empty_elicitation_ids`] over the bytes of a JSON-RPC response (or of a bare
/// result), for transports that serialize rmcp results themselves (the streamable HTTP
/// layer): `Some` with the rewritten JSON when something was removed, `None` when the bytes
/// need no change (or are not JSON). Everything else, key order included, is written back as
/// it came, so a form asked for in the same round keeps its fields in order.
#[cfg(any(feature = "http", test))]
pub(crate) fn strip_empty_elicitation_ids_json(response: &[u8]) -> Option<Vec<u8>> {
    let mut message: Value = serde_json::from_slice(response).ok()?;
    let changed = match message.get_mut("result") {
        Some(result) => strip_empty_elicitation_ids(result),
        None => strip_empty_elicitation_ids(&mut message),
    };
    changed.then(|| serde_json::to_vec(&message).ok()).flatten()
}

/// rmcp can only carry the rewritten result as a `CustomResult` holding a `Value`, whose
/// objects are sorted by key: in a round that asks for a URL and a form at once, the form's
/// fields reach a stdio client sorted by name. Rounds without an id-less URL request pass
/// through typed, in order.
pub(super) fn bridge_url_requests(result: ServerResult) -> ServerResult {
    let ServerResult::InputRequiredResult(ask) = &result else {
        return result;
    };
    // Checked on the typed result first: a `Value` of every round would cost more than
    // building the round did.
    if !has_empty_elicitation_id(ask) {
        return result;
    }
    let Ok(mut value) = serde_json::to_value(ask) else {
        return result;
    };
    if strip_empty_elicitation_ids(&mut value) {
        ServerResult::CustomResult(CustomResult::new(value))
    } else {
        result
    }
}

/// Whether a URL request of `ask` has the empty `elicitationId` rmcp writes for none.
fn has_empty_elicitation_id(ask: &rmcp::model::InputRequiredResult) -> bool {
    ask.input_requests.iter().flat_map(|r| r.values()).any(|request| {
        matches!(
            request,
            rmcp::model::InputRequest::Elicitation(request)
                if matches!(
                    &request.params,
                    rmcp::model::ElicitRequestParams::UrlElicitationParams { elicitation_id, .. }
                        if elicitation_id.is_empty()
                )
        )
    })
}

impl<H: ServerHandler> Service<RoleServer> for WireFix<H> {
    async fn handle_request(
        &self,
        request: ClientRequest,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, McpError> {
        context.extensions.insert(Bridged);
        // Boxed: the handler's future holds every handler's state (kilobytes for elicit's),
        // and rmcp moves the request future several times while spawning it.
        Box::pin(Service::handle_request(&self.0, request, context))
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

/// Left in a request's extensions by [`WireFix`] (stdio: the request context; HTTP: the
/// HTTP request, whose parts rmcp hands on), so the wiring knows the wire fix is in place.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bridged;

/// Whether the request came through [`WireFix`].
pub(super) fn is_bridged(context: &RequestContext<RoleServer>) -> bool {
    if context.extensions.get::<Bridged>().is_some() {
        return true;
    }
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<http::request::Parts>() {
        return parts.extensions.get::<Bridged>().is_some();
    }
    false
}

/// Refuses to send a 2026-07-28 URL request that rmcp would write with an empty
/// `elicitationId` (which clients reject) when the request did not come through
/// [`WireFix`]: a loud error instead of a silent failure on the client.
pub(super) fn require_bridge(ask: &InputRequiredResult, bridged: bool) -> Result<(), JsonRpcError> {
    let asks_url = ask.input_requests().is_some_and(|requests| {
        requests
            .values()
            .any(|r| matches!(r, InputRequest::Elicit(p) if p.mode() == ElicitMode::Url))
    });
    if asks_url && !bridged {
        return Err(JsonRpcError::new(
            INTERNAL_ERROR,
            "a URL-mode question needs `elicit_rmcp::adapter::WireFix` around the \
             server: serve it with `elicit_rmcp::serve_stdio` or `elicit_rmcp::streamable_http`, \
             which add it, or wrap what you serve in `WireFix::new(…)`",
            None,
        ));
    }
    Ok(())
}
