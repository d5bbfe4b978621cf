//! The derived decoder (`ElicitForm::from_content`) against every constraint, with exact errors,
//! and against hostile input. Every rejection is also checked against the schema model
//! (`RequestedSchema::validate`): both must report the very same errors.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;

use crate::common::{Color, Deep, Hex, Seating, deep_array, deep_object, owned, pairs};
use elicit_runtime::ElicitForm;
use serde_json::{Map, Number, Value, json};

/// Decodes `content`, which must succeed, and checks the model accepts it too.
#[track_caller]
fn accepts<T: ElicitForm + Debug>(content: &Value) -> T {
    if let Err(e) = T::requested_schema().validate(content) {
        panic!("the model refuses {content}: {e}");
    }
    T::from_content(content).unwrap_or_else(|e| panic!("the decoder refuses {content}: {e}"))
}

/// Decodes `content`, which must fail with exactly `expected`, and checks the model reports
/// the same errors.
#[track_caller]
fn rejects<T: ElicitForm + Debug>(content: &Value, expected: &[(&str, &str)]) {
    let err = match T::from_content(content) {
        Ok(v) => panic!("the decoder accepts {content} as {v:?}"),
        Err(e) => e,
    };
    assert_eq!(pairs(&err), owned(expected), "decoder, content {content}");
    let model = T::requested_schema()
        .validate(content)
        .expect_err("the model accepts what the decoder refuses");
    assert_eq!(model, err, "model vs decoder, content {content}");
}

/// `{key: value}`.
fn one(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    Value::Object(map)
}

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

/// One required field of every kind.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Every kind")]
struct Kinds {
    text: String,
    number: f64,
    integer: i32,
    flag: bool,
    color: Color,
    colors: Vec<Color>,
}

fn kinds() -> Kinds {
    Kinds {
        text: "hi".into(),
        number: 1.5,
        integer: -3,
        flag: true,
        color: Color::Green,
        colors: vec![Color::Blue, Color::Red],
    }
}

fn kinds_json() -> Value {
    json!({
        "text": "hi", "number": 1.5, "integer": -3, "flag": true,
        "color": "Green", "colors": ["Blue", "Red"]
    })
}

/// Kinds with one field replaced.
fn kinds_with(key: &str, value: Value) -> Value {
    let mut content = kinds_json();
    content[key] = value;
    content
}

/// Every Rust number type, each optional so they can be tried one at a time.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Ranges")]
struct Ranges {
    i8: Option<i8>,
    u8: Option<u8>,
    i16: Option<i16>,
    u16: Option<u16>,
    i32: Option<i32>,
    u32: Option<u32>,
    i64: Option<i64>,
    u64: Option<u64>,
    isize: Option<isize>,
    usize: Option<usize>,
    f32: Option<f32>,
    f64: Option<f64>,
}

const NONE: Ranges = Ranges {
    i8: None,
    u8: None,
    i16: None,
    u16: None,
    i32: None,
    u32: None,
    i64: None,
    u64: None,
    isize: None,
    usize: None,
    f32: None,
    f64: None,
};

const INTEGER_FIELDS: [&str; 10] = [
    "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "isize", "usize",
];

/// String constraints, each field optional.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Texts")]
struct Texts {
    free: Option<String>,
    #[elicit(min_length = 2, max_length = 4)]
    short: Option<String>,
    #[elicit(min_length = 1)]
    nonempty: Option<String>,
    #[elicit(max_length = 1)]
    single: Option<String>,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(format = "uri")]
    uri: Option<String>,
    #[elicit(format = "date")]
    date: Option<String>,
    #[elicit(format = "date-time")]
    date_time: Option<String>,
    #[elicit(format = "email", max_length = 8)]
    short_email: Option<String>,
}

/// Numeric bounds, each field optional.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Bounds")]
struct Bounds {
    #[elicit(minimum = 18, maximum = 99)]
    age: Option<u8>,
    #[elicit(minimum = -10, maximum = 10)]
    offset: Option<i64>,
    #[elicit(minimum = 1)]
    count: Option<u64>,
    #[elicit(maximum = 0)]
    debt: Option<i32>,
    #[elicit(minimum = 0.5, maximum = 99.5)]
    score: Option<f64>,
    #[elicit(minimum = 0, maximum = 100)]
    percent: Option<f64>,
    #[elicit(minimum = -1.25)]
    ratio: Option<f32>,
}

/// Selects, each optional.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Selects")]
struct Selects {
    color: Option<Color>,
    hex: Option<Hex>,
    seating: Option<Seating>,
    #[elicit(min_items = 1, max_items = 2)]
    vec: Option<Vec<Color>>,
    #[elicit(min_items = 2)]
    tree: Option<BTreeSet<Hex>>,
    #[elicit(max_items = 1)]
    hash: Option<HashSet<Seating>>,
    any: Option<Vec<Color>>,
}

/// Every field has a default.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Defaults")]
struct Defaults {
    #[elicit(default = "anon", min_length = 2)]
    name: String,
    #[elicit(default = 7, minimum = 1)]
    count: u8,
    #[elicit(default = -3)]
    offset: i64,
    #[elicit(default = 2.5)]
    ratio: f64,
    #[elicit(default = 3)]
    whole: f64,
    #[elicit(default = 0.1)]
    single: f32,
    #[elicit(default = true)]
    flag: bool,
    #[elicit(default = "Green")]
    color: Color,
    #[elicit(default = "#0000FF")]
    hex: Hex,
    #[elicit(default = ["Red", "Blue"], max_items = 2)]
    colors: Vec<Color>,
    #[elicit(default = ["Blue", "Red"])]
    tree: BTreeSet<Color>,
    #[elicit(default = ["bar"])]
    hash: HashSet<Seating>,
    #[elicit(default = 5)]
    maybe: Option<u8>,
}

fn defaults() -> Defaults {
    Defaults {
        name: "anon".into(),
        count: 7,
        offset: -3,
        ratio: 2.5,
        whole: 3.0,
        single: 0.1,
        flag: true,
        color: Color::Green,
        hex: Hex::Blue,
        colors: vec![Color::Red, Color::Blue],
        tree: BTreeSet::from([Color::Red, Color::Blue]),
        hash: HashSet::from([Seating::Bar]),
        maybe: Some(5),
    }
}

/// Every kind, optional.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Optional")]
struct Optional {
    name: Option<String>,
    count: Option<u8>,
    ratio: Option<f64>,
    flag: Option<bool>,
    color: Option<Color>,
    colors: Option<Vec<Color>>,
    seats: Option<HashSet<Seating>>,
}

/// Wire names from `rename_all` and `rename`.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Trip", rename_all = "camelCase")]
struct Trip {
    party_size: u8,
    #[elicit(rename = "when", format = "date")]
    date_of_trip: Option<String>,
    #[elicit(rename = "e-mail", format = "email")]
    email_address: String,
    r#type: Option<Seating>,
}

#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Loud", rename_all = "SCREAMING-KEBAB-CASE")]
struct Loud {
    first_name: String,
    #[elicit(minimum = 1)]
    room_number: u16,
}

/// Declared in an order that is neither alphabetical nor the order of the JSON below.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Order")]
struct Order {
    zeta: String,
    #[elicit(min_length = 1)]
    alpha: String,
    #[elicit(minimum = 1, maximum = 5)]
    mid: u8,
    beta: Color,
    #[elicit(max_items = 1)]
    omega: Vec<Color>,
    gamma: Option<bool>,
}

// ---------------------------------------------------------------------------------------------
// Required fields and types
// ---------------------------------------------------------------------------------------------

const ALL_KINDS_REQUIRED: [(&str, &str); 6] = [
    ("text", "is required"),
    ("number", "is required"),
    ("integer", "is required"),
    ("flag", "is required"),
    ("color", "is required"),
    ("colors", "is required"),
];

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

// ---------------------------------------------------------------------------------------------
// String lengths and formats
// ---------------------------------------------------------------------------------------------

#[test]
fn string_lengths_count_characters() {
    // "é" is 2 bytes, "👍" 4 bytes, "e\u{301}" two chars (a combining accent).
    for ok in ["ab", "éé", "👍👍", "e\u{301}", "éééé", "👍👍👍👍", "a👍éz"] {
        assert_eq!(
            accepts::<Texts>(&json!({"short": ok})).short.as_deref(),
            Some(ok)
        );
    }
    for short in ["", "a", "é", "👍"] {
        rejects::<Texts>(
            &json!({"short": short}),
            &[("short", "must be at least 2 characters long")],
        );
    }
    for long in ["abcde", "ééééé", "👍👍👍👍👍", "e\u{301}e\u{301}e"] {
        rejects::<Texts>(
            &json!({"short": long}),
            &[("short", "must be at most 4 characters long")],
        );
    }
    rejects::<Texts>(
        &json!({"nonempty": ""}),
        &[("nonempty", "must be at least 1 character long")],
    );
    accepts::<Texts>(&json!({"nonempty": " ", "single": "👍"}));
    rejects::<Texts>(
        &json!({"single": "ab"}),
        &[("single", "must be at most 1 character long")],
    );
    rejects::<Texts>(
        &json!({"single": "e\u{301}"}),
        &[("single", "must be at most 1 character long")],
    );
}

#[test]
fn email_format() {
    for ok in [
        "octocat@github.com",
        "a@b.co",
        "first.last+tag@sub.example.org",
        "jürgen.müller@bücher.de",
    ] {
        accepts::<Texts>(&json!({ "email": ok }));
    }
    for bad in [
        "",
        "octocat",
        "octocat@",
        "@github.com",
        "octocat@localhost",
        "two@@signs.com",
        "a@b@c.com",
        "with space@example.com",
        ".dot@example.com",
        "dot.@example.com",
        "a..b@example.com",
        "a@-example.com",
        "a@example..com",
        "a@[192.0.2.1]",
    ] {
        rejects::<Texts>(
            &json!({ "email": bad }),
            &[("email", "must be a valid email address")],
        );
    }
    let long_local = format!("{}@example.com", "a".repeat(65));
    rejects::<Texts>(
        &json!({ "email": long_local }),
        &[("email", "must be a valid email address")],
    );
    // Length is checked before format.
    rejects::<Texts>(
        &json!({"short_email": "abc@example.com"}),
        &[("short_email", "must be at most 8 characters long")],
    );
    rejects::<Texts>(
        &json!({"short_email": "nope"}),
        &[("short_email", "must be a valid email address")],
    );
    accepts::<Texts>(&json!({"short_email": "a@b.co"}));
}

#[test]
fn uri_format() {
    for ok in [
        "https://example.com",
        "https://example.com/a/b?c=d&e=%20#frag",
        "urn:isbn:0451450523",
        "mailto:octocat@github.com",
        "x:y",
    ] {
        accepts::<Texts>(&json!({ "uri": ok }));
    }
    for bad in [
        "",
        "example.com",
        "/relative/path",
        "//example.com",
        "https:",
        "1http://example.com",
        "https://example.com/a b",
        "https://example.com/%zz",
        "https://example.com/%2",
        "https://example.com/#a#b",
        "https://exämple.com",
        "https://example.com/<tag>",
    ] {
        rejects::<Texts>(
            &json!({ "uri": bad }),
            &[("uri", "must be a valid absolute URI")],
        );
    }
}

#[test]
fn date_format() {
    for ok in ["2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"] {
        accepts::<Texts>(&json!({ "date": ok }));
    }
    for bad in [
        "",
        "2023-02-29",
        "1900-02-29",
        "2024-13-01",
        "2024-00-10",
        "2024-04-31",
        "2024-1-01",
        "2024-01-1",
        "24-01-01",
        "2024/01/01",
        "2024-01-01T00:00:00Z",
        " 2024-01-01",
        "２０２４-01-01",
    ] {
        rejects::<Texts>(
            &json!({ "date": bad }),
            &[("date", "must be a valid date like 2024-01-31")],
        );
    }
}

#[test]
fn date_time_format() {
    for ok in [
        "2024-02-29T23:59:59Z",
        "2024-02-29t23:59:59z",
        "2024-02-29T23:59:60Z",
        "2024-01-31T09:30:00.123456+05:30",
        "2024-01-31T09:30:00-00:00",
    ] {
        accepts::<Texts>(&json!({ "date_time": ok }));
    }
    for bad in [
        "",
        "2024-02-29",
        "2024-02-29T24:00:00Z",
        "2024-02-29T23:60:00Z",
        "2024-02-29T23:59:61Z",
        "2024-01-31T09:30:00",
        "2024-01-31 09:30:00Z",
        "2024-01-31T09:30Z",
        "2024-01-31T09:30:00.Z",
        "2024-01-31T09:30:00+24:00",
        "2024-01-31T09:30:00+05:60",
        "2024-01-31T09:30:00+0530",
        "2023-02-29T09:30:00Z",
        "2024-01-31T09:30:00Zjunk",
    ] {
        rejects::<Texts>(
            &json!({ "date_time": bad }),
            &[(
                "date_time",
                "must be a valid date and time like 2024-01-31T09:30:00Z",
            )],
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

#[test]
fn integer_minimum_and_maximum() {
    for (ok, expected) in [(json!(18), 18), (json!(18.0), 18), (json!(99), 99)] {
        assert_eq!(accepts::<Bounds>(&json!({ "age": ok })).age, Some(expected));
    }
    rejects::<Bounds>(&json!({"age": 17}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 17.0}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 0}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": -1}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 100}), &[("age", "must be at most 99")]);
    rejects::<Bounds>(&json!({"age": 256}), &[("age", "must be at most 99")]);
    // Not whole wins over out of range.
    rejects::<Bounds>(&json!({"age": 17.5}), &[("age", "must be a whole number")]);

    assert_eq!(accepts::<Bounds>(&json!({"offset": -10})).offset, Some(-10));
    assert_eq!(accepts::<Bounds>(&json!({"offset": 10.0})).offset, Some(10));
    rejects::<Bounds>(
        &json!({"offset": -11}),
        &[("offset", "must be at least -10")],
    );
    rejects::<Bounds>(&json!({"offset": 11}), &[("offset", "must be at most 10")]);
    rejects::<Bounds>(
        &json!({"offset": i64::MIN}),
        &[("offset", "must be at least -10")],
    );
    rejects::<Bounds>(
        &json!({"offset": u64::MAX}),
        &[("offset", "must be at most 10")],
    );

    // A user minimum replaces the advertised 0 of `u64`.
    rejects::<Bounds>(&json!({"count": 0}), &[("count", "must be at least 1")]);
    rejects::<Bounds>(&json!({"count": -1}), &[("count", "must be at least 1")]);
    assert_eq!(
        accepts::<Bounds>(&json!({"count": i64::MAX})).count,
        Some(i64::MAX as u64)
    );
    rejects::<Bounds>(&json!({"debt": 1}), &[("debt", "must be at most 0")]);
    assert_eq!(
        accepts::<Bounds>(&json!({"debt": i32::MIN})).debt,
        Some(i32::MIN)
    );
    rejects::<Bounds>(
        &json!({"debt": i64::from(i32::MIN) - 1}),
        &[("debt", "must be at least -2147483648")],
    );
}

#[test]
fn float_minimum_and_maximum() {
    for (ok, expected) in [
        (json!(0.5), 0.5),
        (json!(99.5), 99.5),
        (json!(1), 1.0),
        (json!(42.25), 42.25),
    ] {
        assert_eq!(
            accepts::<Bounds>(&json!({ "score": ok })).score,
            Some(expected)
        );
    }
    rejects::<Bounds>(
        &json!({"score": 0.49}),
        &[("score", "must be at least 0.5")],
    );
    rejects::<Bounds>(&json!({"score": 0}), &[("score", "must be at least 0.5")]);
    rejects::<Bounds>(
        &json!({"score": -1e308}),
        &[("score", "must be at least 0.5")],
    );
    rejects::<Bounds>(
        &json!({"score": 99.51}),
        &[("score", "must be at most 99.5")],
    );
    rejects::<Bounds>(&json!({"score": 100}), &[("score", "must be at most 99.5")]);
    rejects::<Bounds>(
        &json!({"score": u64::MAX}),
        &[("score", "must be at most 99.5")],
    );
    rejects::<Bounds>(
        &json!({"percent": -0.001}),
        &[("percent", "must be at least 0")],
    );
    rejects::<Bounds>(
        &json!({"percent": 100.001}),
        &[("percent", "must be at most 100")],
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"percent": -0.0})).percent,
        Some(0.0)
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"percent": 100})).percent,
        Some(100.0)
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"ratio": -1.25})).ratio,
        Some(-1.25)
    );
    rejects::<Bounds>(
        &json!({"ratio": -1.26}),
        &[("ratio", "must be at least -1.25")],
    );
    // The user's minimum replaces -f32::MAX; the maximum stays f32::MAX.
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    rejects::<Bounds>(
        &json!({"ratio": 1e39}),
        &[("ratio", format!("must be at most {f32_max}").as_str())],
    );
}

/// `(field, value, reason)` for every value outside a Rust type's range.
fn out_of_type_range() -> Vec<(&'static str, Value, String)> {
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    let f32_min = Number::from_f64(-3.4028235e38).unwrap();
    let mut cases = vec![
        ("i8", json!(128), "must be at most 127".to_owned()),
        ("i8", json!(-129), "must be at least -128".to_owned()),
        ("u8", json!(256), "must be at most 255".to_owned()),
        ("u8", json!(256.0), "must be at most 255".to_owned()),
        ("u8", json!(-1), "must be at least 0".to_owned()),
        ("i16", json!(32768), "must be at most 32767".to_owned()),
        ("i16", json!(-32769), "must be at least -32768".to_owned()),
        ("u16", json!(65536), "must be at most 65535".to_owned()),
        ("u16", json!(-1), "must be at least 0".to_owned()),
        (
            "i32",
            json!(2_147_483_648u64),
            "must be at most 2147483647".to_owned(),
        ),
        (
            "i32",
            json!(-2_147_483_649i64),
            "must be at least -2147483648".to_owned(),
        ),
        (
            "u32",
            json!(4_294_967_296u64),
            "must be at most 4294967295".to_owned(),
        ),
        ("u32", json!(-1), "must be at least 0".to_owned()),
        ("u32", json!(-0.5), "must be a whole number".to_owned()),
        ("f32", json!(1e39), format!("must be at most {f32_max}")),
        ("f32", json!(-1e39), format!("must be at least {f32_min}")),
    ];
    // Every whole number lives in the 64-bit signed range, `u64` and `usize` included.
    for field in ["i64", "isize", "u64", "usize"] {
        let unsigned = field.starts_with('u');
        cases.push((
            field,
            json!(u64::MAX),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(i64::MAX as u64 + 1),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(9.3e18),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(-1e19),
            if unsigned {
                "must be at least 0"
            } else {
                "must be at least -9223372036854775808"
            }
            .to_owned(),
        ));
    }
    cases.push(("u64", json!(-1), "must be at least 0".to_owned()));
    cases.push(("usize", json!(i64::MIN), "must be at least 0".to_owned()));
    cases
}

#[test]
fn rust_type_ranges() {
    for (field, value, reason) in out_of_type_range() {
        rejects::<Ranges>(&one(field, value), &[(field, reason.as_str())]);
    }
    let ok = accepts::<Ranges>(&json!({
        "i8": -128, "u8": 255, "i16": 32767, "u16": 0, "i32": -2_147_483_648i64,
        "u32": 4_294_967_295u64, "i64": i64::MIN, "u64": i64::MAX, "isize": i64::MAX,
        "usize": 0, "f32": f64::from(f32::MAX), "f64": -1e308
    }));
    assert_eq!(
        ok,
        Ranges {
            i8: Some(-128),
            u8: Some(255),
            i16: Some(32767),
            u16: Some(0),
            i32: Some(i32::MIN),
            u32: Some(u32::MAX),
            i64: Some(i64::MIN),
            u64: Some(i64::MAX as u64),
            isize: Some(isize::MAX),
            usize: Some(0),
            f32: Some(f32::MAX),
            f64: Some(-1e308),
        }
    );
    // The schema advertises the ranges of the narrow types.
    let schema = serde_json::to_value(Ranges::requested_schema()).unwrap();
    let props = &schema["properties"];
    assert_eq!(
        props["u8"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        props["i32"],
        json!({"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX})
    );
    assert_eq!(props["u64"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(props["i64"], json!({"type": "integer"}));
    assert_eq!(props["f64"], json!({"type": "number"}));
    assert_eq!(
        props["f32"],
        json!({"type": "number", "minimum": -3.4028235e38, "maximum": 3.4028235e38})
    );
}

#[test]
fn whole_floats_are_integers_and_fractions_are_not() {
    for field in INTEGER_FIELDS {
        for (value, expected) in [
            (json!(3.0), 3),
            (json!(0.0), 0),
            (json!(-0.0), 0),
            (json!(1e2), 100),
        ] {
            let got = accepts::<Ranges>(&one(field, value));
            let mut want = NONE;
            match field {
                "i8" => want.i8 = Some(expected as i8),
                "u8" => want.u8 = Some(expected as u8),
                "i16" => want.i16 = Some(expected as i16),
                "u16" => want.u16 = Some(expected as u16),
                "i32" => want.i32 = Some(expected as i32),
                "u32" => want.u32 = Some(expected as u32),
                "i64" => want.i64 = Some(expected),
                "u64" => want.u64 = Some(expected as u64),
                "isize" => want.isize = Some(expected as isize),
                _ => want.usize = Some(expected as usize),
            }
            assert_eq!(got, want, "{field}");
        }
        for fraction in [
            json!(3.5),
            json!(-3.5),
            json!(0.1),
            json!(1e-300),
            json!(1.000_000_1),
        ] {
            rejects::<Ranges>(&one(field, fraction), &[(field, "must be a whole number")]);
        }
    }
    // A whole float as large as f64 can be exactly is still exact.
    assert_eq!(
        accepts::<Ranges>(&json!({"i64": 9.0e18})).i64,
        Some(9_000_000_000_000_000_000)
    );
    assert_eq!(
        accepts::<Ranges>(&json!({"i64": -9_223_372_036_854_775_808.0})).i64,
        Some(i64::MIN)
    );
    // 2^63 as a float is one past i64::MAX.
    rejects::<Ranges>(
        &json!({"u64": 9_223_372_036_854_775_808.0}),
        &[("u64", "must be at most 9223372036854775807")],
    );
}

#[test]
fn huge_numbers_on_every_numeric_field() {
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    let bounds: [(&str, &str, &str); 12] = [
        ("i8", "127", "-128"),
        ("u8", "255", "0"),
        ("i16", "32767", "-32768"),
        ("u16", "65535", "0"),
        ("i32", "2147483647", "-2147483648"),
        ("u32", "4294967295", "0"),
        ("i64", "9223372036854775807", "-9223372036854775808"),
        ("u64", "9223372036854775807", "0"),
        ("isize", "9223372036854775807", "-9223372036854775808"),
        ("usize", "9223372036854775807", "0"),
        ("f32", "", ""),
        ("f64", "", ""),
    ];
    for (field, max, min) in bounds {
        for (value, high) in [
            (json!(1e308), true),
            (json!(f64::MAX), true),
            (json!(u64::MAX), true),
            (json!(-1e308), false),
            (json!(f64::MIN), false),
            (json!(i64::MIN), false),
        ] {
            let content = one(field, value.clone());
            match field {
                "f64" => {
                    accepts::<Ranges>(&content);
                }
                "f32" => {
                    if value.is_f64() {
                        let reason = if high {
                            format!("must be at most {f32_max}")
                        } else {
                            format!("must be at least -{f32_max}")
                        };
                        rejects::<Ranges>(&content, &[(field, reason.as_str())]);
                    } else {
                        let got = accepts::<Ranges>(&content).f32.unwrap();
                        assert_eq!(got, value.as_f64().unwrap() as f32);
                    }
                }
                "i64" | "isize" if value == json!(i64::MIN) => {
                    // i64::MIN fits the signed 64-bit types.
                    accepts::<Ranges>(&content);
                }
                _ => {
                    let reason = if high {
                        format!("must be at most {max}")
                    } else {
                        format!("must be at least {min}")
                    };
                    rejects::<Ranges>(&content, &[(field, reason.as_str())]);
                }
            }
        }
    }
    // Tiny floats are numbers (f32 rounds them to zero) but never whole.
    assert_eq!(
        accepts::<Ranges>(&json!({"f32": 1e-300, "f64": 5e-324})),
        Ranges {
            f32: Some(0.0),
            f64: Some(5e-324),
            ..NONE
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Selects
// ---------------------------------------------------------------------------------------------

#[test]
fn single_select_membership() {
    assert_eq!(
        accepts::<Selects>(&json!({"color": "Blue", "hex": "#00FF00", "seating": "indoor-window"})),
        Selects {
            color: Some(Color::Blue),
            hex: Some(Hex::Green),
            seating: Some(Seating::IndoorWindow),
            vec: None,
            tree: None,
            hash: None,
            any: None,
        }
    );
    rejects::<Selects>(
        &json!({"color": "blue"}),
        &[("color", "must be one of `Red`, `Green`, `Blue`")],
    );
    // Titles are labels, not answers.
    rejects::<Selects>(
        &json!({"hex": "Red"}),
        &[("hex", "must be one of `#FF0000`, `#00FF00`, `#0000FF`")],
    );
    rejects::<Selects>(
        &json!({"hex": "#ff0000"}),
        &[("hex", "must be one of `#FF0000`, `#00FF00`, `#0000FF`")],
    );
    // The Rust variant name is not the wire value.
    rejects::<Selects>(
        &json!({"seating": "IndoorWindow"}),
        &[(
            "seating",
            "must be one of `indoor-window`, `terrace`, `bar`",
        )],
    );
}

#[test]
fn multi_select_items_and_counts() {
    let got = accepts::<Selects>(&json!({
        "vec": ["Blue", "Red"], "tree": ["#0000FF", "#FF0000"], "hash": ["bar"], "any": []
    }));
    assert_eq!(got.vec, Some(vec![Color::Blue, Color::Red]));
    assert_eq!(got.tree, Some(BTreeSet::from([Hex::Red, Hex::Blue])));
    assert_eq!(got.hash, Some(HashSet::from([Seating::Bar])));
    assert_eq!(got.any, Some(vec![]));
    rejects::<Selects>(
        &json!({"vec": []}),
        &[("vec", "must choose at least 1 option")],
    );
    rejects::<Selects>(
        &json!({"vec": ["Red", "Green", "Blue"]}),
        &[("vec", "must choose at most 2 options")],
    );
    rejects::<Selects>(
        &json!({"tree": ["#FF0000"]}),
        &[("tree", "must choose at least 2 options")],
    );
    rejects::<Selects>(
        &json!({"hash": ["bar", "terrace"]}),
        &[("hash", "must choose at most 1 option")],
    );
    rejects::<Selects>(
        &json!({"tree": ["Red", "Green"]}),
        &[(
            "tree",
            "chooses `Red`, which is not one of `#FF0000`, `#00FF00`, `#0000FF`",
        )],
    );
    rejects::<Selects>(
        &json!({"hash": ["Bar"]}),
        &[(
            "hash",
            "chooses `Bar`, which is not one of `indoor-window`, `terrace`, `bar`",
        )],
    );
    // Membership is checked item by item before the count.
    rejects::<Selects>(
        &json!({"vec": ["Red", "Green", "Pink"]}),
        &[(
            "vec",
            "chooses `Pink`, which is not one of `Red`, `Green`, `Blue`",
        )],
    );
}

#[test]
fn multi_selects_refuse_duplicates() {
    rejects::<Selects>(
        &json!({"vec": ["Red", "Red"]}),
        &[("vec", "chooses `Red` more than once")],
    );
    rejects::<Selects>(
        &json!({"any": ["Red", "Green", "Blue", "Green"]}),
        &[("any", "chooses `Green` more than once")],
    );
    // A set would silently merge them; the answer is refused instead.
    rejects::<Selects>(
        &json!({"tree": ["#FF0000", "#00FF00", "#FF0000"]}),
        &[("tree", "chooses `#FF0000` more than once")],
    );
    // Duplicates are found before the count is checked.
    rejects::<Selects>(
        &json!({"hash": ["bar", "bar"]}),
        &[("hash", "chooses `bar` more than once")],
    );
    rejects::<Selects>(
        &json!({"vec": ["Blue", "Blue", "Blue"]}),
        &[("vec", "chooses `Blue` more than once")],
    );
}

// ---------------------------------------------------------------------------------------------
// Defaults, options, names
// ---------------------------------------------------------------------------------------------

#[test]
fn defaults_apply_when_absent_or_null() {
    assert!(Defaults::requested_schema().required.is_empty());
    assert_eq!(accepts::<Defaults>(&json!({})), defaults());
    let nulls = Defaults::requested_schema()
        .properties
        .iter()
        .map(|(name, _)| (name.clone(), Value::Null));
    assert_eq!(
        accepts::<Defaults>(&Value::Object(Map::from_iter(nulls))),
        defaults()
    );
    // Some given, some not.
    let got = accepts::<Defaults>(&json!({
        "name": "Mona", "count": 1, "flag": false, "colors": [], "tree": null, "maybe": 0
    }));
    assert_eq!(
        got,
        Defaults {
            name: "Mona".into(),
            count: 1,
            flag: false,
            colors: vec![],
            maybe: Some(0),
            ..defaults()
        }
    );
}

#[test]
fn defaults_do_not_hide_bad_answers() {
    rejects::<Defaults>(
        &json!({"name": "x", "count": 0, "ratio": "2.5", "flag": 1, "color": "Pink",
                "colors": ["Red", "Green", "Blue"], "hash": ["bar", "bar"], "maybe": 256}),
        &[
            ("name", "must be at least 2 characters long"),
            ("count", "must be at least 1"),
            ("ratio", "must be a number"),
            ("flag", "must be true or false"),
            ("color", "must be one of `Red`, `Green`, `Blue`"),
            ("colors", "must choose at most 2 options"),
            ("hash", "chooses `bar` more than once"),
            ("maybe", "must be at most 255"),
        ],
    );
}

#[test]
fn options_absent_null_and_present() {
    let none = Optional {
        name: None,
        count: None,
        ratio: None,
        flag: None,
        color: None,
        colors: None,
        seats: None,
    };
    assert!(Optional::requested_schema().required.is_empty());
    assert_eq!(accepts::<Optional>(&json!({})), none);
    assert_eq!(
        accepts::<Optional>(&json!({
            "name": null, "count": null, "ratio": null, "flag": null, "color": null,
            "colors": null, "seats": null
        })),
        none
    );
    let some = accepts::<Optional>(&json!({
        "name": "", "count": 0, "ratio": 0.25, "flag": false, "color": "Red",
        "colors": [], "seats": ["terrace", "bar"]
    }));
    assert_eq!(
        some,
        Optional {
            name: Some(String::new()),
            count: Some(0),
            ratio: Some(0.25),
            flag: Some(false),
            color: Some(Color::Red),
            colors: Some(vec![]),
            seats: Some(HashSet::from([Seating::Terrace, Seating::Bar])),
        }
    );
    // An optional field, once answered, must be valid.
    rejects::<Optional>(
        &json!({"name": 1, "count": -1, "flag": "no", "colors": [null], "seats": "bar"}),
        &[
            ("name", "must be text"),
            ("count", "must be at least 0"),
            ("flag", "must be true or false"),
            ("colors", "must list options as text, not null"),
            ("seats", "must be a list of options"),
        ],
    );
    // `None` is left out of the content, `Some` is written.
    assert_eq!(none.to_content(), Map::new());
    assert_eq!(
        Value::Object(some.to_content()),
        json!({
            "name": "", "count": 0, "ratio": 0.25, "flag": false, "color": "Red",
            "colors": [], "seats": ["terrace", "bar"]
        })
    );
}

#[test]
fn renamed_fields_use_their_wire_names() {
    let schema = serde_json::to_string(Trip::requested_schema()).unwrap();
    assert!(
        schema.contains(r#""required":["partySize","e-mail"]"#),
        "{schema}"
    );
    let trip = accepts::<Trip>(&json!({
        "partySize": 4, "when": "2024-05-01", "e-mail": "a@b.co", "type": "terrace"
    }));
    assert_eq!(
        trip,
        Trip {
            party_size: 4,
            date_of_trip: Some("2024-05-01".into()),
            email_address: "a@b.co".into(),
            r#type: Some(Seating::Terrace),
        }
    );
    // The Rust names are unknown keys.
    rejects::<Trip>(
        &json!({"party_size": 4, "date_of_trip": "nope", "email_address": "a@b.co", "emailAddress": "a@b.co"}),
        &[("partySize", "is required"), ("e-mail", "is required")],
    );
    rejects::<Trip>(
        &json!({"partySize": 256, "when": "May 1st", "e-mail": "a", "type": "Terrace"}),
        &[
            ("partySize", "must be at most 255"),
            ("when", "must be a valid date like 2024-01-31"),
            ("e-mail", "must be a valid email address"),
            ("type", "must be one of `indoor-window`, `terrace`, `bar`"),
        ],
    );
    assert_eq!(
        accepts::<Loud>(&json!({"FIRST-NAME": "Ada", "ROOM-NUMBER": 12})),
        Loud {
            first_name: "Ada".into(),
            room_number: 12
        }
    );
    rejects::<Loud>(
        &json!({"first_name": "Ada", "ROOM-NUMBER": 0, "room-number": 12}),
        &[
            ("FIRST-NAME", "is required"),
            ("ROOM-NUMBER", "must be at least 1"),
        ],
    );
}

#[test]
fn unknown_keys_are_ignored() {
    let mut content = kinds_json();
    let map = content.as_object_mut().unwrap();
    map.insert("unknown".into(), json!({"deep": [1, 2, {"x": null}]}));
    map.insert("".into(), json!(null));
    map.insert("Text".into(), json!(1));
    map.insert("TEXT".into(), json!([]));
    map.insert(" text".into(), json!(false));
    map.insert("__proto__".into(), json!({"text": 1}));
    assert_eq!(accepts::<Kinds>(&content), kinds());
    let many = (0..10_000).map(|i| (format!("extra{i}"), json!(i)));
    let mut content = kinds_json();
    content.as_object_mut().unwrap().extend(many);
    assert_eq!(accepts::<Kinds>(&content), kinds());
}

#[test]
fn several_errors_come_in_declaration_order() {
    let content = json!({
        "omega": ["Red", "Blue"], "gamma": "yes", "beta": "Pink", "mid": 9,
        "alpha": "", "zeta": 1, "aardvark": "ignored"
    });
    rejects::<Order>(
        &content,
        &[
            ("zeta", "must be text"),
            ("alpha", "must be at least 1 character long"),
            ("mid", "must be at most 5"),
            ("beta", "must be one of `Red`, `Green`, `Blue`"),
            ("omega", "must choose at most 1 option"),
            ("gamma", "must be true or false"),
        ],
    );
    rejects::<Order>(
        &json!({"gamma": true, "mid": 0}),
        &[
            ("zeta", "is required"),
            ("alpha", "is required"),
            ("mid", "must be at least 1"),
            ("beta", "is required"),
            ("omega", "is required"),
        ],
    );
}

#[test]
fn display_of_several_errors() {
    let err = Order::from_content(&json!({"alpha": "", "mid": 6, "beta": "Red", "omega": []}))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid form content: `zeta` is required; `alpha` must be at least 1 character long; \
         `mid` must be at most 5"
    );
    let err = Order::from_content(&json!("x")).unwrap_err();
    assert_eq!(err.to_string(), "invalid form content: must be an object");
}

#[test]
fn content_that_is_not_an_object() {
    for content in [
        json!(null),
        json!([]),
        json!([{"zeta": "a"}]),
        json!("x"),
        json!(""),
        json!(3),
        json!(-1.5),
        json!(true),
    ] {
        for err in [
            Kinds::from_content(&content).unwrap_err(),
            Order::from_content(&content).unwrap_err(),
            Defaults::from_content(&content).unwrap_err(),
            Optional::from_content(&content).unwrap_err(),
        ] {
            assert_eq!(
                pairs(&err),
                owned(&[("", "must be an object")]),
                "{content}"
            );
            assert!(err.errors()[0].is_root());
        }
        // Even a form that needs nothing wants an object.
        assert_eq!(
            Defaults::requested_schema().validate(&content).unwrap_err(),
            Defaults::from_content(&content).unwrap_err()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Everything", rename_all = "camelCase")]
struct Filled {
    #[elicit(min_length = 3, max_length = 40, format = "email")]
    email: String,
    #[elicit(format = "uri")]
    home_page: String,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time")]
    seen_at: Option<String>,
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    offset: i64,
    big: u64,
    #[elicit(minimum = -1.5, maximum = 100)]
    ratio: f64,
    single: f32,
    vip: bool,
    nickname: Option<String>,
    color: Color,
    hex: Option<Hex>,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Color>,
    tree: BTreeSet<Hex>,
    seats: HashSet<Seating>,
    #[elicit(default = 3)]
    nights: u16,
}

fn filled() -> Filled {
    Filled {
        email: "octocat@github.com".into(),
        home_page: "https://github.com/octocat".into(),
        birthday: Some("2008-02-08".into()),
        seen_at: None,
        guests: 12,
        offset: i64::MIN,
        big: i64::MAX as u64,
        ratio: -1.5,
        single: 0.1,
        vip: false,
        nickname: Some("🐙 cat".into()),
        color: Color::Blue,
        hex: None,
        extras: vec![Color::Green, Color::Red],
        tree: BTreeSet::from([Hex::Blue, Hex::Red]),
        seats: HashSet::from([Seating::Bar, Seating::IndoorWindow]),
        nights: 3,
    }
}

#[test]
fn to_content_round_trips() {
    let form = filled();
    let content = Value::Object(form.to_content());
    assert_eq!(
        content,
        json!({
            "email": "octocat@github.com",
            "homePage": "https://github.com/octocat",
            "birthday": "2008-02-08",
            "guests": 12,
            "offset": i64::MIN,
            "big": i64::MAX,
            "ratio": -1.5,
            "single": 0.1,
            "vip": false,
            "nickname": "🐙 cat",
            "color": "Blue",
            "extras": ["Green", "Red"],
            "tree": ["#FF0000", "#0000FF"],
            "seats": ["indoor-window", "bar"],
            "nights": 3
        })
    );
    assert_eq!(accepts::<Filled>(&content), form);
    // Round trips a second time to the same JSON.
    assert_eq!(
        Value::Object(accepts::<Filled>(&content).to_content()),
        content
    );
    for form in [kinds(), accepts::<Kinds>(&kinds_json())] {
        assert_eq!(accepts::<Kinds>(&Value::Object(form.to_content())), form);
    }
    assert_eq!(
        accepts::<Defaults>(&Value::Object(defaults().to_content())),
        defaults()
    );
}

#[test]
fn to_content_of_unrepresentable_floats_drops_the_field() {
    // A value built in Rust (never decoded) can hold what JSON cannot: it is left out.
    let form = Kinds {
        number: f64::NAN,
        ..kinds()
    };
    let content = Value::Object(form.to_content());
    assert!(content.get("number").is_none(), "{content}");
    rejects::<Kinds>(&content, &[("number", "is required")]);
    let form = Kinds {
        number: f64::INFINITY,
        ..kinds()
    };
    assert!(form.to_content().get("number").is_none());
}

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Former library bugs
// ---------------------------------------------------------------------------------------------

// Bounds and defaults the form could not honour (on aliases, beyond the 64-bit signed range,
// defaults breaking `format` or the field's limits) are compile errors now: see
// `tests/ui/form/fail/alias-*.rs`, `default-breaks-format.rs`, `default-beyond-i64.rs`.

#[derive(Debug, PartialEq, ElicitForm)]
#[elicit(message = "f32 bounds")]
struct F32Bounds {
    #[elicit(minimum = 0.7)]
    low: Option<f32>,
    #[elicit(maximum = 0.1)]
    high: Option<f32>,
}

#[test]
fn f32_rounding_must_not_leave_the_bounds() {
    for content in [json!({"low": 0.7}), json!({"high": 0.1})] {
        let form = F32Bounds::from_content(&content).unwrap();
        let again = Value::Object(form.to_content());
        assert_eq!(
            F32Bounds::requested_schema().validate(&again),
            Ok(()),
            "{content} decoded as {form:?}, re-encoded as {again}"
        );
    }
}
