//! A call that became a task: the scripted client polls `tasks/get`, answers each new
//! question by `tasks/update`, and ends with the task's outcome.

use std::collections::BTreeSet;
use std::time::Duration;

use rmcp::model::{CreateTaskResult, GetTaskParams, TaskPayload, UpdateTaskParams};
use rmcp::service::ServiceError;
use serde_json::Value;

use super::request::Retry;
use super::round::Round;
use super::run::Ending;
use super::session::Session;

/// The longest the client waits between two polls, whatever the task's `pollIntervalMs`.
const MAX_POLL: Duration = Duration::from_millis(50);

impl Session {
    /// Follows the task `created` until it ends, or until it shows nothing the script answers.
    pub(super) async fn follow<P: Retry>(
        &self,
        created: CreateTaskResult,
        start: usize,
    ) -> Ending<P::Output> {
        let id = created.task.task_id;
        let mut answered = BTreeSet::new();
        let mut unopened = BTreeSet::new();
        let mut updates = 0;
        loop {
            let got = match self.client.get_task(GetTaskParams::new(id.clone())).await {
                Ok(got) => got,
                Err(ServiceError::McpError(error)) => return Ending::Error(error),
                Err(other) => panic!("tasks/get failed below JSON-RPC: {other}"),
            };
            self.enforce(start, "tools/call");
            let interval = got
                .task
                .task
                .poll_interval_ms
                .map_or(MAX_POLL, Duration::from_millis)
                .min(MAX_POLL);
            match got.task.payload.clone() {
                TaskPayload::Completed { result } => {
                    return match P::task_result(result.clone()) {
                        Some(result) => Ending::Complete(result),
                        None => {
                            panic!("the task completed with a result of another shape: {result:?}")
                        }
                    };
                }
                TaskPayload::Failed { error } => {
                    return Ending::Error(
                        serde_json::from_value(Value::Object(error.clone())).unwrap_or_else(|e| {
                            panic!("the failed task's error is no JSON-RPC error ({e}): {error:?}")
                        }),
                    );
                }
                TaskPayload::Cancelled => return Ending::Cancelled,
                TaskPayload::InputRequired { input_requests } => {
                    let new: std::collections::BTreeMap<_, _> = input_requests
                        .into_iter()
                        .filter(|(key, _)| !answered.contains(key))
                        .collect();
                    if !new.is_empty() {
                        let responses = self.answer(new, &mut unopened).await;
                        self.enforce(start, "tools/call");
                        if responses.is_empty() {
                            let shown = serde_json::to_value(&got).unwrap_or(Value::Null);
                            return Ending::InputRequired(Round::new(shown, None));
                        }
                        updates += 1;
                        assert!(
                            updates <= self.script.max_rounds,
                            "the task keeps asking: more than {} updates",
                            self.script.max_rounds
                        );
                        answered.extend(responses.keys().cloned());
                        let update = UpdateTaskParams::new(id.clone(), responses);
                        if let Err(error) = self.client.update_task(update).await {
                            panic!("tasks/update failed: {error}");
                        }
                        continue;
                    }
                }
                _ => {}
            }
            tokio::time::sleep(interval).await;
        }
    }
}
