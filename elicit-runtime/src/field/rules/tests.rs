//! The fast paths give exactly what the general rule gives, for every answer, whatever the
//! constraints: each case builds a field's spec and its rules from the same constraints, as the
//! derive does, and compares `__decode_ruled` with `__decode_checked` on the spec's property.

use serde_json::{Number, Value, json};

use super::{Bound, FieldRules};
use crate::ElicitEnum;
use crate::field::{ElicitField, FieldSpec};
use crate::schema::StringFormat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Topic {
    Billing,
    Security,
    Api,
}

/// One set of constraints, as attributes would write them.
#[derive(Clone, Copy, Default)]
struct Constraints {
    min_length: Option<u64>,
    max_length: Option<u64>,
    format: Option<StringFormat>,
    minimum: Option<Num>,
    maximum: Option<Num>,
    min_items: Option<u64>,
    max_items: Option<u64>,
}

/// A bound as written: whole (within `i128`, as the derive reads it) or a float.
#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Constraints {
    /// The spec the derive would build (its numbers as the derive writes them).
    fn spec(self) -> FieldSpec {
        let number = |n: Option<Num>| {
            n.and_then(|n| match n {
                Num::Int(i) if i >= 0 => u64::try_from(i).ok().map(Number::from),
                Num::Int(i) => i64::try_from(i).ok().map(Number::from),
                Num::Float(f) => Number::from_f64(f),
            })
        };
        FieldSpec {
            min_length: self.min_length,
            max_length: self.max_length,
            format: self.format,
            minimum: number(self.minimum),
            maximum: number(self.maximum),
            min_items: self.min_items,
            max_items: self.max_items,
            ..FieldSpec::default()
        }
    }

    /// The rules the derive would write for the same constraints.
    fn rules(self) -> FieldRules {
        let bound = |n: Option<Num>| {
            n.map(|n| match n {
                Num::Int(i) => i64::try_from(i).map_or(Bound::Other, Bound::Int),
                Num::Float(f) => Bound::Float(f),
            })
        };
        FieldRules {
            min_length: self.min_length,
            max_length: self.max_length,
            format: self.format,
            minimum: bound(self.minimum),
            maximum: bound(self.maximum),
            min_items: self.min_items,
            max_items: self.max_items,
        }
    }
}

/// Whatever the fast path accepts, the general rule decodes to the same value, and it accepts no
/// `null`. Returns how many
/// answers the fast path decided, so a test can tell one that decides nothing.
#[track_caller]
fn agrees<T: ElicitField + PartialEq + std::fmt::Debug>(
    constraints: &[Constraints],
    answers: &[Value],
) -> usize {
    let mut decided = 0;
    for c in constraints {
        let property = T::property(&c.spec());
        let rules = c.rules();
        for answer in answers {
            if answer.is_null() {
                // `null` is an absent field, which only the general path decides.
                assert_eq!(T::__decode_fast(&rules, answer), None);
                continue;
            }
            let general = T::__decode_checked(&property, answer);
            if let Some(fast) = T::__decode_fast(&rules, answer) {
                decided += 1;
                assert_eq!(Ok(&fast), general.as_ref(), "{answer} against {property:?}");
            }
        }
    }
    decided
}

fn texts() -> Vec<Value> {
    let mut answers: Vec<Value> = [
        "",
        "a",
        "ab",
        "abc",
        "abcd",
        "ééé",
        "😀😀",
        "a@b.co",
        "ada.lovelace@analytical-engines.co.uk",
        "not an email",
        "https://example.com/a",
        "2024-01-31",
        "2024-01-31T09:30:00Z",
        "2024-02-30",
    ]
    .iter()
    .map(|t| json!(t))
    .collect();
    answers.push(json!("x".repeat(300)));
    answers.push(json!("é".repeat(61)));
    answers.extend([json!(null), json!(3), json!(true), json!(["a"])]);
    answers
}

#[test]
fn texts_agree_with_the_general_rule() {
    let mut constraints = Vec::new();
    for min_length in [None, Some(0), Some(1), Some(2), Some(4), Some(61)] {
        for max_length in [
            None,
            Some(0),
            Some(1),
            Some(3),
            Some(4),
            Some(60),
            Some(254),
        ] {
            for format in [
                None,
                Some(StringFormat::Email),
                Some(StringFormat::Uri),
                Some(StringFormat::Date),
                Some(StringFormat::DateTime),
            ] {
                constraints.push(Constraints {
                    min_length,
                    max_length,
                    format,
                    ..Constraints::default()
                });
            }
        }
    }
    let answers = texts();
    assert!(agrees::<String>(&constraints, &answers) > 0);
    assert!(agrees::<Option<String>>(&constraints, &answers) > 0);
}

fn numbers() -> Vec<Value> {
    let mut answers = vec![json!(null), json!("7"), json!(true)];
    for n in [
        i64::MIN,
        -129,
        -1,
        0,
        1,
        17,
        18,
        120,
        121,
        255,
        256,
        1 << 53,
        (1 << 53) + 1,
        i64::MAX,
    ] {
        answers.push(json!(n));
    }
    answers.push(json!(u64::MAX));
    answers.extend(
        [
            0.0, -0.0, 0.5, 3.0, 17.5, 18.0, 119.99, 1499.5, 1e300, -1e300, 3.5e38, 3.4e38,
        ]
        .map(|f| json!(f)),
    );
    answers
}

fn number_constraints() -> Vec<Constraints> {
    let bounds = [
        None,
        Some(Num::Int(0)),
        Some(Num::Int(18)),
        Some(Num::Int(-1)),
        Some(Num::Int(120)),
        Some(Num::Int(1 << 53)),
        Some(Num::Int((1 << 53) + 1)),
        Some(Num::Int(i128::from(u64::MAX))),
        Some(Num::Float(17.5)),
        Some(Num::Float(18.0)),
        Some(Num::Float(1_000_000.0)),
    ];
    let mut constraints = Vec::new();
    for minimum in bounds {
        for maximum in bounds {
            constraints.push(Constraints {
                minimum,
                maximum,
                ..Constraints::default()
            });
        }
    }
    constraints
}

#[test]
fn numbers_agree_with_the_general_rule() {
    let (constraints, answers) = (number_constraints(), numbers());
    assert!(agrees::<u8>(&constraints, &answers) > 0);
    assert!(agrees::<i8>(&constraints, &answers) > 0);
    assert!(agrees::<u32>(&constraints, &answers) > 0);
    assert!(agrees::<i64>(&constraints, &answers) > 0);
    assert!(agrees::<u64>(&constraints, &answers) > 0);
    assert!(agrees::<usize>(&constraints, &answers) > 0);
    assert!(agrees::<f64>(&constraints, &answers) > 0);
    assert_eq!(
        agrees::<f32>(&constraints, &answers),
        0,
        "f32 is left to the general rule"
    );
    assert!(agrees::<Option<u8>>(&constraints, &answers) > 0);
    assert!(agrees::<Option<f64>>(&constraints, &answers) > 0);
}

#[test]
fn booleans_and_choices_agree_with_the_general_rule() {
    let mut constraints = Vec::new();
    for min_items in [None, Some(0), Some(1), Some(2), Some(4)] {
        for max_items in [None, Some(0), Some(1), Some(2), Some(3)] {
            constraints.push(Constraints {
                min_items,
                max_items,
                ..Constraints::default()
            });
        }
    }
    let mut answers = vec![
        json!(true),
        json!(false),
        json!(null),
        json!(1),
        json!("api"),
    ];
    let texts = ["billing", "security", "api", "other", ""];
    answers.push(json!([]));
    for a in texts {
        answers.push(json!([a]));
        for b in texts {
            answers.push(json!([a, b]));
            answers.push(json!([a, b, "api", "billing"]));
        }
    }
    answers.extend([json!([1]), json!(["api", null])]);
    assert!(agrees::<bool>(&constraints, &answers) > 0);
    assert!(agrees::<Topic>(&constraints, &answers) > 0);
    assert!(agrees::<Vec<Topic>>(&constraints, &answers) > 0);
    assert!(agrees::<Option<Vec<Topic>>>(&constraints, &answers) > 0);
}
