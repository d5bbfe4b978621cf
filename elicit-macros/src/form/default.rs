//! The rules on a field's `default`: it must satisfy the field's own constraints and fit its
//! type (or, for a type syntax cannot see through, a trait bound says so).

use super::ast::FormField;
use super::kinds::{KindCheck, KindRule, Num};
use crate::lit::{Literal, Value};
use crate::ty::Shape;

/// Why `lit` cannot be the default of this field, if it cannot; records the checks only the
/// compiler can make.
pub(super) fn check(
    shape: &Shape,
    lit: &Literal,
    attrs: &FormField,
    (minimum, maximum): (Option<Num>, Option<Num>),
    checks: &mut Vec<KindCheck>,
) -> Option<String> {
    // The constraints written beside the default apply whatever the type, alias or not.
    if let Some(problem) = literal_constraints(lit, attrs, minimum, maximum) {
        return Some(problem);
    }
    let wrong = |expected: &str| {
        Some(format!(
            "`default` must be {expected} for this field, found {}",
            lit.value.kind()
        ))
    };
    let mut check = |bound: &'static str, rule: KindRule| {
        checks.push(KindCheck {
            bound,
            rule,
            span: lit.span,
        });
        None
    };
    match (shape, &lit.value) {
        (Shape::Text, Value::Str(_)) | (Shape::Boolean, Value::Bool(_)) => None,
        (Shape::Text, _) => wrong("a string"),
        (Shape::Boolean, _) => wrong("`true` or `false`"),
        (Shape::Integer { min, max }, Value::Int(i)) if i < min || i > max => Some(format!(
            "`default` = {i} is outside the range of the field's type ({min}..={max})"
        )),
        (Shape::Integer { .. }, Value::Int(_)) => None,
        (Shape::Integer { .. }, _) => wrong("a whole number"),
        (Shape::Float { max }, Value::Int(_) | Value::Float(_)) => {
            (lit.value.as_f64().unwrap_or_default().abs() > *max)
                .then(|| "`default` is outside the range of the field's type".into())
        }
        (Shape::Float { .. }, _) => wrong("a number"),
        (Shape::Multi | Shape::Opaque, Value::List(items)) => {
            check("DefaultOptionsFit", KindRule::OffersAll(items.clone()))
        }
        (Shape::Multi, _) => wrong("a list of option values such as `[\"a\", \"b\"]`"),
        (Shape::Opaque, Value::Str(s)) => {
            check("DefaultOptionFits", KindRule::OfferedOrText(s.clone()))
        }
        (Shape::Opaque, Value::Int(i)) => check("DefaultNumberFits", KindRule::Int(*i)),
        (Shape::Opaque, Value::Float(f)) => check("DefaultNumberFits", KindRule::Float(*f)),
        (Shape::Opaque, Value::Bool(_)) => check("DefaultBoolFits", KindRule::Boolean),
    }
}

/// The field's own constraints, checked on the default literal.
fn literal_constraints(
    lit: &Literal,
    attrs: &FormField,
    minimum: Option<Num>,
    maximum: Option<Num>,
) -> Option<String> {
    let in_range = |v: f64| {
        let low = minimum.is_some_and(|m| v < m.as_f64());
        let high = maximum.is_some_and(|m| v > m.as_f64());
        (low || high)
            .then(|| "`default` is outside the field's `minimum`..`maximum` range".to_owned())
    };
    match &lit.value {
        Value::Str(s) => {
            let n = s.chars().count() as u64;
            if attrs.min_length.is_some_and(|m| n < m.value)
                || attrs.max_length.is_some_and(|m| n > m.value)
            {
                return Some(
                    "`default` does not satisfy the field's `min_length`/`max_length`".into(),
                );
            }
            let format = attrs.format.as_ref()?.format;
            (!crate::format::is_valid(format, s)).then(|| {
                format!(
                    "`default` \"{s}\" is not a valid {}",
                    crate::format::name(format)
                )
            })
        }
        Value::Int(i) if *i > i128::from(i64::MAX) || *i < i128::from(i64::MIN) => Some(
            "`default` is outside the 64-bit signed range every whole number of a form lives in"
                .into(),
        ),
        Value::Int(i) => in_range(*i as f64),
        Value::Float(f) => in_range(*f),
        Value::List(items) => {
            let n = items.len() as u64;
            if attrs.min_items.is_some_and(|m| n < m.value)
                || attrs.max_items.is_some_and(|m| n > m.value)
            {
                return Some(
                    "`default` does not satisfy the field's `min_items`/`max_items`".into(),
                );
            }
            let dup = items
                .iter()
                .enumerate()
                .find(|(i, v)| items[..*i].contains(v));
            dup.map(|(_, v)| format!("`default` chooses \"{v}\" twice"))
        }
        Value::Bool(_) => None,
    }
}
