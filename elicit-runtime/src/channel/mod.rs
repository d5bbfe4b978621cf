//! The one thing every question is put to: an input channel. The request context
//! ([`ElicitContext`](crate::ElicitContext)) and a running task's input
//! ([`TaskInput`](crate::tasks::TaskInput)) implement it; forms, questions, sampling and roots
//! requests ask through it, so asking is written once.

use std::future::Future;

use serde_json::Value;

use crate::interrupt::Interrupt;
mod reask;
mod url_mode;

pub use crate::server::DEFAULT_MAX_REASKS;
use crate::wire::{ClientCapabilities, ElicitMode, InputRequest, JsonRpcError};
pub use reask::Reask;
pub use url_mode::UrlMode;
pub(crate) use url_mode::{Follow, UrlFlow, internal};

/// Something a question can be put to: it knows what the client can show, sends one input
/// request under a key, and resolves to the client's raw answer (or stops the handler).
///
/// Handlers rarely call it directly: `Form::ask(&mut cx)`, `Form::question()…ask(&mut cx)`
/// and the URL-mode `state.ask(&mut cx)` go through it: the channel alone decides what a
/// question becomes on the wire (a round's `inputRequests`, a pushed `elicitation/create`, a
/// task's outstanding input).
///
/// ```
/// use elicit_runtime::tasks::TaskInput;
/// use elicit_runtime::wire::ClientCapabilities;
/// use elicit_runtime::{Answer, ElicitContext, ElicitForm, InputChannel, Interrupt};
///
/// /// Delete the file?
/// #[derive(ElicitForm)]
/// struct Confirm { sure: bool }
///
/// // One helper serves a tool call's context and a task's input alike (and an SDK
/// // adapter's channel, whose asks fail with that SDK's error type).
/// async fn confirmed<C: InputChannel>(channel: &mut C) -> Result<bool, C::Error> {
///     Ok(matches!(Confirm::ask(channel).await?, Answer::Accepted(Confirm { sure: true })))
/// }
///
/// // Where a handler has an `Interrupt` of its own, the channel turns it into its error.
/// fn later<C: InputChannel>(channel: &C) -> C::Error {
///     channel.stop(Interrupt::input_required())
/// }
/// # fn both(cx: &mut ElicitContext, task: &mut TaskInput) {
/// let _in_a_tool = confirmed(cx);
/// let _in_a_task = confirmed(task);
/// # }
/// # let _ = TaskInput::new(ClientCapabilities::default());
/// ```
pub trait InputChannel: Send {
    /// What an ask on this channel fails with, so that `?` after it ends the handler.
    ///
    /// [`Interrupt`] on the core's channels ([`ElicitContext`](crate::ElicitContext),
    /// [`TaskInput`](crate::tasks::TaskInput)). An SDK adapter's channel names the error its
    /// handlers return (`elicit_rmcp::Elicit` names `rmcp::ErrorData`): the adapter, not the
    /// core, knows that type, so the core names no SDK in its API.
    ///
    /// Such an adapter implements [`AdapterChannel`](crate::request::AdapterChannel) for its
    /// extractor, which then is an input channel asking through the request's context.
    type Error: Send;

    /// The error that stops a handler with `interrupt` ("input required", a failed request
    /// or a link): what every ask on this channel returns when it cannot resolve to an
    /// answer. On the core's channels it is `interrupt` itself.
    fn stop(&self, interrupt: Interrupt) -> Self::Error;

    /// What the client declared it can handle.
    fn capabilities(&self) -> &ClientCapabilities;

    /// Whether the client can show an elicitation of this mode.
    fn supports(&self, mode: ElicitMode) -> bool {
        self.capabilities().supports(mode)
    }

    /// Sends `request` under `key` and resolves to the client's raw result.
    ///
    /// `digest` binds the answer to the question: an answer recorded for another digest is
    /// not used. On a 2026-07-28 request the question joins this round and the future
    /// resolves to [`Interrupt::input_required`] until the retry carries the answer; on
    /// 2025-11-25 it goes to the client at once; a task waits for `tasks/update`.
    fn input<'a>(
        &'a mut self,
        key: &'a str,
        digest: &'a str,
        request: InputRequest,
    ) -> impl Future<Output = Result<Value, Interrupt>> + Send + 'a;

    /// Asks that the next answer under `key` count only if this channel provably asked that
    /// exact question (see [`ElicitServer::with_strict_provenance`](crate::ElicitServer::with_strict_provenance)):
    /// a request context then ignores an answer that arrives without sealed state showing the
    /// question. The default does nothing: a task only takes answers to its outstanding
    /// questions anyway.
    fn require_provenance(&mut self, key: &str) {
        let _ = key;
    }

    /// Told what of an answer is worth keeping once it decoded: for a form, only its declared
    /// fields, as the form would send them. A request context carries that, not what the client
    /// sent, into the next round's sealed state. The default ignores it.
    fn answered(&mut self, key: &str, kept: Value) {
        let _ = (key, kept);
    }

    /// Told of every error a question ended in, including answers that fail to decode. The
    /// request context keeps the first, so that it wins over "input required" when a handler
    /// asked several questions before its first `?`. The default ignores it.
    fn failed(&mut self, error: &JsonRpcError) {
        let _ = error;
    }

    /// How many times a form question whose accepted answer fails its checks is asked again
    /// on this channel, unless the question says ([`Question::reasks`](crate::Question::reasks)).
    /// A request context answers with its server's
    /// [`max_reasks`](crate::ElicitServer::max_reasks); the default is
    /// [`DEFAULT_MAX_REASKS`].
    fn max_reasks(&self) -> u8 {
        DEFAULT_MAX_REASKS
    }

    /// The re-ask of the question with digest `origin` under `key` that an earlier round of
    /// this call put and this channel kept ([`reasking`](Self::reasking)), if any: the answer
    /// under `key` then answers the re-asked question. The default keeps none.
    fn reask_under_way(&mut self, key: &str, origin: &str) -> Option<Reask> {
        let _ = (key, origin);
        None
    }

    /// Told that the question under `key` is asked again as `reask` says, because its answer
    /// failed the form's checks; the next [`input`](Self::input) under `key` asks the re-asked
    /// question. A 2026-07-28 request context drops the answer this request carried for `key`
    /// and seals `reask` into `requestState` (so [`reask_under_way`](Self::reask_under_way)
    /// finds it in the next round). The default does nothing: each `input` is asked anew.
    fn reasking(&mut self, key: &str, reask: &Reask) {
        let _ = (key, reask);
    }

    /// URL mode on this channel: who asks, the call links are bound to, and how an accepted
    /// link is followed up (see [`UrlMode`]). `None`, the default, where the channel cannot
    /// put a URL-mode question; asking one then fails with `-32603` saying so.
    fn url_mode(&mut self) -> Option<&mut UrlMode> {
        None
    }
}

/// Ends an ask: an error is told to the channel (which keeps the first), and the interrupt
/// becomes the channel's error.
pub(crate) fn settle<V, C: InputChannel + ?Sized>(
    channel: &mut C,
    result: Result<V, Interrupt>,
) -> Result<V, C::Error> {
    result.map_err(|stop| {
        if let Some(error) = stop.as_error() {
            channel.failed(error);
        }
        channel.stop(stop)
    })
}
