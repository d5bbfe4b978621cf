//! `host_request`: an incoming elicitation, as any JSON a server sends, parsed both ways (a
//! 2025-11-25 request's params and a 2026-07-28 round's entry), and a form that parses,
//! rendered.

use serde_json::{Value, json};

use crate::limits::{Cap, MAX_FIELDS, MAX_OPTIONS, MAX_TEXT_BYTES};
use crate::{Elicitation, FormInput, RequestError, html};

/// The input is JSON text: the params of `elicitation/create`.
///
/// Parsing never panics. As a round's entry, the same params parse the same (unless the entry
/// is over the size cap). A form that parses is within the limits; every field is found by
/// its name; its page has exactly the three buttons that post `elicit-action` (no field posts
/// under that name) and no id twice.
pub fn host_request(data: &[u8]) {
    let Ok(params) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let parsed = Elicitation::from_params(&params);
    let entry = json!({"method": "elicitation/create", "params": params});
    match (&parsed, Elicitation::from_input_request(&entry)) {
        (_, Err(RequestError::TooLarge(Cap::Request))) => {}
        (parsed, as_entry) => assert_eq!(parsed, &as_entry, "the two shapes disagree"),
    }
    let Ok(Elicitation::Form(form)) = parsed else {
        return;
    };
    assert!(form.fields().len() <= MAX_FIELDS);
    assert!(form.message().len() <= MAX_TEXT_BYTES);
    for (i, field) in form.fields().enumerate() {
        assert_eq!(
            form.field(field.name()),
            Some(field),
            "field {i} not found by name"
        );
        assert!(field.options().len() <= MAX_OPTIONS);
        let _ = field.hint();
    }
    let input = FormInput::new(&form);
    let _ = input.accept();
    let page = html::form("Server", &input, "/answer", &[]);
    assert_eq!(page.matches("name=\"elicit-action\"").count(), 3, "{page}");
    let mut ids = std::collections::HashSet::new();
    for rest in page.split(" id=\"").skip(1) {
        let id = &rest[..rest.find('"').expect("a closed attribute")];
        assert!(ids.insert(id), "the id {id} twice in {page}");
    }
}

/// Requests of both modes, in and out of the grammar, at and over the limits.
pub(super) fn seeds() -> Vec<Vec<u8>> {
    let schema = |properties: Value| json!({"message": "?", "requestedSchema": {"type": "object", "properties": properties}});
    let options: Vec<String> = (0..MAX_OPTIONS + 1).map(|i| format!("o{i}")).collect();
    [
        json!({"message": "Deploy?", "requestedSchema": {"type": "object", "title": "Deploy", "description": "Where",
            "properties": {
                "environment": {"type": "string", "title": "Environment", "oneOf": [{"const": "staging", "title": "Staging"}, {"const": "production", "title": "Production"}], "default": "staging"},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2},
                "ratio": {"type": "number", "minimum": 0.5, "maximum": 1e300},
                "notify": {"type": "array", "items": {"anyOf": [{"const": "email", "title": "Email"}, {"const": "chat", "title": "Chat"}]}, "minItems": 1, "maxItems": 2, "default": ["chat"]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                "owner": {"type": "string", "format": "email", "minLength": 3, "maxLength": 100},
                "when": {"type": "string", "format": "date-time"},
                "legacy": {"type": "string", "enum": ["x", "y"], "enumNames": ["X", "Y"]},
                "canary": {"type": "boolean", "default": true}},
            "required": ["environment", "replicas"]}}),
        schema(json!({"elicit-action": {"type": "string", "default": "accept"}})),
        schema(json!({"a.b": {"type": "boolean"}, "a_b": {"type": "boolean"}, "title": {"type": "string"}, "a-help": {"type": "string"}, "a": {"type": "string"}})),
        schema(json!({"é": {"type": "array", "items": {"type": "string", "enum": ["x"]}}, "_c3_a9": {"type": "string"}})),
        schema(json!({"nested": {"type": "object"}})),
        schema(json!({"p": {"type": "string", "pattern": "^a$"}})),
        schema(json!({"p": {"type": "integer", "minimum": 5, "default": 1}})),
        schema(json!({"p": {"type": "string", "enum": options}})),
        schema(json!({"p": {"type": "array", "items": {"type": "string", "enum": &options[..MAX_OPTIONS]}, "default": &options[..MAX_OPTIONS]}})),
        json!({"message": "m".repeat(MAX_TEXT_BYTES + 1), "requestedSchema": {"type": "object", "properties": {}}}),
        json!({"mode": "url", "message": "Connect", "url": "https://mcp.example.com/connect?e=1", "elicitationId": "e-1"}),
        json!({"mode": "url", "message": "Connect", "url": "javascript:alert(1)"}),
        json!({"mode": "url", "message": 1, "url": "https://a.example"}),
        json!({"mode": "sampling", "message": "?"}),
        json!({"mode": 3}),
        json!({"message": "?"}),
        json!([]),
        json!({"message": "?", "requestedSchema": {"type": "object", "properties": {}, "required": ["missing"]}}),
    ]
    .iter()
    .map(|seed| serde_json::to_vec(seed).expect("JSON"))
    .chain([b"{\"message\": \"?\", \"requestedSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}, \"a\": {\"type\": \"number\"}}}}".to_vec(), b"[[[[[[[[[[[[".to_vec()])
    .collect()
}
