//! The adapter hands rmcp a form's `properties` in declaration order, without relying on a
//! `Value` keeping it.
//!
//! rmcp 3.11 then serializes every request's params through a `Value`
//! (`WithMeta::serialize` in its `serde_impl.rs`), which is why the `rmcp` feature turns on
//! `serde_json/preserve_order`. These tests check what reaches rmcp's typed model, its
//! `property_order`.

use rmcp::model::{ElicitRequestParams, InputRequest as RmcpRequest, ServerRequest, ServerResult};
use serde_json::json;

use super::adapter::input_required;
use super::convert::convert;
use super::peer::Outgoing;
use super::service::bridge_url_requests;
use super::service::strip_empty_elicitation_ids_json;
use crate::schema::{BooleanSchema, PropertySchema, RequestedSchema, StringSchema};
use crate::wire::{FormParams, InputRequest, InputRequiredResult, UrlParams};

/// Declared out of name order, so a sorting step in between would show.
fn schema() -> RequestedSchema {
    let text = || PropertySchema::String(StringSchema::default());
    let flag = PropertySchema::Boolean(BooleanSchema::default());
    RequestedSchema::new()
        .property("zeta", text(), true)
        .property("alpha", flag, false)
        .property("mid", text(), false)
}

const ORDER: [&str; 3] = ["zeta", "alpha", "mid"];

fn form() -> InputRequest {
    InputRequest::from(FormParams::new("Tell us", schema()))
}

fn property_order(params: &ElicitRequestParams) -> Vec<String> {
    match params {
        ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } => requested_schema.property_order.clone().unwrap_or_default(),
        other => panic!("not a form: {other:?}"),
    }
}

#[test]
fn input_required_results_reach_rmcp_in_declaration_order() {
    let ours = InputRequiredResult::new(Some([("f".to_owned(), form())].into()), None).unwrap();
    let theirs = input_required(ours.clone()).unwrap();
    let requests = theirs.input_requests.expect("the form");
    let Some(RmcpRequest::Elicitation(request)) = requests.get("f") else {
        panic!("not an elicitation: {requests:?}");
    };
    assert_eq!(property_order(&request.params), ORDER);
}

#[test]
fn back_channel_requests_reach_rmcp_in_declaration_order() {
    let form = form();
    let text = serde_json::to_string(&Outgoing(&form)).unwrap();
    assert!(text.contains(r#""properties":{"zeta":"#), "{text}");
    let ServerRequest::ElicitRequest(request) = serde_json::from_str(&text).unwrap() else {
        panic!("not an elicitation: {text}");
    };
    assert_eq!(property_order(&request.params), ORDER);
    // A request without params goes out with `{}`, as rmcp parses it.
    let roots = serde_json::to_string(&Outgoing(&InputRequest::ListRoots(None))).unwrap();
    assert_eq!(roots, r#"{"method":"roots/list","params":{}}"#);
    assert!(serde_json::from_str::<ServerRequest>(&roots).is_ok());
}

#[test]
fn stripping_empty_ids_keeps_everything_else_in_order() {
    let form = serde_json::to_string(&form()).unwrap();
    let url = r#"{"method":"elicitation/create","params":{"mode":"url","elicitationId":"","url":"https://example.com/x","message":"Open"}}"#;
    let result = format!(
        r#"{{"resultType":"input_required","inputRequests":{{"b":{url},"a":{form}}},"requestState":"s"}}"#
    );
    let response = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
    let expected = response.replace(r#""elicitationId":"","#, "");
    let stripped = strip_empty_elicitation_ids_json(response.as_bytes()).expect("an id to strip");
    assert_eq!(String::from_utf8(stripped).unwrap(), expected);
    // A bare result too.
    let stripped = strip_empty_elicitation_ids_json(result.as_bytes()).expect("an id to strip");
    assert_eq!(
        String::from_utf8(stripped).unwrap(),
        result.replace(r#""elicitationId":"","#, "")
    );
    // Nothing to strip: the bytes need no change.
    assert_eq!(strip_empty_elicitation_ids_json(expected.as_bytes()), None);
    assert_eq!(strip_empty_elicitation_ids_json(b"not json"), None);
}

/// A round with a form, an id-less URL request and a roots request, state and `_meta`.
fn mixed_round() -> InputRequiredResult {
    let url = InputRequest::from(UrlParams::for_2026("Open", "https://example.com/x"));
    let requests = [
        ("f".to_owned(), form()),
        ("u".to_owned(), url),
        ("r".to_owned(), InputRequest::ListRoots(None)),
    ];
    let meta = json!({"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}});
    let serde_json::Value::Object(meta) = meta else {
        unreachable!()
    };
    InputRequiredResult::new(Some(requests.into()), Some("state".to_owned()))
        .unwrap()
        .with_meta(meta)
}

#[test]
fn input_required_writes_what_rmcps_own_parse_of_the_result_writes() {
    let ours = mixed_round();
    let built = input_required(ours.clone()).unwrap();
    let parsed: rmcp::model::InputRequiredResult = convert(&ours).unwrap();
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        serde_json::to_string(&parsed).unwrap()
    );
    let requests = built.input_requests.expect("the requests");
    let Some(RmcpRequest::Elicitation(request)) = requests.get("f") else {
        panic!("not an elicitation: {requests:?}");
    };
    assert_eq!(property_order(&request.params), ORDER);
}

#[test]
fn only_rounds_with_an_id_less_url_request_are_rewritten() {
    let forms = InputRequiredResult::new(Some([("f".to_owned(), form())].into()), None).unwrap();
    let typed = ServerResult::InputRequiredResult(input_required(forms.clone()).unwrap());
    assert!(matches!(
        bridge_url_requests(typed),
        ServerResult::InputRequiredResult(_)
    ));
    let mixed = ServerResult::InputRequiredResult(input_required(mixed_round()).unwrap());
    let ServerResult::CustomResult(custom) = bridge_url_requests(mixed) else {
        panic!("the URL request was not bridged");
    };
    assert_eq!(
        custom.0["inputRequests"]["u"]["params"],
        json!({"mode": "url", "url": "https://example.com/x", "message": "Open"})
    );
    let with_id = InputRequest::from(UrlParams::for_2025("Open", "https://example.com/x", "id"));
    let round = InputRequiredResult::new(Some([("u".to_owned(), with_id)].into()), None).unwrap();
    let typed = ServerResult::InputRequiredResult(input_required(round.clone()).unwrap());
    assert!(matches!(
        bridge_url_requests(typed),
        ServerResult::InputRequiredResult(_)
    ));
}
