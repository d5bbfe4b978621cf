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

mod defaults;
mod hostile;
mod numbers;
mod regressions;
mod round_trips;
mod selects;
mod strings;
/// Every field of `Kinds`, each required.
const ALL_KINDS_REQUIRED: [(&str, &str); 6] = [
    ("text", "is required"),
    ("number", "is required"),
    ("integer", "is required"),
    ("flag", "is required"),
    ("color", "is required"),
    ("colors", "is required"),
];

mod types;
