//! Why a handler stops before its result: input is still needed, or the request failed.

use std::fmt;

use crate::wire::JsonRpcError;

/// Why a handler stops before its result: input is still needed, or the request failed.
///
/// Returned as the error of `ask()` so that `?` ends the handler; the context then turns it
/// into an `InputRequiredResult` (input needed) or a JSON-RPC error response.
///
/// ```
/// use elicit_runtime::Interrupt;
/// use elicit_runtime::wire::JsonRpcError;
///
/// let stop: Interrupt = JsonRpcError::invalid_params("no such restaurant", None).into();
/// assert!(!stop.is_input_required());
/// assert_eq!(stop.as_error().map(|e| e.code), Some(-32602));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupt(Stop);

#[derive(Debug, Clone, PartialEq)]
enum Stop {
    InputRequired,
    Failed(JsonRpcError),
}

impl Interrupt {
    /// Input is needed before the handler can go on: the questions asked so far go to the
    /// client. With no question pending this is a state-only round ("retry later").
    pub fn input_required() -> Self {
        Interrupt(Stop::InputRequired)
    }

    /// The request fails with this JSON-RPC error.
    pub fn error(error: JsonRpcError) -> Self {
        Interrupt(Stop::Failed(error))
    }

    /// `true` when the handler stopped to wait for input.
    pub fn is_input_required(&self) -> bool {
        matches!(self.0, Stop::InputRequired)
    }

    /// The error the request fails with, if it failed.
    pub fn as_error(&self) -> Option<&JsonRpcError> {
        match &self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired => None,
        }
    }

    /// The error the request fails with, if it failed.
    pub fn into_error(self) -> Option<JsonRpcError> {
        match self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired => None,
        }
    }
}

impl From<JsonRpcError> for Interrupt {
    fn from(error: JsonRpcError) -> Self {
        Interrupt::error(error)
    }
}

impl fmt::Display for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Stop::InputRequired => f.write_str("input required from the client"),
            Stop::Failed(e) => write!(f, "request failed ({}): {}", e.code, e.message),
        }
    }
}

impl std::error::Error for Interrupt {}
