//! Tools that answer with a task (the tasks extension, `io.modelcontextprotocol/tasks`,
//! SEP-2663) when the client declared it, and run in the call otherwise: [`Elicit::task`],
//! and the work's channel [`TaskOrCall`]; the handler's task store is `task_store.rs`.
//!
//! Why not rmcp's own `TaskManager`: it binds no task to a principal (anyone with the id reads,
//! answers and cancels it, and its eviction is private, so an owner map kept beside it could
//! not follow it); its `request_input` takes rmcp's raw request and returns a raw value, and
//! refuses a reused key instead of issuing a fresh one, where elicit's [`TaskInput`] already
//! keeps the form rules (keys unique for the task's life, re-asks, validation, URL mode); and
//! a question whose ask is dropped stays outstanding on its `tasks/get`. This store uses
//! rmcp's task types on the wire and `TaskInput` for the questions.

mod channel;

use std::future::Future;

use rmcp::ErrorData as McpError;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::CallToolResponse;

pub use channel::TaskOrCall;

use crate::channel::is_input_required;
use crate::extract::Elicit;
use crate::tasks::TaskInput;
use crate::wire::ProtocolEra;

/// What a call fails with when its tool runs [`Elicit::task`] on a server that does not serve
/// `tasks/get`, `tasks/update` and `tasks/cancel`.
const MISSING_TASKS: &str = "this tool runs as a task when the client declared the tasks \
     extension, but the server does not serve tasks: write `#[elicit_rmcp::handler(tasks)]` on \
     the `ServerHandler` impl (by hand: `call_tool` returns \
     `self.elicit.tools(&Self::tool_router()).with_tasks().call(…)`, and `get_task`, \
     `update_task` and `cancel_task` return `self.elicit.get_task(request, context)` and so on)";

impl Elicit {
    /// Runs `work` as a task when the client declared the tasks extension on this 2026-07-28
    /// call, and in the call otherwise: one declaration for both.
    ///
    /// As a task, the call answers at once with `resultType: "task"`; `work` runs in the
    /// background, its questions show on `tasks/get` (status `input_required`) and
    /// `tasks/update` answers them; its result (a tool error too) completes the task, and its
    /// `rmcp::ErrorData` fails it. The task belongs to this call's principal: `tasks/get`,
    /// `tasks/update` and `tasks/cancel` from anyone else get what an unknown id gets. In the
    /// call (a client without the extension, any 2025-11-25 client, or
    /// [`TaskSettings::max_running`](crate::TaskSettings::max_running) tasks already running), `work` asks as the method would
    /// and its result is the call's.
    ///
    /// `work` gets a [`TaskOrCall`] to ask through and returns what a tool method returns
    /// (`Result<T, rmcp::ErrorData>`, `T` a `String`, a `CallToolResult`, …). Questions asked
    /// on this `Elicit` before stay in the call (an `input_required` round before the task).
    /// The server must serve tasks (`#[elicit_rmcp::handler(tasks)]`); without that the call
    /// fails, on either era, with an error that says so.
    ///
    /// ```
    /// use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler};
    /// use rmcp::handler::server::wrapper::Parameters;
    /// use rmcp::model::CallToolResponse;
    /// use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};
    ///
    /// /// Export as Parquet rather than CSV?
    /// #[derive(ElicitForm)]
    /// struct Format {
    ///     parquet: bool,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct ExportArgs {
    ///     bucket: String,
    /// }
    ///
    /// #[derive(Clone)]
    /// struct Server {
    ///     elicit: ElicitHandler,
    /// }
    ///
    /// #[tool_router]
    /// impl Server {
    ///     #[tool(description = "Export the reports to a bucket")]
    ///     async fn export(&self, Parameters(args): Parameters<ExportArgs>, cx: Elicit)
    ///         -> Result<CallToolResponse, McpError> {
    ///         cx.task(move |mut input| async move {
    ///             let Answer::Accepted(Format { parquet }) = Format::ask(&mut input).await? else {
    ///                 return Ok("nothing exported".to_owned());
    ///             };
    ///             let format = if parquet { "Parquet" } else { "CSV" };
    ///             Ok(format!("exported to {} as {format}", args.bucket))
    ///         })
    ///         .await
    ///     }
    /// }
    ///
    /// #[elicit_rmcp::handler(tasks)]
    /// impl ServerHandler for Server {}
    ///
    /// let server = Server { elicit: ElicitHandler::local("exports") };
    /// assert!(server.get_info().capabilities.supports_tasks());
    /// ```
    pub async fn task<F, Fut, T>(self, work: F) -> Result<CallToolResponse, McpError>
    where
        F: FnOnce(TaskOrCall) -> Fut,
        Fut: Future<Output = Result<T, McpError>> + Send + 'static,
        T: IntoCallToolResult,
    {
        let Some(store) = self.tasks().cloned() else {
            return Err(McpError::internal_error(MISSING_TASKS, None));
        };
        let cx = self.cx();
        let as_task = cx.era() >= ProtocolEra::Mrtr2026
            && cx.capabilities().supports_tasks()
            && store.has_room();
        if !as_task {
            return work(TaskOrCall::call(self)).await.into_call_tool_result();
        }
        let input = TaskInput::for_call(cx);
        // The call's own context goes back to the wiring: the call ends with the task.
        drop(self);
        let work = work(TaskOrCall::task(input.clone()));
        let task = store.spawn(input, async move {
            match work.await.into_call_tool_result() {
                Err(error) if is_input_required(&error) => Err(McpError::internal_error(
                    "a task's work stopped for input it cannot get from tasks/update",
                    None,
                )),
                ended => ended,
            }
        });
        Ok(CallToolResponse::Task(task))
    }
}
