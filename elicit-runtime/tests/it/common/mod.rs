//! Helpers shared by the form decoder tests (`form_decode.rs`, `form_props.rs`).

#![allow(dead_code)]

use elicit_runtime::ElicitEnum;
use elicit_runtime::schema::ContentError;
use serde_json::Value;

/// A plain select: wire values are the variant names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
pub(crate) enum Color {
    Red,
    Green,
    Blue,
}

/// A titled select whose wire values differ from the labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
pub(crate) enum Hex {
    #[elicit(rename = "#FF0000", title = "Red")]
    Red,
    #[elicit(rename = "#00FF00", title = "Green")]
    Green,
    #[elicit(rename = "#0000FF", title = "Blue")]
    Blue,
}

/// A select renamed with `rename_all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
#[elicit(rename_all = "kebab-case")]
pub(crate) enum Seating {
    IndoorWindow,
    Terrace,
    Bar,
}

/// The errors as `(wire name, reason)` pairs, in the order they were reported.
pub(crate) fn pairs(err: &ContentError) -> Vec<(String, String)> {
    err.errors()
        .iter()
        .map(|e| (e.field.clone(), e.reason.clone()))
        .collect()
}

/// `expected` as owned pairs, to compare with [`pairs`].
pub(crate) fn owned(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(f, r)| ((*f).to_owned(), (*r).to_owned()))
        .collect()
}

/// Takes a value apart without recursion, so dropping very deep JSON cannot overflow the stack
/// (`serde_json::Value`'s own drop recurses once per level).
pub(crate) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Owns a (possibly very deep) value and takes it apart without recursion when dropped, also
/// while a failed assertion unwinds.
pub(crate) struct Deep(pub Value);

impl std::ops::Deref for Deep {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0
    }
}

impl Drop for Deep {
    fn drop(&mut self) {
        dismantle(std::mem::take(&mut self.0));
    }
}

/// `[[[…null…]]]`, `depth` arrays deep, built without recursion.
pub(crate) fn deep_array(depth: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// `{"a":{"a":…null…}}`, `depth` objects deep, built without recursion.
pub(crate) fn deep_object(depth: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        let mut map = serde_json::Map::new();
        map.insert("a".to_owned(), v);
        v = Value::Object(map);
    }
    v
}
