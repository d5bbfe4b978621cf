//! From a client's raw elicitation result to the typed answer of a form.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use super::ElicitForm;
use super::answer::Answer;
use super::prepared::Prepared;
use crate::interrupt::Interrupt;
use crate::schema::{ContentError, RequestedSchema};
use crate::wire::{ElicitAction, ElicitResult, JsonRpcError};

/// What of an elicitation result is worth keeping: the action, and content only on accept.
pub(crate) fn normalized(result: &ElicitResult) -> Value {
    match (result.action, &result.content) {
        (ElicitAction::Accept, Some(content)) => accepted(content.clone()),
        (action, _) => {
            let mut map = Map::new();
            map.insert("action".to_owned(), Value::from(action.as_str()));
            Value::Object(map)
        }
    }
}

/// `{"action": "accept", "content": content}`, built without serializing `content` again
/// (which `json!` would).
pub(crate) fn accepted(content: Map<String, Value>) -> Value {
    let mut map = Map::new();
    map.insert("action".to_owned(), Value::from("accept"));
    map.insert("content".to_owned(), Value::Object(content));
    Value::Object(map)
}

/// Serializes as [`normalized`] would build, without building it.
pub(crate) struct Normalized<'a>(pub &'a ElicitResult);

impl Serialize for Normalized<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let content = match (self.0.action, &self.0.content) {
            (ElicitAction::Accept, Some(content)) => Some(content),
            _ => None,
        };
        let mut map = serializer.serialize_map(Some(1 + usize::from(content.is_some())))?;
        map.serialize_entry("action", self.0.action.as_str())?;
        if let Some(content) = content {
            map.serialize_entry("content", content)?;
        }
        map.end()
    }
}

/// What an elicitation result decodes to: the typed answer, or accepted content that fails the
/// form's checks (which the ask may put to the user again).
pub(crate) enum Decoded<T> {
    Answer(Answer<T>),
    Invalid {
        content: Map<String, Value>,
        errors: ContentError,
    },
}

/// Decodes a raw elicitation result for `prepared`.
pub(crate) fn decode_answer<T: ElicitForm>(
    prepared: &Prepared,
    response: Value,
) -> Result<Decoded<T>, Interrupt> {
    let key = prepared.key();
    let result = ElicitResult::take(response).map_err(|(_, e)| {
        Interrupt::error(JsonRpcError::invalid_params(
            format!("the answer to `{key}` is not an elicitation result: {e}"),
            Some(json!({"key": key})),
        ))
    })?;
    Ok(decode_result(prepared.schema(), result))
}

/// Decodes an elicitation result against `schema` (this form's, possibly with call-site
/// defaults).
fn decode_result<T: ElicitForm>(schema: &RequestedSchema, result: ElicitResult) -> Decoded<T> {
    match result.action {
        ElicitAction::Accept => {
            let content = Value::Object(result.content.unwrap_or_default());
            match T::decode_with(&content, schema) {
                Ok(form) => Decoded::Answer(Answer::Accepted(form)),
                Err(errors) => Decoded::Invalid {
                    content: match content {
                        Value::Object(content) => content,
                        _ => Map::new(),
                    },
                    errors,
                },
            }
        }
        ElicitAction::Decline => Decoded::Answer(Answer::Declined),
        ElicitAction::Cancel => Decoded::Answer(Answer::Cancelled),
    }
}

/// The `-32602` an answer to `key` that fails the form's checks ends the call with, listing
/// every bad field (`data.errors`, the same reasons a re-asked question shows).
pub(crate) fn invalid_answer(key: &str, errors: &ContentError) -> Interrupt {
    let fields: Vec<Value> = errors
        .errors()
        .iter()
        .map(|e| json!({"field": e.field, "reason": e.reason}))
        .collect();
    Interrupt::error(JsonRpcError::invalid_params(
        format!("the answer to `{key}` is invalid: {errors}"),
        Some(json!({"key": key, "errors": fields})),
    ))
}
