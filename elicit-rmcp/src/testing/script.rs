//! The scripted user: one reply per question key, and how a 2025-11-25 request (which carries
//! no key) is matched to its key.

use serde_json::{Value, json};

use crate::form::ElicitForm;
use crate::url::ElicitUrl;
use elicit_testing::UserReply;

/// One scripted question.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) key: String,
    /// The replies to the question's first, second, … asking; the last one repeats.
    pub(super) replies: Vec<UserReply>,
    /// A form's property names, to recognise it on 2025-11-25; `None` for URL mode.
    pub(super) properties: Option<Vec<String>>,
    /// A URL elicitation's message, to recognise it on 2025-11-25 when the browser cannot
    /// read the key in its link.
    pub(super) message: Option<String>,
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

/// The `ElicitResult` JSON for a plain action.
pub(super) fn action(name: &str) -> Value {
    json!({"action": name})
}
