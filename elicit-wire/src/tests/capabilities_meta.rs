//! Capabilities, request `_meta`, protocol eras and error constructors.

use super::*;

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
