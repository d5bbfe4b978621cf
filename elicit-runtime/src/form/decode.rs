//! From a client's raw elicitation result to the typed answer of a form.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use super::ElicitForm;
use super::answer::Answer;
use super::prepared::Prepared;
use crate::interrupt::Interrupt;
use crate::schema::RequestedSchema;
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

/// Decodes a raw elicitation result for `prepared` into a typed answer.
pub(crate) fn decode_answer<T: ElicitForm>(
    prepared: &Prepared,
    response: Value,
) -> Result<Answer<T>, Interrupt> {
    let key = prepared.key();
    let result = ElicitResult::take(response).map_err(|(_, e)| {
        Interrupt::error(JsonRpcError::invalid_params(
            format!("the answer to `{key}` is not an elicitation result: {e}"),
            Some(json!({"key": key})),
        ))
    })?;
    decode_result(key, prepared.schema(), result)
}

/// Decodes an elicitation result under `key` against `schema` (this form's, possibly with
/// call-site defaults).
pub(crate) fn decode_result<T: ElicitForm>(
    key: &str,
    schema: &RequestedSchema,
    result: ElicitResult,
) -> Result<Answer<T>, Interrupt> {
    match result.action {
        ElicitAction::Accept => {
            let content = Value::Object(result.content.unwrap_or_default());
            T::decode_with(&content, schema)
                .map(Answer::Accepted)
                .map_err(|errors| {
                    let fields: Vec<Value> = errors
                        .errors()
                        .iter()
                        .map(|e| json!({"field": e.field, "reason": e.reason}))
                        .collect();
                    Interrupt::error(JsonRpcError::invalid_params(
                        format!("the answer to `{key}` is invalid: {errors}"),
                        Some(json!({"key": key, "errors": fields})),
                    ))
                })
        }
        ElicitAction::Decline => Ok(Answer::Declined),
        ElicitAction::Cancel => Ok(Answer::Cancelled),
    }
}
