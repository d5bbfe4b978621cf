//! Input for a running task (the `io.modelcontextprotocol/tasks` extension): the task's worker
//! asks with the same form types, `tasks/get` shows the outstanding questions, and
//! `tasks/update` delivers the answers.

use std::collections::{BTreeMap, BTreeSet};
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Poll, Waker};

use serde_json::Value;

use crate::answer::{Answer, Interrupt};
use crate::context::decode_answer;
use crate::form::ElicitForm;
use crate::question::Question;
use crate::wire::{
    ClientCapabilities, ElicitMode, ElicitParams, FormParams, InputRequest, InputResponse,
    JsonRpcError, TaskInputRequired, TasksUpdateAck, TasksUpdateParams,
};

/// The input channel of one task. Cheap to clone: the worker keeps one clone to ask, the
/// request handlers for `tasks/get` and `tasks/update` another.
///
/// Keys are unique for the task's whole life: asking the same form twice gets a fresh key
/// (`booking`, then `booking.2`). Answers for keys that are not outstanding are ignored, and
/// a partial set of answers is accepted.
///
/// ```
/// use elicit_runtime::{Answer, ElicitForm};
/// use elicit_runtime::tasks::TaskInput;
/// use elicit_runtime::testing::block_on;
/// use elicit_runtime::wire::{ClientCapabilities, TasksUpdateParams};
/// use serde_json::json;
///
/// /// Continue the export?
/// #[derive(ElicitForm)]
/// struct Proceed { confirm: bool }
///
/// let capabilities: ClientCapabilities = serde_json::from_value(json!({"elicitation": {}})).unwrap();
/// let input = TaskInput::new(capabilities);
/// let worker = input.clone();
/// let answer = std::thread::spawn(move || block_on(worker.ask(Proceed::question())));
///
/// // `tasks/get` shows the question once the worker has asked it...
/// while input.input_required().is_none() { std::thread::yield_now(); }
/// assert!(input.input_required().unwrap().input_requests.contains_key("proceed"));
/// // ...and `tasks/update` answers it.
/// let update: TasksUpdateParams = serde_json::from_value(json!({
///     "taskId": "t1",
///     "inputResponses": {"proceed": {"action": "accept", "content": {"confirm": true}}, "stale": {"action": "cancel"}}
/// })).unwrap();
/// input.update(&update);
/// assert_eq!(answer.join().unwrap().unwrap().accepted().map(|p| p.confirm), Some(true));
/// ```
#[derive(Clone)]
pub struct TaskInput {
    inner: Arc<Mutex<TaskState>>,
    capabilities: Arc<ClientCapabilities>,
}

#[derive(Default)]
struct TaskState {
    outstanding: BTreeMap<String, InputRequest>,
    delivered: BTreeMap<String, Value>,
    issued: BTreeSet<String>,
    wakers: Vec<Waker>,
}

impl std::fmt::Debug for TaskInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("TaskInput")
            .field("outstanding", &state.outstanding.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl TaskInput {
    /// The input channel of a task created by a client with these capabilities.
    pub fn new(capabilities: ClientCapabilities) -> Self {
        TaskInput {
            inner: Arc::new(Mutex::new(TaskState::default())),
            capabilities: Arc::new(capabilities),
        }
    }

    fn lock(&self) -> MutexGuard<'_, TaskState> {
        // A panicked worker must not take `tasks/get` down with it.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Asks a form question and waits until `tasks/update` answers it.
    pub async fn ask<T: ElicitForm>(&self, question: Question<T>) -> Result<Answer<T>, Interrupt> {
        if !self.capabilities.supports(ElicitMode::Form) {
            return Err(Interrupt::error(
                JsonRpcError::missing_elicitation_capability(ElicitMode::Form),
            ));
        }
        let prepared = question.prepare()?;
        let key = {
            let mut state = self.lock();
            let key = fresh_key(&state.issued, prepared.key());
            state.issued.insert(key.clone());
            let request = InputRequest::from(ElicitParams::Form(FormParams::new(
                prepared.message(),
                prepared.schema().clone(),
            )));
            state.outstanding.insert(key.clone(), request);
            key
        };
        // A dropped ask (timeout, cancelled worker) withdraws its question from `tasks/get`.
        struct Withdraw<'a> {
            input: &'a TaskInput,
            key: &'a str,
        }
        impl Drop for Withdraw<'_> {
            fn drop(&mut self) {
                let mut state = self.input.lock();
                state.outstanding.remove(self.key);
                state.delivered.remove(self.key);
            }
        }
        let _withdraw = Withdraw {
            input: self,
            key: &key,
        };
        let response = poll_fn(|cx| {
            let mut state = self.lock();
            match state.delivered.remove(&key) {
                Some(response) => Poll::Ready(response),
                None => {
                    state.wakers.push(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
        .await;
        decode_answer(&prepared, response)
    }

    /// The `tasks/get` payload while questions are outstanding (`status: "input_required"`).
    pub fn input_required(&self) -> Option<TaskInputRequired> {
        let state = self.lock();
        (!state.outstanding.is_empty()).then(|| TaskInputRequired::new(state.outstanding.clone()))
    }

    /// Delivers `tasks/update` answers: outstanding keys are answered, others ignored.
    pub fn update(&self, params: &TasksUpdateParams) -> TasksUpdateAck {
        let mut state = self.lock();
        for (key, response) in params.input_responses.iter() {
            if state.outstanding.remove(key).is_none() {
                continue;
            }
            let raw = match response {
                InputResponse::Elicit(result) => crate::context::normalized(result),
                InputResponse::Malformed { raw, .. } => raw.clone(),
                InputResponse::Sampling(v)
                | InputResponse::Roots(v)
                | InputResponse::Unknown(v) => v.clone(),
            };
            state.delivered.insert(key.to_owned(), raw);
        }
        for waker in std::mem::take(&mut state.wakers) {
            waker.wake();
        }
        TasksUpdateAck
    }
}

/// `base`, or `base.2`, `base.3`… when already issued for this task.
fn fresh_key(issued: &BTreeSet<String>, base: &str) -> String {
    if !issued.contains(base) {
        return base.to_owned();
    }
    (2..)
        .map(|n| format!("{base}.{n}"))
        .find(|k| !issued.contains(k))
        .unwrap_or_else(|| base.to_owned())
}
