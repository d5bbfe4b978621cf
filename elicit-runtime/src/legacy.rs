//! The 2025-11-25 back channel: a real server-to-client request (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`) sent while a client request is being handled.
//! An SDK adapter implements [`LegacyPeer`] over its own connection.

use serde_json::Value;

pub use crate::future::BoxFuture;
use crate::wire::{InputRequest, JsonRpcError};

/// Sends one server-to-client request on a 2025-11-25 connection and waits for the reply.
///
/// The request must be tied to the client request being handled (SEP-2260): adapters send it
/// on that request's stream.
///
/// The request comes typed, not as a `serde_json::Value`: a `Value` sorts object keys, which
/// would reorder the form's `properties` (the order clients show the fields in). Serialize it
/// straight to the transport (`serde_json::to_writer`, or into the SDK's own request type with
/// `serde_json::from_str(&serde_json::to_string(request)?)`) to keep that order.
///
/// ```
/// use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
/// use elicit_runtime::wire::{InputRequest, JsonRpcError};
/// use serde_json::{Value, json};
///
/// /// A peer whose user always declines.
/// struct AlwaysDecline;
///
/// impl LegacyPeer for AlwaysDecline {
///     fn request<'a>(&'a self, request: &'a InputRequest) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
///         Box::pin(async move {
///             assert_eq!(request.method(), "elicitation/create");
///             Ok(json!({"action": "decline"}))
///         })
///     }
/// }
/// ```
pub trait LegacyPeer: Send + Sync {
    /// Sends `request` (its `method` and `params`, the params written in their declaration
    /// order) to the client; resolves to the reply's `result`, or the JSON-RPC error the
    /// client answered with.
    fn request<'a>(
        &'a self,
        request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>>;

    /// Sends a notification to the client (e.g. `notifications/elicitation/complete`).
    /// The default drops it, for peers that cannot notify.
    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> BoxFuture<'a, Result<(), JsonRpcError>> {
        let _ = (method, params);
        Box::pin(async { Ok(()) })
    }
}
