use serde_json::{Map, Value, json};

use super::super::model::*;
use super::*;

fn property(schema: Value) -> PropertySchema {
    let root = json!({"type": "object", "properties": {"p": schema}});
    let mut parsed = RequestedSchema::from_value(&root).expect("valid test schema");
    parsed.properties.remove(0).1
}

fn ok(schema: &PropertySchema, value: Value) {
    assert_eq!(schema.check(&value), Ok(()), "{value}");
}

fn fails(schema: &PropertySchema, value: Value, reason: &str) {
    assert_eq!(schema.check(&value), Err(reason.into()), "{value}");
}

fn num(n: Value) -> Number {
    match n {
        Value::Number(n) => n,
        other => panic!("{other} is not a number"),
    }
}

#[test]
fn string_type_and_lengths() {
    let s = property(json!({"type": "string", "minLength": 3, "maxLength": 5}));
    ok(&s, json!("abc"));
    ok(&s, json!("abcde"));
    ok(&s, json!("ééé")); // 3 characters, 6 bytes
    ok(&s, json!("😀😀😀😀😀"));
    fails(&s, json!("ab"), "must be at least 3 characters long");
    fails(&s, json!("abcdef"), "must be at most 5 characters long");
    fails(
        &s,
        json!("😀😀😀😀😀😀"),
        "must be at most 5 characters long",
    );
    for wrong in [json!(1), json!(true), json!(["abc"]), json!({"a": "abc"})] {
        fails(&s, wrong, "must be text");
    }
    let one = property(json!({"type": "string", "minLength": 1, "maxLength": 1}));
    fails(&one, json!(""), "must be at least 1 character long");
    fails(&one, json!("ab"), "must be at most 1 character long");
    let free = property(json!({"type": "string"}));
    ok(&free, json!(""));
    ok(&free, json!("x".repeat(1 << 20)));
}

#[test]
fn string_formats() {
    let email = property(json!({"type": "string", "format": "email"}));
    ok(&email, json!("octocat@github.com"));
    fails(&email, json!("octocat"), "must be a valid email address");
    let uri = property(json!({"type": "string", "format": "uri"}));
    ok(&uri, json!("https://example.com"));
    fails(&uri, json!("example.com"), "must be a valid absolute URI");
    let date = property(json!({"type": "string", "format": "date"}));
    ok(&date, json!("2024-02-29"));
    fails(
        &date,
        json!("2023-02-29"),
        "must be a valid date like 2024-01-31",
    );
    let date_time = property(json!({"type": "string", "format": "date-time"}));
    ok(&date_time, json!("2024-02-29T23:59:59+01:00"));
    fails(
        &date_time,
        json!("2024-02-29T24:00:00Z"),
        "must be a valid date and time like 2024-01-31T09:30:00Z",
    );
    // Length is checked before format.
    let both = property(json!({"type": "string", "format": "email", "maxLength": 3}));
    fails(&both, json!("a@b.co"), "must be at most 3 characters long");
    fails(&both, json!(1), "must be text");
}

#[test]
fn numbers() {
    let n = property(json!({"type": "number", "minimum": 18, "maximum": 99.5}));
    ok(&n, json!(18));
    ok(&n, json!(18.0));
    ok(&n, json!(99.5));
    ok(&n, json!(42.25));
    fails(&n, json!(17.999), "must be at least 18");
    fails(&n, json!(-1e308), "must be at least 18");
    fails(&n, json!(i64::MIN), "must be at least 18");
    fails(&n, json!(99.51), "must be at most 99.5");
    fails(&n, json!(1e308), "must be at most 99.5");
    fails(&n, json!(u64::MAX), "must be at most 99.5");
    for wrong in [json!("18"), json!(true), json!([18]), json!({"n": 18})] {
        fails(&n, wrong, "must be a number");
    }
    let free = property(json!({"type": "number"}));
    for v in [
        json!(1e308),
        json!(-1e308),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(0.1),
    ] {
        ok(&free, v);
    }
}

#[test]
fn integers() {
    let i = property(json!({"type": "integer", "minimum": 1, "maximum": 10}));
    ok(&i, json!(1));
    ok(&i, json!(3.0));
    ok(&i, json!(10));
    fails(&i, json!(3.5), "must be a whole number");
    fails(&i, json!(0.5), "must be a whole number");
    fails(&i, json!("3"), "must be a whole number");
    fails(&i, json!(null), "must be a whole number");
    fails(&i, json!(0), "must be at least 1");
    fails(&i, json!(-0.0), "must be at least 1");
    fails(&i, json!(11.0), "must be at most 10");
    fails(&i, json!(1e308), "must be at most 10");
    fails(&i, json!(u64::MAX), "must be at most 10");
    fails(&i, json!(i64::MIN), "must be at least 1");
    let free = property(json!({"type": "integer"}));
    for v in [json!(i64::MAX), json!(i64::MIN), json!(-0.0), json!(9.0e18)] {
        ok(&free, v);
    }
    // Beyond the 64-bit signed range no field can hold a whole number.
    fails(
        &free,
        json!(u64::MAX),
        "must be at most 9223372036854775807",
    );
    fails(&free, json!(1e308), "must be at most 9223372036854775807");
    fails(
        &free,
        json!(-1e308),
        "must be at least -9223372036854775808",
    );
    fails(&free, json!(1.000_000_1), "must be a whole number");
}

#[test]
fn exact_comparisons_beyond_f64_precision() {
    // 2^53 + 1 is not representable as f64; comparing through f64 would call these equal.
    let above = property(json!({"type": "integer", "minimum": 9_007_199_254_740_993u64}));
    fails(
        &above,
        json!(9_007_199_254_740_992u64),
        "must be at least 9007199254740993",
    );
    fails(
        &above,
        json!(9_007_199_254_740_992.0),
        "must be at least 9007199254740993",
    );
    ok(&above, json!(9_007_199_254_740_993u64));
    let top = property(json!({"type": "integer", "maximum": u64::MAX - 1}));
    fails(
        &top,
        json!(u64::MAX),
        "must be at most 18446744073709551614",
    );
    // u64::MAX as f64 rounds up to 2^64, which is above u64::MAX.
    fails(
        &top,
        json!(18_446_744_073_709_551_615.0),
        "must be at most 18446744073709551614",
    );
    let bottom = property(json!({"type": "integer", "minimum": i64::MIN + 1}));
    fails(
        &bottom,
        json!(i64::MIN),
        "must be at least -9223372036854775807",
    );
    ok(&bottom, json!(i64::MIN + 1));

    let cases = [
        (json!(1), json!(1.0), Ordering::Equal),
        (json!(1), json!(1.5), Ordering::Less),
        (json!(2), json!(1.5), Ordering::Greater),
        (json!(-1), json!(-0.5), Ordering::Less),
        (json!(-1), json!(-1.5), Ordering::Greater),
        (json!(0), json!(-0.0), Ordering::Equal),
        (json!(u64::MAX), json!(1e308), Ordering::Less),
        (json!(i64::MIN), json!(-1e308), Ordering::Greater),
        (json!(u64::MAX), json!(i64::MIN), Ordering::Greater),
        (
            json!(u64::MAX),
            json!(18_446_744_073_709_551_616.0),
            Ordering::Less,
        ),
        (json!(0.1), json!(0.2), Ordering::Less),
        (json!(-0.0), json!(0.0), Ordering::Equal),
    ];
    for (a, b, expected) in cases {
        let (a, b) = (num(a), num(b));
        assert_eq!(compare(&a, &b), expected, "{a} vs {b}");
        assert_eq!(compare(&b, &a), expected.reverse(), "{b} vs {a}");
    }
    assert!(is_whole(&num(json!(3.0))));
    assert!(!is_whole(&num(json!(3.5))));
    assert!(is_whole(&num(json!(u64::MAX))));
    assert!(is_whole(&num(json!(i64::MIN))));
}

#[test]
fn booleans() {
    let b = property(json!({"type": "boolean"}));
    ok(&b, json!(true));
    ok(&b, json!(false));
    for wrong in [json!("true"), json!(0), json!(1), json!([]), json!({})] {
        fails(&b, wrong, "must be true or false");
    }
}

#[test]
fn single_selects() {
    let untitled = property(json!({"type": "string", "enum": ["Red", "Green", "Blue"]}));
    ok(&untitled, json!("Green"));
    fails(
        &untitled,
        json!("green"),
        "must be one of `Red`, `Green`, `Blue`",
    );
    fails(
        &untitled,
        json!(["Red"]),
        "must be one of `Red`, `Green`, `Blue`",
    );
    fails(&untitled, json!(1), "must be one of `Red`, `Green`, `Blue`");

    let titled = property(json!({"type": "string", "oneOf": [
        {"const": "#FF0000", "title": "Red"}, {"const": "#00FF00", "title": "Green"}
    ]}));
    ok(&titled, json!("#FF0000"));
    fails(&titled, json!("Red"), "must be one of `#FF0000`, `#00FF00`");

    let legacy = property(json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}));
    ok(&legacy, json!("b"));
    fails(&legacy, json!("B"), "must be one of `a`, `b`");

    let values: Vec<String> = (1..=12).map(|i| format!("o{i}")).collect();
    let many = property(json!({"type": "string", "enum": values}));
    ok(&many, json!("o12"));
    fails(
        &many,
        json!("o13"),
        "must be one of `o1`, `o2`, `o3`, `o4`, `o5`, `o6`, `o7`, `o8`, `o9`, `o10`, …",
    );
    let ten: Vec<String> = (1..=10).map(|i| format!("o{i}")).collect();
    let exactly_ten = property(json!({"type": "string", "enum": ten}));
    fails(
        &exactly_ten,
        json!(""),
        "must be one of `o1`, `o2`, `o3`, `o4`, `o5`, `o6`, `o7`, `o8`, `o9`, `o10`",
    );

    let empty = PropertySchema::SingleSelect(SingleSelectSchema {
        annotations: Annotations::default(),
        options: EnumOptions::Untitled(vec![]),
        default: None,
    });
    fails(
        &empty,
        json!("x"),
        "cannot be answered: there are no options",
    );
}

#[test]
fn multi_selects() {
    let m = property(json!({"type": "array", "minItems": 1, "maxItems": 2,
        "items": {"type": "string", "enum": ["Red", "Green", "Blue"]}}));
    ok(&m, json!(["Red"]));
    ok(&m, json!(["Blue", "Red"]));
    fails(&m, json!([]), "must choose at least 1 option");
    fails(
        &m,
        json!(["Red", "Green", "Blue"]),
        "must choose at most 2 options",
    );
    fails(&m, json!(["Red", "Red"]), "chooses `Red` more than once");
    fails(
        &m,
        json!(["Red", "Pink"]),
        "chooses `Pink`, which is not one of `Red`, `Green`, `Blue`",
    );
    fails(
        &m,
        json!(["Red", 1]),
        "must list options as text, not a number",
    );
    fails(&m, json!([null]), "must list options as text, not null");
    fails(
        &m,
        json!([["Red"]]),
        "must list options as text, not a list",
    );
    fails(&m, json!("Red"), "must be a list of options");
    fails(&m, json!({"0": "Red"}), "must be a list of options");

    let titled = property(json!({"type": "array", "minItems": 2,
        "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]}}));
    ok(&titled, json!(["b", "a"]));
    fails(&titled, json!(["a"]), "must choose at least 2 options");
    fails(
        &titled,
        json!(["A", "B"]),
        "chooses `A`, which is not one of `a`, `b`",
    );

    let free = property(json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}));
    ok(&free, json!([]));
    // A huge answer fails fast: the loop stops at the first repeat.
    let repeated = Value::Array(vec![json!("a"); 1_000_000]);
    fails(&free, repeated, "chooses `a` more than once");
    let long = "z".repeat(1 << 20);
    let reason = free.check(&json!([long])).unwrap_err();
    assert_eq!(
        reason,
        format!("chooses `{}…`, which is not one of `a`", "z".repeat(40)).into()
    );
}

/// A long choice list is checked through sets: the same answers pass and fail, with the same
/// reasons, as on the short loop, on both sides of the length where it switches.
#[test]
fn long_multi_select_answers_are_checked_like_short_ones() {
    let options: Vec<String> = (0..40).map(|i| format!("o{i}")).collect();
    let m = property(
        json!({"type": "array", "maxItems": 30, "items": {"type": "string", "enum": options}}),
    );
    for len in [SEARCHED_IN_PLACE, SEARCHED_IN_PLACE + 1, 30] {
        let chosen: Vec<Value> = options[..len].iter().map(|o| json!(o)).collect();
        ok(&m, Value::Array(chosen.clone()));
        let mut repeated = chosen.clone();
        repeated[len - 1] = json!("o0");
        fails(&m, Value::Array(repeated), "chooses `o0` more than once");
        let mut unknown = chosen.clone();
        unknown[len - 1] = json!("pink");
        let reason = m.check(&Value::Array(unknown)).unwrap_err();
        assert!(
            reason
                .reason()
                .starts_with("chooses `pink`, which is not one of `o0`, `o1`"),
            "{reason}"
        );
        let mut number = chosen;
        number[len - 1] = json!(1);
        fails(
            &m,
            Value::Array(number),
            "must list options as text, not a number",
        );
    }
    let too_many: Vec<Value> = options[..31].iter().map(|o| json!(o)).collect();
    fails(&m, Value::Array(too_many), "must choose at most 30 options");
}

/// Many required fields, most unanswered: each is reported, in declaration order.
#[test]
fn many_required_fields_are_reported_in_order() {
    let names: Vec<String> = (0..40).map(|i| format!("f{i}")).collect();
    let mut schema = RequestedSchema::default();
    for (i, name) in names.iter().enumerate() {
        schema = schema.property(name, property(json!({"type": "string"})), i % 2 == 0);
    }
    let error = schema.validate(&json!({"f0": "x"})).unwrap_err();
    let missing: Vec<&str> = error.errors().iter().map(|e| e.field.as_str()).collect();
    let expected: Vec<&str> = names
        .iter()
        .skip(2)
        .step_by(2)
        .map(String::as_str)
        .collect();
    assert_eq!(missing, expected);
}

/// Parsed from text so that the properties keep their document order.
fn contact_form() -> RequestedSchema {
    serde_json::from_str(
        r#"{
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string", "format": "email"},
                "age": {"type": "integer", "minimum": 18},
                "newsletter": {"type": "boolean"},
                "colors": {"type": "array", "items": {"type": "string", "enum": ["Red", "Green"]}}
            },
            "required": ["name", "email", "age"]
        }"#,
    )
    .unwrap()
}

fn fields(err: &ContentError) -> Vec<(&str, &str)> {
    err.errors()
        .iter()
        .map(|e| (e.field.as_str(), e.reason.as_str()))
        .collect()
}

#[test]
fn validate_accepts_good_content_and_ignores_extras() {
    let form = contact_form();
    form.validate(&json!({"name": "Mona", "email": "octocat@github.com", "age": 30}))
        .unwrap();
    form.validate(&json!({
        "name": "Mona", "email": "octocat@github.com", "age": 30.0,
        "newsletter": null, "colors": ["Green"], "unknown": {"deep": [1, 2, 3]}
    }))
    .unwrap();
    RequestedSchema::new().validate(&json!({})).unwrap();
    RequestedSchema::new().validate(&json!({"x": 1})).unwrap();
}

#[test]
fn validate_lists_every_error_in_declaration_order() {
    let form = contact_form();
    let err = form
        .validate(&json!({
            "colors": ["Blue"], "age": 17, "name": null, "newsletter": "yes", "email": "nope"
        }))
        .unwrap_err();
    assert_eq!(
        fields(&err),
        [
            ("name", "is required"),
            ("email", "must be a valid email address"),
            ("age", "must be at least 18"),
            ("newsletter", "must be true or false"),
            (
                "colors",
                "chooses `Blue`, which is not one of `Red`, `Green`"
            ),
        ]
    );
    assert_eq!(
        err.to_string(),
        "invalid form content: `name` is required; `email` must be a valid email address; \
         `age` must be at least 18; `newsletter` must be true or false; \
         `colors` chooses `Blue`, which is not one of `Red`, `Green`"
    );
    let err = form.validate(&json!({})).unwrap_err();
    assert_eq!(
        fields(&err),
        [
            ("name", "is required"),
            ("email", "is required"),
            ("age", "is required")
        ]
    );
}

#[test]
fn validate_refuses_non_objects() {
    let form = contact_form();
    for content in [
        json!(null),
        json!([]),
        json!([{"name": "x"}]),
        json!("x"),
        json!(1),
        json!(true),
    ] {
        let err = form.validate(&content).unwrap_err();
        assert_eq!(fields(&err), [("", "must be an object")], "{content}");
        assert_eq!(err.to_string(), "invalid form content: must be an object");
    }
}

#[test]
fn validate_survives_hostile_content() {
    let form = contact_form();
    let mut deep = json!(1);
    let mut deep_object = json!(1);
    for _ in 0..1000 {
        deep = Value::Array(vec![deep]);
        deep_object = Value::Object(Map::from_iter([("a".to_owned(), deep_object)]));
    }
    let huge = "é".repeat(1 << 19); // 1 MiB of UTF-8
    let content = Value::Object(Map::from_iter(
        [
            ("name", deep),
            ("email", Value::String(huge.clone())),
            ("age", deep_object),
            ("newsletter", json!(u64::MAX)),
            ("colors", Value::Array(vec![Value::String(huge.clone())])),
            ("extra", Value::String(huge)),
        ]
        .map(|(k, v)| (k.to_owned(), v)),
    ));
    let err = form.validate(&content).unwrap_err();
    assert_eq!(
        fields(&err),
        [
            ("name", "must be text"),
            ("email", "must be a valid email address"),
            ("age", "must be a whole number"),
            ("newsletter", "must be true or false"),
            (
                "colors",
                format!(
                    "chooses `{}…`, which is not one of `Red`, `Green`",
                    "é".repeat(40)
                )
                .as_str()
            ),
        ]
    );
    // Whole numbers live in the 64-bit signed range, whatever the schema's own bounds say.
    form.validate(&json!({"name": "a", "email": "a@b.co", "age": i64::MAX}))
        .unwrap();
    for age in [json!(1e308), json!(u64::MAX)] {
        assert!(
            form.validate(&json!({"name": "a", "email": "a@b.co", "age": age}))
                .is_err()
        );
    }
    for age in [
        json!(-1e308),
        json!(i64::MIN),
        json!(17.0),
        json!(3.5),
        json!("30"),
        json!([30]),
    ] {
        let content = json!({"name": "a", "email": "a@b.co", "age": age});
        let err = form.validate(&content).unwrap_err();
        assert_eq!(err.errors().len(), 1, "{content}");
        assert_eq!(err.errors()[0].field, "age");
    }
}
