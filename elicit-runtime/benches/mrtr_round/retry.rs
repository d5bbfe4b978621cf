//! Part (b) of the `mrtr_round` bench: whole retry rounds of a tool with two forms (groups
//! `mrtr_retry_round` and `mrtr_retry_round_parts`; see the bench's own documentation).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::wire::InputRequiredResult;
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use elicit_testing::Responses;
use pollster::block_on;
use serde_json::{Value, json};

use super::{KEY, PRINCIPAL, TOOL, arguments};
use crate::support;

/// How many guests, and anything we should know?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    #[elicit(max_length = 200)]
    note: Option<String>,
    /// Seating preference
    #[elicit(title = "Outside")]
    outside: bool,
}

/// Who is booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(rename_all = "camelCase")]
struct Contact {
    #[elicit(title = "Name", min_length = 2, max_length = 60)]
    full_name: String,
    #[elicit(title = "Email", format = "email", max_length = 254)]
    email: String,
    #[elicit(title = "Arrival", format = "date-time")]
    arrival: String,
    /// Budget per person in euros
    #[elicit(minimum = 0, maximum = 1000)]
    budget: f64,
}

/// Confirm the booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Confirm {
    confirm: bool,
}

/// Asks both forms in one round; once both are answered, asks for confirmation.
async fn book(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let a = Guests::ask(cx).await;
    let b = Contact::ask(cx).await;
    let (a, b) = (a?, b?);
    let confirmed = matches!(
        Confirm::ask(cx).await?,
        Answer::Accepted(Confirm { confirm: true })
    );
    Ok(match (a, b) {
        (Answer::Accepted(g), Answer::Accepted(c)) if confirmed => {
            format!("booked for {} ({})", g.count, c.full_name)
        }
        _ => "not booked".to_owned(),
    })
}

fn first_params() -> Value {
    json!({
        "name": TOOL,
        "arguments": arguments(),
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "bench-client", "version": "1.0.0"}
        }
    })
}

/// One request, start to end, from its params text.
fn retry_round(
    server: &ElicitServer,
    params_text: &str,
) -> Result<Reply<String>, elicit_runtime::wire::JsonRpcError> {
    let params: Value = serde_json::from_str(params_text).expect("params are JSON");
    // Owned, as the rmcp adapter builds it: the answers and state move into the context.
    let mut cx = server
        .context("tools/call", params)
        .principal(PRINCIPAL)
        .build()
        .map_err(|e| e.error)?;
    let result = block_on(book(&mut cx));
    block_on(cx.respond(result))
}

fn expect_input_required(
    outcome: Result<Reply<String>, impl std::fmt::Debug>,
) -> InputRequiredResult {
    match outcome {
        Ok(Reply::InputRequired(ask)) => ask,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// The retry of round 1 (`first` answered with `r1`): both forms answered, round 1's state
/// echoed.
fn second_params(first: &Value, r1: &InputRequiredResult) -> Value {
    let mut params = first.clone();
    params["inputResponses"] = Responses::new()
        .accept(&Guests {
            count: 4,
            note: Some("a table by the window, please".to_owned()),
            outside: false,
        })
        .accept(&Contact {
            full_name: "Ada Lovelace".to_owned(),
            email: "ada.lovelace@analytical-engines.co.uk".to_owned(),
            arrival: "2026-12-24T19:30:00+01:00".to_owned(),
            budget: 85.5,
        })
        .into_value();
    params["requestState"] = Value::from(r1.request_state().expect("state"));
    params
}

/// Group `mrtr_retry_round`, `third_round`: the retry after [`retry`]'s round, with the
/// confirmation answered and round 2's state (carrying both earlier answers) echoed; the
/// handler reads all three answers again and finishes, so every carried answer is used.
pub(crate) fn third_round(c: &mut Criterion) {
    if support::paired_rounds().is_some() {
        return;
    }
    let server = ElicitServer::new(
        // The same retry runs again and again: without the replay guard, which would refuse
        // every run after the first (its own cost, one map insert, is not what is measured).
        StateSealer::new(KeyRing::new(1, KEY), "booking-server")
            .with_ttl(Duration::from_secs(3600))
            .without_replay_guard(),
    );
    let first = first_params();
    let text = |params: &Value| serde_json::to_string(params).expect("params are JSON");
    let r1 = expect_input_required(retry_round(&server, &text(&first)));
    let r2 = expect_input_required(retry_round(&server, &text(&second_params(&first, &r1))));
    let mut params = first;
    params["inputResponses"] = Responses::new()
        .accept(&Confirm { confirm: true })
        .into_value();
    params["requestState"] = Value::from(r2.request_state().expect("state"));
    let params_text = text(&params);
    match retry_round(&server, &params_text) {
        Ok(Reply::Result(done)) => assert_eq!(done, "booked for 4 (Ada Lovelace)"),
        other => panic!("expected the result, got {other:?}"),
    }
    let mut group = c.benchmark_group("mrtr_retry_round");
    support::bench(&mut group, "third_round", || {
        retry_round(black_box(&server), black_box(&params_text))
    });
    group.finish();
}

pub(crate) fn retry(c: &mut Criterion) {
    if support::paired_rounds().is_some() {
        return;
    }
    let server = ElicitServer::new(
        // The same retry runs again and again: without the replay guard, which would refuse
        // every run after the first (its own cost, one map insert, is not what is measured).
        StateSealer::new(KeyRing::new(1, KEY), "booking-server")
            .with_ttl(Duration::from_secs(3600))
            .without_replay_guard(),
    )
    .with_server_info("booking-server", "1.0.0");

    // Round 1, once: both forms asked, state sealed.
    let first = first_params();
    let first_text = serde_json::to_string(&first).expect("params are JSON");
    let r1 = expect_input_required(retry_round(&server, &first_text));
    let asked: Vec<&String> = r1.input_requests().expect("questions").keys().collect();
    assert_eq!(asked, ["contact", "guests"]);

    // The retry the client sends: both answered, round 1's state echoed.
    let params = second_params(&first, &r1);
    let params_text = serde_json::to_string(&params).expect("params are JSON");

    // It decodes and validates both answers, then asks the third form and seals the next state.
    let r2 = expect_input_required(retry_round(&server, &params_text));
    let asked: Vec<&String> = r2.input_requests().expect("questions").keys().collect();
    assert_eq!(asked, ["confirm"]);
    let next_state = r2.request_state().expect("next state");
    assert_ne!(Some(next_state), r1.request_state());
    eprintln!(
        "retry params: {} bytes of JSON (requestState {} chars); next requestState {} chars",
        params_text.len(),
        r1.request_state().map_or(0, str::len),
        next_state.len()
    );

    let mut group = c.benchmark_group("mrtr_retry_round");
    support::bench(&mut group, "retry_round", || {
        retry_round(black_box(&server), black_box(&params_text))
    });
    support::bench(&mut group, "retry_round_with_response_text", || {
        let ask = expect_input_required(retry_round(black_box(&server), black_box(&params_text)));
        serde_json::to_string(&ask).expect("the result is JSON")
    });
    group.finish();
    parts(c, &server, &params, &params_text);
}

/// Group `mrtr_retry_round_parts`: the steps of the retry `params` on their own.
fn parts(c: &mut Criterion, server: &ElicitServer, params: &Value, params_text: &str) {
    let mut parts = c.benchmark_group("mrtr_retry_round_parts");
    support::bench(&mut parts, "parse_params", || {
        serde_json::from_str::<Value>(black_box(params_text))
    });
    support::bench(&mut parts, "build_context_opens_state", || {
        server
            .context("tools/call", black_box(params))
            .principal(PRINCIPAL)
            .build()
    });
    let built = || {
        server
            .context("tools/call", params)
            .principal(PRINCIPAL)
            .build()
            .expect("the retry is valid")
    };
    if !support::timing() {
        parts.finish();
        return;
    }
    parts.bench_function("handler_decodes_two_asks_third", |b| {
        b.iter_batched(
            built,
            |mut cx| {
                let result = block_on(book(black_box(&mut cx)));
                (cx, result)
            },
            BatchSize::SmallInput,
        );
    });
    parts.bench_function("finish_seals_next_state", |b| {
        b.iter_batched(
            || {
                let mut cx = built();
                let result = block_on(book(&mut cx));
                (cx, result)
            },
            |(cx, result)| block_on(cx.respond(black_box(result))),
            BatchSize::SmallInput,
        );
    });
    parts.finish();
}
