//! Properties of the derived decoder against the schema model, on generated content.
//!
//! (a) `from_content` and `RequestedSchema::validate` agree on every content, and report the
//!     same failing fields;
//! (b) whatever `from_content` accepts, `to_content` re-encodes into content that validates and
//!     decodes to an equal value;
//! (c) every valid content decodes, and `to_content` gives it back (see `canonical` for the
//!     equality used);
//! (d) the schema's JSON, parsed back, validates exactly like the original.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Debug;

use crate::common::{Color, Hex, Seating};
use elicit_runtime::ElicitForm;
use elicit_runtime::schema::{ContentError, PropertySchema, RequestedSchema};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value as Json, json};

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

/// Required fields of every kind, one optional, one defaulted.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Book a trip", rename_all = "camelCase")]
struct Rich {
    #[elicit(min_length = 6, max_length = 24, format = "email")]
    email_address: String,
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    offset: i64,
    #[elicit(minimum = -1.5, maximum = 100)]
    ratio: f64,
    vip: bool,
    nickname: Option<String>,
    color: Color,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Color>,
    #[elicit(default = 3, maximum = 30)]
    nights: u16,
}

/// Mostly optional or defaulted fields: the other formats, `f32`, sets, titled options.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Anything else?")]
struct Loose {
    #[elicit(format = "date")]
    day: Option<String>,
    #[elicit(format = "date-time")]
    at: Option<String>,
    #[elicit(format = "uri", max_length = 30)]
    link: Option<String>,
    ratio: Option<f32>,
    #[elicit(minimum = -5, maximum = 5)]
    small: Option<i8>,
    big: Option<u64>,
    whole: u32,
    #[elicit(default = ["#FF0000"], max_items = 2)]
    tree: BTreeSet<Hex>,
    seats: HashSet<Seating>,
    #[elicit(default = true)]
    flag: bool,
    #[elicit(default = "x", min_length = 1)]
    label: String,
    #[elicit(default = "terrace")]
    seating: Seating,
    #[elicit(default = 0.5, minimum = 0, maximum = 1)]
    share: f64,
    /// An `Option` with a default: absent means the default, never `None`.
    #[elicit(default = 2, maximum = 9)]
    spare: Option<u8>,
}

/// Multi-selects whose order is not kept (sets); compared as sets in (c).
const UNORDERED: [&str; 2] = ["tree", "seats"];
/// Fields held as `f32`: their numbers are compared at `f32` precision.
const SINGLE_PRECISION: [&str; 1] = ["ratio"];

const COLORS: [&str; 3] = ["Red", "Green", "Blue"];
const HEXES: [&str; 3] = ["#FF0000", "#00FF00", "#0000FF"];
const SEATINGS: [&str; 3] = ["indoor-window", "terrace", "bar"];

fn wire_names<T: ElicitForm>() -> Vec<String> {
    T::requested_schema()
        .properties
        .iter()
        .map(|(name, _)| name.clone())
        .collect()
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Nothing is written next to the sources on failure; the seed is printed instead.
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary content, with near misses
// ---------------------------------------------------------------------------------------------

/// Numbers around every bound of both forms and of the Rust types, whole floats, and anything.
fn number() -> impl Strategy<Value = Json> {
    let boundaries = vec![
        json!(0),
        json!(1),
        json!(-1),
        json!(5),
        json!(6),
        json!(-5),
        json!(-6),
        json!(12),
        json!(13),
        json!(30),
        json!(31),
        json!(127),
        json!(-128),
        json!(255),
        json!(256),
        json!(u32::MAX),
        json!(u64::from(u32::MAX) + 1),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(i64::MAX as u64 + 1),
        json!(u64::MAX),
        json!(-1.5),
        json!(-1.500_000_1),
        json!(100),
        json!(100.0),
        json!(100.000_001),
        json!(0.5),
        json!(1.0),
        json!(1.000_000_1),
        json!(3.0),
        json!(3.5),
        json!(-0.0),
        json!(0.0),
        json!(5e-324),
        json!(3.4028235e38),
        json!(-3.4028235e38),
        json!(f64::from(f32::MAX)),
        json!(-f64::from(f32::MAX)),
        json!(1e39),
        json!(1e308),
        json!(-1e308),
        json!(9.3e18),
        json!(9_223_372_036_854_775_808.0),
        json!(-9_223_372_036_854_775_808.0),
    ];
    prop_oneof![
        4 => prop::sample::select(boundaries),
        2 => (-40i64..40).prop_map(Json::from),
        2 => (-40i64..40).prop_map(|i| Json::from(i as f64)),
        1 => (-40i64..40).prop_map(|i| Json::from(i as f64 + 0.5)),
        1 => any::<i64>().prop_map(Json::from),
        1 => any::<u64>().prop_map(Json::from),
        1 => any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f).map(Json::Number)),
        1 => any::<f32>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f64::from(f)).map(Json::Number)),
        1 => (-3.0f64..120.0).prop_map(Json::from),
    ]
}

/// Option values and their look-alikes, near-valid emails, dates, URIs, and anything.
fn text() -> impl Strategy<Value = Json> {
    let near = vec![
        "Red",
        "red",
        "Green",
        "Blue",
        "Purple",
        "#FF0000",
        "#00FF00",
        "#0000FF",
        "#ff0000",
        "indoor-window",
        "IndoorWindow",
        "terrace",
        "bar",
        "",
        "x",
        "a@b.io",
        "a@b.co",
        "ab@cd.io",
        "octocat@github.com",
        "a.very.long.name@example.com",
        "a@b",
        "a@@b.io",
        "nope",
        "2024-02-29",
        "2023-02-29",
        "2024-13-01",
        "2024-01-31T09:30:00Z",
        "2024-01-31T24:00:00Z",
        "2024-01-31T09:30:00",
        "https://example.com",
        "https://example.com/a-rather-long-path",
        "example.com",
        "urn:x",
        "é",
        "👍👍👍👍👍👍",
    ];
    prop_oneof![
        3 => prop::sample::select(near).prop_map(Json::from),
        1 => "[a-z]{0,3}@[a-z]{0,3}\\.[a-z]{0,3}".prop_map(Json::from),
        1 => "\\PC{0,12}".prop_map(Json::from),
        1 => ".{0,30}".prop_map(Json::from),
    ]
}

/// Lists of option values, with duplicates and strangers.
fn option_list() -> impl Strategy<Value = Json> {
    let values: Vec<&str> = COLORS
        .iter()
        .chain(&HEXES)
        .chain(&SEATINGS)
        .copied()
        .chain(["red", "Bar", ""])
        .collect();
    let same_kind = prop_oneof![
        Just(COLORS.to_vec()),
        Just(HEXES.to_vec()),
        Just(SEATINGS.to_vec())
    ];
    prop_oneof![
        // Drawn from one select's options: often valid, duplicates likely.
        2 => same_kind.prop_flat_map(|opts| prop::collection::vec(prop::sample::select(opts), 0..4)),
        1 => prop::collection::vec(prop::sample::select(values), 0..5),
    ]
    .prop_map(|items| Json::Array(items.into_iter().map(Json::from).collect()))
}

fn leaf() -> impl Strategy<Value = Json> {
    prop_oneof![
        1 => Just(Json::Null),
        1 => any::<bool>().prop_map(Json::Bool),
        3 => number(),
        3 => text(),
        2 => option_list(),
    ]
}

/// Any JSON, nested a little.
fn any_json() -> impl Strategy<Value = Json> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map("[a-z]{0,3}", inner, 0..4)
                .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

/// A key of the form, a near miss of one, or a stranger.
fn key(names: Vec<String>) -> impl Strategy<Value = String> {
    let near: Vec<String> = names
        .iter()
        .flat_map(|n| [n.to_uppercase(), format!("{n} "), format!("_{n}")])
        .collect();
    prop_oneof![
        6 => prop::sample::select(names),
        1 => prop::sample::select(near),
        1 => "[a-zA-Z_]{0,8}",
    ]
}

/// Objects of the form's keys (and others) with arbitrary values; now and then not an object.
fn arbitrary_content<T: ElicitForm>() -> impl Strategy<Value = Json> {
    let object = prop::collection::btree_map(key(wire_names::<T>()), any_json(), 0..14)
        .prop_map(|m| Json::Object(m.into_iter().collect()));
    prop_oneof![9 => object, 1 => any_json()]
}

/// Valid content with a few keys replaced by arbitrary values or removed.
fn mutated<T: ElicitForm>(valid: impl Strategy<Value = Json>) -> impl Strategy<Value = Json> {
    let edits = prop::collection::vec((key(wire_names::<T>()), prop::option::of(any_json())), 0..3);
    (valid, edits).prop_map(|(mut content, edits)| {
        let map = content.as_object_mut().expect("valid content is an object");
        for (k, v) in edits {
            match v {
                Some(v) => map.insert(k, v),
                None => map.remove(&k),
            };
        }
        content
    })
}

fn content<T: ElicitForm>(valid: impl Strategy<Value = Json>) -> impl Strategy<Value = Json> {
    prop_oneof![1 => arbitrary_content::<T>(), 1 => mutated::<T>(valid)]
}

// ---------------------------------------------------------------------------------------------
// Valid content, one strategy per field
// ---------------------------------------------------------------------------------------------

/// A field's entry: `None` leaves the key out.
type Entry = Option<Json>;

/// A whole number as a JSON integer or as a whole float (only where the float is exact).
fn whole(n: i64) -> BoxedStrategy<Json> {
    if n.unsigned_abs() <= 1 << 53 {
        prop_oneof![Just(Json::from(n)), Just(Json::from(n as f64))].boxed()
    } else {
        Just(Json::from(n)).boxed()
    }
}

/// Absent or `null` (both mean "not answered"), or one of `answers`.
fn unanswered_or(answers: impl Strategy<Value = Json> + 'static) -> BoxedStrategy<Entry> {
    prop_oneof![
        1 => Just(None),
        1 => Just(Some(Json::Null)),
        3 => answers.prop_map(Some),
    ]
    .boxed()
}

/// A subset of `options` in random order, of `len` items.
fn choose(
    options: &'static [&'static str],
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Json> {
    prop::sample::subsequence(options.to_vec(), len)
        .prop_shuffle()
        .prop_map(|items| Json::Array(items.into_iter().map(Json::from).collect()))
}

fn object(entries: Vec<(&str, Entry)>) -> Json {
    Json::Object(
        entries
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect(),
    )
}

fn valid_rich() -> impl Strategy<Value = Json> {
    let email = "[a-z0-9]{1,8}(\\.[a-z0-9]{1,4})?@[a-z]{1,6}\\.(com|org|io)".prop_map(Json::from);
    let guests = (1i64..=12).prop_flat_map(whole);
    let offset = prop_oneof![
        any::<i64>().prop_map(Json::from),
        (-(1i64 << 53)..=(1 << 53)).prop_flat_map(whole),
        Just(Json::from(i64::MIN as f64)),
    ];
    let ratio = prop_oneof![
        (-1.5f64..=100.0).prop_map(Json::from),
        (-1i64..=100).prop_flat_map(whole),
        Just(json!(-1.5)),
        Just(json!(100)),
    ];
    let nickname = unanswered_or("\\PC{0,20}".prop_map(Json::from));
    let color = prop::sample::select(&COLORS[..]).prop_map(Json::from);
    let extras = choose(&COLORS, 1..=2);
    let nights = unanswered_or((0i64..=30).prop_flat_map(whole));
    (
        (email, guests, offset, ratio, any::<bool>()),
        (nickname, color, extras, nights),
    )
        .prop_map(
            |((email, guests, offset, ratio, vip), (nickname, color, extras, nights))| {
                object(vec![
                    ("emailAddress", Some(email)),
                    ("guests", Some(guests)),
                    ("offset", Some(offset)),
                    ("ratio", Some(ratio)),
                    ("vip", Some(Json::Bool(vip))),
                    ("nickname", nickname),
                    ("color", Some(color)),
                    ("extras", Some(extras)),
                    ("nights", nights),
                ])
            },
        )
}

fn date() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..=9999, 1u32..=12, 1u32..=28).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        prop::sample::select(vec!["2024-02-29", "2000-02-29", "1999-12-31", "2023-04-30"])
            .prop_map(str::to_owned),
    ]
}

fn valid_loose() -> impl Strategy<Value = Json> {
    let day = unanswered_or(date().prop_map(Json::from));
    // Seconds up to 59, and leap seconds where they happen: 23:59:60 UTC.
    let leap = (
        date(),
        prop::sample::select(vec!["23:59:60Z", "15:59:60.5-08:00"]),
    )
        .prop_map(|(d, t)| Json::from(format!("{d}T{t}")));
    let at = unanswered_or(prop_oneof![
        1 => leap,
        9 => (
            date(),
            0u32..24,
            0u32..60,
            0u32..60,
            prop::option::of("[0-9]{1,6}"),
            prop_oneof![
                Just("Z".to_owned()),
                "[+-](0[0-9]|1[0-9]|2[0-3]):[0-5][0-9]"
            ],
        )
            .prop_map(|(d, h, m, s, frac, zone)| {
                let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
                Json::from(format!("{d}T{h:02}:{m:02}:{s:02}{frac}{zone}"))
            }),
    ]);
    let link =
        unanswered_or("(https|http|ftp)://[a-z]{1,9}\\.com/[a-z0-9]{0,8}".prop_map(Json::from));
    let ratio = unanswered_or(
        any::<f32>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Json::from(f64::from(f))),
    );
    let small = unanswered_or((-5i64..=5).prop_flat_map(whole));
    let big = unanswered_or(prop_oneof![
        (0..=i64::MAX).prop_map(Json::from),
        (0i64..=1 << 53).prop_flat_map(whole),
    ]);
    let whole_field = prop_oneof![
        any::<u32>().prop_map(Json::from),
        any::<u32>().prop_map(|u| Json::from(f64::from(u))),
    ];
    let tree = unanswered_or(choose(&HEXES, 0..=2));
    let seats = choose(&SEATINGS, 0..=3);
    let flag = unanswered_or(any::<bool>().prop_map(Json::Bool));
    let label = unanswered_or("\\PC{1,10}".prop_map(Json::from));
    let seating = unanswered_or(prop::sample::select(&SEATINGS[..]).prop_map(Json::from));
    let share = unanswered_or(prop_oneof![
        (0.0f64..=1.0).prop_map(Json::from),
        (0i64..=1).prop_flat_map(whole),
    ]);
    let spare = unanswered_or((0i64..=9).prop_flat_map(whole));
    (
        (day, at, link, ratio, small, big, whole_field),
        (tree, seats, flag, label, seating, share, spare),
    )
        .prop_map(
            |(
                (day, at, link, ratio, small, big, whole),
                (tree, seats, flag, label, seating, share, spare),
            )| {
                object(vec![
                    ("day", day),
                    ("at", at),
                    ("link", link),
                    ("ratio", ratio),
                    ("small", small),
                    ("big", big),
                    ("whole", Some(whole)),
                    ("tree", tree),
                    ("seats", Some(seats)),
                    ("flag", flag),
                    ("label", label),
                    ("seating", seating),
                    ("share", share),
                    ("spare", spare),
                ])
            },
        )
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

fn failing_fields(err: &ContentError) -> BTreeSet<String> {
    err.errors().iter().map(|e| e.field.clone()).collect()
}

/// (a): the decoder and the model agree.
fn decoder_agrees_with_model<T: ElicitForm + Debug>(content: &Json) -> Result<(), TestCaseError> {
    let decoded = T::from_content(content);
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
fn accepted_round_trips<T: ElicitForm + Debug + PartialEq>(
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
fn valid_round_trips<T: ElicitForm + Debug + PartialEq>(
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
fn reparsed<T: ElicitForm>() -> RequestedSchema {
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

fn from_value<T: ElicitForm>() -> RequestedSchema {
    RequestedSchema::from_value(&serde_json::to_value(T::requested_schema()).unwrap()).unwrap()
}

/// Whether `serde_json::Value` keeps object order in this build (`preserve_order`, which the
/// `rmcp` feature turns on and a workspace-wide `cargo test` therefore sees).
fn value_keeps_order() -> bool {
    json!({"b": 0, "a": 0})
        .as_object()
        .and_then(|m| m.keys().next())
        .map(String::as_str)
        == Some("b")
}

/// The form's schema with its properties in the order a `Value` holds them: declaration order
/// with `preserve_order`, name order without.
fn sorted_by_name<T: ElicitForm>() -> RequestedSchema {
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

// ---------------------------------------------------------------------------------------------
// Sanity checks of the generators and the schemas
// ---------------------------------------------------------------------------------------------

#[test]
fn reparsed_schemas_equal_the_originals() {
    assert_eq!(&reparsed::<Rich>(), Rich::requested_schema());
    assert_eq!(&reparsed::<Loose>(), Loose::requested_schema());
    // Via a `Value` too, whose object keys are sorted: the same properties, in name order.
    assert_eq!(from_value::<Rich>(), sorted_by_name::<Rich>());
    assert_eq!(from_value::<Loose>(), sorted_by_name::<Loose>());
    // The text keeps declaration order, which is the order clients show the fields in.
    assert_eq!(
        sorted_by_name::<Rich>() == *Rich::requested_schema(),
        value_keeps_order()
    );
}

/// The content strategies must exercise both sides: accepted and refused content, and
/// refusals with several fields.
#[test]
fn content_generators_hit_both_sides() {
    fn sample<T: ElicitForm>(strategy: impl Strategy<Value = Json>) -> (usize, usize, usize) {
        let mut runner = TestRunner::deterministic();
        let (mut ok, mut one, mut many) = (0, 0, 0);
        for _ in 0..1000 {
            let content = strategy.new_tree(&mut runner).unwrap().current();
            match T::from_content(&content) {
                Ok(_) => ok += 1,
                Err(e) if e.errors().len() == 1 => one += 1,
                Err(_) => many += 1,
            }
        }
        (ok, one, many)
    }
    for (ok, one, many) in [
        sample::<Rich>(content::<Rich>(valid_rich())),
        sample::<Loose>(content::<Loose>(valid_loose())),
    ] {
        assert!(ok >= 100, "accepted {ok}/1000");
        assert!(one >= 100, "one error {one}/1000");
        assert!(many >= 100, "several errors {many}/1000");
    }
}

mod differential;
mod generated;
