//! The one-pass decoders give exactly what checking then decoding gives, for every answer.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Value, json};

use super::check_then_decode;
use crate::ElicitEnum;
use crate::field::{ElicitField, FieldSpec};
use crate::schema::PropertySchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Topic {
    Billing,
    Security,
    Api,
}

/// Titled options (`oneOf` / `anyOf`), the other layout of a schema's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
#[elicit(rename_all = "lowercase", doc_titles)]
enum Plan {
    /// Free
    Free,
    /// Team
    Team,
}

/// Every answer shape worth trying: the options, unknown texts, other JSON types, lists of
/// every length up to one past the options with repeats, and non-text items.
fn answers() -> Vec<Value> {
    let texts = [
        "billing", "security", "api", "free", "team", "", "API", "other",
    ];
    let mut answers: Vec<Value> = texts.iter().map(|t| json!(t)).collect();
    answers.extend([
        json!(null),
        json!(1),
        json!(true),
        json!({"a": 1}),
        json!([]),
    ]);
    for a in texts {
        answers.push(json!([a]));
        for b in texts {
            answers.push(json!([a, b]));
            for c in ["billing", "api", "team"] {
                answers.push(json!([a, b, c]));
                answers.push(json!([a, b, c, "security"]));
            }
        }
    }
    answers.extend([json!([1]), json!(["api", null]), json!([["api"]])]);
    answers
}

fn specs() -> Vec<FieldSpec> {
    let mut specs = Vec::new();
    for min_items in [None, Some(0), Some(1), Some(2), Some(4)] {
        for max_items in [None, Some(0), Some(1), Some(2), Some(3)] {
            specs.push(FieldSpec {
                min_items,
                max_items,
                ..FieldSpec::default()
            });
        }
    }
    specs
}

fn agrees<T: ElicitField + PartialEq + std::fmt::Debug>(property: &PropertySchema) {
    for answer in answers() {
        assert_eq!(
            T::__decode_checked(property, &answer),
            check_then_decode::<T>(property, &answer),
            "{answer} against {property:?}"
        );
    }
}

#[test]
fn single_selects_agree_with_check_then_decode() {
    let spec = FieldSpec::default();
    agrees::<Topic>(&Topic::property(&spec));
    agrees::<Plan>(&Plan::property(&spec));
    agrees::<Option<Topic>>(&Option::<Topic>::property(&spec));
}

#[test]
fn multi_selects_agree_with_check_then_decode() {
    for spec in specs() {
        agrees::<Vec<Topic>>(&Vec::<Topic>::property(&spec));
        agrees::<Vec<Plan>>(&Vec::<Plan>::property(&spec));
        agrees::<BTreeSet<Topic>>(&BTreeSet::<Topic>::property(&spec));
        agrees::<HashSet<Topic>>(&HashSet::<Topic>::property(&spec));
        agrees::<Option<Vec<Topic>>>(&Option::<Vec<Topic>>::property(&spec));
    }
}

#[test]
fn a_property_of_another_kind_is_checked_as_such() {
    // Not something the derive produces; the answer is still that of the general rule.
    let text = String::property(&FieldSpec::default());
    agrees::<Topic>(&text);
    agrees::<Vec<Topic>>(&text);
}

/// Numbers at and around every bound below, of every JSON number kind, and non-numbers.
fn number_answers() -> Vec<Value> {
    let mut answers = vec![json!(null), json!("7"), json!(true), json!([7])];
    for n in [
        i64::MIN,
        -129,
        -128,
        -1,
        0,
        1,
        17,
        18,
        120,
        121,
        127,
        128,
        255,
        256,
        65_535,
        i64::from(i32::MAX),
        i64::MAX,
    ] {
        answers.push(json!(n));
    }
    answers.extend([json!(u64::MAX), json!(i64::MAX as u64 + 1)]);
    answers.extend([3.0, 3.5, 18.0, -0.0, 1e300, -1e300, 9.3e18].map(|f| json!(f)));
    answers
}

/// Integer bounds, float bounds (whole and not) and none, on either side.
fn number_specs() -> Vec<FieldSpec> {
    let bounds = [
        None,
        Some(json!(18)),
        Some(json!(-1)),
        Some(json!(120)),
        Some(json!(18.0)),
        Some(json!(17.5)),
        Some(json!(u64::MAX)),
    ];
    let number = |b: &Option<Value>| b.as_ref().and_then(|b| b.as_number().cloned());
    let mut specs = Vec::new();
    for minimum in &bounds {
        for maximum in &bounds {
            specs.push(FieldSpec {
                minimum: number(minimum),
                maximum: number(maximum),
                ..FieldSpec::default()
            });
        }
    }
    specs
}

fn numbers_agree<T: ElicitField + PartialEq + std::fmt::Debug>() {
    for spec in number_specs() {
        let property = T::property(&spec);
        for answer in number_answers() {
            assert_eq!(
                T::__decode_checked(&property, &answer),
                check_then_decode::<T>(&property, &answer),
                "{answer} against {property:?}"
            );
        }
    }
}

#[test]
fn integers_agree_with_check_then_decode() {
    numbers_agree::<u8>();
    numbers_agree::<i8>();
    numbers_agree::<u16>();
    numbers_agree::<i32>();
    numbers_agree::<u32>();
    numbers_agree::<i64>();
    numbers_agree::<u64>();
    numbers_agree::<usize>();
    numbers_agree::<Option<u8>>();
    // Not something the derive produces; the answer is still that of the general rule.
    let text = String::property(&FieldSpec::default());
    for answer in number_answers() {
        assert_eq!(
            u8::__decode_checked(&text, &answer),
            check_then_decode::<u8>(&text, &answer)
        );
    }
}
