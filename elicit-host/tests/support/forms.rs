//! Forms for the limits test and the form-cost benchmark: a maximal one (at every cap of
//! `elicit_host::limits`) and a small typical one, with the post a browser sends for each.

use elicit_host::limits::{MAX_FIELDS, MAX_OPTIONS, MAX_TEXT_BYTES};
use elicit_host::{Control, FormModel};
use serde_json::{Map, Value, json};

/// The longest text the limits let in.
pub(crate) fn longest_text(letter: char) -> String {
    letter.to_string().repeat(MAX_TEXT_BYTES)
}

/// A form at every cap, just under 1 MiB in all: a message, title and description of the
/// longest text; `MAX_FIELDS` fields (the first a single select of `MAX_OPTIONS` options, the
/// second a multi-select of as many with every one of them as its default, the third a
/// number, the fourth a yes-or-no, the rest text with long descriptions).
pub(crate) fn maximal() -> Value {
    let options: Vec<String> = (0..MAX_OPTIONS).map(|i| format!("option {i:04}")).collect();
    let titled: Vec<Value> = options
        .iter()
        .map(|o| json!({"const": o, "title": o.to_uppercase()}))
        .collect();
    let mut properties = Map::new();
    properties.insert(
        "choice".into(),
        json!({"type": "string", "title": longest_text('c'), "oneOf": titled, "default": options[MAX_OPTIONS - 1]}),
    );
    properties.insert(
        "choices".into(),
        json!({"type": "array", "title": "Choices", "items": {"type": "string", "enum": options},
               "minItems": 1, "maxItems": MAX_OPTIONS, "default": options}),
    );
    properties.insert(
        "count".into(),
        json!({"type": "integer", "minimum": 0, "maximum": 1_000_000, "default": 7}),
    );
    properties.insert("agree".into(), json!({"type": "boolean", "default": true}));
    let description = "d".repeat(2_500);
    for i in properties.len()..MAX_FIELDS {
        properties.insert(
            format!("field.{i:03}"),
            json!({"type": "string", "title": format!("Field {i}"), "description": description,
                   "maxLength": MAX_TEXT_BYTES, "default": "x"}),
        );
    }
    let required: Vec<&String> = properties.keys().collect();
    json!({"message": longest_text('m'), "requestedSchema": {
        "type": "object", "title": longest_text('t'), "description": longest_text('d'),
        "properties": properties, "required": required}})
}

/// A form as servers ask it: five fields, one of each kind.
pub(crate) fn typical() -> Value {
    json!({"message": "Deploy checkout", "requestedSchema": {
        "type": "object",
        "properties": {
            "environment": {"type": "string", "title": "Environment", "description": "Where it runs",
                "oneOf": [{"const": "staging", "title": "Staging"},
                          {"const": "production", "title": "Production"}],
                "default": "staging"},
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 2},
            "notify": {"type": "array", "title": "Notify",
                "items": {"anyOf": [{"const": "email", "title": "Email"}, {"const": "chat", "title": "Chat"}]}},
            "owner": {"type": "string", "title": "Owner's email", "format": "email"},
            "canary": {"type": "boolean", "title": "Canary first", "default": true}
        },
        "required": ["environment", "replicas", "owner"]
    }})
}

/// What a browser posts for `form` on Send: every option ticked, the last option chosen, a
/// number, yes, and the longest text typed in each text field (an email in one named
/// `owner`).
pub(crate) fn post(form: &FormModel) -> Vec<(String, String)> {
    let mut posted = Vec::new();
    for field in form.fields() {
        let name = format!("field:{}", field.name());
        match field.control() {
            Control::MultiChoice => {
                for (value, _) in field.options() {
                    posted.push((name.clone(), value.to_owned()));
                }
            }
            Control::Choice => {
                let (value, _) = *field.options().last().unwrap();
                posted.push((name, value.to_owned()));
            }
            Control::Number => posted.push((name, "3".to_owned())),
            Control::Boolean => posted.push((name, "true".to_owned())),
            _ if field.name() == "owner" => posted.push((name, "ada@example.com".to_owned())),
            _ => posted.push((name, longest_text('a'))),
        }
    }
    posted.push(("elicit-action".to_owned(), "accept".to_owned()));
    posted
}
