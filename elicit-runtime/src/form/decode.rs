//! From a client's raw elicitation result to the typed answer of a form.

use serde_json::{Value, json};

use super::ElicitForm;
use super::answer::Answer;
use super::question::Prepared;
use crate::interrupt::Interrupt;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitAction, ElicitResult, JsonRpcError};

/// What of an elicitation result is worth keeping: the action, and content only on accept.
pub(crate) fn normalized(result: &ElicitResult) -> Value {
    match (&result.action, &result.content) {
        (ElicitAction::Accept, Some(content)) => json!({"action": "accept", "content": content}),
        (action, _) => json!({"action": action}),
    }
}

/// Decodes a raw elicitation result for `prepared` into a typed answer.
pub(crate) fn decode_answer<T: ElicitForm>(
    prepared: &Prepared,
    response: Value,
) -> Result<Answer<T>, Interrupt> {
    let key = prepared.key();
    let result: ElicitResult = serde_json::from_value(response).map_err(|e| {
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
