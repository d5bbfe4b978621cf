//! The scripted user: one reply per question key, and how a 2025-11-25 request (which carries
//! no key) is matched to its key.

use serde_json::{Value, json};

use crate::form::ElicitForm;
use crate::url::{ElicitUrl, LandingPage};

/// How the scripted user answers one question.
#[derive(Debug, Clone, PartialEq)]
pub enum UserReply {
    /// `accept` with this `content` (valid or not: the server's decoder judges it).
    Accept(Value),
    /// `decline`.
    Decline,
    /// `cancel`.
    Cancel,
    /// A URL-mode question: the browser user opens the link on the landing page, the page
    /// completes the flow with this server-side result, then the client answers `accept`.
    CompleteUrl(Option<Value>),
    /// `accept` on a URL-mode question without the page ever being opened. The call then ends
    /// promptly: on 2026-07-28 with the round the server answers the accept with
    /// ([`Outcome::InputRequired`](super::Outcome::InputRequired); the accept is sent once),
    /// on 2025-11-25 with the client cancelling the call once its accept is on the wire
    /// ([`Outcome::Cancelled`](super::Outcome::Cancelled)).
    AcceptUrlUnopened,
    /// No answer. On 2026-07-28 the question is left out of `inputResponses`; a round in
    /// which the client answers nothing at all ends the call with that round
    /// ([`Outcome::InputRequired`](super::Outcome::InputRequired)), so a test can assert on
    /// what is still asked. On 2025-11-25 the pushed request gets a JSON-RPC error
    /// `unanswered question <key>`.
    Unanswered,
}

impl UserReply {
    /// `accept` with `form`'s content, as the form serializes it.
    pub fn accept_form<T: ElicitForm>(form: &T) -> Self {
        UserReply::Accept(Value::Object(form.to_content()))
    }
}

/// One scripted question.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) key: String,
    /// The replies to the question's first, second, … asking; the last one repeats.
    pub(super) replies: Vec<UserReply>,
    /// A form's property names, to recognise it on 2025-11-25; `None` for URL mode.
    pub(super) properties: Option<Vec<String>>,
}

/// The property names of a `requestedSchema`, in order.
pub(super) fn property_names(schema: &Value) -> Vec<String> {
    match schema.get("properties") {
        Some(Value::Object(props)) => props.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The properties of form `T`.
pub(super) fn form_properties<T: ElicitForm>() -> Vec<String> {
    let schema = serde_json::to_value(T::requested_schema()).unwrap_or(Value::Null);
    property_names(&schema)
}

/// The key of URL elicitation `T`.
pub(super) fn url_key<T: ElicitUrl>() -> String {
    T::KEY.to_owned()
}

/// The landing page and who is signed in to the browser.
#[derive(Clone)]
pub(super) struct Browser {
    pub(super) page: LandingPage,
    pub(super) user: String,
}

/// The sealed handle in a link: the value of its `elicitation` query parameter.
pub(super) fn handle_in(url: &str) -> Option<&str> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("elicitation="))
}

/// The `ElicitResult` JSON for a plain action.
pub(super) fn action(name: &str) -> Value {
    json!({"action": name})
}
