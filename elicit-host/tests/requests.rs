//! Incoming elicitations of both eras, parsed strictly: what is in the grammar becomes a form
//! or a URL request (a root `title` and `description` kept as words for the person),
//! everything else a distinct error that says why.

use elicit_host::{Elicitation, RequestError};
use serde_json::{Value, json};

fn error(params: Value) -> String {
    Elicitation::from_params(&params).unwrap_err().to_string()
}

fn form(properties: Value) -> Value {
    json!({"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": properties}})
}

#[test]
fn a_2025_url_request_keeps_its_elicitation_id() {
    let params = json!({
        "mode": "url", "message": "Connect GitHub", "elicitationId": "el-7",
        "url": "https://mcp.example.com/connect?e=el-7", "_meta": {"x": 1}
    });
    let Elicitation::Url(url) = Elicitation::from_params(&params).unwrap() else {
        panic!("a URL request")
    };
    assert_eq!(url.elicitation_id.as_deref(), Some("el-7"));
    assert_eq!(url.url, "https://mcp.example.com/connect?e=el-7");
    assert_eq!(url.message, "Connect GitHub");
}

#[test]
fn a_2026_round_entry_is_parsed_from_its_method_and_params() {
    let entry = json!({"method": "elicitation/create", "params": {
        "message": "Deploy?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    }});
    let Elicitation::Form(form) = Elicitation::from_input_request(&entry).unwrap() else {
        panic!("a form")
    };
    assert_eq!(form.message(), "Deploy?");
    assert!(form.field("ok").unwrap().required());
    assert_eq!(
        Elicitation::from_input_request(&json!({"method": "elicitation/create"}))
            .unwrap_err()
            .to_string(),
        "`params` is missing"
    );
    assert_eq!(
        Elicitation::from_input_request(&json!("elicitation/create")).unwrap_err(),
        RequestError::NotAnObject
    );
}

#[test]
fn a_missing_mode_is_form_and_an_unknown_one_is_refused() {
    let params = json!({"message": "?", "requestedSchema": {"type": "object", "properties": {}}});
    assert!(matches!(
        Elicitation::from_params(&params),
        Ok(Elicitation::Form(_))
    ));
    assert_eq!(
        error(json!({"mode": "wizard", "message": "?"})),
        "unknown elicitation mode \"wizard\""
    );
    assert_eq!(
        error(json!({"mode": 1, "message": "?"})),
        "`mode` is not a string"
    );
}

#[test]
fn missing_or_mistyped_members_are_named() {
    assert_eq!(error(json!({"mode": "form"})), "`message` is missing");
    assert_eq!(
        error(json!({"mode": "form", "message": "?"})),
        "`requestedSchema` is missing"
    );
    assert_eq!(
        error(json!({"mode": "url", "message": "?"})),
        "`url` is missing"
    );
    assert_eq!(
        error(
            json!({"mode": "url", "message": "?", "url": "https://x.example", "elicitationId": 3})
        ),
        "`elicitationId` is not a string"
    );
    assert_eq!(error(json!([])), "the elicitation params are not an object");
}

#[test]
fn schemas_outside_the_grammar_are_never_forms() {
    for (properties, why) in [
        (
            json!({"address": {"type": "object", "properties": {}}}),
            "the form's schema is outside the elicitation grammar: `properties.address.type`",
        ),
        (
            json!({"code": {"type": "string", "pattern": "^[0-9]+$"}}),
            "the form's schema is outside the elicitation grammar: `properties.code.pattern`",
        ),
        (
            json!({"x": {"$ref": "#/defs/x"}}),
            "the form's schema is outside the elicitation grammar: `properties.x",
        ),
        (
            json!({"party": {"type": "integer", "maximum": 12, "default": 40}}),
            "the form's schema is outside the elicitation grammar: `properties.party.default`",
        ),
        (
            json!({"pick": {"type": "string", "enum": []}}),
            "the form's schema is outside the elicitation grammar: `properties.pick",
        ),
    ] {
        let message = error(form(properties.clone()));
        assert!(message.starts_with(why), "{properties}: {message}");
        assert!(matches!(
            Elicitation::from_params(&form(properties)),
            Err(RequestError::OutOfGrammar(_))
        ));
    }
}

#[test]
fn a_root_title_and_description_are_words_for_the_person_and_nothing_else_is_let_in() {
    // What the Python SDK sends for a pydantic model: its name as the root `title`.
    let params = json!({"message": "Please provide your registration details:", "requestedSchema": {
        "properties": {"username": {"title": "Username", "type": "string"}},
        "required": ["username"], "title": "Registration", "type": "object",
        "description": "Who you are"
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        panic!("a form")
    };
    assert_eq!(form.title(), Some("Registration"));
    assert_eq!(form.description(), Some("Who you are"));
    assert_eq!(form.message(), "Please provide your registration details:");
    assert_eq!(
        form.fields().map(|f| f.name()).collect::<Vec<_>>(),
        ["username"]
    );

    for (root, why) in [
        (
            json!({"title": 7}),
            "`requestedSchema.title` is not a string",
        ),
        (
            json!({"description": ["no"]}),
            "`requestedSchema.description` is not a string",
        ),
        (
            json!({"title": "Registration", "additionalProperties": false}),
            "the form's schema is outside the elicitation grammar: `additionalProperties`: \
             `additionalProperties` is not allowed at the root of an elicitation form",
        ),
    ] {
        let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        schema
            .as_object_mut()
            .unwrap()
            .extend(root.as_object().unwrap().clone());
        let params = json!({"message": "?", "requestedSchema": schema});
        assert_eq!(error(params), why);
    }
}
