use serde_json::{Map, Value, json};

use super::super::model::*;
use super::super::serialize::tests::{SPEC_EXAMPLES, spec_models};

mod refusals;

/// Wraps one property's JSON text in a root object under the name `p`.
fn root_with(property: &str) -> String {
    format!(r#"{{"type":"object","properties":{{"p":{property}}}}}"#)
}

fn parse_str(text: &str) -> Result<RequestedSchema, String> {
    serde_json::from_str::<RequestedSchema>(text).map_err(|e| e.to_string())
}

/// The error of parsing `schema` with `from_value`, as `(path, message)`; also checks that the
/// `Deserialize` impl reports the same error text.
fn error_of(schema: Value) -> (String, String) {
    let err = RequestedSchema::from_value(&schema).expect_err("schema should be refused");
    let via_serde = parse_str(&schema.to_string()).expect_err("serde should refuse it too");
    assert!(
        via_serde.starts_with(&err.to_string()),
        "{via_serde:?} should start with {err}"
    );
    (err.path, err.message)
}

fn prop_error(property: Value) -> (String, String) {
    error_of(json!({"type": "object", "properties": {"p": property}}))
}

fn pair(path: &str, message: &str) -> (String, String) {
    (path.to_owned(), message.to_owned())
}

#[test]
fn spec_examples_parse_to_the_typed_model() {
    for (text, model) in SPEC_EXAMPLES.iter().zip(spec_models()) {
        let schema = parse_str(&root_with(text)).unwrap();
        assert_eq!(schema.properties, vec![("p".to_owned(), model.clone())]);
        let value: Value = serde_json::from_str(&root_with(text)).unwrap();
        assert_eq!(RequestedSchema::from_value(&value).unwrap(), schema);
    }
}

#[test]
fn spec_examples_round_trip_byte_for_byte() {
    for text in SPEC_EXAMPLES {
        let doc = root_with(text);
        let schema = parse_str(&doc).unwrap();
        assert_eq!(serde_json::to_string(&schema).unwrap(), doc);
    }
    let all = format!(
        r#"{{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{{{}}},"required":["v8","v0","v3"]}}"#,
        SPEC_EXAMPLES
            .iter()
            .enumerate()
            .map(|(i, e)| format!(r#""v{i}":{e}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let schema = parse_str(&all).unwrap();
    assert_eq!(serde_json::to_string(&schema).unwrap(), all);
    assert_eq!(
        parse_str(&serde_json::to_string(&schema).unwrap()).unwrap(),
        schema
    );
}

#[test]
fn deserialize_keeps_document_order_from_value_keeps_value_order() {
    let doc = r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"number"}},"required":["mid","zeta"]}"#;
    let schema = parse_str(doc).unwrap();
    let names: Vec<&str> = schema.properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
    assert_eq!(schema.required, ["mid", "zeta"]);
    assert_eq!(serde_json::to_string(&schema).unwrap(), doc);

    let value: Value = serde_json::from_str(doc).unwrap();
    let from_value = RequestedSchema::from_value(&value).unwrap();
    let expected: Vec<&str> = value["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let names: Vec<&str> = from_value
        .properties
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, expected);
    // Deserializing from a `Value` also works (in the Value's order).
    let via_value: RequestedSchema = serde_json::from_value(value).unwrap();
    assert_eq!(via_value, from_value);
}

#[test]
fn accepted_variations() {
    // `oneOf` as an alias of `anyOf` in multi-select items; emitted back as `anyOf`.
    let schema = parse_str(&root_with(
        r#"{"type":"array","items":{"oneOf":[{"title":"A","const":"a"}]}}"#,
    ))
    .unwrap();
    assert_eq!(
        serde_json::to_string(&schema).unwrap(),
        root_with(r#"{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}"#)
    );
    // Whole floats are fine for counts and integer bounds; empty title/description allowed.
    let schema = RequestedSchema::from_value(&json!({
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 2.0, "title": "", "description": ""},
            "i": {"type": "integer", "minimum": -5.0, "maximum": 1e3, "default": 0},
            "n": {"type": "number", "minimum": 0.5, "maximum": 0.5, "default": 0.5},
            "e": {"type": "string", "enum": [""]},
            "m": {"type": "array", "items": {"enum": ["x"], "type": "string"}, "minItems": 0, "maxItems": 0, "default": []}
        },
        "required": []
    }))
    .unwrap();
    let Some(PropertySchema::String(s)) = schema.get("s") else {
        panic!()
    };
    assert_eq!(s.min_length, Some(2));
    assert_eq!(s.annotations.title.as_deref(), Some(""));
    assert!(schema.required.is_empty());
    // Number extremes and integer/float mixtures in bounds.
    RequestedSchema::from_value(&json!({"type": "object", "properties": {
        "a": {"type": "integer", "minimum": i64::MIN, "maximum": u64::MAX, "default": i64::MAX},
        "b": {"type": "number", "minimum": -1e308, "maximum": 1e308, "default": 1e308},
        "c": {"type": "number", "minimum": 9007199254740993u64, "maximum": 9007199254740993u64}
    }}))
    .unwrap();
}

#[test]
fn duplicate_keys_in_the_document_are_refused() {
    let err = parse_str(
        r#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"number"}}}"#,
    )
    .unwrap_err();
    assert!(
        err.starts_with("`properties.a`: is declared more than once"),
        "{err}"
    );
    let err = parse_str(r#"{"type":"object","type":"object","properties":{}}"#).unwrap_err();
    assert!(err.starts_with("`type`: appears more than once"), "{err}");
}

#[test]
fn serde_errors_carry_the_path() {
    let err = parse_str(&root_with(r#"{"type":"number","minimum":"zero"}"#)).unwrap_err();
    assert!(
        err.starts_with("`properties.p.minimum`: expected a number"),
        "{err}"
    );
    for not_object in ["[1,{\"a\":2}]", "\"x\"", "1", "-1", "1.5", "true", "null"] {
        let err = parse_str(not_object).unwrap_err();
        assert!(
            err.starts_with("`requestedSchema`: expected an object"),
            "{not_object}: {err}"
        );
    }
    let err = parse_str(r#"{"type":"object","properties":[{"a":1}]}"#).unwrap_err();
    assert!(err.starts_with("`properties`: expected an object"), "{err}");
    // Malformed JSON is still a plain serde_json error.
    assert!(parse_str(r#"{"type":"object","#).is_err());
}

#[test]
fn hostile_schemas_do_not_panic() {
    // Deep nesting inside a property: refused by key, not by recursion.
    let mut deep = json!("leaf");
    for _ in 0..300 {
        deep = Value::Object(Map::from_iter([("x".to_owned(), deep)]));
    }
    let mut property = json!({"type": "string"});
    property["x"] = deep.clone();
    let mut root = json!({"type": "object", "properties": {}});
    root["properties"]["p"] = property;
    let err = RequestedSchema::from_value(&root).unwrap_err();
    assert_eq!(err.path, "properties.p.x");
    let mut root = json!({"type": "object", "properties": {}});
    root["nested"] = deep;
    let err = RequestedSchema::from_value(&root).unwrap_err();
    assert_eq!(err.path, "nested");
    // Deep documents hit serde_json's recursion limit and fail cleanly.
    let text = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    assert!(parse_str(&text).is_err());
    // A long enum and a huge string.
    let many: Vec<String> = (0..10_000).map(|i| format!("v{i}")).collect();
    let schema = RequestedSchema::from_value(&json!({"type": "object", "properties": {
        "e": {"type": "string", "enum": many, "default": "v9999"},
        "s": {"type": "string", "default": "x".repeat(1 << 20)}
    }}))
    .unwrap();
    assert_eq!(schema.properties.len(), 2);
}
