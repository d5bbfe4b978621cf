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

use elicit_runtime::__private::RoundStateProbe;
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
    match cx.finish(result) {
        Ok(Reply::InputRequired(ask)) => ask.request_state().expect("state").to_owned(),
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn first_tool_round(server: &ElicitServer) -> String {
    first_round(server, "tools/call", &params(TOOL, arguments()), None)
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
    match cx.finish(result) {
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
    let token = first_round(&server, "tools/call", &no_args, None);
    for arguments in [json!({}), Value::Null] {
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

// ---------------------------------------------------------------------------------------------
// Every refusal: the same client error, a precise log reason
// ---------------------------------------------------------------------------------------------

#[test]
fn garbage_and_empty_states_are_refused_uniformly() {
    // Which texts the sealer refuses is its unit tests' business; here: an empty
    // `requestState` is a state (not "no state"), and the size limit holds before decoding.
    let server = server();
    let error = retry(
        &server,
        "tools/call",
        &with_state(params(TOOL, arguments()), "", accept(3)),
        None,
    )
    .unwrap_err();
    assert_eq!(serde_json::to_value(&error.error).unwrap(), uniform_error());
    let huge = format!("es1.{}", "A".repeat(300 * 1024));
    let error = retry(
        &server,
        "tools/call",
        &with_state(params(TOOL, arguments()), &huge, accept(3)),
        None,
    )
    .unwrap_err();
    assert_eq!(serde_json::to_value(&error.error).unwrap(), uniform_error());
    assert!(error.reason.contains("too large"), "{}", error.reason);
}

/// A JSON payload for the sealer's own checks (the context's round state is binary).
fn asked_guests() -> Value {
    let prepared = Guests::question().prepare().unwrap();
    json!({"q": {"guests": prepared.digest()}, "a": {}})
}

/// A token for the first round of this test's tool, sealed `age` ago by `sealer`, carrying
/// what the context seals after a first round that asked `Guests` (in the runtime's own
/// layout, through `__private`).
fn minted(sealer: &StateSealer, age: Duration) -> String {
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let prepared = Guests::question().prepare().unwrap();
    RoundStateProbe::new(&[("guests", prepared.digest())], &[])
        .seal(sealer, &binding, SystemTime::now() - age)
        .unwrap()
}

#[test]
fn a_minted_state_of_the_right_shape_opens() {
    // Control for the expired token in `all_refusals_…`: the minted payload and binding are
    // what the context expects.
    let token = minted(&sealer(), Duration::ZERO);
    let done = retry(
        &server(),
        "tools/call",
        &with_state(params(TOOL, arguments()), &token, accept(5)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 5 }));
}

#[test]
fn a_real_round_expires_after_its_ttl() {
    let server = ElicitServer::new(sealer().with_ttl(Duration::from_secs(1)));
    let token = first_tool_round(&server);
    std::thread::sleep(Duration::from_millis(2100));
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::Expired,
    );
}

#[test]
fn a_state_used_for_another_method_is_refused() {
    // A tool's state used for a prompt is in `all_refusals_…`; here the other way round.
    let server = server();
    let prompt_token = first_round(&server, "prompts/get", &params(TOOL, arguments()), None);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), &prompt_token, accept(3)),
            None,
        ),
        &StateError::MethodMismatch,
    );
    let done = retry(
        &server,
        "prompts/get",
        &with_state(params(TOOL, arguments()), &prompt_token, accept(3)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 3 }));
}

#[test]
fn a_resource_state_is_bound_to_its_uri() {
    let server = server();
    let resource = |uri: &str| {
        json!({
            "uri": uri,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
            }
        })
    };
    let token = first_round(&server, "resources/read", &resource("file:///menu"), None);
    let done = retry(
        &server,
        "resources/read",
        &with_state(resource("file:///menu"), &token, accept(2)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 2 }));
    refused(
        retry(
            &server,
            "resources/read",
            &with_state(resource("file:///secrets"), &token, accept(2)),
            None,
        ),
        &StateError::TargetMismatch,
    );
}

#[test]
fn a_sealed_payload_that_is_not_the_contexts_is_refused() {
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    for payload in [
        json!({"x": 1}),
        json!(null),
        json!({"q": [], "a": {}}),
        json!({"q": {"guests": 5}, "a": {}}),
        json!({"q": {}, "a": {}, "extra": 1}),
    ] {
        let token = sealer().seal_now(&binding, &payload).unwrap();
        let error = retry(
            &server(),
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        )
        .unwrap_err();
        assert_eq!(
            serde_json::to_value(&error.error).unwrap(),
            uniform_error(),
            "{payload}"
        );
        assert_eq!(
            &*error.reason,
            "requestState refused: malformed requestState: payload is not a round state",
            "{payload}"
        );
    }
}

#[test]
fn all_refusals_look_the_same_to_the_client_but_not_in_the_log() {
    let server = server();
    let token = first_round(
        &server,
        "tools/call",
        &params(TOOL, arguments()),
        Some("alice"),
    );
    let again =
        |name: &str, args: Value, token: &str| with_state(params(name, args), token, accept(3));
    let other_key = ElicitServer::new(StateSealer::new(KeyRing::new(7, K2), AUDIENCE));
    let short = sealer().with_ttl(Duration::from_secs(1));
    let expired = {
        let args = arguments();
        short
            .seal(
                &Binding::tool_call(TOOL, &args).with_principal("alice"),
                &asked_guests(),
                SystemTime::now() - Duration::from_secs(3600),
            )
            .unwrap()
    };
    let mut changed = arguments();
    changed["guests"] = json!(3);
    let outcomes = [
        retry(
            &server,
            "tools/call",
            &again(TOOL, arguments(), &tamper(&token)),
            Some("alice"),
        ),
        retry(
            &server,
            "tools/call",
            &again(TOOL, arguments(), &token[..12]),
            Some("alice"),
        ),
        retry(
            &other_key,
            "tools/call",
            &again(TOOL, arguments(), &token),
            Some("alice"),
        ),
        retry(
            &ElicitServer::new(short),
            "tools/call",
            &again(TOOL, arguments(), &expired),
            Some("alice"),
        ),
        retry(
            &server,
            "tools/call",
            &again(TOOL, arguments(), &token),
            Some("bob"),
        ),
        retry(
            &server,
            "tools/call",
            &again("other_tool", arguments(), &token),
            Some("alice"),
        ),
        retry(
            &server,
            "tools/call",
            &again(TOOL, changed, &token),
            Some("alice"),
        ),
        retry(
            &server,
            "prompts/get",
            &again(TOOL, arguments(), &token),
            Some("alice"),
        ),
    ];
    let mut reasons = BTreeSet::new();
    for outcome in outcomes {
        let error = outcome.expect_err("refused");
        assert_eq!(serde_json::to_value(&error.error).unwrap(), uniform_error());
        assert_eq!(
            error.to_string(),
            format!("{} (Invalid or expired requestState)", error.reason)
        );
        reasons.insert(error.reason);
    }
    assert_eq!(reasons.len(), 8, "{reasons:#?}");
    // The state itself is still good for alice.
    let done = retry(
        &server,
        "tools/call",
        &again(TOOL, arguments(), &token),
        Some("alice"),
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 3 }));
}

#[test]
fn a_request_state_that_is_not_a_string_is_invalid_params() {
    let mut bad = params(TOOL, arguments());
    bad["requestState"] = json!(12345);
    let error = server().context("tools/call", &bad).build().unwrap_err();
    assert_eq!(error.error.code, -32602);
    assert_eq!(error.error.data, Some(json!({"field": "requestState"})));
}

// ---------------------------------------------------------------------------------------------
// Single use
// ---------------------------------------------------------------------------------------------

/// A retry whose state the replay guard refuses: the context still builds (the state is
/// redeemed when first used), the first question fails with the uniform refusal, and so does
/// the request. Returns the request's error.
#[track_caller]
fn refused_by_the_guard(server: &ElicitServer, params: &Value) -> JsonRpcError {
    let mut cx = server
        .context("tools/call", params)
        .build()
        .expect("a replayed state still opens: it is redeemed when first used");
    let result = block_on(Guests::ask(&mut cx));
    let asked = result.as_ref().map(|_| ()).unwrap_err().as_error().cloned();
    assert_eq!(asked, Some(JsonRpcError::invalid_request_state()));
    let error = cx.finish(result).unwrap_err();
    assert_eq!(serde_json::to_value(&error).unwrap(), uniform_error());
    error
}

#[test]
fn with_a_replay_guard_a_state_works_once() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    assert_eq!(guard.len(), 1);
    refused_by_the_guard(&server, &retried);
    // A clone of the server shares the guard.
    refused_by_the_guard(&server.clone(), &retried);
    assert_eq!(guard.len(), 1);
}

#[test]
fn with_a_replay_guard_a_handler_that_never_asks_never_redeems() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    for _ in 0..2 {
        let cx = server.context("tools/call", &retried).build().unwrap();
        assert_eq!(
            cx.finish(Ok("no questions")),
            Ok(Reply::Result("no questions"))
        );
    }
    assert!(guard.is_empty(), "nothing was redeemed");
    // The first use of an answer redeems it.
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    assert_eq!(guard.len(), 1);
}

#[test]
fn with_a_replay_guard_a_round_that_asks_nothing_redeems_before_it_seals() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, json!({}));
    // Driving `finish` without redeeming: refused rather than carried into a new state.
    let cx = server.context("tools/call", &retried).build().unwrap();
    let result: Result<(), _> = Err(cx.retry_later());
    let error = cx.finish(result).unwrap_err();
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("redeem_state"), "{error:?}");
    assert!(guard.is_empty());

    let later = |params: &Value| {
        let mut cx = server.context("tools/call", params).build().unwrap();
        let result: Result<(), _> = Err(cx.retry_later());
        block_on(cx.redeem_state())?;
        cx.finish(result)
    };
    let Ok(Reply::InputRequired(next)) = later(&retried) else {
        panic!("a state-only round")
    };
    assert_eq!(guard.len(), 1);
    assert_eq!(
        serde_json::to_value(later(&retried).unwrap_err()).unwrap(),
        uniform_error()
    );
    // The new state carries the request on, once (that round asked nothing, so the question
    // is asked now).
    let next = with_state(
        params(TOOL, arguments()),
        next.request_state().unwrap(),
        json!({}),
    );
    let mut cx = server.context("tools/call", &next).build().unwrap();
    let result = block_on(Guests::ask(&mut cx));
    assert!(matches!(cx.finish(result), Ok(Reply::InputRequired(_))));
    assert_eq!(guard.len(), 2);
    refused_by_the_guard(&server, &next);
}

#[test]
fn with_a_replay_guard_each_round_gets_a_fresh_single_use_state() {
    /// Which day?
    #[derive(Debug, Clone, PartialEq, ElicitForm)]
    struct Day {
        #[elicit(format = "date")]
        date: String,
    }

    type Both = (Answer<Day>, Answer<Guests>);

    let server = ElicitServer::new(sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new())));
    let first = params(TOOL, arguments());
    let run = |params: &Value| -> Result<Reply<Both>, JsonRpcError> {
        let mut cx = server
            .context("tools/call", params)
            .build()
            .map_err(|e| e.error)?;
        let result = block_on(async {
            let day = Day::ask(&mut cx).await?;
            let guests = Guests::ask(&mut cx).await?;
            Ok((day, guests))
        });
        cx.finish(result)
    };
    let state = |o: Result<Reply<_>, JsonRpcError>| -> InputRequiredResult {
        match o {
            Ok(Reply::InputRequired(ask)) => ask,
            other => panic!("{other:?}"),
        }
    };
    let r1 = state(run(&first));
    let round2 = with_state(
        first.clone(),
        r1.request_state().unwrap(),
        json!({"day": {"action": "accept", "content": {"date": "2026-01-01"}}}),
    );
    let r2 = state(run(&round2));
    // Replaying round 2 is refused.
    assert_eq!(
        serde_json::to_value(run(&round2).unwrap_err()).unwrap(),
        uniform_error()
    );
    let round3 = with_state(first.clone(), r2.request_state().unwrap(), accept(2));
    match run(&round3) {
        Ok(Reply::Result((day, guests))) => {
            assert_eq!(
                day,
                Answer::Accepted(Day {
                    date: "2026-01-01".into()
                })
            );
            assert_eq!(guests, Answer::Accepted(Guests { count: 2 }));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        serde_json::to_value(run(&round3).unwrap_err()).unwrap(),
        uniform_error()
    );
}

#[test]
fn a_one_second_ttl_gives_about_one_second() {
    let sealer = sealer().with_ttl(Duration::from_secs(1));
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_999);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    let opened = sealer
        .open::<Value>(&token, &binding, sealed_at + Duration::from_millis(10))
        .unwrap();
    assert_eq!(opened.payload, asked_guests());
    // Issued at the whole second before, expiring at the whole second after the TTL.
    assert_eq!(
        opened.issued_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_000)
    );
    assert_eq!(
        opened.expires_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_002)
    );
}

#[test]
fn the_default_ttl_is_ten_minutes_give_or_take_a_second() {
    let sealer = sealer();
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_500);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    // Never less than the TTL: the expiry is rounded up to the next whole second.
    let opened = sealer
        .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(600))
        .unwrap();
    assert_eq!(opened.payload, asked_guests());
    assert_eq!(
        opened.expires_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_601)
    );
    assert_eq!(
        sealer
            .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(601))
            .unwrap_err(),
        StateError::Expired
    );
}
