//! The host's limits on what a server may send: a request at every cap is parsed, rendered,
//! filled and read back in full; one over any cap is refused before it is parsed further,
//! with the cap it is over.

#[path = "support/forms.rs"]
mod forms;

use elicit_host::limits::{Cap, MAX_FIELDS, MAX_OPTIONS, MAX_REQUEST_BYTES, MAX_TEXT_BYTES};
use elicit_host::{Elicitation, FormInput, FormModel, RequestError, html};
use serde_json::{Map, Value, json};

fn parsed(params: &Value) -> FormModel {
    match Elicitation::from_params(params).unwrap() {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => panic!("a form"),
    }
}

fn refused(params: &Value) -> Cap {
    match Elicitation::from_params(params) {
        Err(RequestError::TooLarge(cap)) => cap,
        other => panic!("not refused for its size: {other:?}"),
    }
}

#[test]
fn a_form_at_every_cap_is_parsed_rendered_and_read_back_whole() {
    let params = forms::maximal();
    let size = serde_json::to_string(&params).unwrap().len();
    assert!(
        size > MAX_REQUEST_BYTES * 9 / 10 && size < MAX_REQUEST_BYTES,
        "{size} bytes"
    );
    let form = parsed(&params);
    assert_eq!(form.fields().len(), MAX_FIELDS);
    assert_eq!(form.message().len(), MAX_TEXT_BYTES);
    let choices = form.field("choices").unwrap();
    assert_eq!(choices.options().len(), MAX_OPTIONS);
    let defaults = FormInput::new(&form);
    assert_eq!(
        defaults.value("choices").unwrap().as_array().unwrap().len(),
        MAX_OPTIONS
    );

    let page = html::form("Desk", &defaults, "/answer", &[]);
    assert_eq!(page.matches(" checked>").count(), MAX_OPTIONS + 1);
    assert_eq!(
        page.matches("<div class=\"elicit-field\">").count(),
        MAX_FIELDS - 1
    );

    let Value::Object(content) =
        serde_json::to_value(html::read(&form, forms::post(&form)).unwrap()).unwrap()["content"]
            .clone()
    else {
        panic!("accepted with content")
    };
    assert_eq!(content.len(), MAX_FIELDS);
    assert_eq!(content["choices"].as_array().unwrap().len(), MAX_OPTIONS);
    assert_eq!(
        content["choice"],
        json!(format!("option {:04}", MAX_OPTIONS - 1))
    );
    assert_eq!(content["field.255"].as_str().unwrap().len(), MAX_TEXT_BYTES);
}

#[test]
fn a_typical_form_is_read_back_from_what_a_browser_posts() {
    let form = parsed(&forms::typical());
    let sent = html::read(&form, forms::post(&form)).unwrap();
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        json!({"action": "accept", "content": {
            "environment": "production", "replicas": 3, "notify": ["email", "chat"],
            "owner": "ada@example.com", "canary": true
        }})
    );
}

fn fields(count: usize) -> Value {
    let properties: Map<String, Value> = (0..count)
        .map(|i| (format!("f{i}"), json!({"type": "boolean"})))
        .collect();
    json!({"message": "?", "requestedSchema": {"type": "object", "properties": properties}})
}

fn options(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("o{i}")).collect()
}

fn with(property: Value) -> Value {
    json!({"message": "?", "requestedSchema": {"type": "object", "properties": {"p": property}}})
}

#[test]
fn a_form_over_the_field_cap_is_refused() {
    assert_eq!(parsed(&fields(MAX_FIELDS)).fields().len(), MAX_FIELDS);
    assert_eq!(refused(&fields(MAX_FIELDS + 1)), Cap::Fields);
    assert_eq!(
        Elicitation::from_params(&fields(MAX_FIELDS + 1))
            .unwrap_err()
            .to_string(),
        "the request is too large: a form has more than 256 fields"
    );
}

#[test]
fn a_field_over_the_option_cap_is_refused_in_every_list() {
    let most = options(MAX_OPTIONS);
    let over = options(MAX_OPTIONS + 1);
    let titled = |values: &[String]| -> Vec<Value> {
        values
            .iter()
            .map(|v| json!({"const": v, "title": v}))
            .collect()
    };
    // At the cap: parsed, every option kept, a default of every option too.
    let at = parsed(&with(
        json!({"type": "array", "items": {"type": "string", "enum": most}, "default": most}),
    ));
    assert_eq!(at.field("p").unwrap().options().len(), MAX_OPTIONS);

    for property in [
        json!({"type": "string", "enum": over}),
        json!({"type": "string", "enum": most, "enumNames": over}),
        json!({"type": "string", "oneOf": titled(&over)}),
        json!({"type": "array", "items": {"type": "string", "enum": over}}),
        json!({"type": "array", "items": {"anyOf": titled(&over)}}),
        json!({"type": "array", "items": {"oneOf": titled(&over)}}),
        json!({"type": "array", "items": {"type": "string", "enum": most}, "default": over}),
    ] {
        assert_eq!(refused(&with(property)), Cap::Options);
    }
    assert_eq!(
        Elicitation::from_params(&with(json!({"type": "string", "enum": over})))
            .unwrap_err()
            .to_string(),
        "the request is too large: a field lists more than 4096 options"
    );
}

#[test]
fn a_text_over_the_text_cap_is_refused_wherever_it_is() {
    let longest = forms::longest_text('x');
    let over = "é".repeat(MAX_TEXT_BYTES / 2) + "x";
    assert_eq!(over.len(), MAX_TEXT_BYTES + 1);
    assert_eq!(
        parsed(
            &json!({"message": longest, "requestedSchema": {"type": "object", "properties": {}}})
        )
        .message()
        .len(),
        MAX_TEXT_BYTES
    );
    let url =
        json!({"mode": "url", "message": "Open", "url": format!("https://example.com/?q={over}")});
    for params in [
        json!({"message": over, "requestedSchema": {"type": "object", "properties": {}}}),
        json!({"message": "?", "requestedSchema": {"type": "object", "title": over, "properties": {}}}),
        with(json!({"type": "string", "description": over})),
        with(json!({"type": "string", "default": over})),
        with(json!({"type": "string", "enum": [over]})),
        json!({"message": "?", "requestedSchema": {"type": "object", "properties": {over.clone(): {"type": "string"}}}}),
        url.clone(),
        json!({"message": "?", "_meta": {"note": over}, "requestedSchema": {"type": "object", "properties": {}}}),
    ] {
        assert_eq!(refused(&params), Cap::Text);
    }
    let entry = json!({"method": "elicitation/create", "params": url});
    assert_eq!(
        Elicitation::from_input_request(&entry)
            .unwrap_err()
            .to_string(),
        "the request is too large: a text in it is longer than 16384 bytes"
    );
}

#[test]
fn a_request_over_the_size_cap_is_refused() {
    // Texts each within their cap, too many of them: 80 descriptions of 15,000 bytes.
    let properties: Map<String, Value> = (0..80)
        .map(|i| {
            (
                format!("f{i}"),
                json!({"type": "string", "description": "d".repeat(15_000)}),
            )
        })
        .collect();
    let params =
        json!({"message": "?", "requestedSchema": {"type": "object", "properties": properties}});
    assert_eq!(refused(&params), Cap::Request);
    // Or a flood of small values anywhere, in `_meta` too, and in a round's entry.
    let flood = json!({"message": "?", "_meta": {"x": vec![0; MAX_REQUEST_BYTES / 2]},
        "requestedSchema": {"type": "object", "properties": {}}});
    assert_eq!(refused(&flood), Cap::Request);
    let entry = json!({"method": "elicitation/create", "params": flood});
    assert_eq!(
        Elicitation::from_input_request(&entry),
        Err(RequestError::TooLarge(Cap::Request))
    );
    assert_eq!(
        RequestError::TooLarge(Cap::Request).to_string(),
        "the request is too large: it is larger than 1048576 bytes"
    );
}
