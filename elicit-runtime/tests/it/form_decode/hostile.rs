//! Hostile input.

use super::*;

const DEPTH: usize = 10_000;

#[test]
fn deeply_nested_junk_in_every_field() {
    // `Value::clone`, `Debug`, `PartialEq` and drop all recurse: build each deep value afresh
    // and let `Deep` take it apart iteratively.
    type Builder = fn(usize) -> Value;
    let builders: [(Builder, bool); 2] = [(deep_array, true), (deep_object, false)];
    for (deep, is_array) in builders {
        let keys = [
            "text", "number", "integer", "flag", "color", "colors", "junk",
        ];
        let content = Deep(Value::Object(
            keys.iter()
                .map(|k| ((*k).to_owned(), deep(DEPTH)))
                .collect(),
        ));
        let colors = if is_array {
            "must list options as text, not a list"
        } else {
            "must be a list of options"
        };
        let expected = owned(&[
            ("text", "must be text"),
            ("number", "must be a number"),
            ("integer", "must be a whole number"),
            ("flag", "must be true or false"),
            ("color", "must be one of `Red`, `Green`, `Blue`"),
            ("colors", colors),
        ]);
        let err = Kinds::from_content(&content).unwrap_err();
        assert_eq!(pairs(&err), expected);
        assert_eq!(
            Kinds::requested_schema().validate(&content).unwrap_err(),
            err
        );

        // Deep junk under unknown keys is never looked at.
        let mut ok = Deep(kinds_json());
        ok.0["junk"] = deep(DEPTH);
        assert_eq!(Kinds::requested_schema().validate(&ok), Ok(()));
        assert!(Kinds::from_content(&ok).unwrap() == kinds());

        // Deep junk as the whole content: an array is not an object; an object of junk
        // answers nothing.
        let whole = Deep(deep(DEPTH));
        let err = Kinds::from_content(&whole).unwrap_err();
        if is_array {
            assert_eq!(pairs(&err), owned(&[("", "must be an object")]));
        } else {
            assert_eq!(pairs(&err), owned(&ALL_KINDS_REQUIRED));
        }
        assert_eq!(Kinds::requested_schema().validate(&whole).unwrap_err(), err);

        // Deep junk inside a multi-select answer.
        let inside = Deep(kinds_with(
            "colors",
            Value::Array(vec![json!("Red"), deep(DEPTH)]),
        ));
        let err = Kinds::from_content(&inside).unwrap_err();
        let reason = if is_array {
            "must list options as text, not a list"
        } else {
            "must list options as text, not an object"
        };
        assert_eq!(pairs(&err), owned(&[("colors", reason)]));

        // Deep junk in optional fields.
        let optional = Deep(Value::Object(
            ["name", "count", "ratio", "flag", "color", "colors", "seats"]
                .iter()
                .map(|k| ((*k).to_owned(), deep(DEPTH)))
                .collect(),
        ));
        let err = Optional::from_content(&optional).unwrap_err();
        assert_eq!(err.errors().len(), 7);
        assert_eq!(
            Optional::requested_schema()
                .validate(&optional)
                .unwrap_err(),
            err
        );
    }
}

#[test]
fn deeply_nested_text_is_refused_by_serde_json() {
    let arrays = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    let objects = format!("{}null{}", r#"{"a":"#.repeat(DEPTH), "}".repeat(DEPTH));
    let in_field = format!(r#"{{"text":{arrays}}}"#);
    for text in [&arrays, &objects, &in_field] {
        let parsed = serde_json::from_str::<Value>(text);
        let err = parsed.expect_err("serde_json's recursion limit");
        assert!(err.to_string().contains("recursion limit"), "{err}");
    }
    // Within serde_json's limit the nesting parses and is refused or ignored.
    let shallow = format!(
        r#"{{"text":{}{}, "junk": {}{}}}"#,
        "[".repeat(100),
        "]".repeat(100),
        "[".repeat(100),
        "]".repeat(100)
    );
    let content: Value = serde_json::from_str(&shallow).unwrap();
    rejects::<Kinds>(
        &content,
        &[
            ("text", "must be text"),
            ("number", "is required"),
            ("integer", "is required"),
            ("flag", "is required"),
            ("color", "is required"),
            ("colors", "is required"),
        ],
    );
}

#[test]
fn huge_strings() {
    for size in [1 << 20, 10 << 20] {
        let ascii = "a".repeat(size);
        let multibyte = "é".repeat(size / 2);
        for big in [&ascii, &multibyte] {
            let v = Value::String(big.clone());
            let got = accepts::<Texts>(&json!({ "free": v }));
            assert_eq!(got.free.as_deref().map(str::len), Some(big.len()));
            rejects::<Texts>(
                &json!({
                    "short": v, "nonempty": v, "single": v, "email": v, "uri": v, "date": v,
                    "date_time": v, "short_email": v
                }),
                &[
                    ("short", "must be at most 4 characters long"),
                    ("single", "must be at most 1 character long"),
                    ("email", "must be a valid email address"),
                    ("uri", "must be a valid absolute URI"),
                    ("date", "must be a valid date like 2024-01-31"),
                    (
                        "date_time",
                        "must be a valid date and time like 2024-01-31T09:30:00Z",
                    ),
                    ("short_email", "must be at most 8 characters long"),
                ],
            );
            let quoted: String = big.chars().take(40).collect();
            rejects::<Selects>(
                &json!({ "color": v, "vec": [v] }),
                &[
                    ("color", "must be one of `Red`, `Green`, `Blue`"),
                    (
                        "vec",
                        format!("chooses `{quoted}…`, which is not one of `Red`, `Green`, `Blue`")
                            .as_str(),
                    ),
                ],
            );
            rejects::<Kinds>(
                &kinds_with("integer", v.clone()),
                &[("integer", "must be a whole number")],
            );
        }
        // A valid URI and a near-email of this size.
        let uri = format!("https://example.com/{}", "a".repeat(size));
        assert_eq!(
            accepts::<Texts>(&json!({ "uri": uri }))
                .uri
                .map(|u| u.len()),
            Some(uri.len())
        );
        let email = format!("a@{}.com", "b".repeat(size));
        rejects::<Texts>(
            &json!({ "email": email }),
            &[("email", "must be a valid email address")],
        );
        // A huge key.
        let mut content = kinds_json();
        content[ascii.as_str()] = json!(1);
        assert_eq!(accepts::<Kinds>(&content), kinds());
    }
}

#[test]
fn huge_arrays() {
    const N: usize = 100_000;
    let repeated = Value::Array(vec![json!("Red"); N]);
    let numbers = Value::Array((0..N).map(|i| json!(i)).collect());
    let strings = Value::Array((0..N).map(|i| json!(format!("o{i}"))).collect());
    let nulls = Value::Array(vec![Value::Null; N]);
    rejects::<Selects>(
        &json!({"vec": repeated, "tree": numbers, "hash": strings, "any": nulls}),
        &[
            ("vec", "chooses `Red` more than once"),
            ("tree", "must list options as text, not a number"),
            (
                "hash",
                "chooses `o0`, which is not one of `indoor-window`, `terrace`, `bar`",
            ),
            ("any", "must list options as text, not null"),
        ],
    );
    // Three valid options then junk: the junk is found.
    let mut tail = vec![json!("Red"), json!("Green"), json!("Blue")];
    tail.extend(std::iter::repeat_n(json!("Blue"), N));
    rejects::<Selects>(
        &json!({ "any": tail }),
        &[("any", "chooses `Blue` more than once")],
    );
    for field in ["text", "number", "integer", "flag", "color"] {
        let content = kinds_with(field, repeated.clone());
        let err = Kinds::from_content(&content).unwrap_err();
        assert_eq!(err.errors().len(), 1);
        assert_eq!(err.errors()[0].field, field);
    }
    // An array of 100k arrays.
    let nested = Value::Array(vec![json!([]); N]);
    rejects::<Kinds>(
        &kinds_with("colors", nested),
        &[("colors", "must list options as text, not a list")],
    );
}

#[test]
fn nulls_and_junk_inside_answers() {
    rejects::<Optional>(
        &json!({"colors": [null, null], "seats": [{}], "name": [null], "count": [null]}),
        &[
            ("name", "must be text"),
            ("count", "must be a whole number"),
            ("colors", "must list options as text, not null"),
            ("seats", "must list options as text, not an object"),
        ],
    );
}
