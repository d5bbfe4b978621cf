//! [`TaskOrCall`]: what a tool's work asks through, whether it became a task or runs in the
//! call.

use rmcp::ErrorData as McpError;

use crate::convert::to_mcp_error;
use crate::extract::Elicit;
use crate::request::AdapterChannel;
use crate::tasks::TaskInput;
use crate::wire::{ClientCapabilities, InputRequest, InputResponse};
use crate::{ChannelRules, InputChannel, Interrupt};

/// What the work of [`Elicit::task`] asks through: the task's input when the call became a
/// task (questions on `tasks/get`, answers by `tasks/update`), the call itself otherwise
/// (`input_required` rounds on 2026-07-28, `elicitation/create` on 2025-11-25).
///
/// It is an [`InputChannel`] whose asks fail with `rmcp::ErrorData`, as on an [`Elicit`], so
/// the work asks with the same code either way: `Form::ask(&mut input).await?`.
pub struct TaskOrCall(Inner);

enum Inner {
    Call(Box<Elicit>),
    Task(Box<TaskInput>),
}

impl std::fmt::Debug for TaskOrCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Inner::Call(_) => f.write_str("TaskOrCall::Call"),
            Inner::Task(input) => f.debug_tuple("TaskOrCall::Task").field(input).finish(),
        }
    }
}

impl TaskOrCall {
    pub(super) fn call(cx: Elicit) -> Self {
        TaskOrCall(Inner::Call(Box::new(cx)))
    }

    pub(super) fn task(input: TaskInput) -> Self {
        TaskOrCall(Inner::Task(Box::new(input)))
    }

    /// Whether the work runs as a task (the client declared the tasks extension), rather than
    /// in the call.
    pub fn is_task(&self) -> bool {
        matches!(self.0, Inner::Task(_))
    }

    /// Another channel on the same task, when the work runs as one: it asks beside this one,
    /// so several questions can be outstanding on `tasks/get` at once (each ask waits for its
    /// own answer). In the call there is none: there, questions asked one after another
    /// before their `?`s already go out in one round.
    pub fn alongside(&self) -> Option<TaskOrCall> {
        match &self.0 {
            Inner::Task(input) => Some(TaskOrCall::task(TaskInput::clone(input))),
            Inner::Call(_) => None,
        }
    }
}

/// An [`Interrupt`] from a task's input as rmcp's error: a task never stops for a round, so
/// only a failed question reaches here.
fn task_error(interrupt: Interrupt) -> McpError {
    match interrupt.into_error() {
        Some(error) => to_mcp_error(error),
        None => McpError::internal_error("a task's question ended without an answer", None),
    }
}

impl InputChannel for TaskOrCall {
    type Error = McpError;

    fn stop(&self, interrupt: Interrupt) -> McpError {
        match &self.0 {
            Inner::Call(cx) => cx.sdk_error(interrupt),
            Inner::Task(_) => task_error(interrupt),
        }
    }

    fn capabilities(&self) -> &ClientCapabilities {
        match &self.0 {
            Inner::Call(cx) => InputChannel::capabilities(&**cx),
            Inner::Task(input) => input.capabilities(),
        }
    }

    async fn input(
        &mut self,
        key: &str,
        digest: &str,
        request: InputRequest,
    ) -> Result<InputResponse, Interrupt> {
        match &mut self.0 {
            Inner::Call(cx) => InputChannel::input(&mut **cx, key, digest, request).await,
            Inner::Task(input) => input.input(key, digest, request).await,
        }
    }

    fn rules(&mut self) -> ChannelRules<'_> {
        match &mut self.0 {
            Inner::Call(cx) => InputChannel::rules(&mut **cx),
            Inner::Task(input) => input.rules(),
        }
    }
}
