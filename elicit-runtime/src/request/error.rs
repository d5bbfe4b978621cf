//! Why a request cannot be served: what the client is told, and the precise reason for logs.

use std::fmt;

use crate::state::StateError;
use crate::wire::JsonRpcError;

/// A request that cannot be served, with the precise reason for the server's logs.
///
/// The client sees only [`ContextError::error`]; for a bad `requestState` that is always the
/// same `-32602 "Invalid or expired requestState"`, whatever went wrong.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
/// let params = json!({"name": "book", "arguments": {}}); // no `_meta`, no session
/// let refused = server.context("tools/call", &params).build().unwrap_err();
/// assert_eq!(refused.error.code, -32602);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ContextError {
    /// The JSON-RPC error for the client.
    pub error: JsonRpcError,
    /// What exactly went wrong, for logs (boxed: the error type stays small).
    pub reason: Box<str>,
}

impl ContextError {
    pub(super) fn new(error: JsonRpcError, reason: impl Into<String>) -> Self {
        ContextError {
            error,
            reason: reason.into().into_boxed_str(),
        }
    }

    /// The uniform refusal of a `requestState` that does not open, with the reason for logs.
    pub(super) fn state(reason: impl fmt::Display) -> Self {
        ContextError::new(
            JsonRpcError::invalid_request_state(),
            format!("requestState refused: {reason}"),
        )
    }
}

impl From<&StateError> for ContextError {
    fn from(error: &StateError) -> Self {
        ContextError::state(error)
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.error.message)
    }
}

impl std::error::Error for ContextError {}

impl From<ContextError> for JsonRpcError {
    fn from(error: ContextError) -> Self {
        error.error
    }
}
