//! Required fields and types.

use super::*;

#[test]
fn a_filled_form_decodes() {
    assert_eq!(accepts::<Kinds>(&kinds_json()), kinds());
}

#[test]
fn absent_and_null_required_fields_are_required() {
    rejects::<Kinds>(&json!({}), &ALL_KINDS_REQUIRED);
    rejects::<Kinds>(
        &json!({"text": null, "number": null, "integer": null, "flag": null, "color": null, "colors": null}),
        &ALL_KINDS_REQUIRED,
    );
    for key in ["text", "number", "integer", "flag", "color", "colors"] {
        let mut content = kinds_json();
        rejects::<Kinds>(&kinds_with(key, Value::Null), &[(key, "is required")]);
        content.as_object_mut().unwrap().remove(key);
        rejects::<Kinds>(&content, &[(key, "is required")]);
    }
    // An empty string, zero, false and an empty list are answers, not absence.
    let empty =
        json!({"text": "", "number": 0, "integer": 0, "flag": false, "color": "Red", "colors": []});
    assert_eq!(
        accepts::<Kinds>(&empty),
        Kinds {
            text: String::new(),
            number: 0.0,
            integer: 0,
            flag: false,
            color: Color::Red,
            colors: vec![],
        }
    );
}

#[test]
fn type_mismatch_text() {
    for wrong in [
        json!(1),
        json!(1.5),
        json!(true),
        json!([]),
        json!(["hi"]),
        json!({}),
    ] {
        rejects::<Kinds>(&kinds_with("text", wrong), &[("text", "must be text")]);
    }
}

#[test]
fn type_mismatch_number() {
    for wrong in [
        json!("1.5"),
        json!(""),
        json!(true),
        json!([1.5]),
        json!({"n": 1}),
    ] {
        rejects::<Kinds>(
            &kinds_with("number", wrong),
            &[("number", "must be a number")],
        );
    }
    for (ok, expected) in [
        (json!(3), 3.0),
        (json!(-0.0), 0.0),
        (json!(1e-300), 1e-300),
        (json!(u64::MAX), u64::MAX as f64),
    ] {
        assert_eq!(accepts::<Kinds>(&kinds_with("number", ok)).number, expected);
    }
}

#[test]
fn type_mismatch_integer() {
    for wrong in [
        json!("3"),
        json!(true),
        json!([3]),
        json!({}),
        json!(3.5),
        json!(0.1),
        json!(-0.5),
        json!(1e-300),
    ] {
        rejects::<Kinds>(
            &kinds_with("integer", wrong),
            &[("integer", "must be a whole number")],
        );
    }
}

#[test]
fn type_mismatch_boolean() {
    for wrong in [
        json!("true"),
        json!("false"),
        json!(0),
        json!(1),
        json!([]),
        json!({}),
    ] {
        rejects::<Kinds>(
            &kinds_with("flag", wrong),
            &[("flag", "must be true or false")],
        );
    }
}

#[test]
fn type_mismatch_single_select() {
    for wrong in [
        json!(1),
        json!(true),
        json!(["Red"]),
        json!({"Red": true}),
        json!("red"),
        json!("RED"),
        json!(""),
        json!(" Red"),
        json!("Purple"),
    ] {
        rejects::<Kinds>(
            &kinds_with("color", wrong),
            &[("color", "must be one of `Red`, `Green`, `Blue`")],
        );
    }
}

#[test]
fn type_mismatch_multi_select() {
    for wrong in [json!("Red"), json!({"0": "Red"}), json!(1), json!(true)] {
        rejects::<Kinds>(
            &kinds_with("colors", wrong),
            &[("colors", "must be a list of options")],
        );
    }
    for (wrong, reason) in [
        (json!([1]), "must list options as text, not a number"),
        (json!(["Red", null]), "must list options as text, not null"),
        (
            json!([true]),
            "must list options as text, not true or false",
        ),
        (json!([["Red"]]), "must list options as text, not a list"),
        (json!([{}]), "must list options as text, not an object"),
        (
            json!(["Red", "red"]),
            "chooses `red`, which is not one of `Red`, `Green`, `Blue`",
        ),
    ] {
        rejects::<Kinds>(&kinds_with("colors", wrong), &[("colors", reason)]);
    }
}

#[test]
fn wrong_types_everywhere_are_all_reported() {
    rejects::<Kinds>(
        &json!({"text": 1, "number": "1", "integer": 1.5, "flag": "yes", "color": 0, "colors": "Red"}),
        &[
            ("text", "must be text"),
            ("number", "must be a number"),
            ("integer", "must be a whole number"),
            ("flag", "must be true or false"),
            ("color", "must be one of `Red`, `Green`, `Blue`"),
            ("colors", "must be a list of options"),
        ],
    );
    // The same junk in every field; `[]` is a valid (empty) answer to the multi-select.
    for (junk, colors) in [
        (json!([]), None),
        (json!({}), Some("must be a list of options")),
        (json!([[[]]]), Some("must list options as text, not a list")),
        (
            json!({"a": {"b": [1, 2, {"c": null}]}}),
            Some("must be a list of options"),
        ),
        (json!(-1e308), Some("must be a list of options")),
    ] {
        let all = ["text", "number", "integer", "flag", "color", "colors"]
            .map(|k| (k.to_owned(), junk.clone()));
        let mut expected = vec![
            ("text", "must be text"),
            ("number", "must be a number"),
            ("integer", "must be a whole number"),
            ("flag", "must be true or false"),
            ("color", "must be one of `Red`, `Green`, `Blue`"),
        ];
        if junk.is_number() {
            expected.remove(2);
            expected.insert(2, ("integer", "must be at least -2147483648"));
            expected.remove(1);
        }
        expected.extend(colors.map(|reason| ("colors", reason)));
        rejects::<Kinds>(&Value::Object(Map::from_iter(all)), &expected);
    }
}
