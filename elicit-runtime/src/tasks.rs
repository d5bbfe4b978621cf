//! Input for a running task (the `io.modelcontextprotocol/tasks` extension): the task's worker
//! asks with the same form types, `tasks/get` shows the outstanding questions, and
//! `tasks/update` delivers the answers.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use crate::channel::{ChannelRules, InputChannel, UrlMode};
use crate::interrupt::Interrupt;
use crate::request::ElicitContext;
use crate::wire::{
    ClientCapabilities, InputRequest, InputResponse, JsonRpcError, TaskInputRequired,
    TasksUpdateAck, TasksUpdateParams,
};

/// The input channel of one task. Cheap to clone: the worker keeps one clone to ask through
/// (`Form::ask(&mut input)`), the request handlers for `tasks/get` and `tasks/update` another.
///
/// A task made from a call ([`TaskInput::for_call`]) belongs to that call's principal, and so
/// does one marked with [`TaskInput::owned_by`]: its answers come only from that principal
/// ([`TaskInput::update`] refuses anyone else, as if the task did not exist), and a task store
/// should answer `tasks/get` and `tasks/cancel` only when [`TaskInput::is_owned_by`] says so.
///
/// Keys are unique for the task's whole life: asking the same form twice gets a fresh key
/// (`booking`, then `booking.2`). Answers for keys that are not outstanding are ignored, and
/// a partial set of answers is accepted.
///
/// ```
/// use elicit_runtime::{Answer, ElicitForm};
/// use elicit_runtime::tasks::TaskInput;
/// use elicit_runtime::wire::{ClientCapabilities, TasksUpdateParams};
/// use serde_json::json;
///
/// /// Continue the export?
/// #[derive(ElicitForm)]
/// struct Proceed { confirm: bool }
///
/// let capabilities: ClientCapabilities = serde_json::from_value(json!({"elicitation": {}})).unwrap();
/// let input = TaskInput::new(capabilities);
/// let mut worker = input.clone();
/// let answer = std::thread::spawn(move || pollster::block_on(Proceed::ask(&mut worker)));
///
/// // `tasks/get` shows the question once the worker has asked it...
/// while input.input_required().is_none() { std::thread::yield_now(); }
/// assert!(input.input_required().unwrap().input_requests.contains_key("proceed"));
/// // ...and `tasks/update` answers it.
/// let update: TasksUpdateParams = serde_json::from_value(json!({
///     "taskId": "t1",
///     "inputResponses": {"proceed": {"action": "accept", "content": {"confirm": true}}, "stale": {"action": "cancel"}}
/// })).unwrap();
/// input.update(None, &update).unwrap();
/// assert_eq!(answer.join().unwrap().unwrap().accepted().map(|p| p.confirm), Some(true));
/// ```
#[derive(Clone)]
pub struct TaskInput {
    inner: Arc<Mutex<TaskState>>,
    /// Wakes waiting asks when `tasks/update` delivers.
    delivered: Arc<Notify>,
    capabilities: Arc<ClientCapabilities>,
    /// URL mode, for a task made from the call that created it.
    url: Option<UrlMode>,
    /// The principal the task belongs to: only it answers.
    owner: Option<Arc<str>>,
}

#[derive(Default)]
struct TaskState {
    outstanding: BTreeMap<String, InputRequest>,
    delivered: BTreeMap<String, InputResponse>,
    issued: BTreeSet<String>,
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
            delivered: Arc::new(Notify::new()),
            capabilities: Arc::new(capabilities),
            url: None,
            owner: None,
        }
    }

    /// The task belongs to `principal`: [`TaskInput::update`] takes answers from it alone.
    ///
    /// ```
    /// use elicit_runtime::tasks::TaskInput;
    /// use elicit_runtime::wire::ClientCapabilities;
    ///
    /// let input = TaskInput::new(ClientCapabilities::default()).owned_by("alice");
    /// assert_eq!(input.owner(), Some("alice"));
    /// assert!(input.is_owned_by(Some("alice")));
    /// assert!(!input.is_owned_by(Some("bob")) && !input.is_owned_by(None));
    /// ```
    pub fn owned_by(mut self, principal: impl Into<String>) -> Self {
        self.owner = Some(Arc::from(principal.into()));
        self
    }

    /// The principal the task belongs to, if any.
    pub fn owner(&self) -> Option<&str> {
        self.owner.as_deref()
    }

    /// Whether `principal` (the requester of `tasks/get`, `tasks/update`, `tasks/cancel`) may
    /// see and answer this task: any requester when it has no owner, else its owner only
    /// (compared in constant time).
    pub fn is_owned_by(&self, principal: Option<&str>) -> bool {
        match (&self.owner, principal) {
            (None, _) => true,
            (Some(owner), Some(principal)) => {
                crate::state::ct_eq(owner.as_bytes(), principal.as_bytes())
            }
            (Some(_), None) => false,
        }
    }

    /// The input channel of a task created by the call `cx` handles: the client's
    /// capabilities, and URL mode bound as that call's would be (its user, tool and
    /// arguments), so the worker can ask URL-mode questions as well as forms. After an accept
    /// the worker waits for the page (until the link expires); the client polls `tasks/get`.
    ///
    /// ```
    /// use elicit_runtime::tasks::TaskInput;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::ElicitServer;
    /// use serde_json::json;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar"));
    /// let params = json!({"name": "sync", "arguments": {}, "_meta": {
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}
    /// }});
    /// let cx = server.context("tools/call", &params).principal(Some("user-1")).build().unwrap();
    /// let input = TaskInput::for_call(&cx);
    /// assert!(input.supports(elicit_runtime::wire::ElicitMode::Url));
    /// # use elicit_runtime::InputChannel;
    /// ```
    ///
    /// The task belongs to the call's principal, when it has one (see
    /// [`TaskInput::owned_by`]).
    pub fn for_call(cx: &ElicitContext) -> Self {
        let mut input = Self::new(cx.capabilities().clone());
        input.url = Some(UrlMode::waiting(cx.server(), cx.binding()));
        input.owner = cx.principal().map(Arc::from);
        input
    }

    fn lock(&self) -> MutexGuard<'_, TaskState> {
        // A panicked worker must not take `tasks/get` down with it.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The `tasks/get` payload while questions are outstanding (`status: "input_required"`).
    pub fn input_required(&self) -> Option<TaskInputRequired> {
        let state = self.lock();
        (!state.outstanding.is_empty()).then(|| TaskInputRequired::new(state.outstanding.clone()))
    }

    /// Delivers `tasks/update` answers from `principal` (the requester, authenticated by your
    /// transport): outstanding keys are answered, others ignored.
    ///
    /// # Errors
    ///
    /// A task with an owner refuses answers from anyone else (and from a requester without a
    /// principal) with `-32602` "no such task", what an unknown task id gets, so another user
    /// learns nothing of it; nothing is delivered.
    pub fn update(
        &self,
        principal: Option<&str>,
        params: &TasksUpdateParams,
    ) -> Result<TasksUpdateAck, JsonRpcError> {
        if !self.is_owned_by(principal) {
            return Err(JsonRpcError::invalid_params(
                "no such task",
                Some(serde_json::json!({"taskId": params.task_id})),
            ));
        }
        let mut state = self.lock();
        for (key, response) in params.input_responses.iter() {
            if state.outstanding.remove(key).is_none() {
                continue;
            }
            state.delivered.insert(key.to_owned(), response.clone());
        }
        drop(state);
        self.delivered.notify_waiters();
        Ok(TasksUpdateAck)
    }
}

impl InputChannel for TaskInput {
    type Error = Interrupt;

    fn stop(&self, interrupt: Interrupt) -> Interrupt {
        interrupt
    }

    fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    fn rules(&mut self) -> ChannelRules<'_> {
        match &mut self.url {
            Some(mode) => ChannelRules::url_mode(mode),
            None => ChannelRules::none(),
        }
    }

    /// Puts the question to `tasks/get` under a key fresh for this task and waits until
    /// `tasks/update` answers it. Dropping the future withdraws the question.
    fn input<'a>(
        &'a mut self,
        key: &'a str,
        _digest: &'a str,
        request: InputRequest,
    ) -> impl Future<Output = Result<InputResponse, Interrupt>> + Send + 'a {
        let key = {
            let mut state = self.lock();
            let key = fresh_key(&state.issued, key);
            state.issued.insert(key.clone());
            state.outstanding.insert(key.clone(), request.for_2026());
            key
        };
        let withdraw = Withdraw { input: self, key };
        async move {
            loop {
                // Registered before looking, so a delivery in between is not missed.
                let delivered = withdraw.input.delivered.notified();
                if let Some(response) = withdraw.input.lock().delivered.remove(&withdraw.key) {
                    return Ok(response);
                }
                delivered.await;
            }
        }
    }
}

/// A dropped ask (timeout, cancelled worker) withdraws its question from `tasks/get`.
struct Withdraw<'a> {
    input: &'a TaskInput,
    key: String,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        let mut state = self.input.lock();
        state.outstanding.remove(&self.key);
        state.delivered.remove(&self.key);
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
