//! The user's typed answer to a form question.

use crate::wire::ElicitAction;

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
