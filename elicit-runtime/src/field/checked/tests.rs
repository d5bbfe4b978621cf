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
