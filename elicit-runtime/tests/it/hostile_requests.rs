//! Hostile requests: proptest-generated JSON in every field of a `tools/call` (its `_meta`,
//! protocol version, client capabilities, `inputResponses` and each response, `requestState`,
//! `arguments`, `name`), run through a context and a handler asking two forms, in sequences
//! that feed each round's state (sometimes changed) to the next request. Nothing may panic, and
//! every failure must be a JSON-RPC error with code -32602, -32021 or -32603.

mod strategies;

use std::collections::{BTreeMap, VecDeque};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::tasks::TaskInput;
use elicit_runtime::wire::{ClientCapabilities, InputRequest, JsonRpcError, TasksUpdateParams};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use pollster::block_on;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};
use strategies::{Call, Legacy, call, object, params, plausible, set, value};

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    #[elicit(max_length = 20)]
    note: Option<String>,
}

const ALLOWED: [i64; 3] = [-32602, -32021, -32603];
const TOOL: &str = "book_table";

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Nothing is written next to the sources on failure; the seed is printed instead.
        failure_persistence: None,
        // Seven times faster here than the default ChaCha: every `prop_oneof!` arm not picked
        // still gets a runner of its own, seeded from this one.
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The server side
// ---------------------------------------------------------------------------------------------

/// A 2025-11-25 peer whose replies are arbitrary JSON (then `null`).
struct RandomPeer(Mutex<VecDeque<Value>>);

impl LegacyPeer for RandomPeer {
    fn request<'a>(
        &'a self,
        _request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        let reply = self.0.lock().unwrap().pop_front().unwrap_or(Value::Null);
        Box::pin(async move { Ok(reply) })
    }
}

async fn two_forms(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let day = Day::ask(cx).await;
    let guests = Guests::ask(cx).await;
    let (day, guests) = (day?, guests?);
    Ok(format!("{day:?} {guests:?}"))
}

async fn two_forms_in_sequence(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let Answer::Accepted(day) = Day::ask(cx).await? else {
        return Ok("no day".into());
    };
    let guests = Guests::question()
        .message(format!("Guests on {}?", day.date))
        .ask(cx)
        .await?;
    Ok(format!("{day:?} {guests:?}"))
}

async fn forms_and_more(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let day = Day::ask_if_supported(cx).await;
    let sample = cx
        .sample("s", json!({"messages": [], "maxTokens": 1}))
        .await;
    let roots = cx.list_roots("r").await;
    let guests = Guests::ask(cx).await;
    Ok(format!(
        "{:?} {:?} {:?} {:?}",
        day?, sample?, roots?, guests?
    ))
}

fn base_params() -> Value {
    json!({
        "name": TOOL,
        "arguments": {"restaurant": "Chez Rust"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}}
        }
    })
}

/// What one hostile request led to, in words, or the violation.
fn check(outcome: Result<Reply<String>, JsonRpcError>) -> Result<Option<String>, String> {
    match outcome {
        Ok(Reply::Result(_)) => Ok(None),
        Ok(Reply::InputRequired(ask)) => {
            let value =
                serde_json::to_value(&ask).map_err(|e| format!("unserializable result: {e}"))?;
            if value["resultType"] != "input_required" {
                return Err(format!("bad resultType in {value}"));
            }
            let requests = ask.input_requests().map(|r| r.len()).unwrap_or(0);
            let state = ask.request_state().map(str::to_owned);
            if requests == 0 && state.is_none() {
                return Err(format!(
                    "an input_required result with nothing in it: {value}"
                ));
            }
            if let Some(keys) = ask.input_requests()
                && let Some(stray) = keys
                    .keys()
                    .find(|k| !["day", "guests", "s", "r"].contains(&k.as_str()))
            {
                return Err(format!("unexpected key {stray} in {value}"));
            }
            match state {
                Some(s) if s.starts_with("es1.") => Ok(Some(s)),
                Some(s) => Err(format!("state without the es1 prefix: {s}")),
                None => Ok(None),
            }
        }
        Ok(other) => Err(format!("no handler here ends with a link: {other:?}")),
        Err(e) if ALLOWED.contains(&e.code) => {
            serde_json::to_value(&e).map_err(|err| format!("unserializable error: {err}"))?;
            Ok(None)
        }
        Err(e) => Err(format!("error code outside {ALLOWED:?}: {e:?}")),
    }
}

fn server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(
        KeyRing::new(1, [0x5A; 32]),
        "hostile-server",
    ))
    .with_server_info("hostile-server", "0")
}

fn legacy_client(legacy: &Legacy) -> (ClientCapabilities, Option<Arc<dyn LegacyPeer>>) {
    let capabilities = if legacy.all_capabilities {
        serde_json::from_value(json!({"elicitation": {}, "sampling": {}, "roots": {}})).unwrap()
    } else {
        serde_json::from_value(legacy.capabilities.clone()).unwrap_or_default()
    };
    let peer = legacy.peer.as_ref().map(|replies| {
        Arc::new(RandomPeer(Mutex::new(replies.iter().cloned().collect()))) as Arc<dyn LegacyPeer>
    });
    (capabilities, peer)
}

/// Runs one hostile call, the retry's state picked from `tokens`; returns its params and verdict.
fn run_one(
    server: &ElicitServer,
    call: &Call,
    tokens: &[String],
) -> (Value, Result<Option<String>, String>) {
    let params = call.params.build(base_params(), tokens);
    let principal = call.alice.then_some("alice");
    let mut builder = server.context(call.method, &params).principal(principal);
    if let Some(legacy) = &call.legacy {
        let (capabilities, peer) = legacy_client(legacy);
        builder = builder.legacy(capabilities, peer);
    }
    let mut cx = match builder.build() {
        Ok(cx) => cx,
        Err(e) => {
            let verdict = if ALLOWED.contains(&e.error.code) {
                Ok(None)
            } else {
                Err(format!("build error code outside {ALLOWED:?}: {e:?}"))
            };
            return (params, verdict);
        }
    };
    let result = block_on(async {
        match call.handler {
            0 => two_forms(&mut cx).await,
            1 => two_forms_in_sequence(&mut cx).await,
            _ => forms_and_more(&mut cx).await,
        }
    });
    (params, check(block_on(cx.respond(result))))
}

proptest! {
    #![proptest_config(config(256))]

    /// Sequences of calls, each round's state fed to the calls after it.
    #[test]
    fn hostile_tool_calls_never_panic_and_fail_with_known_codes(calls in vec(call(), 1..16)) {
        let server = server();
        let mut tokens = Vec::new();
        for (i, call) in calls.iter().enumerate() {
            let (params, verdict) = run_one(&server, call, &tokens);
            match verdict {
                Ok(Some(token)) => tokens.push(token),
                Ok(None) => {}
                Err(violation) => {
                    prop_assert!(false, "call {}: {}\nparams: {}", i, violation, params);
                }
            }
        }
    }
}

#[test]
fn hostile_requests_reach_every_kind_of_outcome() {
    // The same generator, counting outcomes, to show the fuzz above is not stuck on one path:
    // a fixed sample of sequences of plain `tools/call`s to a handler asking two forms.
    let server = server();
    let sequences = vec(params(), 1..16);
    let mut runner = TestRunner::new_with_rng(
        config(0),
        TestRng::deterministic_rng(RngAlgorithm::XorShift),
    );
    let mut seen = BTreeMap::<String, usize>::new();
    for _ in 0..150 {
        let mut tokens = Vec::new();
        for hostile in sequences.new_tree(&mut runner).unwrap().current() {
            let params = hostile.build(base_params(), &tokens);
            let label = match server.context("tools/call", &params).build() {
                Err(e) => format!("build {}", e.error.code),
                Ok(mut cx) => {
                    let result = block_on(two_forms(&mut cx));
                    match block_on(cx.respond(result)) {
                        Ok(Reply::Result(_)) => "complete".to_owned(),
                        Ok(Reply::InputRequired(ask)) => {
                            tokens.extend(ask.request_state().map(str::to_owned));
                            "input_required".to_owned()
                        }
                        Ok(other) => panic!("no handler here ends with a link: {other:?}"),
                        Err(e) => {
                            assert!(ALLOWED.contains(&e.code), "{e:?}");
                            format!("error {}", e.code)
                        }
                    }
                }
            };
            *seen.entry(label).or_default() += 1;
        }
    }
    for expected in [
        "complete",
        "input_required",
        "error -32602",
        "error -32021",
        "build -32602",
    ] {
        assert!(
            seen.get(expected).copied().unwrap_or(0) > 0,
            "never saw {expected}: {seen:?}"
        );
    }
}

/// An update carrying `responses` for a task asking `Guests`: the ack is always `complete`,
/// and the task resolves exactly when `guests` was answered, with an answer or a -32602 error,
/// or asks again under `guests.2` (an accepted answer that fails the form's checks).
fn task_update_is_handled(responses: Value) -> Result<(), TestCaseError> {
    let input = TaskInput::new(serde_json::from_value(json!({"elicitation": {}})).unwrap());
    let mut worker = input.clone();
    let mut ask = pin!(Guests::ask(&mut worker));
    let mut cx = Context::from_waker(Waker::noop());
    prop_assert!(ask.as_mut().poll(&mut cx).is_pending());
    let raw = json!({"taskId": "t", "inputResponses": responses});
    let update = serde_json::from_value::<TasksUpdateParams>(raw)
        .map_err(|e| TestCaseError::fail(format!("an object of responses parses: {e}")))?;
    let answered = update.input_responses.get("guests").is_some();
    let ack = serde_json::to_value(input.update(None, &update).unwrap()).unwrap();
    prop_assert_eq!(ack, json!({"resultType": "complete"}));
    match ask.as_mut().poll(&mut cx) {
        Poll::Pending => {
            let asked_again = input
                .input_required()
                .is_some_and(|now| now.input_requests.contains_key("guests.2"));
            prop_assert_eq!(answered, asked_again, "answered but still pending");
        }
        Poll::Ready(result) => {
            prop_assert!(answered, "resolved without an answer: {:?}", result);
            if let Err(e) = result {
                prop_assert_eq!(e.as_error().map(|e| e.code), Some(-32602), "{:?}", e);
            }
        }
    }
    Ok(())
}

/// A map of responses (junk entries included), or junk wrapped in one; then, often, a
/// `guests` response.
fn task_responses() -> impl Strategy<Value = Value> {
    let responses = prop_oneof![object(4), value(4).prop_map(|junk| json!({ "junk": junk })),];
    let guests = proptest::option::weighted(0.6, prop_oneof![plausible(2), value(3)]);
    (responses, guests).prop_map(|(mut responses, guests)| {
        if let Some(guests) = guests {
            set(&mut responses, "guests", guests);
        }
        responses
    })
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn hostile_task_updates_never_panic(responses in task_responses()) {
        task_update_is_handled(responses)?;
    }

    /// Not an update at all: refused by the parser, nothing reaches the task.
    #[test]
    fn task_updates_without_an_object_of_responses_are_refused(
        responses in value(4).prop_filter("not an object", |v| !v.is_object())
    ) {
        let raw = json!({"taskId": "t", "inputResponses": responses});
        let error = serde_json::from_value::<TasksUpdateParams>(raw).unwrap_err();
        prop_assert_eq!(error.to_string(), "`inputResponses` must be a JSON object");
    }
}
