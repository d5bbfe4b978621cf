//! Asking a form question through an input channel: written once for every channel.

use serde_json::Value;

use super::ElicitForm;
use super::answer::Answer;
use super::decode::{accepted, decode_answer};
use super::prepared::Prepared;
use crate::channel::InputChannel;
use crate::interrupt::Interrupt;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitMode, ElicitParams, FormParams, InputRequest, JsonRpcError};

/// Puts `prepared` (or the error preparing it ended in) to `channel` and decodes the answer.
/// Every error is reported to the channel, which keeps the first.
pub(crate) async fn ask_prepared<T: ElicitForm, C: InputChannel + ?Sized>(
    channel: &mut C,
    prepared: Result<Prepared, Interrupt>,
) -> Result<Answer<T>, Interrupt> {
    let result = async {
        let prepared = prepared?;
        if !channel.supports(ElicitMode::Form) {
            return Err(Interrupt::error(
                JsonRpcError::missing_elicitation_capability(ElicitMode::Form),
            ));
        }
        let request = InputRequest::from(ElicitParams::Form(FormParams::new(
            prepared.message(),
            prepared.shared_schema(),
        )));
        let response = channel
            .input(prepared.key(), prepared.digest(), request)
            .await?;
        let tidy = only_declared(&response, prepared.schema());
        let answer = decode_answer::<T>(&prepared, response)?;
        // Undeclared keys the client added are not worth sealing round after round; an answer
        // without any is carried as sent (decoding it again gives the same form).
        if let Answer::Accepted(form) = &answer
            && !tidy
        {
            channel.answered(prepared.key(), accepted(form.to_content()));
        }
        Ok(answer)
    }
    .await;
    if let Err(stop) = &result
        && let Some(error) = stop.as_error()
    {
        channel.failed(error);
    }
    result
}

/// Whether `response` is `{"action", "content"}` (nothing else) with only fields `schema`
/// declares in its content.
fn only_declared(response: &Value, schema: &RequestedSchema) -> bool {
    let Some(map) = response.as_object() else {
        return false;
    };
    let declared = |key: &String| schema.properties.iter().any(|(name, _)| name == key);
    map.len() <= 2
        && map
            .get("content")
            .and_then(Value::as_object)
            .is_some_and(|content| content.keys().all(declared))
}
