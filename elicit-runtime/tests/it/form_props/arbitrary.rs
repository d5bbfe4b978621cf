//! Arbitrary content, with near misses.

use super::*;

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

pub(super) fn content<T: ElicitForm>(
    valid: impl Strategy<Value = Json>,
) -> impl Strategy<Value = Json> {
    prop_oneof![1 => arbitrary_content::<T>(), 1 => mutated::<T>(valid)]
}
