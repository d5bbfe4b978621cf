//! The fast paths of `validate.rs` against the general computations they shortcut.

use serde_json::json;

use super::*;

fn numbers() -> Vec<Number> {
    let two_53: u64 = 1 << 53;
    let mut values = vec![
        json!(0),
        json!(-0.0),
        json!(0.0),
        json!(0.5),
        json!(-0.5),
        json!(1e308),
        json!(-1e308),
        json!(f64::MAX),
        json!(f64::MIN),
        json!(f64::MIN_POSITIVE),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(i64::MIN + 1),
        json!(u64::MAX),
        json!(u64::MAX - 1),
        json!(9_223_372_036_854_775_808u64),
        json!(9_223_372_036_854_775_808.0),
        json!(-9_223_372_036_854_775_808.0),
        json!(18_446_744_073_709_551_616.0),
        json!(1499.5),
        json!(1_000_000),
        json!(1_000_000.0),
    ];
    for base in [
        1u64,
        2,
        18,
        120,
        1 << 31,
        1 << 32,
        two_53 - 1,
        two_53,
        two_53 + 1,
    ] {
        for delta in [-2i64, -1, 0, 1, 2] {
            let u = base.saturating_add_signed(delta);
            let i = i64::try_from(u).expect("small");
            values.push(json!(u));
            values.push(json!(-i));
            #[allow(clippy::cast_precision_loss)]
            let f = u as f64;
            values.push(json!(f));
            values.push(json!(-f));
            values.push(json!(f + 0.5));
            values.push(json!(-f - 0.5));
        }
    }
    values
        .into_iter()
        .map(|v| match v {
            Value::Number(n) => n,
            other => panic!("{other} is not a number"),
        })
        .collect()
}

#[test]
fn compare_agrees_with_the_general_path() {
    let numbers = numbers();
    for a in &numbers {
        for b in &numbers {
            assert_eq!(compare(a, b), compare_general(a, b), "{a} vs {b}");
        }
    }
}

#[test]
fn number_checks_agree_with_the_general_path() {
    let numbers = numbers();
    // Every value against a spread of the same numbers as bounds (all of them as both
    // bounds would be millions of checks).
    let bounds: Vec<Option<Number>> = numbers
        .iter()
        .step_by(7)
        .cloned()
        .map(Some)
        .chain([None, Some(Number::from(0)), Some(Number::from(1_000_000))])
        .collect();
    for integer in [false, true] {
        for minimum in &bounds {
            for maximum in &bounds {
                let schema = NumberSchema {
                    integer,
                    minimum: minimum.clone(),
                    maximum: maximum.clone(),
                    ..NumberSchema::default()
                };
                for n in &numbers {
                    let value = Value::Number(n.clone());
                    assert_eq!(
                        check_number(&schema, &value),
                        check_number_general(&schema, &value),
                        "{n} against {minimum:?}..{maximum:?}, integer: {integer}"
                    );
                }
            }
        }
    }
}

/// The earlier length check: count every character, then compare.
fn length_reference(s: &StringSchema, text: &str) -> Result<(), String> {
    let len = text.chars().count() as u64;
    if let Some(min) = s.min_length.filter(|&min| len < min) {
        return Err(format!("must be at least {} long", characters(min)));
    }
    if let Some(max) = s.max_length.filter(|&max| len > max) {
        return Err(format!("must be at most {} long", characters(max)));
    }
    Ok(())
}

#[test]
fn string_lengths_agree_with_counting() {
    let mut texts = vec![String::new()];
    for fill in ["a", "é", "用", "😀", "aé用😀", "😀a", "é😀"] {
        for n in 1..=6 {
            texts.push(fill.repeat(n));
        }
    }
    let bounds = (0..=26).map(Some).chain([None, Some(u64::MAX)]);
    let bounds: Vec<Option<u64>> = bounds.collect();
    for text in &texts {
        for &min_length in &bounds {
            for &max_length in &bounds {
                let schema = StringSchema {
                    min_length,
                    max_length,
                    ..StringSchema::default()
                };
                assert_eq!(
                    check_string(&schema, &Value::String(text.clone())),
                    length_reference(&schema, text),
                    "{text:?} in [{min_length:?}, {max_length:?}]"
                );
            }
        }
    }
}
