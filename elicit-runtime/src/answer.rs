//! What `ask()` gives back: the user's typed answer, or the reason the handler must stop.

use std::fmt;

use crate::wire::{ElicitAction, JsonRpcError};

/// The user's answer to a question: the decoded form, an explicit refusal, or a dismissal.
///
/// There is deliberately no `Deref`, no `bool` conversion and no `unwrap`: a decline or a
/// cancel can only be handled by matching on it.
///
/// ```
/// use elicit_runtime::Answer;
///
/// fn reply(answer: Answer<u8>) -> String {
///     match answer {
///         Answer::Accepted(guests) => format!("table for {guests}"),
///         Answer::Declined => "no booking".to_owned(),
///         Answer::Cancelled => "maybe later".to_owned(),
///     }
/// }
/// assert_eq!(reply(Answer::Accepted(2)), "table for 2");
/// assert_eq!(Answer::<u8>::Declined.accepted(), None);
/// ```
#[must_use = "the user may have declined or cancelled: match on the answer"]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer<T> {
    /// The user submitted the form; its content passed every check of the schema.
    Accepted(T),
    /// The user explicitly refused to answer.
    Declined,
    /// The user dismissed the question without choosing (closed the dialog, pressed Esc…).
    Cancelled,
}

impl<T> Answer<T> {
    /// The action on the wire: `accept`, `decline` or `cancel`.
    pub fn action(&self) -> ElicitAction {
        match self {
            Answer::Accepted(_) => ElicitAction::Accept,
            Answer::Declined => ElicitAction::Decline,
            Answer::Cancelled => ElicitAction::Cancel,
        }
    }

    /// The accepted value, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Answer::Accepted(value) => Some(value),
            Answer::Declined | Answer::Cancelled => None,
        }
    }

    /// Maps an accepted value, keeping declines and cancels.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Answer::Accepted(value) => Answer::Accepted(f(value)),
            Answer::Declined => Answer::Declined,
            Answer::Cancelled => Answer::Cancelled,
        }
    }
}

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
