//! Every refusal: the same client error, a precise log reason.

use super::*;

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
    let token = alices_first_tool_round(&server);
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

/// Issue 21 item 5: what the sealed state binds, as the `Elicit` docs now say — the tool name,
/// the arguments and the principal, and not `_meta`, which is new in every request (progress
/// token, trace context) and read afresh each round.
#[test]
fn the_state_binds_tool_arguments_and_principal_but_not_meta() {
    let server = server();
    let token = alices_first_tool_round(&server);
    let mut other_meta = with_state(params(TOOL, arguments()), &token, accept(3));
    other_meta["_meta"]["progressToken"] = json!("p-2");
    other_meta["_meta"]["traceparent"] =
        json!("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    assert_eq!(
        retry(&server, "tools/call", &other_meta, Some("alice")).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    let mut other_args = arguments();
    other_args["guests"] = json!(20);
    let changed = with_state(params(TOOL, other_args), &token, accept(3));
    refused(
        retry(&server, "tools/call", &changed, Some("alice")),
        &StateError::ArgumentsChanged,
    );
    let same = with_state(params(TOOL, arguments()), &token, accept(3));
    refused(
        retry(&server, "tools/call", &same, Some("bob")),
        &StateError::PrincipalMismatch,
    );
}
