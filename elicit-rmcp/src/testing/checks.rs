//! What a real client checks in what the server sent: every elicitation within the declared
//! capabilities, every `requestedSchema` inside the form-mode subset, every `requestState`
//! echoed untouched.

use serde_json::Value;

use super::Capabilities;
use super::transcript::{Side, Transcript};
use crate::schema::RequestedSchema;

/// The first rule the server broke in `transcript`, said so a test failure explains itself.
pub(super) fn violation(
    transcript: &Transcript,
    method: &str,
    capabilities: Capabilities,
) -> Option<String> {
    for (key, params) in elicitations(transcript) {
        if let Some(problem) = check_elicitation(&key, params, capabilities) {
            return Some(problem);
        }
    }
    unechoed_state(transcript, method)
}

/// Every elicitation the server asked: pushed `elicitation/create` requests (2025-11-25,
/// under the request id) and `inputRequests` entries (2026-07-28, under their key).
fn elicitations(transcript: &Transcript) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    for message in transcript.from(Side::Server) {
        if message["method"] == "elicitation/create" {
            found.push((format!("request {}", message["id"]), &message["params"]));
        }
        if let Some(Value::Object(requests)) = message["result"].get("inputRequests") {
            for (key, request) in requests {
                if request["method"] == "elicitation/create" {
                    found.push((format!("`{key}`"), &request["params"]));
                }
            }
        }
    }
    found
}

fn check_elicitation(key: &str, params: &Value, capabilities: Capabilities) -> Option<String> {
    let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
    match (capabilities, mode) {
        (Capabilities::None, _) => {
            return Some(format!(
                "the server asked {key} ({mode} mode) of a client that declared no elicitation capability: {params}"
            ));
        }
        (Capabilities::Form, "url") => {
            return Some(format!(
                "the server sent URL mode ({key}) to a client that declared form mode only: {params}"
            ));
        }
        _ => {}
    }
    match mode {
        "form" => match params.get("requestedSchema") {
            None => Some(format!("the form {key} has no requestedSchema: {params}")),
            Some(schema) => RequestedSchema::from_value(schema).err().map(|e| {
                format!(
                    "the requestedSchema of {key} is not a valid form-mode schema: {e}: {schema}"
                )
            }),
        },
        "url" => match params.get("url").and_then(Value::as_str) {
            Some(_) => None,
            None => Some(format!("the URL-mode request {key} has no url: {params}")),
        },
        other => Some(format!("{key} has an unknown mode `{other}`: {params}")),
    }
}

/// A retry that did not carry the `requestState` of the round before it, byte for byte.
fn unechoed_state(transcript: &Transcript, method: &str) -> Option<String> {
    let calls = transcript.requests(Side::Client, method);
    let answers = transcript.responses_to(method);
    for (i, answer) in answers.iter().enumerate() {
        let Some(state) = answer["result"].get("requestState") else {
            continue;
        };
        let Some(retry) = calls.get(i + 1) else {
            continue;
        };
        if retry.get("requestState") != Some(state) {
            return Some(format!(
                "retry {} of `{method}` did not echo the requestState {state}: {retry}",
                i + 1
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::Capabilities;
    use super::super::transcript::{Message, Side, Transcript};
    use super::violation;

    fn transcript(messages: Vec<(Side, Value)>) -> Transcript {
        Transcript(
            messages
                .into_iter()
                .map(|(from, json)| Message { from, json })
                .collect(),
        )
    }

    fn pushed(params: Value) -> Transcript {
        transcript(vec![(
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create", "params": params}),
        )])
    }

    #[test]
    fn url_mode_to_a_form_only_client_is_a_violation() {
        let t = pushed(
            json!({"mode": "url", "message": "m", "url": "https://x/", "elicitationId": "e"}),
        );
        assert_eq!(violation(&t, "tools/call", Capabilities::FormAndUrl), None);
        let found = violation(&t, "tools/call", Capabilities::Form).unwrap();
        assert!(
            found.starts_with(
                "the server sent URL mode (request 3) to a client that declared form mode only"
            ),
            "{found}"
        );
        let found = violation(&t, "tools/call", Capabilities::None).unwrap();
        assert!(
            found.contains("declared no elicitation capability"),
            "{found}"
        );
    }

    #[test]
    fn a_schema_outside_the_form_subset_is_a_violation() {
        let t = transcript(vec![(
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "inputRequests": {
                "name": {"method": "elicitation/create", "params": {"mode": "form", "message": "m",
                    "requestedSchema": {"type": "object", "properties": {"n": {"type": "string", "pattern": "x"}}}}}
            }, "requestState": "s"}}),
        )]);
        let found = violation(&t, "tools/call", Capabilities::Form).unwrap();
        assert!(
            found.starts_with("the requestedSchema of `name` is not a valid form-mode schema: `properties.n.pattern`"),
            "{found}"
        );
    }

    #[test]
    fn a_retry_with_another_request_state_is_a_violation() {
        let call = |id: u64, state: Option<&str>| {
            let mut params = json!({"name": "t"});
            if let Some(state) = state {
                params["requestState"] = json!(state);
            }
            (
                Side::Client,
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
            )
        };
        let round = (
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "es1.a"}}),
        );
        let echoed = transcript(vec![call(1, None), round.clone(), call(2, Some("es1.a"))]);
        assert_eq!(violation(&echoed, "tools/call", Capabilities::Form), None);
        let changed = transcript(vec![call(1, None), round, call(2, Some("es1.b"))]);
        let found = violation(&changed, "tools/call", Capabilities::Form).unwrap();
        assert!(
            found.starts_with("retry 1 of `tools/call` did not echo the requestState \"es1.a\""),
            "{found}"
        );
    }
}
