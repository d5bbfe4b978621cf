//! Why a handler stops before its result: input is still needed, or the request failed.

use std::fmt;

use crate::url::UrlLink;
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
    Link(Box<UrlLink>),
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

    /// The tool call ends with `link` as its ordinary text result, for a client that cannot
    /// open URL elicitations ([`ElicitUrl::ask_or_link`](crate::ElicitUrl::ask_or_link)).
    pub fn link(link: UrlLink) -> Self {
        Interrupt(Stop::Link(Box::new(link)))
    }

    /// The link the call ends with, if it ends with one.
    pub fn as_link(&self) -> Option<&UrlLink> {
        match &self.0 {
            Stop::Link(link) => Some(link),
            _ => None,
        }
    }

    /// `true` when the handler stopped to wait for input.
    pub fn is_input_required(&self) -> bool {
        matches!(self.0, Stop::InputRequired)
    }

    /// The error the request fails with, if it failed.
    pub fn as_error(&self) -> Option<&JsonRpcError> {
        match &self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired | Stop::Link(_) => None,
        }
    }

    /// The error the request fails with, if it failed.
    pub fn into_error(self) -> Option<JsonRpcError> {
        match self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired | Stop::Link(_) => None,
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
            Stop::Link(link) => write!(f, "the call ends with a link: {}", link.url),
        }
    }
}

impl std::error::Error for Interrupt {}
