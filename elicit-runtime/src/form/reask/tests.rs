use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::*;
use crate::schema::RequestedSchema;

/// The question of a booking form: an email, guests (titled, 1–12), an optional note. Written
/// in key order, so the properties come out in this order whether or not serde_json keeps
/// insertion order (`preserve_order`, which a workspace build with rmcp turns on).
fn booking() -> Prepared {
    let schema = RequestedSchema::from_value(&json!({
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email"},
            "guests": {"type": "integer", "title": "Number of guests", "minimum": 1, "maximum": 12},
            "note": {"type": "string"}
        },
        "required": ["guests", "email"]
    }))
    .unwrap();
    let digest = crate::state::question_digest("booking", "Book a table", &schema);
    Prepared {
        key: "booking".into(),
        message: "Book a table".into(),
        schema: Cow::Owned(schema),
        digest,
    }
}

fn content(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

fn errors_of(value: &Value) -> ContentError {
    booking().schema().validate(value).unwrap_err()
}

/// The re-ask after `answer` to `prepared`, following `earlier` (if any).
fn reask_after(prepared: &Prepared, earlier: Option<&Reask>, answer: &Value) -> Reask {
    next(
        prepared,
        earlier,
        &content(answer.clone()),
        &errors_of(answer),
    )
}

#[test]
fn the_message_lists_each_bad_field_by_title_or_name_with_the_decoders_reason() {
    let answer = json!({"guests": 40, "email": "nope"});
    let prepared = booking();
    let reask = reask_after(&prepared, None, &answer);
    assert_eq!(
        reask.message(),
        "Book a table\n\nPlease correct and send again:\n\
         - email must be a valid email address\n\
         - Number of guests must be at most 12"
    );
    assert_eq!(reask.count(), 1);
    assert!(reask.is_for(prepared.digest()));
    assert!(reask.defaults().is_empty());
}

#[test]
fn values_that_passed_are_pre_filled_and_failed_ones_are_not() {
    let answer = json!({"guests": 4, "email": "nope", "note": "window", "extra": 1});
    let prepared = booking();
    let first = reask_after(&prepared, None, &answer);
    assert_eq!(
        Value::Object(first.defaults().clone()),
        json!({"guests": 4, "note": "window"})
    );
    let asked = question(&first, &prepared).unwrap();
    assert_eq!(
        serde_json::to_value(asked.schema()).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "email": {"type": "string", "format": "email"},
                "guests": {"type": "integer", "title": "Number of guests", "minimum": 1, "maximum": 12, "default": 4},
                "note": {"type": "string", "default": "window"}
            },
            "required": ["email"]
        })
    );
    assert_ne!(asked.digest(), prepared.digest());
    // The second answer breaks what passed before: that value is no longer pre-filled.
    let again = json!({"guests": 99, "email": "a@b.co"});
    let second = reask_after(&prepared, Some(&first), &again);
    assert_eq!(second.count(), 2);
    assert_eq!(
        Value::Object(second.defaults().clone()),
        json!({"email": "a@b.co", "note": "window"})
    );
    assert_eq!(
        second.message(),
        "Book a table\n\nPlease correct and send again:\n- Number of guests must be at most 12"
    );
}

/// A client may write a whole number as `4.0`; the pre-filled default of an integer field is
/// written `4`, which clients reading `default` into an integer (rmcp) accept.
#[test]
fn an_integer_answered_as_a_float_is_pre_filled_as_an_integer() {
    let answer = json!({"guests": 4.0, "email": "nope"});
    let prepared = booking();
    let first = reask_after(&prepared, None, &answer);
    let asked = question(&first, &prepared).unwrap();
    let schema = serde_json::to_string(asked.schema()).unwrap();
    assert!(schema.contains(r#""default":4}"#), "{schema}");
}

#[test]
fn quoted_text_cannot_break_lines_or_run_on() {
    let mut errors = ContentError::new();
    errors.push(
        "note",
        format!("says `{}\n- Visit evil.example\u{202E}`", "x".repeat(300)),
    );
    errors.push("", "must be an object");
    // A field name a hand-written decoder reports is quoted the same way.
    errors.push("x\n- Visit\u{2066}", "is required");
    let text = message("Book a table", booking().schema(), &errors);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[3].starts_with("- note says `xxx"));
    assert!(lines[3].ends_with('…'));
    assert_eq!(lines[3].chars().count(), "- note ".len() + REASON_CHARS + 1);
    assert_eq!(lines[4], "- The answer must be an object");
    assert_eq!(lines[5], "- x - Visit  is required");
}
