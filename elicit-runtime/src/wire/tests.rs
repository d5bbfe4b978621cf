//! Round trips against the spec's examples, refusals, and junk-input robustness.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::*;

/// Parses `text`, failing the test on error.
fn parse<T: DeserializeOwned>(value: &Value) -> T {
    match serde_json::from_value(value.clone()) {
        Ok(t) => t,
        Err(e) => panic!("failed to parse {value}: {e}"),
    }
}

fn to_value<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("serializes")
}

fn to_string<T: Serialize>(t: &T) -> String {
    serde_json::to_string(t).expect("serializes")
}

/// Parse then serialize must give back the same JSON value.
fn assert_value_round_trip<T: DeserializeOwned + Serialize>(value: &Value) -> T {
    let parsed: T = parse(value);
    assert_eq!(&to_value(&parsed), value, "value round trip");
    parsed
}

/// Parse then serialize must give back exactly `text` (which is compact JSON whose key order
/// follows the struct order).
fn assert_exact_round_trip<T: DeserializeOwned + Serialize>(text: &str) -> T {
    let parsed: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("parse {text}: {e}"));
    assert_eq!(to_string(&parsed), text, "exact round trip");
    parsed
}

fn obj(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("expected an object, got {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// 2025-11-25 examples
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// 2026-07-28 examples
// ---------------------------------------------------------------------------------------------

#[test]
fn missing_capability_error() {
    let msg = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Server requires the elicitation capability for this request",
      "data":{"requiredCapabilities":{"elicitation":{}}}}});
    let text = r#"{"code":-32021,"message":"Server requires the elicitation capability for this request","data":{"requiredCapabilities":{"elicitation":{}}}}"#;
    let parsed: JsonRpcError = assert_exact_round_trip(text);
    assert_eq!(to_value(&parsed), msg["error"]);
    assert_eq!(
        JsonRpcError::missing_capability(json!({"elicitation":{}})),
        parsed
    );

    let url = JsonRpcError::missing_elicitation_capability(ElicitMode::Url);
    assert_eq!(url.code, MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        url.data,
        Some(json!({"requiredCapabilities":{"elicitation":{"url":{}}}}))
    );
    assert_eq!(
        url.message,
        "Server requires the elicitation capability (url mode) for this request"
    );
    let form = JsonRpcError::missing_elicitation_capability(ElicitMode::Form);
    assert_eq!(
        form.data,
        Some(json!({"requiredCapabilities":{"elicitation":{"form":{}}}}))
    );
    // Named in name order, whatever order the object was written in.
    let two = JsonRpcError::missing_capability(json!({"sampling":{},"roots":{}}));
    assert_eq!(
        two.message,
        "Server requires the roots capability and sampling capability for this request"
    );
    // Degenerate inputs still give a sensible error.
    for junk in [json!(null), json!({}), json!(3)] {
        let e = JsonRpcError::missing_capability(junk);
        assert_eq!(e.code, -32021);
        assert!(!e.message.is_empty());
    }
}

#[test]
fn embedded_requests_2026() {
    let form = json!({"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username",
      "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}});
    let parsed: InputRequest = assert_value_round_trip(&form);
    assert_eq!(parsed.method(), METHOD_ELICITATION_CREATE);
    assert_eq!(
        parsed.as_elicit().map(ElicitParams::mode),
        Some(ElicitMode::Form)
    );

    let text = r#"{"method":"elicitation/create","params":{"mode":"url","url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}}"#;
    let parsed: InputRequest = assert_exact_round_trip(text);
    assert_eq!(
        parsed,
        InputRequest::from(UrlParams::for_2026(
            "Please provide your API key to continue.",
            "https://mcp.example.com/ui/set_api_key"
        ))
    );

    // Other methods.
    assert_exact_round_trip::<InputRequest>(r#"{"method":"roots/list"}"#);
    let roots: InputRequest =
        assert_exact_round_trip(r#"{"method":"roots/list","params":{"a":1}}"#);
    assert_eq!(roots, InputRequest::ListRoots(Some(json!({"a":1}))));
    let sampling: InputRequest = assert_exact_round_trip(
        r#"{"method":"sampling/createMessage","params":{"maxTokens":10,"messages":[]}}"#,
    );
    assert!(matches!(sampling, InputRequest::Sampling(_)));
    // Raw params keep every number exactly.
    assert_exact_round_trip::<InputRequest>(
        r#"{"method":"sampling/createMessage","params":{"a":18446744073709551615,"b":-9223372036854775808,"c":1.5e+308,"d":[true,null,"s"]}}"#,
    );
    let other: InputRequest = assert_exact_round_trip(r#"{"method":"x/y","params":[1]}"#);
    assert_eq!(other.method(), "x/y");
    assert_exact_round_trip::<InputRequest>(r#"{"method":"x/y"}"#);
}

fn input_required_example() -> Value {
    json!({"jsonrpc":"2.0","id":1,"result":{
      "resultType":"input_required",
      "inputRequests":{
        "github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username",
          "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
        "connect_example":{"method":"elicitation/create","params":{"mode":"url","message":"Connect your Example Co account","url":"https://mcp.example.com/connect?req=k3J9"}}},
      "requestState":"v1.AEAD-sealed-opaque-blob",
      "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"example-server","version":"1.0.0"}}}})
}

#[test]
fn input_required_result_example() {
    let msg = input_required_example();
    let result: InputRequiredResult = assert_value_round_trip(&msg["result"]);
    let requests = result.input_requests().expect("requests");
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests["connect_example"],
        InputRequest::from(UrlParams::for_2026(
            "Connect your Example Co account",
            "https://mcp.example.com/connect?req=k3J9"
        ))
    );
    assert_eq!(
        requests["github_login"]
            .as_elicit()
            .map(ElicitParams::message),
        Some("Please provide your GitHub username")
    );
    assert_eq!(result.request_state(), Some("v1.AEAD-sealed-opaque-blob"));
    assert!(
        result
            .meta()
            .is_some_and(|m| m.contains_key(META_SERVER_INFO))
    );

    // Rebuilt through the constructor, with keys in map order.
    let rebuilt = InputRequiredResult::new(
        Some(requests.clone()),
        Some("v1.AEAD-sealed-opaque-blob".to_owned()),
    )
    .expect("valid")
    .with_meta(result.meta().cloned().expect("meta"));
    assert_eq!(rebuilt, result);
    let text = to_string(&rebuilt);
    assert!(
        text.starts_with(
            r#"{"resultType":"input_required","inputRequests":{"connect_example":{"method":"elicitation/create","params":{"mode":"url","url":"https://mcp.example.com/connect?req=k3J9","message":"Connect your Example Co account"}},"github_login":"#
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            r#""requestState":"v1.AEAD-sealed-opaque-blob","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"example-server","version":"1.0.0"}}}"#
        ),
        "{text}"
    );
    let (requests, state, meta) = rebuilt.into_parts();
    assert!(requests.is_some() && state.is_some() && meta.is_some());
}

#[test]
fn input_required_state_only() {
    let text = r#"{"resultType":"input_required","requestState":"eyJ…"}"#;
    let parsed: InputRequiredResult = assert_exact_round_trip(text);
    assert_eq!(parsed, InputRequiredResult::state_only("eyJ…"));
    assert_eq!(parsed.input_requests(), None);
    assert_eq!(
        InputRequiredResult::new(None, Some("eyJ…".to_owned())).expect("valid"),
        parsed
    );
    let requests_only =
        r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}"#;
    assert_exact_round_trip::<InputRequiredResult>(requests_only);
}

#[test]
fn input_required_refusals() {
    for bad in [
        json!({"resultType":"input_required"}),
        json!({"resultType":"input_required","inputRequests":null,"requestState":null}),
        json!({"resultType":"complete","requestState":"s"}),
        json!({"resultType":"INPUT_REQUIRED","requestState":"s"}),
        json!({"requestState":"s"}),
        json!({"resultType":1,"requestState":"s"}),
        json!({"resultType":"input_required","requestState":5}),
        json!({"resultType":"input_required","inputRequests":[]}),
        json!({"resultType":"input_required","inputRequests":{"a":{"params":{}}}}),
        json!({"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"}}}),
        json!({"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"mode":"url","message":"m"}}}}),
        json!("input_required"),
    ] {
        assert!(
            serde_json::from_value::<InputRequiredResult>(bad.clone()).is_err(),
            "accepted {bad}"
        );
    }
    assert!(InputRequiredResult::new(None, None).is_err());
    assert!(InputRequiredResult::new(Some(BTreeMap::new()), None).is_err());
    assert!(InputRequiredResult::new(Some(BTreeMap::new()), Some(String::new())).is_ok());
    // The schema allows an empty map, so parsing does.
    assert!(
        serde_json::from_value::<InputRequiredResult>(
            json!({"resultType":"input_required","inputRequests":{}})
        )
        .is_ok()
    );
}

#[test]
fn elicit_params_refusals() {
    for bad in [
        json!({"mode":"url","message":"m","elicitationId":"x"}),
        json!({"mode":"url","url":"https://a.example"}),
        json!({"mode":"url","message":"m","url":5}),
        json!({"mode":"url","message":"m","url":"https://a.example","elicitationId":7}),
        json!({"mode":"form","message":"m"}),
        json!({"message":"m"}),
        json!({"mode":"popup","message":"m","url":"https://a.example"}),
        json!({"mode":3,"message":"m","url":"https://a.example"}),
        json!({"mode":"form","requestedSchema":{"type":"object","properties":{}}}),
        json!([]),
        json!(null),
    ] {
        assert!(
            serde_json::from_value::<ElicitParams>(bad.clone()).is_err(),
            "ElicitParams accepted {bad}"
        );
        assert!(
            serde_json::from_value::<ElicitRequestParams>(bad.clone()).is_err(),
            "ElicitRequestParams accepted {bad}"
        );
    }
    // UrlParams on its own insists on the url tag.
    assert!(
        serde_json::from_value::<UrlParams>(json!({"message":"m","url":"https://a.example"}))
            .is_err()
    );
    assert!(
        serde_json::from_value::<UrlParams>(
            json!({"mode":"form","message":"m","url":"https://a.example"})
        )
        .is_err()
    );
    assert!(
        serde_json::from_value::<FormParams>(
            json!({"mode":"url","message":"m","requestedSchema":{"type":"object","properties":{}}})
        )
        .is_err()
    );
    assert!(
        serde_json::from_value::<ElicitRequestParams>(
            json!({"message":"m","requestedSchema":{"type":"object","properties":{}},"_meta":1})
        )
        .is_err()
    );
    for bad in [
        json!({"action":"ACCEPT"}),
        json!({}),
        json!({"action":"accept","content":[1]}),
    ] {
        assert!(
            serde_json::from_value::<ElicitResult>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn unknown_members_are_ignored() {
    let url: ElicitParams = parse(
        &json!({"mode":"url","message":"m","url":"https://a.example","x-extra":{"deep":[1]}}),
    );
    assert_eq!(
        url,
        ElicitParams::Url(UrlParams::for_2026("m", "https://a.example"))
    );
    let result: ElicitResult = parse(&json!({"action":"cancel","resultType":"complete"}));
    assert_eq!(result, ElicitResult::cancel());
    let ir: InputRequiredResult =
        parse(&json!({"resultType":"input_required","requestState":"s","ttlMs":5}));
    assert_eq!(ir, InputRequiredResult::state_only("s"));
    let error: JsonRpcError = parse(&json!({"code":1,"message":"m","extra":true}));
    assert_eq!(error, JsonRpcError::new(1, "m", None));
    let cap: ElicitationCapability = parse(&json!({"form":{"applyDefaults":true},"other":1}));
    assert!(cap.supports_form() && !cap.supports_url());
    let ack: TasksUpdateAck = parse(&json!({"resultType":"complete","_meta":{}}));
    assert_eq!(ack, TasksUpdateAck);
}

#[test]
fn retry_params_example() {
    let msg = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{
      "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
               "io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},
               "io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}},
      "name":"get_weather","arguments":{"location":"New York"},
      "inputResponses":{
        "github_login":{"action":"accept","content":{"name":"octocat"}},
        "connect_example":{"action":"accept"}},
      "requestState":"v1.AEAD-sealed-opaque-blob"}});
    let params = &msg["params"];

    let retry = RetryFields::from_params(params).expect("retry fields");
    assert!(retry.is_retry());
    assert_eq!(
        retry.request_state.as_deref(),
        Some("v1.AEAD-sealed-opaque-blob")
    );
    let responses = retry.input_responses.as_ref().expect("responses");
    assert_eq!(responses.len(), 2);
    assert_eq!(
        responses.elicit("github_login"),
        Some(&ElicitResult::accept(obj(json!({"name":"octocat"}))))
    );
    assert_eq!(
        responses.elicit("connect_example"),
        Some(&ElicitResult::accept_empty())
    );
    assert_eq!(responses.malformed().count(), 0);
    assert_eq!(
        to_value(&retry),
        json!({"inputResponses":params["inputResponses"],"requestState":params["requestState"]})
    );
    // The serde path agrees with the manual reader (unknown params members are ignored).
    let via_serde: RetryFields = parse(params);
    assert_eq!(via_serde, retry);
    assert_eq!(
        to_string(&retry),
        r#"{"inputResponses":{"connect_example":{"action":"accept"},"github_login":{"action":"accept","content":{"name":"octocat"}}},"requestState":"v1.AEAD-sealed-opaque-blob"}"#
    );

    let meta = RequestMeta::from_params(params)
        .expect("valid")
        .expect("2026 request");
    assert_eq!(meta.protocol_version, PROTOCOL_2026_07_28);
    assert_eq!(meta.era(), Some(ProtocolEra::Mrtr2026));
    assert!(meta.client_capabilities.supports(ElicitMode::Url));
    assert!(meta.client_capabilities.supports(ElicitMode::Form));
    assert_eq!(
        meta.client_info.as_ref().and_then(|i| i.get("name")),
        Some(&json!("ExampleClient"))
    );
    assert_eq!(meta.log_level, None);
    assert!(meta.other.is_empty());
    assert_eq!(to_value(&meta), params["_meta"]);
    let via_serde: RequestMeta = parse(&params["_meta"]);
    assert_eq!(via_serde, meta);

    // take_from leaves the ordinary call params.
    let mut stripped = params.clone();
    let taken = RetryFields::take_from(&mut stripped).expect("valid");
    assert_eq!(taken, retry);
    assert!(stripped.get("inputResponses").is_none() && stripped.get("requestState").is_none());
    assert_eq!(stripped["name"], json!("get_weather"));
}

/// What a context reads of `_meta` is what `from_params` reads, less what it does not use; a
/// key of the wrong type is refused the same way.
#[test]
fn meta_essentials_agree_with_from_params() {
    let meta = |extra: Value| {
        let mut meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
            "io.modelcontextprotocol/logLevel": "info",
            "progressToken": 7
        });
        for (k, v) in extra.as_object().unwrap() {
            meta[k] = v.clone();
        }
        json!({"name": "t", "_meta": meta})
    };
    let full = RequestMeta::from_params(&meta(json!({}))).unwrap().unwrap();
    let lean = RequestMeta::essentials_from_params(&meta(json!({})))
        .unwrap()
        .unwrap();
    assert_eq!(
        lean,
        RequestMeta::new(full.protocol_version, full.client_capabilities)
    );
    for bad in [
        json!({"io.modelcontextprotocol/clientInfo": 1}),
        json!({"io.modelcontextprotocol/logLevel": []}),
        json!({"io.modelcontextprotocol/clientCapabilities": "x"}),
    ] {
        let refused = RequestMeta::from_params(&meta(bad.clone()));
        assert!(refused.is_err());
        assert_eq!(RequestMeta::essentials_from_params(&meta(bad)), refused);
    }
    assert_eq!(
        RequestMeta::essentials_from_params(&json!({"name": "t"})),
        Ok(None)
    );
}

#[test]
fn retry_field_refusals_and_absence() {
    assert_eq!(
        RetryFields::from_params(&json!(null)),
        Ok(RetryFields::default())
    );
    let first = RetryFields::from_params(&json!({"name":"t"})).expect("ok");
    assert!(!first.is_retry());
    assert_eq!(to_string(&first), "{}");
    for (bad, field) in [
        (json!({"inputResponses":[]}), "inputResponses"),
        (json!({"inputResponses":"x"}), "inputResponses"),
        (json!({"requestState":1}), "requestState"),
        (json!({"requestState":{}}), "requestState"),
        (json!([1]), "params"),
    ] {
        let err = RetryFields::from_params(&bad).unwrap_err();
        assert_eq!(err.field(), field);
        assert_eq!(err.to_json_rpc_error().code, INVALID_PARAMS);
    }
    // Retry fields inside `_meta` are not retry fields.
    let in_meta = json!({"_meta":{"requestState":"s","inputResponses":{}}});
    assert!(!RetryFields::from_params(&in_meta).expect("ok").is_retry());
}

#[test]
fn input_responses_classify_each_entry() {
    let raw = json!({
        "good": {"action":"decline"},
        "bad_action": {"action":"maybe"},
        "bad_content": {"action":"accept","content":"x"},
        "not_object": 42,
        "roots": {"roots":[{"uri":"file:///tmp"}]},
        "bad_roots": {"roots":"file:///tmp"},
        "sampling": {"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"},
        "unknown": {"foo":1},
    });
    let responses: InputResponses = parse(&raw);
    assert_eq!(responses.len(), 8);
    assert_eq!(responses.elicit("good"), Some(&ElicitResult::decline()));
    let malformed: Vec<&str> = responses.malformed().map(|(k, _)| k).collect();
    assert_eq!(
        malformed,
        ["bad_action", "bad_content", "bad_roots", "not_object"]
    );
    assert!(matches!(
        responses.get("roots"),
        Some(InputResponse::Roots(_))
    ));
    assert!(matches!(
        responses.get("sampling"),
        Some(InputResponse::Sampling(_))
    ));
    assert!(matches!(
        responses.get("unknown"),
        Some(InputResponse::Unknown(_))
    ));
    assert_eq!(responses.get("missing"), None);
    // Everything is written back as received, including malformed entries.
    assert_eq!(to_value(&responses), raw);
    assert_eq!(responses.iter().count(), 8);
    assert!(!responses.is_empty());
    assert_eq!(responses.clone().into_inner().len(), 8);

    // Only a non-object map is a hard error.
    for bad in [json!([]), json!("x"), json!(1), json!(null)] {
        assert!(serde_json::from_value::<InputResponses>(bad).is_err());
    }

    let mut built = InputResponses::new();
    built.insert("a", ElicitResult::cancel());
    assert_eq!(to_string(&built), r#"{"a":{"action":"cancel"}}"#);
}

#[test]
fn tasks_update_example() {
    let msg = json!({"jsonrpc":"2.0","id":6,"method":"tasks/update","params":{"taskId":"786512e2-…","inputResponses":{"name":{"action":"accept","content":{"input":"Luca"}}}}});
    let text = r#"{"taskId":"786512e2-…","inputResponses":{"name":{"action":"accept","content":{"input":"Luca"}}}}"#;
    let params: TasksUpdateParams = assert_exact_round_trip(text);
    assert_eq!(to_value(&params), msg["params"]);
    assert_eq!(
        params.input_responses.elicit("name"),
        Some(&ElicitResult::accept(obj(json!({"input":"Luca"}))))
    );
    assert_eq!(params.meta, None);

    let ack: TasksUpdateAck = assert_exact_round_trip(r#"{"resultType":"complete"}"#);
    assert_eq!(to_string(&ack), r#"{"resultType":"complete"}"#);
    assert!(
        serde_json::from_value::<TasksUpdateAck>(json!({"resultType":"input_required"})).is_err()
    );
    assert!(serde_json::from_value::<TasksUpdateAck>(json!({})).is_err());
}

#[test]
fn task_input_required_status() {
    let text = r#"{"status":"input_required","inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"url","url":"https://a.example","message":"m"}}},"taskId":"t1"}"#;
    let parsed: TaskInputRequired = assert_exact_round_trip(text);
    assert_eq!(parsed.other.get("taskId"), Some(&json!("t1")));
    assert_eq!(parsed.input_requests.len(), 1);

    let mut built = TaskInputRequired::new(BTreeMap::new());
    built.other.insert("status".to_owned(), json!("working"));
    assert_eq!(
        to_string(&built),
        r#"{"status":"input_required","inputRequests":{}}"#
    );

    for bad in [
        json!({"status":"working","inputRequests":{}}),
        json!({"inputRequests":{}}),
        json!({"status":"input_required"}),
        json!({"status":"input_required","inputRequests":[]}),
        json!([]),
    ] {
        assert!(
            serde_json::from_value::<TaskInputRequired>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Capabilities, meta, eras
// ---------------------------------------------------------------------------------------------

#[test]
fn elicitation_capability_modes() {
    let bare: ElicitationCapability = parse(&json!({}));
    assert!(bare.supports_form() && !bare.supports_url());
    let url_only: ElicitationCapability = parse(&json!({"url":{}}));
    assert!(!url_only.supports_form() && url_only.supports_url());
    let form_only: ElicitationCapability = parse(&json!({"form":{}}));
    assert!(form_only.supports_form() && !form_only.supports_url());
    let both = ElicitationCapability::both();
    assert!(both.supports(ElicitMode::Form) && both.supports(ElicitMode::Url));
    assert_eq!(to_string(&both), r#"{"form":{},"url":{}}"#);

    let none: ClientCapabilities = parse(&json!({}));
    assert!(!none.supports(ElicitMode::Form) && !none.supports(ElicitMode::Url));
    assert!(!none.supports_sampling() && !none.supports_roots());
    let sampling_only: ClientCapabilities = parse(&json!({"sampling":{}}));
    assert!(sampling_only.supports_sampling() && !sampling_only.supports(ElicitMode::Form));

    // Other members survive a round trip.
    let caps = json!({"elicitation":{},"roots":{"listChanged":true},"experimental":{"x":1},"extensions":{"io.modelcontextprotocol/tasks":{}}});
    let parsed: ClientCapabilities = assert_value_round_trip(&caps);
    assert!(parsed.supports(ElicitMode::Form) && parsed.supports_roots());
    assert_eq!(parsed.other.len(), 2);
}

#[test]
fn request_meta_detection() {
    let legacy = [
        json!(null),
        json!({}),
        json!({"name":"t"}),
        json!({"_meta":null}),
        json!({"_meta":{}}),
        json!({"_meta":{"progressToken":1}}),
    ];
    for params in legacy {
        assert_eq!(RequestMeta::from_params(&params), Ok(None), "{params}");
    }

    let minimal = json!({"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{},
        "io.modelcontextprotocol/logLevel":"debug",
        "progressToken":"p"}});
    let meta = RequestMeta::from_params(&minimal)
        .expect("ok")
        .expect("2026");
    assert!(!meta.client_capabilities.supports(ElicitMode::Form));
    assert_eq!(meta.log_level.as_deref(), Some("debug"));
    assert_eq!(meta.other.get("progressToken"), Some(&json!("p")));
    assert_eq!(to_value(&meta), minimal["_meta"]);
    let built = RequestMeta::new(PROTOCOL_2026_07_28, ClientCapabilities::default());
    assert_eq!(
        to_string(&built),
        r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
    );

    let errors = [
        (
            json!({"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}),
            "_meta.io.modelcontextprotocol/protocolVersion",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}),
            "_meta.io.modelcontextprotocol/clientCapabilities",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}),
            "_meta.io.modelcontextprotocol/protocolVersion",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}),
            "_meta.io.modelcontextprotocol/protocolVersion",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}),
            "_meta.io.modelcontextprotocol/clientCapabilities",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":true}}}),
            "_meta.io.modelcontextprotocol/clientCapabilities",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"c"}}),
            "_meta.io.modelcontextprotocol/clientInfo",
        ),
        (
            json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":3}}),
            "_meta.io.modelcontextprotocol/logLevel",
        ),
        (json!({"_meta":"x"}), "_meta"),
        (json!("params"), "params"),
    ];
    for (params, field) in errors {
        let err = RequestMeta::from_params(&params).unwrap_err();
        assert_eq!(err.field(), field, "{params}");
        let rpc = err.to_json_rpc_error();
        assert_eq!(rpc.code, -32602);
        assert_eq!(rpc.data, Some(json!({"field":field})));
        assert_eq!(JsonRpcError::from(err), rpc);
    }
    let missing = RequestMeta::from_params(
        &json!({"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}),
    )
    .unwrap_err();
    assert!(matches!(missing, WireError::Missing { .. }));
    assert!(missing.to_string().contains("protocolVersion"));
}

#[test]
fn protocol_eras() {
    for v in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        assert_eq!(
            ProtocolEra::from_version(v),
            Some(ProtocolEra::Legacy2025),
            "{v}"
        );
    }
    for v in ["2026-07-28", "2026-07-29", "2027-01-01", "9999-12-31"] {
        assert_eq!(
            ProtocolEra::from_version(v),
            Some(ProtocolEra::Mrtr2026),
            "{v}"
        );
    }
    for v in [
        "",
        "2025-01-01",
        "2026-07-27",
        "latest",
        "2026-7-28",
        "2026-07-28x",
        "z",
        "2026-07-2８",
    ] {
        assert_eq!(ProtocolEra::from_version(v), None, "{v}");
    }
    assert_eq!(ProtocolEra::Legacy2025.version(), PROTOCOL_2025_11_25);
    assert_eq!(ProtocolEra::Mrtr2026.version(), PROTOCOL_2026_07_28);
}

#[test]
fn error_constructors() {
    let state = JsonRpcError::invalid_request_state();
    assert_eq!(
        to_string(&state),
        r#"{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}"#
    );
    let plain = JsonRpcError::invalid_params("bad", None);
    assert_eq!(to_string(&plain), r#"{"code":-32602,"message":"bad"}"#);
    assert!(plain.to_string().contains("-32602"));
    assert_eq!(ElicitMode::Url.to_string(), "url");
    assert_eq!(
        ElicitMode::Form.required_capability(),
        json!({"elicitation":{"form":{}}})
    );
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "elicitationId")]
fn url_elicitation_required_needs_ids() {
    let _ =
        JsonRpcError::url_elicitation_required(vec![UrlParams::for_2026("m", "https://a.example")]);
}

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

fn junk_values() -> Vec<Value> {
    let mut deep = json!(1);
    for _ in 0..64 {
        deep = json!([deep, {"k": deep.clone()}]);
        if to_string(&deep).len() > 512 {
            break;
        }
    }
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e308),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("x"),
        json!("\u{0}\u{feff}\u{10ffff}"),
        json!("accept"),
        json!("form"),
        json!("url"),
        json!("input_required"),
        json!("elicitation/create"),
        json!("sampling/createMessage"),
        json!("roots/list"),
        json!([]),
        json!([null]),
        json!([1, "a", {}]),
        json!({}),
        json!({"action":"accept","content":null}),
        json!({"mode":"url"}),
        json!({"method":"elicitation/create","params":[]}),
        json!({"roots":{}}),
        json!({"resultType":"input_required"}),
        deep,
    ]
}

/// JSON pointers of every node of `value`, the root included.
fn pointers(value: &Value, prefix: String, out: &mut Vec<String>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                pointers(v, format!("{prefix}/{escaped}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{prefix}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// If `value` parses as `T`, its serialization must parse back to the same `T`.
/// Checked both from a `Value` and from text (the streaming path).
fn stable<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(value: &Value) {
    if let Ok(first) = serde_json::from_value::<T>(value.clone()) {
        let json = serde_json::to_value(&first).expect("a parsed value serializes");
        let second: T = serde_json::from_value(json.clone())
            .unwrap_or_else(|e| panic!("re-parse of {json} failed: {e}"));
        assert_eq!(first, second, "unstable round trip of {value}");
    }
    if let Ok(first) = serde_json::from_str::<T>(&value.to_string()) {
        let text = serde_json::to_string(&first).expect("a parsed value serializes");
        let second: T = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("re-parse of {text} failed: {e}"));
        assert_eq!(first, second, "unstable round trip of {text}");
    }
}

/// Feeds `value` to every parser of the module.
fn parse_everything(value: &Value) {
    stable::<ElicitAction>(value);
    stable::<ElicitMode>(value);
    stable::<ElicitResult>(value);
    stable::<FormParams>(value);
    stable::<UrlParams>(value);
    stable::<ElicitParams>(value);
    stable::<ElicitRequestParams>(value);
    stable::<ElicitationCompleteNotification>(value);
    stable::<InputRequest>(value);
    stable::<InputRequiredResult>(value);
    stable::<InputResponse>(value);
    stable::<InputResponses>(value);
    stable::<RetryFields>(value);
    stable::<ClientCapabilities>(value);
    stable::<ElicitationCapability>(value);
    stable::<RequestMeta>(value);
    stable::<JsonRpcError>(value);
    stable::<TaskInputRequired>(value);
    stable::<TasksUpdateParams>(value);
    stable::<TasksUpdateAck>(value);
    let _ = RequestMeta::from_params(value);
    let _ = RetryFields::from_params(value);
    let _ = RetryFields::take_from(&mut value.clone());
    let _ = InputResponse::from_value(value.clone());
    if let Ok(error) = serde_json::from_value::<JsonRpcError>(value.clone()) {
        let _ = error.url_elicitations();
    }
    let _ = JsonRpcError::missing_capability(value.clone());
    if let Some(s) = value.as_str() {
        let _ = ProtocolEra::from_version(s);
    }
}

fn documents() -> Vec<Value> {
    vec![
        json!({"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"_meta":{"progressToken":1},"task":{"ttl":1}}),
        json!({"mode":"url","elicitationId":"id","url":"https://a.example","message":"m"}),
        json!({"action":"accept","content":{"name":"x","n":1,"b":true,"l":["a"]},"_meta":{}}),
        json!({"elicitationId":"id"}),
        input_required_example()["result"].clone(),
        json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"c"},"io.modelcontextprotocol/logLevel":"info"},"name":"t","inputResponses":{"a":{"action":"accept"},"b":{"roots":[]},"c":{"role":"user"}},"requestState":"s"}),
        json!({"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","elicitationId":"i","url":"u","message":"m"}]}}),
        json!({"status":"input_required","taskId":"t","inputRequests":{"k":{"method":"roots/list"},"s":{"method":"sampling/createMessage","params":{}}}}),
        json!({"taskId":"t","inputResponses":{"name":{"action":"decline"}},"_meta":{}}),
        json!({"resultType":"complete"}),
    ]
}

#[test]
fn hostile_input_never_panics() {
    let junk = junk_values();
    for value in &junk {
        parse_everything(value);
    }
    for doc in documents() {
        parse_everything(&doc);
        let mut paths = Vec::new();
        pointers(&doc, String::new(), &mut paths);
        for path in &paths {
            for value in &junk {
                let mut mutated = doc.clone();
                if let Some(slot) = mutated.pointer_mut(path) {
                    *slot = value.clone();
                }
                parse_everything(&mutated);
                // The same junk as an extra member of every object.
                if let Some(Value::Object(map)) = doc.clone().pointer_mut(path).map(|v| v.take()) {
                    let mut extended = map;
                    extended.insert("zz-extra".to_owned(), value.clone());
                    let mut with_extra = doc.clone();
                    if let Some(slot) = with_extra.pointer_mut(path) {
                        *slot = Value::Object(extended);
                    }
                    parse_everything(&with_extra);
                }
            }
        }
    }
}
