//! A field's constraints as the derive wrote them, known when the form compiles: the fast path
//! of the derive's decoder for its own schema ([`ElicitField::__decode_fast`]).
//!
//! Why: checking an answer against the schema built at run time reads every bound from it and
//! matches on what kind of bound it is. With the bounds a `const` of the form, the optimizer
//! turns each check into a comparison with a constant, and an accepted field needs neither its
//! property looked up nor an error path (the `form_decode` bench's ten-field form: 2405 → 2055
//! instructions per decode, `ELICIT_BENCH_COUNT=elicit_from_content:N` under callgrind).
//!
//! Each fast path only ever accepts: whenever it cannot decide (a bound it does not know how to
//! compare exactly, a value that fails), it returns `None` and the decoder hands the value to
//! [`ElicitField::__decode_checked`], the general rule, which gives the same result it always
//! did and its exact message. The tests in `rules/tests.rs` check that whatever a fast path
//! accepts, the general rule decodes the same way.

use crate::schema::{F64_EXACT_INT, StringFormat, check_text};

/// One field's constraints, as written in its `#[elicit(...)]` attributes.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldRules {
    /// `min_length`.
    pub min_length: Option<u64>,
    /// `max_length`.
    pub max_length: Option<u64>,
    /// `format`.
    pub format: Option<StringFormat>,
    /// `minimum`.
    pub minimum: Option<Bound>,
    /// `maximum`.
    pub maximum: Option<Bound>,
    /// `min_items`.
    pub min_items: Option<u64>,
    /// `max_items`.
    pub max_items: Option<u64>,
}

impl FieldRules {
    /// No constraints: what the derive writes for a field without any, and the base of the
    /// others (`FieldRules { max_length: Some(40), ..FieldRules::NONE }`).
    pub const NONE: FieldRules = FieldRules {
        min_length: None,
        max_length: None,
        format: None,
        minimum: None,
        maximum: None,
        min_items: None,
        max_items: None,
    };
}

/// A numeric bound of [`FieldRules`].
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A whole number.
    Int(i64),
    /// A number with a fractional part, or written as a float.
    Float(f64),
    /// A whole number beyond `i64` (above `i64::MAX`): left to the general rule.
    Other,
}

impl Bound {
    /// This bound as the `f64` of exactly its value, if there is one.
    #[inline(always)]
    fn as_exact_f64(self) -> Option<f64> {
        match self {
            #[allow(clippy::cast_precision_loss)] // exact: |i| <= 2^53
            Bound::Int(i) if i.unsigned_abs() <= F64_EXACT_INT => Some(i as f64),
            Bound::Float(f) => Some(f),
            Bound::Int(_) | Bound::Other => None,
        }
    }
}

/// Whether `text` meets the length and format rules: the general rule's own check of a text,
/// given the constants.
#[inline(always)]
pub(super) fn text_fits(rules: &FieldRules, text: &str) -> bool {
    check_text(rules.min_length, rules.max_length, rules.format, text).is_ok()
}

/// Whether the whole number `v` meets the bounds; `false` also when a bound is not a whole
/// number within `i64` (then only the general rule compares exactly).
#[inline(always)]
pub(super) fn integer_fits(rules: &FieldRules, v: i64) -> bool {
    let within = |bound: Option<Bound>, ok: fn(i64, i64) -> bool| match bound {
        None => true,
        Some(Bound::Int(b)) => ok(v, b),
        Some(Bound::Float(_) | Bound::Other) => false,
    };
    within(rules.minimum, |v, b| v >= b) && within(rules.maximum, |v, b| v <= b)
}

/// Whether the float `v` meets the bounds; `false` also when a bound has no exact `f64`.
#[inline(always)]
pub(super) fn float_fits(rules: &FieldRules, v: f64) -> bool {
    let within = |bound: Option<Bound>, ok: fn(f64, f64) -> bool| match bound {
        None => true,
        Some(b) => b.as_exact_f64().is_some_and(|b| ok(v, b)),
    };
    within(rules.minimum, |v, b| v >= b) && within(rules.maximum, |v, b| v <= b)
}

/// Whether a list of `count` choices meets the item bounds.
#[inline(always)]
pub(super) fn count_fits(rules: &FieldRules, count: usize) -> bool {
    let count = count as u64;
    rules.min_items.is_none_or(|min| count >= min) && rules.max_items.is_none_or(|max| count <= max)
}

#[cfg(test)]
mod tests;
