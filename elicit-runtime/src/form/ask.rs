//! Asking a form question through an input channel: written once for every channel.

use std::borrow::Cow;

use super::ElicitForm;
use super::answer::Answer;
use super::decode::{Decode, Decoded, accepted, decode_answer, invalid_answer};
use super::prepared::Prepared;
use super::reask;
use crate::channel::{InputChannel, Reask, settle};
use crate::interrupt::Interrupt;
use crate::schema::RequestedSchema;
use crate::wire::{
    ElicitMode, ElicitParams, FormParams, InputRequest, InputResponse, JsonRpcError,
};

/// Puts `prepared` (or the error preparing it ended in) to `channel` and decodes the answer.
/// An accepted answer that fails the form's checks puts the question again (the original
/// message with what was wrong, the values that passed pre-filled), at most `reasks` times
/// (the channel's limit when `None`); then it is `-32602`. Every error is reported to the
/// channel, which keeps the first, and ends as the channel's error.
pub(crate) async fn ask_prepared<T: ElicitForm, C: InputChannel + ?Sized>(
    channel: &mut C,
    prepared: Result<Prepared, Interrupt>,
    reasks: Option<u8>,
    decode: &Decode<T>,
) -> Result<Answer<T>, C::Error> {
    let result = async {
        let original = prepared?;
        if !channel.supports(ElicitMode::Form) {
            return Err(Interrupt::error(
                JsonRpcError::missing_elicitation_capability(ElicitMode::Form),
            ));
        }
        let limit = reasks.unwrap_or_else(|| channel.rules().max_reasks());
        // A re-ask an earlier round put (2026-07-28): its answer answers the re-asked question.
        let mut reask = channel
            .rules()
            .reask_under_way(original.key(), original.digest());
        loop {
            let asking = match &reask {
                Some(reask) => Cow::Owned(reask::question(reask, &original)?),
                None => Cow::Borrowed(&original),
            };
            let request = InputRequest::from(ElicitParams::Form(FormParams::new(
                asking.message(),
                asking.shared_schema(),
            )));
            let response = channel
                .input(asking.key(), asking.digest(), request)
                .await?;
            let tidy = only_declared(&response, asking.schema());
            let (content, errors) = match decode_answer::<T>(&asking, response, decode)? {
                Decoded::Answer(answer) => {
                    // Undeclared keys the client added are not worth sealing round after round;
                    // an answer without any is carried as sent (decoding it again gives the same
                    // form), unless it answered a re-ask, whose defaults filled in what it left out.
                    if let Answer::Accepted(form) = &answer
                        && (!tidy || reask.is_some())
                    {
                        channel
                            .rules()
                            .answered(original.key(), accepted(form.to_content()));
                    }
                    return Ok(answer);
                }
                Decoded::Invalid { content, errors } => (content, errors),
            };
            if reask.as_ref().map_or(0, Reask::count) >= limit {
                return Err(invalid_answer(original.key(), &errors));
            }
            let next = reask::next(&original, reask.as_ref(), &content, &errors);
            channel.rules().reasking(original.key(), &next);
            reask = Some(next);
        }
    }
    .await;
    settle(channel, result)
}

/// Whether `response` is an elicitation result with content holding only fields `schema`
/// declares.
fn only_declared(response: &InputResponse, schema: &RequestedSchema) -> bool {
    let declared = |key: &String| schema.properties.iter().any(|(name, _)| name == key);
    response
        .as_elicit()
        .and_then(|result| result.content.as_ref())
        .is_some_and(|content| content.keys().all(declared))
}
