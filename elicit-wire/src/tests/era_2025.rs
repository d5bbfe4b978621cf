//! Round trips of the 2025-11-25 examples.

use super::*;

#[test]
fn initialize_capabilities_example() {
    let msg = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
      "protocolVersion":"2025-11-25",
      "capabilities":{"elicitation":{"form":{},"url":{}}},
      "clientInfo":{"name":"ExampleClient","version":"1.0.0"}}});
    let caps: ClientCapabilities = assert_value_round_trip(&msg["params"]["capabilities"]);
    assert!(caps.supports(ElicitMode::Form));
    assert!(caps.supports(ElicitMode::Url));
    assert_eq!(
        caps.elicitation
            .as_ref()
            .map(ElicitationCapability::supports_url),
        Some(true)
    );
    let text = r#"{"elicitation":{"form":{},"url":{}}}"#;
    assert_exact_round_trip::<ClientCapabilities>(text);
}

#[test]
fn form_request_2025() {
    let msg = json!({"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{
      "mode":"form",
      "message":"Please provide your contact information",
      "requestedSchema":{"type":"object",
        "properties":{
          "name":{"type":"string","description":"Your full name"},
          "email":{"type":"string","format":"email"},
          "age":{"type":"number","minimum":18}},
        "required":["name","email"]}}});
    let params: ElicitRequestParams = assert_value_round_trip(&msg["params"]);
    assert_eq!(params.meta, None);
    assert_eq!(params.task, None);
    let ElicitParams::Form(form) = &params.elicit else {
        panic!("expected form params");
    };
    assert_eq!(form.mode, Some(FormMode::Form));
    assert_eq!(form.message, "Please provide your contact information");
    assert_eq!(params.elicit.mode(), ElicitMode::Form);

    // The same params through the 2026 type, and rebuilt by the constructor.
    let plain: ElicitParams = assert_value_round_trip(&msg["params"]);
    let rebuilt = FormParams::new(form.message.clone(), form.requested_schema.clone());
    assert_eq!(plain, ElicitParams::Form(rebuilt.clone()));
    let text = to_string(&rebuilt);
    assert!(
        text.starts_with(
            r#"{"mode":"form","message":"Please provide your contact information","requestedSchema":{"#
        ),
        "{text}"
    );
}

#[test]
fn requested_schema_property_order_is_kept() {
    // Spec examples as compact text: property order must survive parse + serialize.
    let form_2025 = r#"{"mode":"form","message":"Please provide your contact information","requestedSchema":{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email"},"age":{"type":"number","minimum":18}},"required":["name","email"]}}"#;
    assert_exact_round_trip::<ElicitParams>(form_2025);
    assert_exact_round_trip::<ElicitRequestParams>(form_2025);
    assert_exact_round_trip::<FormParams>(form_2025);
    let form_2026 = r#"{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}"#;
    assert_exact_round_trip::<InputRequest>(form_2026);

    // Also when the member that picks the variant comes last, or is missing.
    let late = r#"{"params":{"requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}},"message":"m","mode":"form"},"method":"elicitation/create"}"#;
    let parsed: InputRequest = serde_json::from_str(late).expect("parses");
    assert_eq!(
        to_string(&parsed),
        r#"{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}}}"#
    );
    let no_mode = r#"{"_meta":{"progressToken":"p"},"requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}},"message":"m"}"#;
    let parsed: ElicitRequestParams = serde_json::from_str(no_mode).expect("parses");
    assert_eq!(
        to_string(&parsed),
        r#"{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}},"_meta":{"progressToken":"p"}}"#
    );
    let task = r#"{"status":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}}}}}"#;
    assert_exact_round_trip::<TaskInputRequired>(task);
    let ir = r#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}}}}}"#;
    assert_exact_round_trip::<InputRequiredResult>(ir);
}

#[test]
fn legacy_request_keeps_meta_and_task() {
    let params = json!({
        "message":"m",
        "requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}},
        "_meta":{"progressToken":3},
        "task":{"ttl":60000}
    });
    let parsed: ElicitRequestParams = assert_value_round_trip(&params);
    assert_eq!(parsed.meta, Some(obj(json!({"progressToken":3}))));
    assert_eq!(parsed.task, Some(json!({"ttl":60000})));
    let ElicitParams::Form(form) = &parsed.elicit else {
        panic!("missing mode must mean form");
    };
    assert_eq!(form.mode, None);
}

#[test]
fn url_request_2025() {
    let msg = json!({"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{
      "mode":"url",
      "elicitationId":"550e8400-e29b-41d4-a716-446655440000",
      "url":"https://mcp.example.com/ui/set_api_key",
      "message":"Please provide your API key to continue."}});
    let params: ElicitRequestParams = assert_value_round_trip(&msg["params"]);
    let expected = UrlParams::for_2025(
        "Please provide your API key to continue.",
        "https://mcp.example.com/ui/set_api_key",
        "550e8400-e29b-41d4-a716-446655440000",
    );
    assert_eq!(params.elicit, ElicitParams::Url(expected.clone()));
    let text = r#"{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000","url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}"#;
    assert_eq!(assert_exact_round_trip::<UrlParams>(text), expected);
    assert_exact_round_trip::<ElicitParams>(text);
    assert_exact_round_trip::<ElicitRequestParams>(text);
}

#[test]
fn elicit_results() {
    let cases = [
        (
            r#"{"action":"accept","content":{"age":30,"email":"octocat@github.com","name":"Monalisa Octocat"}}"#,
            ElicitAction::Accept,
        ),
        (r#"{"action":"accept"}"#, ElicitAction::Accept),
        (r#"{"action":"decline"}"#, ElicitAction::Decline),
        (r#"{"action":"cancel"}"#, ElicitAction::Cancel),
    ];
    for (text, action) in cases {
        let result: ElicitResult = assert_exact_round_trip(text);
        assert_eq!(result.action, action);
    }
    // The spec's first example, in its own key order.
    let msg = json!({"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"name":"Monalisa Octocat","email":"octocat@github.com","age":30}}});
    let result: ElicitResult = assert_value_round_trip(&msg["result"]);
    let content = result.content.expect("content");
    assert_eq!(content["age"], json!(30));

    assert_eq!(
        to_string(&ElicitResult::accept_empty()),
        r#"{"action":"accept"}"#
    );
    assert_eq!(
        to_string(&ElicitResult::decline()),
        r#"{"action":"decline"}"#
    );
    assert_eq!(to_string(&ElicitResult::cancel()), r#"{"action":"cancel"}"#);
    assert_eq!(
        to_string(&ElicitResult::accept(obj(json!({"name":"octocat"})))),
        r#"{"action":"accept","content":{"name":"octocat"}}"#
    );
    // `_meta` is accepted and written back.
    assert_exact_round_trip::<ElicitResult>(r#"{"action":"decline","_meta":{"k":1}}"#);
}

/// `ElicitResult::take` moves the usual shape apart by hand; whatever it is given, it must
/// agree with serde, and give back the value untouched when it fails.
#[test]
fn taking_an_elicit_result_agrees_with_serde() {
    let cases = [
        json!({"action": "accept", "content": {"name": "Ada", "n": 3}}),
        json!({"action": "accept", "content": {"name": "Ada"}, "_meta": {"k": 1}}),
        json!({"action": "decline"}),
        json!({"action": "cancel", "_meta": {}}),
        json!({"action": "accept"}),
        json!({"action": "accept", "content": null}),
        json!({"action": "accept", "content": {}, "extra": true}),
        json!({"action": "Accept"}),
        json!({"action": 1}),
        json!({"action": "accept", "content": [1]}),
        json!({"action": "accept", "_meta": "x"}),
        json!({"content": {}}),
        json!([]),
        json!("accept"),
        json!(null),
    ];
    for case in cases {
        let by_serde = ElicitResult::deserialize(&case);
        match (ElicitResult::take(case.clone()), by_serde) {
            (Ok(taken), Ok(expected)) => assert_eq!(taken, expected, "{case}"),
            (Err((back, error)), Err(expected)) => {
                assert_eq!(back, case);
                assert_eq!(error.to_string(), expected.to_string(), "{case}");
            }
            (taken, expected) => panic!("{case}: take {taken:?}, serde {expected:?}"),
        }
    }
}

#[test]
fn url_elicitation_required_error() {
    let msg = json!({"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"This request requires more information.",
      "data":{"elicitations":[{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000",
        "url":"https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        "message":"Authorization is required to access your Example Co files."}]}}});
    let error: JsonRpcError = assert_value_round_trip(&msg["error"]);
    assert_eq!(error.code, URL_ELICITATION_REQUIRED);
    let list = error.url_elicitations().expect("elicitations");
    assert_eq!(
        list,
        vec![UrlParams::for_2025(
            "Authorization is required to access your Example Co files.",
            "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-446655440000",
        )]
    );
    assert_eq!(
        to_string(&list[0]),
        r#"{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000","url":"https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000","message":"Authorization is required to access your Example Co files."}"#
    );

    let rebuilt = JsonRpcError::url_elicitation_required(list);
    assert_eq!(rebuilt.code, -32042);
    assert_eq!(rebuilt.data, error.data);
    assert!(!rebuilt.message.is_empty());

    // Wrong code or shape is reported, not panicked on.
    assert!(
        JsonRpcError::invalid_request_state()
            .url_elicitations()
            .is_err()
    );
    let bad = JsonRpcError::new(
        URL_ELICITATION_REQUIRED,
        "x",
        Some(json!({"elicitations":[{"mode":"form"}]})),
    );
    assert_eq!(
        bad.url_elicitations().unwrap_err().field(),
        "data.elicitations[0]"
    );
    let no_data = JsonRpcError::new(URL_ELICITATION_REQUIRED, "x", None);
    assert!(no_data.url_elicitations().is_err());
}

#[test]
fn complete_notification() {
    let msg = json!({"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"550e8400-e29b-41d4-a716-446655440000"}});
    let text = r#"{"elicitationId":"550e8400-e29b-41d4-a716-446655440000"}"#;
    let params: ElicitationCompleteNotification = assert_exact_round_trip(text);
    assert_eq!(params.to_message(), msg);
    assert_eq!(
        ElicitationCompleteNotification::METHOD,
        "notifications/elicitation/complete"
    );
    assert_eq!(
        ElicitationCompleteNotification::new("550e8400-e29b-41d4-a716-446655440000"),
        params
    );
}
