//! What the wire is expected to carry, and readers for what it did carry.

use rmcp::service::ServiceError;
use serde_json::{Value, json};

use super::harness::{Era, From, Session, object};

/// The form `cancel_*` asks, exactly as the client gets it.
pub(super) fn confirm_request(id: &str) -> Value {
    json!({
        "mode": "form",
        "message": format!("Cancel reservation {id}?"),
        "requestedSchema": {
            "type": "object",
            "properties": {"confirm": {"type": "boolean", "title": "Yes, go ahead"}},
            "required": ["confirm"]
        }
    })
}

/// `plan_trip`'s dates form for Lisbon, exactly as the client gets it.
pub(super) fn trip_dates_request() -> Value {
    json!({
        "mode": "form",
        "message": "When do you travel to Lisbon?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "start": {"type": "string", "title": "First day", "format": "date"},
                "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30, "default": 3}
            },
            "required": ["start"]
        }
    })
}

/// `plan_trip`'s travelers form, exactly as the client gets it.
pub(super) fn travelers_request() -> Value {
    json!({
        "mode": "form",
        "message": "Who travels?",
        "requestedSchema": {
            "type": "object",
            "properties": {"adults": {"type": "integer", "title": "Adults", "minimum": 1, "maximum": 9}},
            "required": ["adults"]
        }
    })
}

/// An `input_required` result asking `requests` (its `requestState` left out).
pub(super) fn round(requests: Value) -> Value {
    json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "rmcp-router-test", "version": "1.0.0"}}
    })
}

/// `result` with its `requestState` taken out (checked to be sealed).
#[track_caller]
pub(super) fn without_state(mut result: Value) -> (Value, String) {
    let state = result["requestState"]
        .as_str()
        .expect("the round carries requestState")
        .to_owned();
    assert!(state.starts_with("es1."), "{state}");
    result.as_object_mut().unwrap().remove("requestState");
    (result, state)
}

/// A JSON-RPC error as `{code, message, data}`.
#[track_caller]
pub(super) fn error_of<T: std::fmt::Debug>(outcome: Result<T, ServiceError>) -> Value {
    match outcome {
        Err(ServiceError::McpError(e)) => {
            json!({"code": e.code.0, "message": e.message, "data": e.data})
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// The uniform refusal of a `requestState` that does not belong to the request.
pub(super) fn invalid_state() -> Value {
    json!({
        "code": -32602,
        "message": "Invalid or expired requestState",
        "data": {"reason": "invalid_request_state"}
    })
}

/// What each era shows of the form that was asked: on 2026-07-28 the `input_required`
/// result of round 1 (without its state) and the retry's `inputResponses`; on 2025-11-25
/// the pushed `elicitation/create` params and the client's answer.
pub(super) fn asked(session: &Session, era: Era, method: &str) -> (Vec<Value>, Vec<Value>) {
    let wire = &session.wire;
    match era {
        Era::Mrtr => {
            let rounds = wire.responses_to(method);
            let calls = wire.params_of(From::Client, method);
            let asked = rounds
                .iter()
                .filter(|r| r["result"]["resultType"] == "input_required")
                .map(|r| without_state(r["result"].clone()).0)
                .collect();
            let answered = calls
                .iter()
                .filter_map(|c| c.get("inputResponses").cloned())
                .collect();
            (asked, answered)
        }
        Era::Legacy => {
            // rmcp's peer adds its own `progressToken` to every request it sends; nothing else.
            let pushed = wire
                .params_of(From::Server, "elicitation/create")
                .into_iter()
                .map(|mut params| {
                    let meta = params.as_object_mut().unwrap().remove("_meta");
                    let meta = meta.expect("rmcp's `_meta`");
                    assert_eq!(meta.as_object().unwrap().len(), 1, "{meta}");
                    assert!(meta["progressToken"].is_u64(), "{meta}");
                    params
                })
                .collect();
            let results = wire
                .messages(From::Client)
                .into_iter()
                .filter(|m| m.get("method").is_none() && m.get("result").is_some())
                .map(|m| m["result"].clone())
                .collect();
            (pushed, results)
        }
    }
}

/// `inputResponses` from a JSON object.
pub(super) fn input_responses(value: Value) -> rmcp::model::InputResponses {
    object(value).into_iter().collect()
}

/// The sealed handle in a link's query.
#[track_caller]
pub(super) fn handle_of(url: &str) -> String {
    let handle = url
        .strip_prefix("http://127.0.0.1/connect?elicitation=")
        .unwrap_or_else(|| panic!("the page's link with a handle: {url}"));
    assert!(handle.starts_with("eu1."), "{handle}");
    handle.to_owned()
}
