//! Asking a form question through an input channel: written once for every channel.

use serde_json::json;

use super::ElicitForm;
use super::answer::Answer;
use super::decode::decode_answer;
use super::question::Prepared;
use crate::channel::InputChannel;
use crate::interrupt::Interrupt;
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
        let answer = decode_answer::<T>(&prepared, response)?;
        // Undeclared keys the client added are not worth sealing round after round.
        if let Answer::Accepted(form) = &answer {
            let kept = json!({"action": "accept", "content": form.to_content()});
            channel.answered(prepared.key(), kept);
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
