//! `requestState` as the context sees it: every refusal is one and the same client error
//! (`-32602 "Invalid or expired requestState"`), while the server's log reason
//! (`ContextError::reason`) says precisely what went wrong. Also single use across rounds.
//!
//! What the sealer itself refuses (tampering, truncation, keys, rotation, audience, expiry,
//! binding mismatches) is tested once, in its unit tests (`src/state/`); here only what the
//! context adds (how it builds the binding, maps a refusal, carries state across rounds), and the
//! TTL's rounding for states sealed at a fractional second.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_runtime::state::{Binding, KeyRing, MemoryReplayGuard, StateError, StateSealer};
use elicit_runtime::wire::{InputRequiredResult, JsonRpcError};
use elicit_runtime::{Answer, ContextError, ElicitContext, ElicitForm, ElicitServer, Reply};
use pollster::block_on;
use serde_json::{Value, json};

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

const K1: [u8; 32] = [0x11; 32];
const K2: [u8; 32] = [0x22; 32];
const AUDIENCE: &str = "state-server";
const TOOL: &str = "book_table";

fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, K1), AUDIENCE)
}

fn server() -> ElicitServer {
    ElicitServer::new(sealer())
}

fn arguments() -> Value {
    json!({"restaurant": "Chez Rust", "guests": 2, "options": {"terrace": true, "late": false}})
}

/// `params` of a 2026-07-28 request for `name` with `arguments`.
fn params(name: &str, arguments: Value) -> Value {
    json!({
        "name": name,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
        }
    })
}

fn with_state(mut params: Value, token: &str, responses: Value) -> Value {
    params["requestState"] = Value::from(token);
    params["inputResponses"] = responses;
    params
}

fn accept(count: u8) -> Value {
    json!({"guests": {"action": "accept", "content": {"count": count}}})
}

/// Runs the first round of a handler asking `Guests` and returns its `requestState`.
fn first_round(
    server: &ElicitServer,
    method: &str,
    params: &Value,
    principal: Option<&str>,
) -> String {
    let mut cx = server
        .context(method, params)
        .principal(principal)
        .build()
        .expect("first round builds");
    let result = block_on(Guests::ask(&mut cx));
    match block_on(cx.respond(result)) {
        Ok(Reply::InputRequired(ask)) => ask.request_state().expect("state").to_owned(),
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn first_tool_round(server: &ElicitServer) -> String {
    first_round(server, "tools/call", &params(TOOL, arguments()), None)
}

/// [`first_tool_round`] as alice.
fn alices_first_tool_round(server: &ElicitServer) -> String {
    first_round(
        server,
        "tools/call",
        &params(TOOL, arguments()),
        Some("alice"),
    )
}

/// Builds a retry; on success also runs the handler to the end.
fn retry(
    server: &ElicitServer,
    method: &str,
    params: &Value,
    principal: Option<&str>,
) -> Result<Answer<Guests>, ContextError> {
    let mut cx: ElicitContext = server
        .context(method, params)
        .principal(principal)
        .build()?;
    let result = block_on(Guests::ask(&mut cx));
    match block_on(cx.respond(result)) {
        Ok(Reply::Result(answer)) => Ok(answer),
        other => panic!("expected the retry to complete, got {other:?}"),
    }
}

fn uniform_error() -> Value {
    json!({"code": -32602, "message": "Invalid or expired requestState", "data": {"reason": "invalid_request_state"}})
}

/// The retry must be refused with the uniform client error; returns the log reason.
#[track_caller]
fn refused(outcome: Result<Answer<Guests>, ContextError>, expected: &StateError) -> String {
    let error = match outcome {
        Err(e) => e,
        Ok(answer) => panic!("the state was accepted: {answer:?}"),
    };
    assert_eq!(
        serde_json::to_value(&error.error).unwrap(),
        uniform_error(),
        "{error:?}"
    );
    assert_eq!(error.error, JsonRpcError::invalid_request_state());
    assert!(
        error.reason.contains(&expected.to_string()),
        "reason {:?} does not name {expected:?}",
        error.reason
    );
    error.reason.into()
}

/// Changes one character in the middle of the token's body.
fn tamper(token: &str) -> String {
    let mut chars: Vec<char> = token.chars().collect();
    let i = chars.len() / 2;
    chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// The happy path, for contrast
// ---------------------------------------------------------------------------------------------

#[test]
fn an_untouched_state_opens() {
    let server = server();
    let token = first_tool_round(&server);
    assert!(token.starts_with("es1."));
    let done = retry(
        &server,
        "tools/call",
        &with_state(params(TOOL, arguments()), &token, accept(3)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 3 }));
}

#[test]
fn absent_null_and_empty_arguments_are_the_same_request() {
    let server = server();
    let mut no_args = params(TOOL, json!({}));
    no_args.as_object_mut().unwrap().remove("arguments");
    for arguments in [json!({}), Value::Null] {
        // A state is single use: one first round per retry.
        let token = first_round(&server, "tools/call", &no_args, None);
        let done = retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments.clone()), &token, accept(1)),
            None,
        );
        assert_eq!(
            done.unwrap(),
            Answer::Accepted(Guests { count: 1 }),
            "{arguments}"
        );
    }
}

/// A JSON payload for the sealer's own checks (the context's round state is binary).
fn asked_guests() -> Value {
    let prepared = Guests::question().prepare().unwrap();
    json!({"q": {"guests": prepared.digest()}, "a": {}})
}

mod refusals;
mod single_use;
