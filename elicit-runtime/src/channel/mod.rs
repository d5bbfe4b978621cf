//! The one thing every question is put to: an input channel. The request context
//! ([`ElicitContext`](crate::ElicitContext)) and a running task's input
//! ([`TaskInput`](crate::tasks::TaskInput)) implement it; forms, questions, sampling and roots
//! requests ask through it, so asking is written once.
//!
//! Beside it, what its questions obey: the rules ([`ChannelRules`], `rules.rs`), the round a
//! request keeps them in (`RoundRules`, `round_rules.rs`, which the context owns) with its
//! answers (`answers.rs`), a form's re-ask (`reask.rs`) and URL mode (`url_mode.rs`).

use std::future::Future;

use crate::interrupt::Interrupt;

mod answers;
mod reask;
mod round_rules;
mod rules;
mod url_mode;

pub use crate::server::DEFAULT_MAX_REASKS;
use crate::wire::{ClientCapabilities, ElicitMode, InputRequest, InputResponse};
pub(crate) use answers::Carried;
pub use reask::Reask;
pub(crate) use round_rules::RoundRules;
pub use rules::ChannelRules;
pub use url_mode::UrlMode;
pub(crate) use url_mode::{Follow, UrlFlow, internal};

/// Something a question can be put to: it knows what the client can show, sends one input
/// request under a key, and resolves to the client's answer (or stops the handler).
///
/// An implementor writes four methods (`stop`, `capabilities`, `input` and, for a channel
/// that belongs to a request or can open links, `rules`); the round's safety rules are the
/// core's [`ChannelRules`], which no implementor re-implements. A channel that asks through
/// a request's context, such as an SDK adapter's extractor, implements
/// [`AdapterChannel`](crate::request::AdapterChannel) instead and gets all of this.
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

    /// Sends `request` under `key` and resolves to the client's answer, read once from the
    /// wire ([`InputResponse::from_value`] classifies it: an elicitation result, a sampling
    /// or roots result, or malformed).
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
    ) -> impl Future<Output = Result<InputResponse, Interrupt>> + Send + 'a;

    /// The rules of the round this channel's questions belong to: the first error wins,
    /// re-ask counts are sealed, provenance where a question requires it, URL mode. A
    /// request context and every SDK adapter's channel lend the request's; the default,
    /// [`ChannelRules::none`], is a channel with no request, where each question is asked on
    /// its own.
    fn rules(&mut self) -> ChannelRules<'_> {
        ChannelRules::none()
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
            channel.rules().failed(error);
        }
        channel.stop(stop)
    })
}
