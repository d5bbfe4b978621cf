use proptest::prelude::*;
use serde_json::{Map, json};

use super::*;

#[test]
fn canonical_json_rules() {
    assert_eq!(canonical_json(&json!(null)), "null");
    assert_eq!(
        canonical_json(&json!({"b": 1, "a": {"d": [3, 2], "c": "é\u{7f}\u{1f}"}})),
        "{\"a\":{\"c\":\"é\u{7f}\\u001f\",\"d\":[3,2]},\"b\":1}"
    );
    assert_eq!(canonical_json(&json!([1.0, -0.0, 2.5, -7])), "[1,0,2.5,-7]");
    assert_eq!(
        canonical_json(&json!({"B": 0, "a": 0, "é": 0, "z": 0})),
        r#"{"B":0,"a":0,"z":0,"é":0}"#
    );
    // Canonical text parses back to the same structure.
    let v = json!({"s": "tab\t quote\" back\\ \u{8}\u{c}\r \u{0}", "n": [0.1, u64::MAX, i64::MIN]});
    let back: Value = serde_json::from_str(&canonical_json(&v)).unwrap();
    assert_eq!(back, v);
}

/// Issue 9 item 8: floats were written with `Display`, which never uses an exponent, so
/// `1e308` canonicalised to 309 characters on every request.
#[test]
fn numbers_digest_in_a_bounded_form() {
    assert_eq!(canonical_json(&json!(1e308)), "1e+308");
    assert_eq!(
        canonical_json(&json!(-1.7976931348623157e308)),
        "-1.7976931348623157e+308"
    );
    assert_eq!(canonical_json(&json!(5e-324)), "5e-324");
    assert_eq!(canonical_json(&json!(1e20)), "1e+20");
    assert_eq!(canonical_json(&json!(0.1)), "0.1");
    // The same text serde_json itself writes for a float.
    for f in [1e308, 2.5, 1e20, 9_007_199_254_740_992.0, 1.5e-7] {
        assert_eq!(
            canonical_json(&json!([f])),
            format!("[{}]", serde_json::to_string(&f).unwrap())
        );
    }
    // Every number is at most 24 characters, whatever its magnitude.
    for f in [
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        1e300,
        -1e-300,
        123_456.789e200,
    ] {
        let text = canonical_json(&json!(f));
        assert!(text.len() <= 24, "{f}: {text}");
        assert_eq!(text.parse::<f64>().unwrap(), f);
    }
    let big: Value = serde_json::from_str(&format!("[{}]", "9".repeat(300))).unwrap();
    assert!(canonical_json(&big).len() <= 26);
}

/// Which spellings of a number digest alike, and which do not (documented at
/// `write_canonical`): equal integers always; an integral float below 2^53 as that integer;
/// integers above 2^53 exactly; a float at or above 2^53 never as an integer.
#[test]
fn number_spellings_that_digest_alike_and_apart() {
    let digest = |text: &str| args_digest(&serde_json::from_str(text).unwrap());
    assert_eq!(digest(r#"{"n":3}"#), digest(r#"{"n":3.0}"#));
    assert_eq!(digest(r#"{"n":3}"#), digest(r#"{"n":30e-1}"#));
    assert_eq!(digest(r#"{"n":0}"#), digest(r#"{"n":-0.0}"#));
    assert_eq!(digest(r#"{"n":1e308}"#), digest(r#"{"n":10e307}"#));
    assert_eq!(digest(r#"{"n":0.5}"#), digest(r#"{"n":5e-1}"#));
    // Above 2^53, neighbouring integers stay apart (a float would merge them).
    assert_ne!(
        digest(r#"{"n":9007199254740993}"#),
        digest(r#"{"n":9007199254740992}"#)
    );
    assert_ne!(
        digest(&format!("[{}]", u64::MAX)),
        digest(&format!("[{}]", u64::MAX - 1))
    );
    // A float at or above 2^53 is not an integer for the digest.
    assert_ne!(
        digest(r#"{"n":9007199254740992}"#),
        digest(r#"{"n":9007199254740992.0}"#)
    );
    assert_ne!(digest(r#"{"n":1}"#), digest(r#"{"n":"1"}"#));
}

#[test]
fn args_digest_rules() {
    assert_eq!(args_digest(&Value::Null), args_digest(&json!({})));
    assert_eq!(
        args_digest(&json!({"a": 1, "b": [1, 2]})),
        args_digest(&json!({"b": [1, 2], "a": 1}))
    );
    assert_eq!(
        args_digest(&json!({"a": 1.0})),
        args_digest(&json!({"a": 1}))
    );
    assert_ne!(
        args_digest(&json!({"a": [1, 2]})),
        args_digest(&json!({"a": [2, 1]}))
    );
    assert_ne!(
        args_digest(&json!({"a": "1"})),
        args_digest(&json!({"a": 1}))
    );
    assert_ne!(args_digest(&json!([])), args_digest(&json!({})));
    // Known answer: SHA-256("{}") = 44136fa3 55b3678a 1146ad16 f7e8649e ...
    assert_eq!(
        args_digest(&json!({})),
        [
            0x44, 0x13, 0x6f, 0xa3, 0x55, 0xb3, 0x67, 0x8a, 0x11, 0x46, 0xad, 0x16, 0xf7, 0xe8,
            0x64, 0x9e
        ]
    );
}

#[test]
fn streamed_digest_is_the_hash_of_the_canonical_text() {
    // Long strings and many keys cross the stack buffer's boundary.
    let mut map = Map::new();
    for i in (0..200).rev() {
        map.insert(
            format!("key{i:03}"),
            json!({"s": "x".repeat(i * 3), "n": i}),
        );
    }
    let value = Value::Object(map);
    let text = canonical_json(&value);
    assert!(text.len() > 60_000);
    let hash = Sha256::digest(text.as_bytes());
    assert_eq!(args_digest(&value)[..], hash[..16]);
}

#[test]
fn short_digest_parts_are_unambiguous() {
    assert_ne!(short_digest(&[b"ab", b"c"]), short_digest(&[b"a", b"bc"]));
    assert_ne!(short_digest(&[b"", b"a"]), short_digest(&[b"a", b""]));
    assert_eq!(short_digest(&[b"k", b"m"]).len(), 22);
    let raw = |key: &str, method: &str, params: &Value| question_digest_raw(key, method, params);
    assert_eq!(
        raw("k", "m", &json!({"a": 1, "b": 2})),
        raw("k", "m", &json!({"b": 2, "a": 1.0}))
    );
    assert_ne!(raw("k", "m", &json!("x")), raw("k", "m", &json!("y")));
    assert_ne!(raw("k", "m1", &json!(1)), raw("k", "m", &json!(11)));
    assert_ne!(raw("k", "m", &Value::Null), raw("km", "", &Value::Null));
}

#[test]
fn principal_hash_is_salted_with_the_audience() {
    assert_ne!(principal_hash("a", "bc"), principal_hash("ab", "c"));
    assert_ne!(principal_hash("srv1", "u"), principal_hash("srv2", "u"));
    assert_eq!(principal_hash("srv1", "u"), principal_hash("srv1", "u"));
}

#[test]
fn constant_time_equality() {
    assert!(ct_eq(b"", b""));
    assert!(ct_eq(b"abc", b"abc"));
    assert!(!ct_eq(b"abc", b"abd"));
    assert!(!ct_eq(b"abc", b"ab"));
    assert!(!ct_eq(b"", b"a"));
}

/// Arbitrary JSON values, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((".{0,6}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// The same object with its keys inserted in reverse order, at every depth.
fn reversed(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reversed(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

proptest! {
    #[test]
    fn canonical_text_round_trips_and_ignores_key_order(value in json_value()) {
        let text = canonical_json(&value);
        let back: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(canonical_json(&back), text.clone());
        prop_assert_eq!(canonical_json(&reversed(&value)), text.clone());
        prop_assert_eq!(args_digest(&reversed(&value)), args_digest(&value));
        if !value.is_null() {
            // (`null` arguments digest as `{}`.)
            let hash = Sha256::digest(text.as_bytes());
            prop_assert_eq!(&args_digest(&value)[..], &hash[..16]);
        }
    }

    #[test]
    fn canonical_numbers_are_short_and_exact(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        let text = canonical_json(&json!(f));
        prop_assert!(text.len() <= 24, "{}", text);
        prop_assert_eq!(text.parse::<f64>().unwrap(), f);
    }
}

#[test]
fn a_declared_schemas_kept_canonical_text_gives_the_same_digest() {
    use elicit_wire::schema::{BooleanSchema, PropertySchema, RequestedSchema, StringSchema};
    use std::sync::OnceLock;
    static SCHEMA: OnceLock<RequestedSchema> = OnceLock::new();
    let schema = SCHEMA.get_or_init(|| {
        RequestedSchema::new()
            .property(
                "zeta",
                PropertySchema::String(StringSchema::default()),
                true,
            )
            .property(
                "alpha",
                PropertySchema::Boolean(BooleanSchema::default()),
                false,
            )
    });
    for message in ["Book a table at Chez Rust", "", "ünïcode \u{0} \"quoted\""] {
        let expected = question_digest("booking", message, schema);
        // Twice: once writing the cache, once reading it.
        assert_eq!(
            question_digest_declared("booking", message, schema),
            expected
        );
        assert_eq!(
            question_digest_declared("booking", message, schema),
            expected
        );
    }
    assert_ne!(
        question_digest_declared("booking", "a", schema),
        question_digest_declared("booking", "b", schema)
    );
}
