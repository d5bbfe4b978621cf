//! Checking and decoding an answered field in one step ([`ElicitField::__decode_checked`]).
//!
//! The general rule is [`PropertySchema::check`], then [`ElicitField::decode`]. For enums the
//! two repeat each other: the schema's options are the enum's own values, so a value the enum
//! decodes is one of the options. The fast paths below decide that common case with one match
//! per value and fall back to the general rule (and its exact message) for anything else.

use serde_json::Value;

use super::{ElicitField, FieldKind};
use crate::choice::ElicitEnum;
use crate::schema::{Expect, PropertySchema};

/// [`PropertySchema::check`] then [`ElicitField::decode`], with the variant `T` is described by
/// known at compile time.
#[inline(always)]
pub(super) fn check_then_decode<T: ElicitField>(
    property: &PropertySchema,
    value: &Value,
) -> Result<T, String> {
    property
        .check_expecting(expect::<T>(), value)
        .and_then(|()| T::decode(value))
}

/// The schema variant a field of type `T` is described by (a constant for each `T`).
#[inline(always)]
fn expect<T: ElicitField>() -> Expect {
    match T::KIND {
        FieldKind::Text => Expect::String,
        FieldKind::Integer { .. } | FieldKind::Number { .. } => Expect::Number,
        FieldKind::Boolean => Expect::Boolean,
        FieldKind::SingleSelect(_) => Expect::SingleSelect,
        FieldKind::MultiSelect(_) => Expect::MultiSelect,
    }
}

/// An integer answer: a JSON integer within the schema's bounds (whole-number bounds, which
/// every bound the derive writes for an integer field is) that fits `I`, decided by two integer
/// comparisons and one conversion. Anything else (a float such as `3.0`, a bound written as a
/// float, a value out of range) takes the general rule and its exact message.
#[inline(always)]
pub(super) fn decode_integer_checked<I: ElicitField + TryFrom<i64>>(
    property: &PropertySchema,
    value: &Value,
) -> Result<I, String> {
    if let (PropertySchema::Number(s), Value::Number(n)) = (property, value)
        && let Some(v) = n.as_i64()
        && s.minimum
            .as_ref()
            .is_none_or(|min| min.as_i64().is_some_and(|min| v >= min))
        && s.maximum
            .as_ref()
            .is_none_or(|max| max.as_i64().is_some_and(|max| v <= max))
        && let Ok(decoded) = I::try_from(v)
    {
        return Ok(decoded);
    }
    check_then_decode(property, value)
}

/// A single-select answer on the form's own schema, whose options are the enum's values: any
/// text the enum knows ([`ElicitField::__decode_fast`] of a derived enum).
#[doc(hidden)]
#[inline]
pub fn decode_choice_fast<E: ElicitEnum>(value: &Value) -> Option<E> {
    value.as_str().and_then(E::from_value)
}

/// A single-select answer: a text the enum knows is one of the options (the schema's options
/// are `E::options()`), so it is accepted without looking them up.
///
/// ```
/// use elicit_runtime::field::{FieldSpec, decode_choice_checked};
/// use elicit_runtime::{ElicitEnum, ElicitField};
/// use serde_json::json;
///
/// #[derive(Debug, PartialEq, ElicitEnum)]
/// #[elicit(rename_all = "lowercase")]
/// enum Size { Small, Large }
///
/// let property = Size::property(&FieldSpec::default());
/// assert_eq!(decode_choice_checked::<Size>(&property, &json!("large")), Ok(Size::Large));
/// assert_eq!(
///     decode_choice_checked::<Size>(&property, &json!("huge")).unwrap_err(),
///     "must be one of `small`, `large`"
/// );
/// ```
#[doc(hidden)]
#[inline]
pub fn decode_choice_checked<E: ElicitEnum + ElicitField>(
    property: &PropertySchema,
    value: &Value,
) -> Result<E, String> {
    if let (PropertySchema::SingleSelect(_), Value::String(text)) = (property, value)
        && let Some(choice) = E::from_value(text)
    {
        return Ok(choice);
    }
    check_then_decode(property, value)
}

/// A multi-select answer: a list within the item bounds of distinct texts the enum knows.
#[inline]
pub(super) fn decode_many_checked<E: ElicitEnum, C: ElicitField + FromIterator<E>>(
    property: &PropertySchema,
    value: &Value,
) -> Result<C, String> {
    if let (PropertySchema::MultiSelect(s), Value::Array(items)) = (property, value) {
        let count = items.len() as u64;
        let within = s.min_items.is_none_or(|min| count >= min)
            && s.max_items.is_none_or(|max| count <= max);
        if within && let Some(chosen) = distinct_choices::<E>(items) {
            return Ok(chosen.into_iter().collect());
        }
    }
    check_then_decode(property, value)
}

/// Every item decoded, or `None` if one is not a known value or repeats an earlier one.
///
/// Each decoded item is a value not seen before, so this loop runs at most once per option
/// (plus one) however long `items` is, as [`PropertySchema::check`] does. Out of line: inlined
/// into a form's decoder, the `Vec`'s allocation was not (27 fewer instructions per decode of
/// the `form_decode` bench's form under callgrind).
#[inline(never)]
pub(super) fn distinct_choices<E: ElicitEnum>(items: &[Value]) -> Option<Vec<E>> {
    let mut chosen = Vec::with_capacity(items.len().min(E::VALUES.len()));
    for (i, item) in items.iter().enumerate() {
        let text = item.as_str()?;
        let choice = E::from_value(text)?;
        if items[..i]
            .iter()
            .any(|earlier| earlier.as_str() == Some(text))
        {
            return None;
        }
        chosen.push(choice);
    }
    Some(chosen)
}

#[cfg(test)]
mod tests;
