//! Round trips against the spec's examples, refusals, and junk-input robustness.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::*;

/// Parses `text`, failing the test on error.
fn parse<T: DeserializeOwned>(value: &Value) -> T {
    match serde_json::from_value(value.clone()) {
        Ok(t) => t,
        Err(e) => panic!("failed to parse {value}: {e}"),
    }
}

fn to_value<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("serializes")
}

fn to_string<T: Serialize>(t: &T) -> String {
    serde_json::to_string(t).expect("serializes")
}

/// Parse then serialize must give back the same JSON value.
fn assert_value_round_trip<T: DeserializeOwned + Serialize>(value: &Value) -> T {
    let parsed: T = parse(value);
    assert_eq!(&to_value(&parsed), value, "value round trip");
    parsed
}

/// Parse then serialize must give back exactly `text` (which is compact JSON whose key order
/// follows the struct order).
fn assert_exact_round_trip<T: DeserializeOwned + Serialize>(text: &str) -> T {
    let parsed: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("parse {text}: {e}"));
    assert_eq!(to_string(&parsed), text, "exact round trip");
    parsed
}

fn obj(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("expected an object, got {other}"),
    }
}

mod capabilities_meta;
mod era_2025;
mod era_2026;
mod hostile;
