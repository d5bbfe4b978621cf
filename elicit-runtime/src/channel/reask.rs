//! A form question asked again: what a channel keeps between rounds so the answer to the
//! re-asked question is read against it, and the count cannot start over.

use serde_json::{Map, Value};

/// A form question asked again because the accepted answer failed the form's checks: which
/// question it was, how many times it has been asked again, and what it says and pre-fills now.
///
/// Made by the form's ask; a channel keeps it between rounds
/// ([`ChannelRules`](crate::ChannelRules)). On 2026-07-28 a request
/// context seals it into `requestState`, so the client can neither reset nor raise the count.
///
/// ```
/// use elicit_runtime::form::Reask;
///
/// fn describe(reask: &Reask) -> String {
///     format!("asked again {} time(s): {}", reask.count(), reask.message())
/// }
/// # let _ = describe;
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Reask {
    /// The digest of the question as the handler asks it (before any re-ask).
    pub(crate) origin: String,
    /// How many times it has been asked again (1 for the first re-ask).
    pub(crate) count: u8,
    /// The message of the re-asked question.
    pub(crate) message: String,
    /// The values it pre-fills, by field.
    pub(crate) defaults: Map<String, Value>,
}

impl Reask {
    /// How many times the question has been asked again (1 after the first re-ask).
    pub fn count(&self) -> u8 {
        self.count
    }
    /// The message the re-asked question shows.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The values the user gave that passed, pre-filled as `default`s.
    pub fn defaults(&self) -> &Map<String, Value> {
        &self.defaults
    }
    /// Whether this re-ask belongs to the question with `digest` (as the handler asks it).
    pub fn is_for(&self, digest: &str) -> bool {
        self.origin == digest
    }
}
