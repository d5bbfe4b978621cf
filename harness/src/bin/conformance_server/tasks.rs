//! The tasks extension (`io.modelcontextprotocol/tasks`) for the conformance fixtures: the
//! task store behind `tasks/get`, `tasks/update` and `tasks/cancel`.
//!
//! elicit gives a task its questions and answers ([`TaskInput`]); the task itself (its id,
//! its lifecycle, its result) belongs to the server, and this is the smallest one that
//! serves the suite: tasks live in memory for the life of the process (`ttlMs: null`), and
//! a task's worker is a tokio task that asks through its `TaskInput`.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use elicit_runtime::Interrupt;
use elicit_runtime::tasks::TaskInput;
use elicit_runtime::wire::{
    ClientCapabilities, INTERNAL_ERROR, InputRequiredResult, JsonRpcError, TaskInputRequired,
    TasksUpdateParams,
};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, GetTaskResult, JsonObject, Task, TaskPayload,
    TaskStatus, UpdateTaskParams,
};
use rmcp::task_manager::current_timestamp;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::task::AbortHandle;

/// How often clients are asked to poll `tasks/get`, in milliseconds.
const POLL_INTERVAL_MS: u64 = 100;

/// The tasks of this server, by id. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Tasks {
    inner: Arc<Mutex<HashMap<String, Entry>>>,
}

struct Entry {
    /// The base fields (`taskId`, timestamps, …); `status` is computed on `tasks/get`.
    task: Task,
    /// The worker's questions (`inputRequests`) and the answers `tasks/update` delivers.
    input: TaskInput,
    /// `completed`, `failed` or `cancelled` once the task is over.
    outcome: Option<TaskPayload>,
    worker: Option<AbortHandle>,
}

impl Tasks {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Creates a task for a client with these capabilities and starts `work` on it. The task
    /// is stored before the handle is returned, so a `tasks/get` right after resolves.
    pub(crate) fn spawn<F, Fut>(
        &self,
        capabilities: ClientCapabilities,
        work: F,
    ) -> CreateTaskResult
    where
        F: FnOnce(TaskInput) -> Fut,
        Fut: Future<Output = Result<CallToolResult, Interrupt>> + Send + 'static,
    {
        let id = uuid::Uuid::new_v4().to_string();
        let now = current_timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now);
        task.poll_interval_ms = Some(POLL_INTERVAL_MS);
        let input = TaskInput::new(capabilities);
        let work = work(input.clone());
        let mut tasks = self.lock();
        tasks.insert(
            id.clone(),
            Entry {
                task: task.clone(),
                input,
                outcome: None,
                worker: None,
            },
        );
        let store = self.clone();
        let worker_id = id.clone();
        let worker = tokio::spawn(async move {
            let outcome = work.await;
            store.finish(&worker_id, outcome);
        });
        if let Some(entry) = tasks.get_mut(&id) {
            entry.worker = Some(worker.abort_handle());
        }
        CreateTaskResult::new(task)
    }

    /// Records the worker's result: a tool result (tool errors included, as `isError`) is
    /// `completed`; a JSON-RPC error is `failed`.
    fn finish(&self, id: &str, outcome: Result<CallToolResult, Interrupt>) {
        let payload = match outcome {
            Ok(result) => TaskPayload::Completed {
                result: object(&result),
            },
            Err(stop) => {
                let error = stop.into_error().unwrap_or_else(|| {
                    JsonRpcError::new(INTERNAL_ERROR, "the task stopped waiting for input", None)
                });
                TaskPayload::Failed {
                    error: object(&error),
                }
            }
        };
        if let Some(entry) = self.lock().get_mut(id)
            && entry.outcome.is_none()
        {
            entry.outcome = Some(payload);
            entry.task.last_updated_at = current_timestamp();
        }
    }

    /// `tasks/get`: the task with its status, and its outstanding `inputRequests` while it
    /// waits for input.
    pub(crate) fn get(&self, id: &str) -> Result<GetTaskResult, McpError> {
        let tasks = self.lock();
        let entry = tasks.get(id).ok_or_else(|| unknown(id))?;
        let payload = match (&entry.outcome, entry.input.input_required()) {
            (Some(outcome), _) => outcome.clone(),
            (None, Some(status)) => TaskPayload::InputRequired {
                input_requests: input_requests(status)?,
            },
            (None, None) => TaskPayload::Working,
        };
        Ok(GetTaskResult::new(DetailedTask::new(
            entry.task.clone(),
            payload,
        )))
    }

    /// `tasks/update`: delivers the answers to the task's outstanding questions (answers
    /// under other keys are ignored; a partial set is fine).
    pub(crate) fn update(&self, params: UpdateTaskParams) -> Result<(), McpError> {
        let input = {
            let tasks = self.lock();
            let entry = tasks
                .get(&params.task_id)
                .ok_or_else(|| unknown(&params.task_id))?;
            entry.input.clone()
        };
        let update: TasksUpdateParams = serde_json::from_value(json!({
            "taskId": params.task_id,
            "inputResponses": params.input_responses,
        }))
        .map_err(|e| McpError::invalid_params(format!("malformed tasks/update: {e}"), None))?;
        // These tasks have no owner (`TaskInput::new`); an owned one refuses other users.
        input
            .update(None, &update)
            .map_err(|e| McpError::invalid_params(e.message, e.data))?;
        Ok(())
    }

    /// `tasks/cancel`: stops the worker (its outstanding questions are withdrawn with it).
    /// A task that is already over keeps its outcome.
    pub(crate) fn cancel(&self, id: &str) -> Result<(), McpError> {
        let mut tasks = self.lock();
        let entry = tasks.get_mut(id).ok_or_else(|| unknown(id))?;
        if entry.outcome.is_none() {
            if let Some(worker) = entry.worker.take() {
                worker.abort();
            }
            entry.outcome = Some(TaskPayload::Cancelled);
            entry.task.last_updated_at = current_timestamp();
        }
        Ok(())
    }
}

/// The outstanding questions as rmcp's `inputRequests`, converted the way the adapter
/// converts a call's input-required round.
fn input_requests(status: TaskInputRequired) -> Result<rmcp::model::InputRequests, McpError> {
    let round = InputRequiredResult::new(Some(status.input_requests), None)
        .map_err(|e| McpError::internal_error(e.to_string(), None))?;
    Ok(elicit_rmcp::adapter::input_required(round)?
        .input_requests
        .unwrap_or_default())
}

fn unknown(id: &str) -> McpError {
    McpError::invalid_params(format!("unknown task `{id}`"), None)
}

/// A result or an error as the JSON object a task payload holds.
fn object<T: Serialize>(value: &T) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}
