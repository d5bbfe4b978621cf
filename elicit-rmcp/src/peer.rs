//! rmcp's peer as the 2025-11-25 back channel, and the session an `initialize` set up.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ServerNotification, ServerRequest};
use rmcp::service::{RequestContext, ServiceError};
use serde::Serialize;
use serde_json::{Value, json};

use super::convert::convert;
use crate::legacy::{BoxFuture, LegacyPeer};
use crate::wire::{ClientCapabilities, INTERNAL_ERROR, InputRequest, JsonRpcError};

/// A back-channel request as rmcp parses one: `{"method", "params"}`, with `{}` for a request
/// that has no params.
pub(super) struct Outgoing<'a>(pub(super) &'a InputRequest);

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

impl std::fmt::Debug for RmcpPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RmcpPeer").finish_non_exhaustive()
    }
}

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

/// What a 2025-11-25 connection negotiated in `initialize`, if it did: the client's
/// capabilities and the peer that takes server-to-client requests.
pub(super) fn session(
    request: &RequestContext<RoleServer>,
) -> Option<(ClientCapabilities, Option<Arc<dyn LegacyPeer>>)> {
    request.peer.peer_info().map(|info| {
        let caps: ClientCapabilities = convert(&info.capabilities).unwrap_or_default();
        let peer: Arc<dyn LegacyPeer> = Arc::new(RmcpPeer::new(request.peer.clone()));
        (caps, Some(peer))
    })
}
