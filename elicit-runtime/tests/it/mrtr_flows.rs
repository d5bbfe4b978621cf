//! The 2026-07-28 multi round-trip flow seen from a handler: what the first
//! `InputRequiredResult` looks like on the wire, how answers come back (fresh in
//! `inputResponses`, or carried in the sealed `requestState`), how several questions share one
//! round, and how capabilities, malformed answers and reworded questions are handled.

use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::wire::{InputRequiredResult, JsonRpcError};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use elicit_testing::{Responses, TestClient, UserReply};
use pollster::block_on;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    note: Option<String>,
}

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

/// Confirm the booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Confirm {
    confirm: bool,
}

fn guests(count: u8) -> Guests {
    Guests { count, note: None }
}

fn day(date: &str) -> Day {
    Day {
        date: date.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

fn server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(KeyRing::new(1, [0x42; 32]), "flow-server"))
}

/// The first `tools/call` params of a 2026-07-28 client declaring `capabilities`.
fn first_params(capabilities: Value) -> Value {
    json!({
        "name": "book_table",
        "arguments": {"restaurant": "Chez Rust"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "flow-test", "version": "1"}
        }
    })
}

fn forms() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// The retry of `first` answering `ask` with `responses` and echoing its state.
fn retry(first: &Value, ask: &InputRequiredResult, responses: Value) -> Value {
    let mut params = first.clone();
    params["inputResponses"] = responses;
    params["requestState"] = Value::from(ask.request_state().expect("the round carries state"));
    params
}

/// One request: build the context, run the handler, finish.
fn round<R>(
    server: &ElicitServer,
    params: &Value,
    mut handler: impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    block_on(TestClient::new(server.clone()).round("tools/call", params, &mut handler))
}

#[track_caller]
fn asks<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> InputRequiredResult {
    match outcome {
        Ok(Reply::InputRequired(ask)) => ask,
        other => panic!("expected input_required, got {other:?}"),
    }
}

#[track_caller]
fn completes<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> R {
    match outcome {
        Ok(Reply::Result(result)) => result,
        other => panic!("expected a complete result, got {other:?}"),
    }
}

#[track_caller]
fn fails<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> JsonRpcError {
    match outcome {
        Err(error) => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

fn keys(ask: &InputRequiredResult) -> Vec<&str> {
    ask.input_requests()
        .map(|r| r.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The JSON of `inputRequests[key]`.
fn request(ask: &InputRequiredResult, key: &str) -> Value {
    let value = serde_json::to_value(ask).unwrap();
    value["inputRequests"][key].clone()
}

fn form_request(message: &str, schema: Value) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": schema}
    })
}

fn guests_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 1, "maximum": 12},
            "note": {"type": "string"}
        },
        "required": ["count"]
    })
}

fn day_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"date": {"type": "string", "format": "date"}},
        "required": ["date"]
    })
}

async fn ask_guests(cx: &mut ElicitContext) -> Result<Answer<Guests>, Interrupt> {
    Guests::ask(cx).await
}

fn answer_once(response: Value) -> Result<Reply<Answer<Guests>>, JsonRpcError> {
    answer_once_on(&server(), response)
}

/// The guests asked on `server`, and `response` given to them.
fn answer_once_on(
    server: &ElicitServer,
    response: Value,
) -> Result<Reply<Answer<Guests>>, JsonRpcError> {
    let first = first_params(forms());
    let ask = asks(round(server, &first, ask_guests));
    round(
        server,
        &retry(&first, &ask, json!({"guests": response})),
        ask_guests,
    )
}

/// Asks the day, then (once it is known) the guests.
async fn day_then_guests(cx: &mut ElicitContext) -> Result<(Day, Answer<Guests>), Interrupt> {
    let Answer::Accepted(day) = Day::ask(cx).await? else {
        return Err(JsonRpcError::invalid_params("no day", None).into());
    };
    let guests = Guests::ask(cx).await?;
    Ok((day, guests))
}

const SAMPLING: &str = "summary";

fn sampling_params() -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the menu"}}],
        "maxTokens": 100
    })
}

mod batching;
mod call_site;
mod capabilities;
mod carried_answers;
mod first_round;
mod one_round;
mod other_shapes;
mod reask;
mod several_rounds;
mod validation;
