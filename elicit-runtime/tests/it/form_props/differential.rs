//! The runtime's validator against the `jsonschema` crate, on the same generated content: both
//! must accept and refuse exactly the same answers, with format checking on.
//!
//! Three rules differ by design, and are pinned here:
//! - the MCP form model reads a `null` field as absent (clients send `null` for a cleared
//!   optional field), where JSON Schema would refuse `null` for a typed property: nulls are
//!   removed before asking `jsonschema`;
//! - whole numbers are held as 64-bit signed integers on every side of the wire, so the model
//!   refuses integers beyond that range even where the schema advertises no bound (a `u64`
//!   field); JSON Schema has no such limit;
//! - a multi-select chooses each option at most once (it is a set of checkboxes), while the
//!   restricted schema has no `uniqueItems` to say so.
//!
//! Any other disagreement fails the test.

use super::*;

/// What `jsonschema` is given: the content with `null` fields removed (see the module docs).
fn without_nulls(content: &Json) -> Json {
    match content {
        Json::Object(map) => Json::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether every error is one of the model's pinned rules (see the module docs).
fn only_pinned_rules(ours: &Result<(), ContentError>) -> bool {
    let bounds = [
        format!("must be at most {}", i64::MAX),
        format!("must be at least {}", i64::MIN),
    ];
    let pinned = |reason: &String| {
        bounds.contains(reason)
            || (reason.starts_with("chooses `") && reason.ends_with("` more than once"))
    };
    ours.as_ref()
        .err()
        .is_some_and(|e| e.errors().iter().all(|f| pinned(&f.reason)))
}

pub(super) fn validator<T: ElicitForm>() -> jsonschema::Validator {
    let schema = serde_json::to_value(T::requested_schema()).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the requestedSchema is a valid JSON Schema")
}

fn agrees<T: ElicitForm>(
    validator: &jsonschema::Validator,
    content: &Json,
) -> Result<(), TestCaseError> {
    let ours = T::requested_schema().validate(content);
    let theirs = validator.is_valid(&without_nulls(content));
    if theirs && only_pinned_rules(&ours) {
        return Ok(());
    }
    prop_assert_eq!(
        ours.is_ok(),
        theirs,
        "elicit: {:?}; jsonschema: {}; content: {}",
        ours,
        theirs,
        content
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn rich_validator_agrees_with_jsonschema(content in content::<Rich>(valid_rich())) {
        thread_local!(static V: jsonschema::Validator = validator::<Rich>());
        V.with(|v| agrees::<Rich>(v, &content))?;
    }

    #[test]
    fn loose_validator_agrees_with_jsonschema(content in content::<Loose>(valid_loose())) {
        thread_local!(static V: jsonschema::Validator = validator::<Loose>());
        V.with(|v| agrees::<Loose>(v, &content))?;
    }
}
