//! The tasks an [`ElicitHandler`](crate::ElicitHandler) serves: created by
//! [`Elicit::task`](crate::Elicit::task), read by `tasks/get`, answered by `tasks/update`,
//! stopped by `tasks/cancel`, each visible to the principal whose call created it alone; and
//! their [`TaskSettings`].

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult, JsonObject, Task, TaskPayload,
    TaskStatus, UpdateTaskParams,
};
use rmcp::task_manager::current_timestamp;
use serde::Serialize;
use serde_json::Value;
use tokio::task::AbortHandle;

use crate::convert::input_requests;
use crate::tasks::TaskInput;
use crate::wire::{InputResponse, TasksUpdateParams};

/// How the tasks of an [`ElicitHandler`](crate::ElicitHandler) live: for how long, how often
/// clients are told to poll, and how many may run at once.
///
/// ```
/// use std::time::Duration;
/// use elicit_rmcp::{ElicitHandler, TaskSettings};
///
/// let handler = ElicitHandler::local("exports").with_tasks(
///     TaskSettings::default()
///         .ttl(Duration::from_secs(15 * 60))
///         .poll_interval(Duration::from_millis(500))
///         .max_running(64),
/// );
/// # let _ = handler;
/// ```
#[derive(Debug, Clone)]
pub struct TaskSettings {
    ttl: Duration,
    poll_interval: Duration,
    max_running: usize,
}

impl Default for TaskSettings {
    /// A task lives an hour (`ttlMs`: 3 600 000), clients poll every second
    /// (`pollIntervalMs`: 1000), and 1024 tasks may run at once.
    fn default() -> Self {
        TaskSettings {
            ttl: Duration::from_secs(60 * 60),
            poll_interval: Duration::from_secs(1),
            max_running: 1024,
        }
    }
}

impl TaskSettings {
    /// How long a task lives (its `ttlMs`): work still running then is stopped and the task
    /// `failed`; a task that ended is kept this long again for its client to read, then
    /// forgotten (`tasks/get` answers as for an unknown id).
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How often clients are asked to poll `tasks/get` (its `pollIntervalMs`).
    pub fn poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// How many tasks may run at once; a call beyond that runs in the call instead (the
    /// server decides, and a client that declared tasks takes either answer).
    pub fn max_running(mut self, tasks: usize) -> Self {
        self.max_running = tasks;
        self
    }
}

/// The tasks of one handler, by id. Shared by its clones.
pub(crate) struct TaskStore {
    settings: TaskSettings,
    tasks: Mutex<HashMap<String, Entry>>,
}

struct Entry {
    /// The base fields (`taskId`, timestamps, TTL, poll interval); `status` follows the payload.
    task: Task,
    /// The worker's questions and the principal the task belongs to.
    input: TaskInput,
    /// `completed`, `failed` or `cancelled` once the task is over.
    outcome: Option<TaskPayload>,
    worker: Option<AbortHandle>,
    created: Instant,
    ended: Option<Instant>,
}

impl Entry {
    fn end(&mut self, outcome: TaskPayload, message: Option<String>) {
        if self.outcome.is_some() {
            return;
        }
        if let Some(worker) = self.worker.take() {
            worker.abort();
        }
        self.outcome = Some(outcome);
        self.task.status_message = message;
        self.task.last_updated_at = current_timestamp();
        self.ended = Some(Instant::now());
    }

    fn payload(&self) -> Result<TaskPayload, McpError> {
        Ok(match (&self.outcome, self.input.input_required()) {
            (Some(outcome), _) => outcome.clone(),
            (None, Some(status)) => TaskPayload::InputRequired {
                input_requests: input_requests(status.input_requests)?,
            },
            (None, None) => TaskPayload::Working,
        })
    }
}

impl TaskStore {
    pub(crate) fn new(settings: TaskSettings) -> Self {
        TaskStore {
            settings,
            tasks: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        // A panicked worker must not take `tasks/get` down with it.
        self.tasks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether another task may start now (fewer than the settings' running tasks).
    pub(crate) fn has_room(&self) -> bool {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        tasks.values().filter(|e| e.outcome.is_none()).count() < self.settings.max_running
    }

    /// Creates a task asking through `input` and starts `work` on it. The task is stored
    /// before its handle is returned, so a `tasks/get` right after it resolves.
    pub(crate) fn spawn(
        self: &Arc<Self>,
        input: TaskInput,
        work: impl Future<Output = Result<CallToolResponse, McpError>> + Send + 'static,
    ) -> CreateTaskResult {
        let id = uuid::Uuid::new_v4().to_string();
        let now = current_timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now);
        task.ttl_ms = Some(millis(self.settings.ttl));
        task.poll_interval_ms = Some(millis(self.settings.poll_interval));
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        tasks.insert(
            id.clone(),
            Entry {
                task: task.clone(),
                input,
                outcome: None,
                worker: None,
                created: Instant::now(),
                ended: None,
            },
        );
        let store = Arc::downgrade(self);
        let worker_id = id.clone();
        let worker = tokio::spawn(async move {
            let outcome = work.await;
            if let Some(store) = store.upgrade() {
                store.finish(&worker_id, outcome);
            }
        });
        if let Some(entry) = tasks.get_mut(&id)
            && entry.outcome.is_none()
        {
            entry.worker = Some(worker.abort_handle());
        }
        CreateTaskResult::new(task)
    }

    /// Records the worker's end: a tool result (a tool error too, as `isError`) is
    /// `completed`; a JSON-RPC error is `failed`.
    fn finish(&self, id: &str, outcome: Result<CallToolResponse, McpError>) {
        let (payload, message) = match outcome {
            Ok(CallToolResponse::Complete(result)) => (
                TaskPayload::Completed {
                    result: object(&result),
                },
                None,
            ),
            Ok(_) => failed(McpError::internal_error(
                "a task's work ended in another input_required round or task, which only a call can",
                None,
            )),
            Err(error) => failed(error),
        };
        if let Some(entry) = self.lock().get_mut(id) {
            entry.worker = None;
            entry.end(payload, message);
        }
    }

    /// Ends tasks past their TTL (`failed`) and forgets tasks that ended a TTL ago.
    fn sweep(&self, tasks: &mut HashMap<String, Entry>) {
        let ttl = self.settings.ttl;
        for entry in tasks.values_mut() {
            if entry.outcome.is_none() && entry.created.elapsed() >= ttl {
                let (payload, message) = failed(McpError::internal_error(
                    "the task expired before it finished",
                    None,
                ));
                entry.end(payload, message);
            }
        }
        tasks.retain(|_, entry| entry.ended.is_none_or(|ended| ended.elapsed() < ttl));
    }

    /// `tasks/get` from `principal`: the task with its status, its outstanding
    /// `inputRequests` while it waits for input, its result or error once over.
    pub(crate) fn get(&self, id: &str, principal: Option<&str>) -> Result<GetTaskResult, McpError> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = visible(&tasks, id, principal)?;
        let payload = entry.payload()?;
        Ok(GetTaskResult::new(DetailedTask::new(
            entry.task.clone(),
            payload,
        )))
    }

    /// `tasks/update` from `principal`: answers the outstanding questions among
    /// `params.input_responses`; other keys are ignored, a partial set is fine.
    pub(crate) fn update(
        &self,
        params: UpdateTaskParams,
        principal: Option<&str>,
    ) -> Result<(), McpError> {
        let input = {
            let mut tasks = self.lock();
            self.sweep(&mut tasks);
            let entry = visible(&tasks, &params.task_id, principal)?;
            if entry.outcome.is_some() {
                return Ok(());
            }
            entry.input.clone()
        };
        let update = TasksUpdateParams {
            task_id: params.task_id,
            input_responses: params
                .input_responses
                .into_iter()
                .map(|(key, value)| (key, InputResponse::from_value(value)))
                .collect(),
            meta: None,
        };
        input
            .update(principal, &update)
            .map(|_ack| ())
            .map_err(crate::convert::to_mcp_error)
    }

    /// `tasks/cancel` from `principal`: stops the work (its questions leave `tasks/get`) and
    /// marks the task `cancelled`; a task already over keeps its outcome.
    pub(crate) fn cancel(&self, id: &str, principal: Option<&str>) -> Result<(), McpError> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        visible(&tasks, id, principal)?;
        if let Some(entry) = tasks.get_mut(id) {
            entry.end(
                TaskPayload::Cancelled,
                Some("cancelled by tasks/cancel".to_owned()),
            );
        }
        Ok(())
    }
}

impl Drop for TaskStore {
    /// The last handler gone: its running work stops with it.
    fn drop(&mut self) {
        for entry in self.lock().values_mut() {
            if let Some(worker) = entry.worker.take() {
                worker.abort();
            }
        }
    }
}

/// The task `id` as `principal` may see it: another principal's task is answered exactly as
/// an unknown id is.
fn visible<'a>(
    tasks: &'a HashMap<String, Entry>,
    id: &str,
    principal: Option<&str>,
) -> Result<&'a Entry, McpError> {
    tasks
        .get(id)
        .filter(|entry| entry.input.is_owned_by(principal))
        .ok_or_else(|| {
            McpError::invalid_params("no such task", Some(serde_json::json!({"taskId": id})))
        })
}

/// A `failed` payload for `error`, with its message as the task's `statusMessage`.
fn failed(error: McpError) -> (TaskPayload, Option<String>) {
    let message = error.message.to_string();
    (
        TaskPayload::Failed {
            error: object(&error),
        },
        Some(message),
    )
}

/// rmcp's result or error as the JSON object a task payload holds.
fn object<T: Serialize>(value: &T) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
