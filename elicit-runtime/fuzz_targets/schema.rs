//! `requested_schema`: strict parsing of a `requestedSchema` from any JSON text, and
//! validating any content against what parses.

use serde_json::Value;

use super::fixtures::same_json;
use crate::schema::RequestedSchema;

/// The input's first line is a `requestedSchema`, the rest (if any) an answer's `content`.
///
/// A schema parses the same way, from text and from a `Value`, up to the order of properties;
/// what parses serializes to JSON that parses back to the same schema; validating content
/// against it never panics, and its reasons name declared properties only.
pub fn requested_schema(data: &[u8]) {
    let (schema, content) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], Some(&data[at + 1..])),
        None => (data, None),
    };
    let content = content.and_then(|c| serde_json::from_slice::<Value>(c).ok());
    let from_text = serde_json::from_slice::<RequestedSchema>(schema);
    if let Ok(parsed) = &from_text {
        round_trips(parsed, content.as_ref());
    }
    let Ok(value) = serde_json::from_slice::<Value>(schema) else {
        assert!(
            from_text.is_err(),
            "text that is not JSON parsed as a schema"
        );
        return;
    };
    if let Ok(parsed) = RequestedSchema::from_value(&value) {
        round_trips(&parsed, content.as_ref());
    }
}

fn round_trips(schema: &RequestedSchema, content: Option<&Value>) {
    let text = serde_json::to_string(schema).expect("a schema serializes");
    let again: RequestedSchema = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("its own JSON does not parse: {e}: {text}"));
    // Exactly the same, but for floats that serde_json's default parsing reads back an ulp off.
    if &again != schema {
        let names = |s: &RequestedSchema| {
            s.properties
                .iter()
                .map(|(n, _)| n.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&again), names(schema), "{text}");
        let json = |s: &RequestedSchema| serde_json::to_value(s).expect("a schema serializes");
        assert!(same_json(&json(&again), &json(schema)), "{text}");
    }
    let Some(content) = content else {
        return;
    };
    if let Err(errors) = schema.validate(content) {
        for error in errors.errors() {
            assert!(
                error.field.is_empty() || schema.get(&error.field).is_some(),
                "an error names an undeclared field: {error:?}"
            );
        }
    }
}
