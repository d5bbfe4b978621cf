//! Typed views of the wire for hand-made tests: the [`Round`] a server answered with, and the
//! [`ToolCall`] a client sends (first call, retry, or a retry tampered with on purpose).

use rmcp::model::{CallToolRequestParams, InputResponses};
use serde_json::Value;

use crate::testing::Responses;

/// An `input_required` result (2026-07-28) as the server sent it: what it asks, under which
/// keys, and the `requestState` to echo.
///
/// ```
/// use elicit_rmcp::testing::{Responses, Round, ToolCall};
/// use serde_json::json;
///
/// let round = Round::new(
///     json!({
///         "resultType": "input_required",
///         "inputRequests": {"guests": {"method": "elicitation/create", "params": {
///             "mode": "form", "message": "How many guests?",
///             "requestedSchema": {"type": "object", "properties": {"count": {"type": "integer"}}}}}},
///         "requestState": "es1.sealed"
///     }),
///     Some(ToolCall::new("book", json!({"day": "friday"}))),
/// );
/// assert_eq!(round.keys(), ["guests"]);
/// assert_eq!(round.message("guests"), Some("How many guests?"));
/// assert_eq!(round.requested_schema("guests").unwrap()["properties"]["count"]["type"], "integer");
/// assert_eq!(round.request_state(), Some("es1.sealed"));
///
/// // The retry a client sends: same tool and arguments, the answers, the state echoed.
/// let answers = Responses::new().raw("guests", json!({"action": "accept", "content": {"count": 4}}));
/// let retry = round.retry(answers);
/// assert_eq!(retry.name, "book");
/// assert_eq!(retry.arguments, json!({"day": "friday"}));
/// assert_eq!(retry.input_responses, Some(json!({"guests": {"action": "accept", "content": {"count": 4}}})));
/// assert_eq!(retry.request_state.as_deref(), Some("es1.sealed"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// The whole `result` object, exactly as it went over the wire.
    pub result: Value,
    call: Option<ToolCall>,
}

impl Round {
    /// The round in `result`, answering `call` (the `tools/call` it answered; `None` for
    /// another method, whose round cannot [`retry`](Round::retry)).
    pub fn new(result: Value, call: Option<ToolCall>) -> Self {
        Round { result, call }
    }

    /// The keys of `inputRequests`, in wire order (none in a state-only round).
    pub fn keys(&self) -> Vec<&str> {
        match self.result.get("inputRequests") {
            Some(Value::Object(requests)) => requests.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The request under `key`: `{"method": …, "params": …}`.
    pub fn request(&self, key: &str) -> Option<&Value> {
        self.result.get("inputRequests")?.get(key)
    }

    /// The `params` of the elicitation under `key`.
    pub fn params(&self, key: &str) -> Option<&Value> {
        self.request(key)?.get("params")
    }

    /// The `message` of the elicitation under `key`.
    pub fn message(&self, key: &str) -> Option<&str> {
        self.params(key)?.get("message")?.as_str()
    }

    /// The `requestedSchema` of the form under `key`.
    pub fn requested_schema(&self, key: &str) -> Option<&Value> {
        self.params(key)?.get("requestedSchema")
    }

    /// The `url` of the URL-mode elicitation under `key`.
    pub fn url(&self, key: &str) -> Option<&str> {
        self.params(key)?.get("url")?.as_str()
    }

    /// The `requestState` to echo, if the round has one.
    pub fn request_state(&self) -> Option<&str> {
        self.result.get("requestState")?.as_str()
    }

    /// The `tools/call` this round answered, if it answered one.
    pub fn call(&self) -> Option<&ToolCall> {
        self.call.as_ref()
    }

    /// The retry a conforming client sends: the same tool and arguments, `responses` as
    /// `inputResponses` (left out when empty), and this round's `requestState` byte for byte.
    ///
    /// Panics on a round of another method than `tools/call`.
    #[track_caller]
    pub fn retry(&self, responses: Responses) -> ToolCall {
        let Some(call) = &self.call else {
            panic!("this round did not answer a tools/call, so there is no tool call to retry")
        };
        ToolCall {
            name: call.name.clone(),
            arguments: call.arguments.clone(),
            input_responses: non_empty(responses.into_value()),
            request_state: self.request_state().map(str::to_owned),
        }
    }
}

/// One `tools/call` as a client sends it: the first call, a retry, or a hand-made variant of
/// either (other arguments, another tool, a tampered state). Send it with
/// [`Session::send`](super::Session::send); read the ones a run sent with
/// [`Transcript::tool_calls`](super::Transcript::tool_calls).
///
/// ```
/// use elicit_rmcp::testing::{Responses, ToolCall, UserReply};
/// use serde_json::json;
///
/// let retry = ToolCall::new("delete_project", json!({"project_id": "P-1"}))
///     .with_input_responses(Responses::new().reply_as("confirm", UserReply::Accept(json!({"confirm": true}))))
///     .with_request_state("es1.AAAA");
/// let replayed = retry.clone().with_arguments(json!({"project_id": "P-2"}));
/// assert_eq!(replayed.request_state, retry.request_state);
/// assert_eq!(retry.clone().with_tampered_state().request_state.as_deref(), Some("es1.BAAA"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool's `name`.
    pub name: String,
    /// The `arguments` (a JSON object).
    pub arguments: Value,
    /// The `inputResponses` object, if the call carries one.
    pub input_responses: Option<Value>,
    /// The `requestState`, if the call carries one.
    pub request_state: Option<String>,
}

impl ToolCall {
    /// A first call of tool `name` with `arguments`: no answers, no state.
    pub fn new(name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            name: name.into(),
            arguments,
            input_responses: None,
            request_state: None,
        }
    }

    /// The same call to another tool.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same call with other `arguments`.
    pub fn with_arguments(mut self, arguments: Value) -> Self {
        self.arguments = arguments;
        self
    }

    /// The same call carrying `responses` as `inputResponses` (none when empty).
    pub fn with_input_responses(mut self, responses: Responses) -> Self {
        self.input_responses = non_empty(responses.into_value());
        self
    }

    /// The same call carrying `state` as `requestState`.
    pub fn with_request_state(mut self, state: impl Into<String>) -> Self {
        self.request_state = Some(state.into());
        self
    }

    /// The same call with one character of its `requestState` changed (the one after the
    /// middle: `A` becomes `B`, anything else `A`), as an attacker or a broken client would
    /// send it. Panics when the call carries no state.
    #[track_caller]
    pub fn with_tampered_state(mut self) -> Self {
        let Some(state) = &self.request_state else {
            panic!("this call carries no requestState to tamper with")
        };
        let mut chars: Vec<char> = state.chars().collect();
        let middle = chars.len() / 2;
        chars[middle] = if chars[middle] == 'A' { 'B' } else { 'A' };
        self.request_state = Some(chars.into_iter().collect());
        self
    }

    /// The call as rmcp's request params.
    pub(super) fn params(&self) -> CallToolRequestParams {
        let mut params = CallToolRequestParams::new(self.name.clone());
        if let Value::Object(arguments) = &self.arguments {
            params = params.with_arguments(arguments.clone());
        }
        if let Some(Value::Object(responses)) = &self.input_responses {
            let responses: InputResponses = responses.clone().into_iter().collect();
            params = params.with_input_responses(responses);
        }
        params.request_state = self.request_state.clone();
        params
    }

    /// The call in the `params` of a `tools/call` request as it went over the wire.
    pub(super) fn from_params(params: &Value) -> ToolCall {
        ToolCall {
            name: params["name"].as_str().unwrap_or_default().to_owned(),
            arguments: params.get("arguments").cloned().unwrap_or(Value::Null),
            input_responses: params.get("inputResponses").cloned(),
            request_state: params
                .get("requestState")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

fn non_empty(responses: Value) -> Option<Value> {
    match &responses {
        Value::Object(map) if map.is_empty() => None,
        _ => Some(responses),
    }
}
