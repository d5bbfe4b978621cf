//! The properties (a) to (d) of this module, checked on generated content.

use super::*;

fn failing_fields(err: &ContentError) -> BTreeSet<String> {
    err.errors().iter().map(|e| e.field.clone()).collect()
}

/// (a): the decoder and the model agree; and the decoder, which checks against its own schema
/// with the constants of each field's rules, decodes exactly as it does against a copy of that
/// schema, which it reads.
pub(super) fn decoder_agrees_with_model<T: ElicitForm + Debug>(
    content: &Json,
) -> Result<(), TestCaseError> {
    let decoded = T::from_content(content);
    let copy = T::requested_schema().clone();
    let read = T::decode_with(content, &copy);
    match (&decoded, &read) {
        // `to_content`: a `HashSet` field's two decodings iterate in different orders.
        (Ok(own), Ok(copied)) => prop_assert_eq!(own.to_content(), copied.to_content()),
        (Err(own), Err(copied)) => prop_assert_eq!(own, copied),
        _ => prop_assert!(false, "own schema {:?} vs a copy {:?}", decoded, read),
    }
    let validated = T::requested_schema().validate(content);
    prop_assert_eq!(
        decoded.is_ok(),
        validated.is_ok(),
        "decoder {:?} vs model {:?}",
        decoded,
        validated
    );
    if let (Err(d), Err(v)) = (&decoded, &validated) {
        prop_assert_eq!(failing_fields(d), failing_fields(v));
        // Stronger: the decoder checks each field with the model first, so even the reasons
        // and their order are the same.
        prop_assert_eq!(d, v);
    }
    Ok(())
}

/// (b): what the decoder accepts re-encodes into valid content that decodes to the same value.
pub(super) fn accepted_round_trips<T: ElicitForm + Debug + PartialEq>(
    content: &Json,
) -> Result<(), TestCaseError> {
    let Ok(value) = T::from_content(content) else {
        return Ok(());
    };
    let again = Json::Object(value.to_content());
    prop_assert!(
        T::requested_schema().validate(&again).is_ok(),
        "{} re-encoded as {} fails: {:?}",
        content,
        again,
        T::requested_schema().validate(&again)
    );
    let decoded = T::from_content(&again);
    prop_assert_eq!(decoded.as_ref().ok(), Some(&value), "from {}", again);
    // And encoding is stable from there on.
    prop_assert_eq!(Json::Object(decoded.unwrap().to_content()), again);
    Ok(())
}

/// The effective answer of every property, for comparing content in (c):
/// - "not answered" (key missing or `null`) and "answered with the default" are the same
///   answer, since the decoder fills in the default: the default is filled in here too, and
///   fields with neither an answer nor a default are left out;
/// - numbers are compared by value as the property's type reads them: an integer property
///   reads `3.0` as `3`, a number property reads `3` as `3.0`;
/// - set-valued multi-selects (`UNORDERED`) are compared as sets; a `Vec` keeps its order.
///
/// `to_content` must then give back exactly the canonical content, except that it writes whole
/// numbers of integer fields as integers and floats of number fields as floats.
fn canonical(schema: &RequestedSchema, content: &Map<String, Json>) -> BTreeMap<String, Json> {
    let mut out = BTreeMap::new();
    for (name, property) in &schema.properties {
        let answer = content
            .get(name)
            .filter(|v| !v.is_null())
            .cloned()
            .or_else(|| property.default_value());
        let Some(answer) = answer else { continue };
        let normal = match (property, &answer) {
            (PropertySchema::Number(n), Json::Number(x)) if n.integer => {
                if let Some(i) = x.as_i64() {
                    Json::from(i)
                } else if let Some(u) = x.as_u64() {
                    Json::from(u)
                } else {
                    let f = x.as_f64().unwrap();
                    assert!(f.fract() == 0.0 && f.abs() <= 9.3e18, "not whole: {f}");
                    Json::from(f as i64)
                }
            }
            (PropertySchema::Number(_), Json::Number(x))
                if SINGLE_PRECISION.contains(&name.as_str()) =>
            {
                let single = x.as_f64().unwrap() as f32;
                Json::from(single.to_string().parse::<f64>().unwrap())
            }
            (PropertySchema::Number(_), Json::Number(x)) => Json::from(x.as_f64().unwrap()),
            (PropertySchema::MultiSelect(_), Json::Array(items))
                if UNORDERED.contains(&name.as_str()) =>
            {
                let mut items: Vec<String> = items
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect();
                items.sort();
                Json::from(items)
            }
            _ => answer,
        };
        out.insert(name.clone(), normal);
    }
    out
}

/// (c): valid content decodes and comes back the same (see `canonical`).
pub(super) fn valid_round_trips<T: ElicitForm + Debug + PartialEq>(
    content: &Json,
) -> Result<(), TestCaseError> {
    let schema = T::requested_schema();
    prop_assert!(
        schema.validate(content).is_ok(),
        "generator made invalid content {}: {:?}",
        content,
        schema.validate(content)
    );
    let value = T::from_content(content);
    prop_assert!(value.is_ok(), "{} refused: {:?}", content, value);
    let out = value.unwrap().to_content();
    let expected = canonical(schema, content.as_object().unwrap());
    // No nulls, no missing defaults, no unknown keys in what `to_content` writes...
    prop_assert_eq!(
        out.keys().collect::<BTreeSet<_>>(),
        expected.keys().collect::<BTreeSet<_>>()
    );
    // ...and each number written the way its property's type holds it.
    for (name, property) in &schema.properties {
        if let (PropertySchema::Number(n), Some(Json::Number(x))) = (property, out.get(name)) {
            prop_assert_eq!(n.integer, !x.is_f64(), "{} written as {}", name, x);
        }
    }
    prop_assert_eq!(canonical(schema, &out), expected);
    Ok(())
}

/// The schema's own JSON text, parsed back (the text keeps the property order).
pub(super) fn reparsed<T: ElicitForm>() -> RequestedSchema {
    let text = serde_json::to_string(T::requested_schema()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// (d): the reparsed schema validates exactly like the original when parsed from the
/// schema's text, and like the original with its properties sorted by name when parsed from a
/// `serde_json::Value` (which sorts object keys, so errors come in name order).
fn reparsed_schema_agrees<T: ElicitForm>(
    reparsed: &RequestedSchema,
    from_value: &RequestedSchema,
    content: &Json,
) -> Result<(), TestCaseError> {
    let original = T::requested_schema().validate(content);
    prop_assert_eq!(&reparsed.validate(content), &original);
    prop_assert_eq!(
        &from_value.validate(content),
        &sorted_by_name::<T>().validate(content)
    );
    Ok(())
}

pub(super) fn from_value<T: ElicitForm>() -> RequestedSchema {
    RequestedSchema::from_value(&serde_json::to_value(T::requested_schema()).unwrap()).unwrap()
}

/// Whether `serde_json::Value` keeps object order in this build (`preserve_order`, which the
/// `rmcp` feature turns on and a workspace-wide `cargo test` therefore sees).
pub(super) fn value_keeps_order() -> bool {
    json!({"b": 0, "a": 0})
        .as_object()
        .and_then(|m| m.keys().next())
        .map(String::as_str)
        == Some("b")
}

/// The form's schema with its properties in the order a `Value` holds them: declaration order
/// with `preserve_order`, name order without.
pub(super) fn sorted_by_name<T: ElicitForm>() -> RequestedSchema {
    let mut schema = T::requested_schema().clone();
    if !value_keeps_order() {
        schema.properties.sort_by(|a, b| a.0.cmp(&b.0));
    }
    schema
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn a_rich_decoder_agrees_with_model(content in content::<Rich>(valid_rich())) {
        decoder_agrees_with_model::<Rich>(&content)?;
    }

    #[test]
    fn a_loose_decoder_agrees_with_model(content in content::<Loose>(valid_loose())) {
        decoder_agrees_with_model::<Loose>(&content)?;
    }

    #[test]
    fn b_rich_accepted_content_round_trips(content in content::<Rich>(valid_rich())) {
        accepted_round_trips::<Rich>(&content)?;
    }

    #[test]
    fn b_loose_accepted_content_round_trips(content in content::<Loose>(valid_loose())) {
        accepted_round_trips::<Loose>(&content)?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn c_rich_valid_content_round_trips(content in valid_rich()) {
        valid_round_trips::<Rich>(&content)?;
    }

    #[test]
    fn c_loose_valid_content_round_trips(content in valid_loose()) {
        valid_round_trips::<Loose>(&content)?;
    }

    #[test]
    fn d_rich_reparsed_schema_validates_the_same(content in content::<Rich>(valid_rich())) {
        reparsed_schema_agrees::<Rich>(&reparsed::<Rich>(), &from_value::<Rich>(), &content)?;
    }

    #[test]
    fn d_loose_reparsed_schema_validates_the_same(content in content::<Loose>(valid_loose())) {
        reparsed_schema_agrees::<Loose>(&reparsed::<Loose>(), &from_value::<Loose>(), &content)?;
    }
}
