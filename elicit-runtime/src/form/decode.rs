//! From a client's raw elicitation result to the typed answer of a form.

use serde_json::{Map, Value, json};

use super::ElicitForm;
use super::answer::Answer;
use super::prepared::Prepared;
use crate::interrupt::Interrupt;
use crate::schema::{ContentError, RequestedSchema};
use crate::wire::{ElicitAction, ElicitResult, InputResponse, JsonRpcError};

/// `{"action": "accept", "content": content}`, built without serializing `content` again
/// (which `json!` would).
pub(crate) fn accepted(content: Map<String, Value>) -> Value {
    let mut map = Map::new();
    map.insert("action".to_owned(), Value::from("accept"));
    map.insert("content".to_owned(), Value::Object(content));
    Value::Object(map)
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

/// Decodes the answer to `prepared`.
pub(crate) fn decode_answer<T: ElicitForm>(
    prepared: &Prepared,
    response: InputResponse,
    decode: &Decode<T>,
) -> Result<Decoded<T>, Interrupt> {
    let result = elicit_result(prepared.key(), response)?;
    Ok(decode_result(prepared.schema(), result, decode))
}

/// How an accepted answer's content becomes the form: `ElicitForm::decode_with` for a question
/// as declared; for a filled-in form, the model's kept values and the answer together.
pub(crate) type Decode<T> =
    dyn Fn(&Value, &RequestedSchema) -> Result<T, ContentError> + Send + Sync;

/// The elicitation result the answer to `key` must be, or the `-32602` saying why it is not.
pub(crate) fn elicit_result(key: &str, response: InputResponse) -> Result<ElicitResult, Interrupt> {
    let error = match response {
        InputResponse::Elicit(result) => return Ok(result),
        // serde's words for what is wrong with it.
        other => match ElicitResult::take(other.into_value()) {
            Ok(result) => return Ok(result),
            Err((_, e)) => e,
        },
    };
    Err(Interrupt::error(JsonRpcError::invalid_params(
        format!("the answer to `{key}` is not an elicitation result: {error}"),
        Some(json!({"key": key})),
    )))
}

/// Decodes an elicitation result against `schema` (this form's, possibly with call-site
/// defaults).
fn decode_result<T: ElicitForm>(
    schema: &RequestedSchema,
    result: ElicitResult,
    decode: &Decode<T>,
) -> Decoded<T> {
    match result.action {
        ElicitAction::Accept => {
            let content = Value::Object(result.content.unwrap_or_default());
            match decode(&content, schema) {
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
