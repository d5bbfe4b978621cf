//! What operators see of a round through `tracing`: the questions asked, each answer's action
//! and round, how the request ended — and never an answer's contents or the principal.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::common_trace::{Recorded, recorded};
use elicit_runtime::state::{KeyRing, MemoryReplayGuard, StateSealer};
use elicit_runtime::wire::JsonRpcError;
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use elicit_testing::TestClient;
use pollster::block_on;
use serde_json::{Value, json};

/// Where to send the receipt?
#[derive(Debug, ElicitForm)]
struct Receipt {
    #[elicit(format = "email")]
    email: String,
}

fn params() -> Value {
    json!({
        "name": "send_receipt",
        "arguments": {"order": "A-17"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
        }
    })
}

async fn handler(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    Ok(match Receipt::ask(cx).await? {
        Answer::Accepted(r) => format!("sent to {}", r.email),
        _ => "not sent".to_owned(),
    })
}

fn round(server: &ElicitServer, params: &Value) -> Result<Reply<String>, JsonRpcError> {
    let client = TestClient::new(server.clone()).principal("alice@example.com");
    block_on(client.round("tools/call", params, &mut handler))
}

fn pick<'a>(event: &'a Recorded, names: &[&str]) -> BTreeMap<&'a str, &'a str> {
    event
        .iter()
        .filter(|(k, _)| names.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[test]
fn each_round_reports_its_questions_answers_and_outcome_but_no_contents() {
    let server = ElicitServer::new(StateSealer::new(KeyRing::new(1, [7; 32]), "trace"));
    let first = params();
    let events = recorded(|| {
        let Ok(Reply::InputRequired(ask)) = round(&server, &first) else {
            panic!("the first call asks")
        };
        let mut retry = first.clone();
        retry["inputResponses"] =
            json!({"receipt": {"action": "accept", "content": {"email": "bob@example.com"}}});
        retry["requestState"] = json!(ask.request_state().unwrap());
        let Ok(Reply::Result(text)) = round(&server, &retry) else {
            panic!("the retry completes")
        };
        assert_eq!(text, "sent to bob@example.com");
    });
    let names = [
        "message", "method", "target", "round", "outcome", "asked", "key", "action",
    ];
    let seen: Vec<_> = events.iter().map(|e| pick(e, &names)).collect();
    let expected: Vec<BTreeMap<&str, &str>> = vec![
        [
            ("message", "elicit round"),
            ("method", "tools/call"),
            ("target", "send_receipt"),
            ("round", "1"),
            ("outcome", "input_required"),
            ("asked", "receipt"),
        ]
        .into(),
        [
            ("message", "elicit answer"),
            ("method", "tools/call"),
            ("target", "send_receipt"),
            ("round", "2"),
            ("key", "receipt"),
            ("action", "accept"),
        ]
        .into(),
        [
            ("message", "elicit round"),
            ("method", "tools/call"),
            ("target", "send_receipt"),
            ("round", "2"),
            ("outcome", "complete"),
            ("asked", ""),
        ]
        .into(),
    ];
    assert_eq!(seen, expected);
    assert!(events[1].contains_key("waited_ms"), "{:?}", events[1]);
    let everything = format!("{events:?}");
    for secret in ["bob@example.com", "alice@example.com", "A-17"] {
        assert!(
            !everything.contains(secret),
            "{secret} leaked into {everything}"
        );
    }
}

#[test]
fn a_call_that_asks_nothing_emits_nothing() {
    let server = ElicitServer::new(StateSealer::new(KeyRing::new(1, [7; 32]), "trace"));
    let events = recorded(|| {
        let client = TestClient::new(server.clone());
        let done = block_on(client.round(
            "tools/call",
            &params(),
            &mut async |_cx: &mut ElicitContext| Ok::<_, Interrupt>("done"),
        ));
        assert!(matches!(done, Ok(Reply::Result("done"))));
    });
    assert_eq!(events, Vec::<Recorded>::new());
}

#[test]
fn a_replayed_state_is_refused_with_its_reason_in_the_log_only() {
    let sealer = StateSealer::new(KeyRing::new(1, [7; 32]), "trace")
        .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    let server = ElicitServer::new(sealer);
    let first = params();
    let Ok(Reply::InputRequired(ask)) = round(&server, &first) else {
        panic!("the first call asks")
    };
    let mut retry = first.clone();
    retry["inputResponses"] =
        json!({"receipt": {"action": "accept", "content": {"email": "bob@example.com"}}});
    retry["requestState"] = json!(ask.request_state().unwrap());
    assert!(matches!(round(&server, &retry), Ok(Reply::Result(_))));
    let events = recorded(|| {
        let replayed = round(&server, &retry).unwrap_err();
        assert_eq!(replayed, JsonRpcError::invalid_request_state());
    });
    let names = [
        "message", "method", "target", "round", "reason", "detail", "outcome", "code",
    ];
    let seen: Vec<_> = events.iter().map(|e| pick(e, &names)).collect();
    let expected: Vec<BTreeMap<&str, &str>> = vec![
        [
            ("message", "elicit requestState refused"),
            ("method", "tools/call"),
            ("target", "send_receipt"),
            ("round", "2"),
            ("reason", "replayed"),
            ("detail", "requestState already redeemed (replay)"),
        ]
        .into(),
    ];
    assert_eq!(seen, expected);
}

/// A state that does not open (here: tampered) is logged with its reason when the context is
/// built, so adapters that only pass the client error on (rmcp's) still leave a trace.
#[test]
fn a_state_that_does_not_open_is_logged_with_its_reason() {
    let server = ElicitServer::new(StateSealer::new(KeyRing::new(1, [7; 32]), "trace"));
    let first = params();
    let Ok(Reply::InputRequired(ask)) = round(&server, &first) else {
        panic!("the first call asks")
    };
    let token = ask.request_state().unwrap();
    let mut tampered = token[..token.len() - 2].to_owned();
    tampered.push_str(if token.ends_with("AA") { "BB" } else { "AA" });
    let mut retry = first.clone();
    retry["requestState"] = json!(tampered);
    let events = recorded(|| {
        let refused = round(&server, &retry).unwrap_err();
        assert_eq!(refused, JsonRpcError::invalid_request_state());
    });
    let names = ["message", "method", "target", "reason"];
    let seen: Vec<_> = events.iter().map(|e| pick(e, &names)).collect();
    let expected: Vec<BTreeMap<&str, &str>> = vec![
        [
            ("message", "elicit requestState refused"),
            ("method", "tools/call"),
            ("target", "send_receipt"),
            ("reason", "decrypt"),
        ]
        .into(),
    ];
    assert_eq!(seen, expected);
}

/// One event as a line of text, the way a `key=value` formatter (tracing-subscriber's `fmt`,
/// a JSON-less log shipper) writes it: each field's text as recorded, unquoted.
fn log_line(event: &Recorded) -> String {
    let mut line = event.get("message").cloned().unwrap_or_default();
    for (name, value) in event.iter().filter(|(k, _)| *k != "message") {
        line.push_str(&format!(" {name}={value}"));
    }
    line.push('\n');
    line
}

/// Issue 21 item 8: the tool name is the client's; a newline in it forged a log line (and an
/// ESC drove the operator's terminal). Every event it appears in is one line, the name escaped.
#[test]
fn a_newline_in_a_tool_name_cannot_forge_a_log_line() {
    let server = ElicitServer::new(StateSealer::new(KeyRing::new(1, [7; 32]), "trace"));
    let forged = "send_receipt\nWARN elicit: elicit round outcome=complete\u{1b}[2K\u{2028}x\\n";
    let escaped = r"send_receipt\nWARN elicit: elicit round outcome=complete\u{1b}[2K\u{2028}x\\n";
    let mut first = params();
    first["name"] = json!(forged);
    let events = recorded(|| {
        let Ok(Reply::InputRequired(ask)) = round(&server, &first) else {
            panic!("the first call asks")
        };
        // A retry whose state does not open, and one whose answer is used.
        let mut tampered = first.clone();
        tampered["requestState"] = json!("es1.AAAA");
        assert!(round(&server, &tampered).is_err());
        let mut retry = first.clone();
        retry["inputResponses"] =
            json!({"receipt": {"action": "accept", "content": {"email": "bob@example.com"}}});
        retry["requestState"] = json!(ask.request_state().unwrap());
        assert!(matches!(round(&server, &retry), Ok(Reply::Result(_))));
    });
    let messages: Vec<_> = events.iter().map(|e| e["message"].as_str()).collect();
    assert_eq!(
        messages,
        [
            "elicit round",
            "elicit requestState refused",
            "elicit answer",
            "elicit round"
        ]
    );
    for event in &events {
        assert_eq!(event["target"], escaped, "{event:?}");
        let line = log_line(event);
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(!line.contains(['\r', '\u{1b}', '\u{2028}']), "{line:?}");
    }
}
