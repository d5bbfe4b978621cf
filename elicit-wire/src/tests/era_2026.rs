//! Round trips of the 2026-07-28 examples: embedded requests, input-required results, retries, tasks.

use super::*;

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

pub(super) fn input_required_example() -> Value {
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
