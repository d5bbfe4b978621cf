use std::borrow::Cow;

use rmcp::model::{ElicitationSchema, PrimitiveSchemaDefinition};
use serde_json::{Value, json};

use super::elicitation_schema;
use crate::schema::RequestedSchema;

fn ours(schema: Value) -> RequestedSchema {
    serde_json::from_value(schema).expect("a schema our parser accepts")
}

/// What rmcp's own parse of the schema's JSON text writes, and its property order.
fn through_json(schema: &RequestedSchema) -> (String, Option<Vec<String>>) {
    let text = serde_json::to_string(schema).unwrap();
    let parsed: ElicitationSchema = serde_json::from_str(&text).expect("rmcp parses it");
    (
        serde_json::to_string(&parsed).unwrap(),
        parsed.property_order,
    )
}

/// Every kind of property, with every annotation and constraint it can carry.
fn every_kind() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Full name",
                     "minLength": 2, "maxLength": 60, "default": "Ada"},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "day": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12, "default": 2},
            "big": {"type": "integer", "minimum": -9007199254740993_i64, "maximum": 9223372036854775807_i64},
            "budget": {"type": "number", "description": "Euros", "minimum": 0, "maximum": 1000.5, "default": 99.9},
            "tiny": {"type": "number", "minimum": 1e-300, "maximum": 1e308},
            "newsletter": {"type": "boolean", "title": "News", "default": true},
            "flag": {"type": "boolean"},
            "seating": {"type": "string", "title": "Seating", "enum": ["in", "out"], "default": "out"},
            "plan": {"type": "string", "description": "Plan", "oneOf": [
                {"const": "free", "title": "Free"}, {"const": "team", "title": "Team"}], "default": "team"},
            "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"], "default": "a"},
            "topics": {"type": "array", "title": "Topics", "minItems": 1, "maxItems": 2,
                       "items": {"type": "string", "enum": ["x", "y", "z"]}, "default": ["x"]},
            "tags": {"type": "array", "description": "Tags", "minItems": 0, "maxItems": 3,
                     "items": {"anyOf": [{"const": "p", "title": "P"}, {"const": "q", "title": "Q"}]},
                     "default": ["p", "q"]}
        },
        "required": ["email", "guests", "plan"]
    })
}

#[test]
fn every_kind_of_property_is_built_as_rmcp_parses_it_in_declaration_order() {
    let schema = ours(every_kind());
    let typed = typed(&schema).expect("every property maps");
    // A lent schema's labels are lent on, not copied.
    let lent: &'static RequestedSchema = Box::leak(Box::new(schema.clone()));
    let borrowed = elicitation_schema(&Cow::Borrowed(lent)).expect("maps");
    let titles: Vec<_> = borrowed.properties.values().filter_map(title_of).collect();
    assert!(!titles.is_empty());
    assert!(
        titles.iter().all(|t| matches!(t, Cow::Borrowed(_))),
        "{titles:?}"
    );
    let (text, order) = through_json(&schema);
    assert_eq!(serde_json::to_string(&typed).unwrap(), text);
    assert_eq!(typed.property_order, order);
    assert_eq!(
        typed.property_order.unwrap()[..3],
        ["name", "email", "site"].map(String::from)
    );
}

#[test]
fn small_schemas_and_what_rmcps_builders_would_drop_map_too() {
    for schema in [
        // Empty multi-select defaults: rmcp's builder drops them, its parse keeps them.
        json!({"type": "object", "properties": {
            "t": {"type": "array", "items": {"type": "string", "enum": ["x"]}, "default": []},
            "u": {"type": "array", "items": {"anyOf": [{"const": "x", "title": "X"}]}, "default": []}}}),
        json!({"type": "object", "properties": {}}),
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
        json!({"type": "object", "properties": {
            "z": {"type": "string"}, "a": {"type": "string", "enum": ["1"]}}}),
    ] {
        let schema = ours(schema);
        let typed = typed(&schema).expect("maps");
        assert_eq!(
            serde_json::to_string(&typed).unwrap(),
            through_json(&schema).0
        );
    }
}

#[test]
fn what_would_not_map_exactly_is_left_to_rmcps_parse() {
    // An integer bound beyond i64.
    let huge = ours(json!({"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 18446744073709551615_u64}}}));
    assert!(typed(&huge).is_none());
}

/// `schema` as rmcp's, built both ways: lent (a form's own schema, `'static`) and copied (one
/// with call-site defaults); both must give the same rmcp schema.
fn typed(schema: &RequestedSchema) -> Option<ElicitationSchema> {
    let lent: &'static RequestedSchema = Box::leak(Box::new(schema.clone()));
    let borrowed = elicitation_schema(&Cow::Borrowed(lent));
    let owned = elicitation_schema(&Cow::Owned(schema.clone()));
    assert_eq!(
        borrowed.as_ref().map(|s| serde_json::to_string(s).unwrap()),
        owned.as_ref().map(|s| serde_json::to_string(s).unwrap())
    );
    owned
}

fn title_of(property: &PrimitiveSchemaDefinition) -> Option<&Cow<'static, str>> {
    match property {
        PrimitiveSchemaDefinition::String(s) => s.title.as_ref(),
        PrimitiveSchemaDefinition::Boolean(b) => b.title.as_ref(),
        _ => None,
    }
}
