//! Why a sealed state was refused, and why sealing failed.

use std::fmt;

use serde_json::{Value, json};

/// JSON-RPC error code sent to the client for every refused `requestState` (`-32602`, invalid
/// params).
pub const INVALID_STATE_CODE: i64 = -32602;

/// JSON-RPC error message sent to the client for every refused `requestState`.
pub const INVALID_STATE_MESSAGE: &str = "Invalid or expired requestState";

/// The `data.reason` sent to the client for every refused `requestState`.
pub const INVALID_STATE_REASON: &str = "invalid_request_state";

/// Why a sealed `requestState` token was refused.
///
/// The variants are precise so that the *server* can log what happened. The *client* must never
/// learn which check failed (that would turn the server into an oracle), so every variant maps to
/// the same JSON-RPC error through [`StateError::to_jsonrpc_error`].
///
/// ```
/// use elicit_runtime::state::StateError;
///
/// let expired = StateError::Expired;
/// let tampered = StateError::Decrypt;
/// assert_ne!(expired.to_string(), tampered.to_string()); // precise for logs
/// assert_eq!(expired.to_jsonrpc_error(), tampered.to_jsonrpc_error()); // uniform for clients
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The token is not shaped like a token of this crate (wrong prefix or version, bad base64,
    /// too short, or an envelope that does not parse). The text says which.
    Malformed(&'static str),
    /// The token is longer than [`MAX_TOKEN_LEN`](super::MAX_TOKEN_LEN) and was refused before
    /// decoding.
    TooLarge {
        /// Length of the refused token in bytes.
        len: usize,
    },
    /// The token names a key id the key ring does not hold (retired key, or forged).
    UnknownKey {
        /// The key id read from the token.
        kid: u32,
    },
    /// Authenticated decryption failed: the token was tampered with, truncated, or sealed with
    /// another key under the same key id.
    Decrypt,
    /// The token's lifetime is over.
    Expired,
    /// The token claims to be issued further in the future than the allowed clock skew
    /// ([`MAX_CLOCK_SKEW`](super::MAX_CLOCK_SKEW)).
    NotYetValid,
    /// The token was sealed for another audience (another server sharing the key).
    AudienceMismatch,
    /// The token was sealed for another method (e.g. `prompts/get` instead of `tools/call`).
    MethodMismatch,
    /// The token was sealed for another tool, prompt or resource.
    TargetMismatch,
    /// The request's arguments differ from those the token was sealed for.
    ArgumentsChanged,
    /// The token was sealed for another principal, or for a principal while the request has none
    /// (or the other way round).
    PrincipalMismatch,
    /// The token's id was already redeemed (single-use state, see
    /// [`ReplayGuard`](super::ReplayGuard)).
    Replayed,
    /// The state was sealed before the replay guard's store lost what it remembered (a Redis
    /// restarted without persistence, or flushed): whether it was spent before the loss cannot
    /// be known, so it is refused (fail closed). States sealed after the loss are not affected.
    ReplayMemoryLost,
    /// The replay guard could not decide (e.g. its store is unreachable); the state is refused
    /// (fail closed). The text is for logs.
    ReplayGuardUnavailable(String),
}

impl StateError {
    /// A short, stable `snake_case` name of the reason, for metrics and structured logs.
    ///
    /// ```
    /// use elicit_runtime::state::StateError;
    ///
    /// assert_eq!(StateError::ArgumentsChanged.reason(), "arguments_changed");
    /// ```
    #[must_use]
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Malformed(_) => "malformed",
            Self::TooLarge { .. } => "too_large",
            Self::UnknownKey { .. } => "unknown_key",
            Self::Decrypt => "decrypt",
            Self::Expired => "expired",
            Self::NotYetValid => "not_yet_valid",
            Self::AudienceMismatch => "audience_mismatch",
            Self::MethodMismatch => "method_mismatch",
            Self::TargetMismatch => "target_mismatch",
            Self::ArgumentsChanged => "arguments_changed",
            Self::PrincipalMismatch => "principal_mismatch",
            Self::Replayed => "replayed",
            Self::ReplayMemoryLost => "replay_memory_lost",
            Self::ReplayGuardUnavailable(_) => "replay_guard_unavailable",
        }
    }

    /// The JSON-RPC `error` object to send to the client.
    ///
    /// It is exactly the same for every reason a state is refused:
    /// `{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}`.
    /// The one exception is not a refusal: [`StateError::ReplayGuardUnavailable`] (the state
    /// passed every check, but the guard's store did not answer) is
    /// [`JsonRpcError::state_store_unavailable`](elicit_wire::JsonRpcError::state_store_unavailable),
    /// a `-32603` that tells the client to retry.
    ///
    /// ```
    /// use elicit_runtime::state::StateError;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     StateError::PrincipalMismatch.to_jsonrpc_error(),
    ///     json!({
    ///         "code": -32602,
    ///         "message": "Invalid or expired requestState",
    ///         "data": {"reason": "invalid_request_state"}
    ///     })
    /// );
    /// ```
    #[must_use]
    pub fn to_jsonrpc_error(&self) -> Value {
        serde_json::to_value(self.client_error()).unwrap_or_else(|_| invalid_state_error())
    }

    /// [`to_jsonrpc_error`](Self::to_jsonrpc_error) as the typed error.
    #[doc(hidden)]
    pub fn client_error(&self) -> elicit_wire::JsonRpcError {
        match self {
            Self::ReplayGuardUnavailable(_) => elicit_wire::JsonRpcError::state_store_unavailable(),
            _ => elicit_wire::JsonRpcError::invalid_request_state(),
        }
    }
}

/// The uniform client-facing error (see [`StateError::to_jsonrpc_error`]).
fn invalid_state_error() -> Value {
    json!({
        "code": INVALID_STATE_CODE,
        "message": INVALID_STATE_MESSAGE,
        "data": { "reason": INVALID_STATE_REASON },
    })
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(detail) => write!(f, "malformed requestState: {detail}"),
            Self::TooLarge { len } => write!(
                f,
                "requestState too large: {len} bytes (limit {})",
                super::MAX_TOKEN_LEN
            ),
            Self::UnknownKey { kid } => write!(f, "requestState sealed with unknown key id {kid}"),
            Self::Decrypt => f.write_str(
                "requestState failed authentication (tampered, truncated or sealed with another key)",
            ),
            Self::Expired => f.write_str("requestState expired"),
            Self::NotYetValid => {
                f.write_str("requestState issued in the future beyond the allowed clock skew")
            }
            Self::AudienceMismatch => f.write_str("requestState sealed for another audience"),
            Self::MethodMismatch => f.write_str("requestState sealed for another method"),
            Self::TargetMismatch => {
                f.write_str("requestState sealed for another tool, prompt or resource")
            }
            Self::ArgumentsChanged => {
                f.write_str("request arguments differ from those the requestState was sealed for")
            }
            Self::PrincipalMismatch => f.write_str("requestState sealed for another principal"),
            Self::Replayed => f.write_str("requestState already redeemed (replay)"),
            Self::ReplayMemoryLost => f.write_str(
                "requestState sealed before the replay guard's store lost its data; it may have been spent",
            ),
            Self::ReplayGuardUnavailable(detail) => {
                write!(f, "replay guard unavailable, requestState refused: {detail}")
            }
        }
    }
}

impl std::error::Error for StateError {}

/// Why sealing a state failed. This is the server's own problem (report it as an internal error),
/// never the client's.
///
/// ```
/// use elicit_runtime::state::{Binding, KeyRing, SealError, StateSealer};
/// use serde_json::json;
///
/// let sealer = StateSealer::new(KeyRing::generate(), "example-server");
/// let binding = Binding::tool_call("get_weather", &json!({}));
/// let huge = json!("x".repeat(300 * 1024));
/// assert!(matches!(
///     sealer.seal_now(&binding, &huge),
///     Err(SealError::PayloadTooLarge { .. })
/// ));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SealError {
    /// The token would be longer than [`MAX_TOKEN_LEN`](super::MAX_TOKEN_LEN), so it could never
    /// be opened; keep large data server-side and seal a reference to it.
    PayloadTooLarge {
        /// Length the token would have had, in bytes.
        len: usize,
        /// The limit, [`MAX_TOKEN_LEN`](super::MAX_TOKEN_LEN).
        max: usize,
    },
    /// The operating system's random number generator failed. The text is for logs.
    Randomness(String),
    /// The payload's `Serialize` implementation failed (e.g. a map whose keys are not strings).
    /// The text is for logs.
    Serialize(String),
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PayloadTooLarge { len, max } => write!(
                f,
                "sealed state would be {len} bytes, more than the {max} bytes a token may have"
            ),
            Self::Randomness(detail) => write!(f, "OS random number generator failed: {detail}"),
            Self::Serialize(detail) => write!(f, "state payload does not serialize: {detail}"),
        }
    }
}

impl std::error::Error for SealError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_reasons() -> Vec<StateError> {
        vec![
            StateError::Malformed("x"),
            StateError::TooLarge { len: 1 },
            StateError::UnknownKey { kid: 7 },
            StateError::Decrypt,
            StateError::Expired,
            StateError::NotYetValid,
            StateError::AudienceMismatch,
            StateError::MethodMismatch,
            StateError::TargetMismatch,
            StateError::ArgumentsChanged,
            StateError::PrincipalMismatch,
            StateError::Replayed,
            StateError::ReplayGuardUnavailable("down".into()),
        ]
    }

    #[test]
    fn client_error_is_identical_for_every_refusal() {
        let expected = serde_json::json!({
            "code": -32602,
            "message": "Invalid or expired requestState",
            "data": {"reason": "invalid_request_state"}
        });
        for e in all_reasons() {
            if matches!(e, StateError::ReplayGuardUnavailable(_)) {
                // Not a refusal: the state passed; the client is told to retry.
                assert_eq!(
                    e.to_jsonrpc_error(),
                    serde_json::json!({
                        "code": -32603,
                        "message": "The requestState could not be checked right now; retry the request",
                        "data": {"reason": "state_store_unavailable"}
                    })
                );
                assert_eq!(
                    serde_json::to_value(e.client_error()).unwrap(),
                    e.to_jsonrpc_error()
                );
                continue;
            }
            assert_eq!(
                serde_json::to_value(e.client_error()).unwrap(),
                expected,
                "{e:?}"
            );
            assert_eq!(e.to_jsonrpc_error(), expected, "{e:?}");
            assert_eq!(
                serde_json::to_string(&e.to_jsonrpc_error()).unwrap(),
                serde_json::to_string(&expected).unwrap()
            );
        }
    }

    #[test]
    fn log_texts_and_reasons_are_distinct() {
        let errors = all_reasons();
        let texts: std::collections::HashSet<String> =
            errors.iter().map(ToString::to_string).collect();
        let reasons: std::collections::HashSet<&str> =
            errors.iter().map(StateError::reason).collect();
        assert_eq!(texts.len(), errors.len());
        assert_eq!(reasons.len(), errors.len());
    }
}
