//! `requestState` as the context sees it: every refusal is one and the same client error
//! (`-32602 "Invalid or expired requestState"`), while the server's log reason
//! (`ContextError::reason`) says precisely what went wrong. Also key rotation and single use.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_runtime::state::{Binding, KeyRing, MemoryReplayGuard, StateError, StateSealer};
use elicit_runtime::testing::block_on;
use elicit_runtime::wire::{InputRequiredResult, JsonRpcError};
use elicit_runtime::{Answer, ContextError, ElicitContext, ElicitForm, Elicitation, Outcome};
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

fn server() -> Elicitation {
    Elicitation::new(sealer())
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
    server: &Elicitation,
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
        Ok(Outcome::InputRequired(ask)) => ask.request_state().expect("state").to_owned(),
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn first_tool_round(server: &Elicitation) -> String {
    first_round(server, "tools/call", &params(TOOL, arguments()), None)
}

/// Builds a retry; on success also runs the handler to the end.
fn retry(
    server: &Elicitation,
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
        Ok(Outcome::Complete(answer)) => Ok(answer),
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
fn argument_key_order_and_number_spelling_do_not_matter() {
    let server = server();
    let token = first_tool_round(&server);
    let reordered: Value = serde_json::from_str(
        r#"{"options": {"late": false, "terrace": true}, "guests": 2.0, "restaurant": "Chez Rust"}"#,
    )
    .unwrap();
    let done = retry(
        &server,
        "tools/call",
        &with_state(params(TOOL, reordered), &token, accept(4)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 4 }));
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
        assert!(done.is_ok(), "{arguments}: {done:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Every refusal: the same client error, a precise log reason
// ---------------------------------------------------------------------------------------------

#[test]
fn a_tampered_state_is_refused() {
    let server = server();
    let token = first_tool_round(&server);
    let bad = tamper(&token);
    assert_ne!(bad, token);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), &bad, accept(3)),
            None,
        ),
        &StateError::Decrypt,
    );
}

#[test]
fn a_truncated_state_is_refused() {
    let server = server();
    let token = first_tool_round(&server);
    // Four characters less is still valid base64: authentication fails.
    let shorter = &token[..token.len() - 4];
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), shorter, accept(3)),
            None,
        ),
        &StateError::Decrypt,
    );
    // Cut to a few bytes: too short to hold a key id, nonce and tag.
    let stub = &token[..12];
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), stub, accept(3)),
            None,
        ),
        &StateError::Malformed("token too short"),
    );
    // Cut inside a base64 quantum.
    let odd = &token[..token.len() - 3];
    let error = retry(
        &server,
        "tools/call",
        &with_state(params(TOOL, arguments()), odd, accept(3)),
        None,
    )
    .unwrap_err();
    assert_eq!(serde_json::to_value(&error.error).unwrap(), uniform_error());
}

#[test]
fn garbage_and_empty_states_are_refused_uniformly() {
    let server = server();
    for garbage in [
        "",
        "es1.",
        "es1.!!!!",
        "v1.AEAD-sealed-opaque-blob",
        "es2.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        let outcome = retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, arguments()), garbage, accept(3)),
            None,
        );
        let error = outcome.expect_err(garbage);
        assert_eq!(
            serde_json::to_value(&error.error).unwrap(),
            uniform_error(),
            "{garbage:?}"
        );
    }
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

#[test]
fn a_state_sealed_with_another_key_is_refused() {
    let token = first_tool_round(&server());
    // Another key id: unknown key.
    let other = Elicitation::new(StateSealer::new(KeyRing::new(9, K2), AUDIENCE));
    refused(
        retry(
            &other,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::UnknownKey { kid: 1 },
    );
    // The same key id with other key material: authentication fails.
    let impostor = Elicitation::new(StateSealer::new(KeyRing::new(1, K2), AUDIENCE));
    refused(
        retry(
            &impostor,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::Decrypt,
    );
    // A random generated key.
    let generated = Elicitation::new(StateSealer::new(KeyRing::generate(), AUDIENCE));
    let error = retry(
        &generated,
        "tools/call",
        &with_state(params(TOOL, arguments()), &token, accept(3)),
        None,
    )
    .unwrap_err();
    assert_eq!(serde_json::to_value(&error.error).unwrap(), uniform_error());
}

#[test]
fn a_state_sealed_for_another_audience_is_refused() {
    let token = first_tool_round(&server());
    let other = Elicitation::new(StateSealer::new(KeyRing::new(1, K1), "other-server"));
    refused(
        retry(
            &other,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::AudienceMismatch,
    );
}

/// The payload the context seals after a first round that asked `Guests`.
fn asked_guests() -> Value {
    let prepared = Guests::question().prepare().unwrap();
    json!({"asked": {"guests": prepared.digest()}, "answers": {}})
}

/// A token for the first round of this test's tool, sealed `age` ago by `sealer`.
fn minted(sealer: &StateSealer, age: Duration) -> String {
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    sealer
        .seal(&binding, &asked_guests(), SystemTime::now() - age)
        .unwrap()
}

#[test]
fn a_minted_state_of_the_right_shape_opens() {
    // Control for the expiry tests: the minted payload and binding are what the context expects.
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
fn an_expired_state_is_refused() {
    let short = sealer().with_ttl(Duration::from_secs(1));
    let token = minted(&short, Duration::from_secs(3600));
    refused(
        retry(
            &Elicitation::new(short),
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::Expired,
    );
    // An hour-old token also fails under the default ten minutes.
    let token = minted(&sealer(), Duration::from_secs(3600));
    refused(
        retry(
            &server(),
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::Expired,
    );
}

#[test]
fn lowering_the_ttl_expires_outstanding_states_at_once() {
    let token = minted(&sealer(), Duration::from_secs(10));
    let short = Elicitation::new(sealer().with_ttl(Duration::from_secs(1)));
    refused(
        retry(
            &short,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::Expired,
    );
}

#[test]
fn a_state_from_the_future_is_refused() {
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let token = sealer()
        .seal(
            &binding,
            &asked_guests(),
            SystemTime::now() + Duration::from_secs(3600),
        )
        .unwrap();
    refused(
        retry(
            &server(),
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::NotYetValid,
    );
}

#[test]
fn a_real_round_expires_after_its_ttl() {
    let server = Elicitation::new(sealer().with_ttl(Duration::from_secs(1)));
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
fn a_state_used_by_another_principal_is_refused() {
    let server = server();
    let first = params(TOOL, arguments());
    let token = first_round(&server, "tools/call", &first, Some("alice"));
    let retried = with_state(first.clone(), &token, accept(3));
    refused(
        retry(&server, "tools/call", &retried, Some("bob")),
        &StateError::PrincipalMismatch,
    );
    refused(
        retry(&server, "tools/call", &retried, None),
        &StateError::PrincipalMismatch,
    );
    assert!(retry(&server, "tools/call", &retried, Some("alice")).is_ok());

    // Sealed anonymously, used by someone.
    let anonymous = first_round(&server, "tools/call", &first, None);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(first.clone(), &anonymous, accept(3)),
            Some("alice"),
        ),
        &StateError::PrincipalMismatch,
    );
}

#[test]
fn a_state_used_for_another_tool_is_refused() {
    let server = server();
    let token = first_tool_round(&server);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params("delete_everything", arguments()), &token, accept(3)),
            None,
        ),
        &StateError::TargetMismatch,
    );
}

#[test]
fn a_state_used_with_changed_arguments_is_refused() {
    let server = server();
    let token = first_tool_round(&server);
    let mut changed = arguments();
    changed["guests"] = json!(3);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, changed), &token, accept(3)),
            None,
        ),
        &StateError::ArgumentsChanged,
    );
    let mut nested = arguments();
    nested["options"]["late"] = json!(true);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, nested), &token, accept(3)),
            None,
        ),
        &StateError::ArgumentsChanged,
    );
    let mut extra = arguments();
    extra["extra"] = json!(null);
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, extra), &token, accept(3)),
            None,
        ),
        &StateError::ArgumentsChanged,
    );
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params(TOOL, json!({})), &token, accept(3)),
            None,
        ),
        &StateError::ArgumentsChanged,
    );
}

#[test]
fn a_state_used_for_another_method_is_refused() {
    let server = server();
    let token = first_tool_round(&server);
    refused(
        retry(
            &server,
            "prompts/get",
            &with_state(params(TOOL, arguments()), &token, accept(3)),
            None,
        ),
        &StateError::MethodMismatch,
    );
    // And the other way round.
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
    assert!(
        retry(
            &server,
            "prompts/get",
            &with_state(params(TOOL, arguments()), &prompt_token, accept(3)),
            None
        )
        .is_ok()
    );
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
    assert!(
        retry(
            &server,
            "resources/read",
            &with_state(resource("file:///menu"), &token, accept(2)),
            None
        )
        .is_ok()
    );
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
        json!({"asked": [], "answers": {}}),
        json!({"asked": {"guests": 5}, "answers": {}}),
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
            &*error.reason, "requestState payload is not ours",
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
    let other_key = Elicitation::new(StateSealer::new(KeyRing::new(7, K2), AUDIENCE));
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
            &Elicitation::new(short),
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
    assert!(
        retry(
            &server,
            "tools/call",
            &again(TOOL, arguments(), &token),
            Some("alice")
        )
        .is_ok()
    );
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
// Key rotation
// ---------------------------------------------------------------------------------------------

#[test]
fn a_rotated_key_still_opens_its_states() {
    let old = server();
    let token = first_tool_round(&old);

    let rotated = Elicitation::new(StateSealer::new(
        KeyRing::new(2, K2).with_old_key(1, K1),
        AUDIENCE,
    ));
    let done = retry(
        &rotated,
        "tools/call",
        &with_state(params(TOOL, arguments()), &token, accept(6)),
        None,
    );
    assert_eq!(done.unwrap(), Answer::Accepted(Guests { count: 6 }));

    // New states are sealed with the new key: the old server cannot open them.
    let fresh = first_tool_round(&rotated);
    refused(
        retry(
            &old,
            "tools/call",
            &with_state(params(TOOL, arguments()), &fresh, accept(6)),
            None,
        ),
        &StateError::UnknownKey { kid: 2 },
    );

    // Once the old key is dropped, its states are refused.
    let dropped = Elicitation::new(StateSealer::new(KeyRing::new(2, K2), AUDIENCE));
    refused(
        retry(
            &dropped,
            "tools/call",
            &with_state(params(TOOL, arguments()), &token, accept(6)),
            None,
        ),
        &StateError::UnknownKey { kid: 1 },
    );
}

// ---------------------------------------------------------------------------------------------
// Single use
// ---------------------------------------------------------------------------------------------

#[test]
fn with_a_replay_guard_a_state_works_once() {
    let server = Elicitation::new(sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new())));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    refused(
        retry(&server, "tools/call", &retried, None),
        &StateError::Replayed,
    );
    // A clone of the server shares the guard.
    refused(
        retry(&server.clone(), "tools/call", &retried, None),
        &StateError::Replayed,
    );
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

    let server = Elicitation::new(sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new())));
    let first = params(TOOL, arguments());
    let run = |params: &Value| -> Result<Outcome<Both>, JsonRpcError> {
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
    let state = |o: Result<Outcome<_>, JsonRpcError>| -> InputRequiredResult {
        match o {
            Ok(Outcome::InputRequired(ask)) => ask,
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
        Ok(Outcome::Complete((day, guests))) => {
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
fn a_refused_attempt_does_not_burn_the_state() {
    let server = Elicitation::new(sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new())));
    let first = params(TOOL, arguments());
    let token = first_round(&server, "tools/call", &first, Some("alice"));
    let retried = with_state(first.clone(), &token, accept(3));
    refused(
        retry(&server, "tools/call", &retried, Some("mallory")),
        &StateError::PrincipalMismatch,
    );
    refused(
        retry(
            &server,
            "tools/call",
            &with_state(params("other", arguments()), &token, accept(3)),
            Some("alice"),
        ),
        &StateError::TargetMismatch,
    );
    assert!(retry(&server, "tools/call", &retried, Some("alice")).is_ok());
    refused(
        retry(&server, "tools/call", &retried, Some("alice")),
        &StateError::Replayed,
    );
}

#[test]
fn without_a_replay_guard_a_state_may_be_used_again() {
    let server = server();
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    assert!(retry(&server, "tools/call", &retried, None).is_ok());
    assert!(retry(&server, "tools/call", &retried, None).is_ok());
}

#[test]
fn a_one_second_ttl_gives_about_one_second() {
    let sealer = sealer().with_ttl(Duration::from_secs(1));
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_999);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    let opened = sealer.open::<Value>(&token, &binding, sealed_at + Duration::from_millis(10));
    assert!(opened.is_ok(), "{opened:?}");
}

#[test]
fn the_default_ttl_is_ten_minutes_give_or_take_a_second() {
    let sealer = sealer();
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_500);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    // Never less than the TTL: the expiry is rounded up to the next whole second.
    assert!(
        sealer
            .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(600))
            .is_ok()
    );
    assert_eq!(
        sealer
            .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(601))
            .unwrap_err(),
        StateError::Expired
    );
}
