//! The requests a scripted client sends and retries: `tools/call` and `prompts/get`.

use std::future::Future;

use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CreateTaskResult,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequiredResult,
    InputResponses, JsonObject,
};
use rmcp::service::{RunningService, ServiceError};
use serde_json::Value;

use super::round::ToolCall;
use super::user::Handler;

/// What one request returned.
pub(super) enum Step<R> {
    Done(R),
    Round(InputRequiredResult),
    /// The call became a task (tools only).
    Task(CreateTaskResult),
}

/// A request the client can send once and retry with `inputResponses` and `requestState`.
pub(super) trait Retry: Clone + Send {
    type Output: std::fmt::Debug;
    fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> impl Future<Output = Result<Step<Self::Output>, ServiceError>> + Send;
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>);
    /// The request as a [`ToolCall`], when it is one.
    fn tool_call(&self) -> Option<ToolCall>;
    /// A completed task's `result` as this request's result (`None` if it is not one).
    fn task_result(result: JsonObject) -> Option<Self::Output>;
}

impl Retry for CallToolRequestParams {
    type Output = CallToolResult;
    async fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> Result<Step<CallToolResult>, ServiceError> {
        match client.call_tool_once(self.clone()).await? {
            CallToolResponse::Complete(result) => Ok(Step::Done(result)),
            CallToolResponse::InputRequired(round) => Ok(Step::Round(round)),
            CallToolResponse::Task(task) => Ok(Step::Task(task)),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        self.input_responses = responses;
        self.request_state = state;
    }
    fn task_result(result: JsonObject) -> Option<CallToolResult> {
        serde_json::from_value(Value::Object(result)).ok()
    }
    fn tool_call(&self) -> Option<ToolCall> {
        Some(ToolCall {
            name: self.name.to_string(),
            arguments: self.arguments.clone().map_or(Value::Null, Value::Object),
            input_responses: self
                .input_responses
                .clone()
                .map(|r| Value::Object(r.into_iter().collect())),
            request_state: self.request_state.clone(),
        })
    }
}

impl Retry for GetPromptRequestParams {
    type Output = GetPromptResult;
    async fn send(
        &self,
        client: &RunningService<RoleClient, Handler>,
    ) -> Result<Step<GetPromptResult>, ServiceError> {
        match client.get_prompt_once(self.clone()).await? {
            GetPromptResponse::Complete(result) => Ok(Step::Done(result)),
            GetPromptResponse::InputRequired(round) => Ok(Step::Round(round)),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
    fn retry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        self.input_responses = responses;
        self.request_state = state;
    }
    fn tool_call(&self) -> Option<ToolCall> {
        None
    }
    fn task_result(_: JsonObject) -> Option<GetPromptResult> {
        None
    }
}
