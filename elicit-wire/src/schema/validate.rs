//! Checking an answer's `content` against the schema that asked for it.
//!
//! Nothing here recurses into the answer or allocates unless something fails, so hostile
//! content (deep nesting, huge strings or arrays, extreme numbers) costs little.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::error::ContentError;
use super::error::InvalidValue;
use super::model::{
    EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema, RequestedSchema,
    SingleSelectSchema, StringFormat, StringSchema,
};
use elicit_formats::{is_valid_date, is_valid_date_time, is_valid_email, is_valid_uri};

/// How many options a "must be one of" message lists before eliding the rest.
const LISTED_OPTIONS: usize = 10;
/// How many characters of an answer are quoted back in a message.
const QUOTED_CHARS: usize = 40;
/// Up to this many entries, a list is searched in place (nothing allocated); a longer one is
/// put in a set once, so no check costs more than linear time in the schema and the answer.
const SEARCHED_IN_PLACE: usize = 16;

impl RequestedSchema {
    /// Checks an accepted answer's `content` against this schema.
    ///
    /// `content` must be an object. A property whose key is missing or whose value is `null`
    /// counts as not answered, which is only an error when it is required. Every answered
    /// property must pass [`PropertySchema::check`]. Keys the schema does not declare are
    /// ignored. All failures are reported, in property declaration order.
    ///
    /// ```
    /// use elicit_wire::schema::RequestedSchema;
    /// use serde_json::json;
    ///
    /// let schema = RequestedSchema::from_value(&json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "age": {"type": "integer", "minimum": 18},
    ///         "email": {"type": "string", "format": "email"}
    ///     },
    ///     "required": ["age", "email"]
    /// }))
    /// .unwrap();
    /// assert!(schema.validate(&json!({"age": 30, "email": "a@b.co"})).is_ok());
    /// let errors = schema.validate(&json!({"age": 12, "nickname": "x"})).unwrap_err();
    /// assert_eq!(
    ///     errors.to_string(),
    ///     "invalid form content: `age` must be at least 18; `email` is required"
    /// );
    /// ```
    pub fn validate(&self, content: &Value) -> Result<(), ContentError> {
        let mut errors = ContentError::new();
        let Value::Object(answers) = content else {
            errors.push("", "must be an object");
            return Err(errors);
        };
        // The required names as a set, made at the first unanswered property of a form with
        // many required ones.
        let mut required: Option<HashSet<&str>> = None;
        for (name, schema) in &self.properties {
            match answers.get(name) {
                None | Some(Value::Null) => {
                    let is_required = if self.required.len() <= SEARCHED_IN_PLACE {
                        self.is_required(name)
                    } else {
                        required
                            .get_or_insert_with(|| {
                                self.required.iter().map(String::as_str).collect()
                            })
                            .contains(name.as_str())
                    };
                    if is_required {
                        errors.push(name, "is required");
                    }
                }
                Some(value) => {
                    if let Err(reason) = schema.check_reason(value) {
                        errors.push(name, reason);
                    }
                }
            }
        }
        errors.into_result(())
    }
}

impl PropertySchema {
    /// Checks one answered value (present and not `null`) against this property.
    ///
    /// On failure the error is a reason such as `must be at least 18`, ready to follow the
    /// field name. String lengths count Unicode scalar values. An integer property takes JSON
    /// integers and floats without a fractional part (`3.0`); bounds are compared exactly.
    ///
    /// ```
    /// use elicit_wire::schema::{NumberSchema, PropertySchema};
    /// use serde_json::json;
    ///
    /// let count = PropertySchema::Number(NumberSchema {
    ///     integer: true,
    ///     maximum: Some(10.into()),
    ///     ..NumberSchema::default()
    /// });
    /// assert_eq!(count.check(&json!(3.0)), Ok(()));
    /// assert_eq!(count.check(&json!(3.5)), Err("must be a whole number".into()));
    /// assert_eq!(count.check(&json!(11)).unwrap_err().reason(), "must be at most 10");
    /// ```
    #[inline]
    pub fn check(&self, value: &Value) -> Result<(), InvalidValue> {
        self.check_reason(value).map_err(InvalidValue::from)
    }

    /// [`PropertySchema::check`], with the reason as text.
    fn check_reason(&self, value: &Value) -> Result<(), String> {
        match self {
            PropertySchema::String(s) => check_string(s, value),
            PropertySchema::Number(s) => check_number(s, value),
            PropertySchema::Boolean(_) => check_boolean(value),
            PropertySchema::SingleSelect(s) => check_single(s, value),
            PropertySchema::MultiSelect(s) => check_multi(s, value),
        }
    }

    /// [`PropertySchema::check`], told which variant to expect. With `expect` a constant (the
    /// derive's decoder knows each field's type) the dispatch becomes one well-predicted test
    /// instead of a jump through a table, which mispredicts from field to field; the checks and
    /// the result are the same whatever `expect` says.
    #[inline(always)]
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn check_expecting(&self, expect: Expect, value: &Value) -> Result<(), String> {
        match (expect, self) {
            (Expect::String, PropertySchema::String(s)) => check_string(s, value),
            (Expect::Number, PropertySchema::Number(s)) => check_number(s, value),
            (Expect::Boolean, PropertySchema::Boolean(_)) => check_boolean(value),
            (Expect::SingleSelect, PropertySchema::SingleSelect(s)) => check_single(s, value),
            (Expect::MultiSelect, PropertySchema::MultiSelect(s)) => check_multi(s, value),
            _ => self.check_any(value),
        }
    }

    /// [`PropertySchema::check`] out of line, for the (unexpected) mismatch in
    /// [`PropertySchema::check_expecting`]: its callers inline every check of the variant they
    /// expect, and would otherwise also inline every check of every other variant.
    #[inline(never)]
    fn check_any(&self, value: &Value) -> Result<(), String> {
        self.check_reason(value)
    }
}

/// The [`PropertySchema`] variant a caller expects, for [`PropertySchema::check_expecting`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)] // elicit-runtime's; not part of the API
pub enum Expect {
    String,
    Number,
    Boolean,
    SingleSelect,
    MultiSelect,
}

#[inline]
fn check_boolean(value: &Value) -> Result<(), String> {
    match value {
        Value::Bool(_) => Ok(()),
        _ => Err("must be true or false".to_owned()),
    }
}

#[inline]
fn check_single(s: &SingleSelectSchema, value: &Value) -> Result<(), String> {
    match value {
        Value::String(v) if s.options.contains(v) => Ok(()),
        _ => Err(one_of(&s.options)),
    }
}

#[inline(always)]
fn check_string(s: &StringSchema, value: &Value) -> Result<(), String> {
    let Value::String(text) = value else {
        return Err("must be text".to_owned());
    };
    check_text(s.min_length, s.max_length, s.format, text)
}

/// The checks of a string property on an answered text, its bounds and format given apart.
#[inline(always)]
fn check_text(
    min_length: Option<u64>,
    max_length: Option<u64>,
    format: Option<StringFormat>,
    text: &str,
) -> Result<(), String> {
    if min_length.is_some() || max_length.is_some() {
        // A UTF-8 character takes one to four bytes, so the character count lies in
        // [ceil(bytes / 4), bytes]; it is only counted when a bound falls inside that range.
        let bytes = text.len() as u64;
        let fewest = bytes.div_ceil(4);
        let mut counted = None;
        let mut chars = || *counted.get_or_insert_with(|| text.chars().count() as u64);
        if let Some(min) = min_length {
            let short = if bytes < min {
                true
            } else if fewest >= min {
                false
            } else {
                chars() < min
            };
            if short {
                return Err(format!("must be at least {} long", characters(min)));
            }
        }
        if let Some(max) = max_length {
            let long = if bytes <= max {
                false
            } else if fewest > max {
                true
            } else {
                chars() > max
            };
            if long {
                return Err(format!("must be at most {} long", characters(max)));
            }
        }
    }
    let (valid, what) = match format {
        None => return Ok(()),
        Some(StringFormat::Email) => (is_valid_email(text), "a valid email address"),
        Some(StringFormat::Uri) => (is_valid_uri(text), "a valid absolute URI"),
        Some(StringFormat::Date) => (is_valid_date(text), "a valid date like 2024-01-31"),
        Some(StringFormat::DateTime) => (
            is_valid_date_time(text),
            "a valid date and time like 2024-01-31T09:30:00Z",
        ),
    };
    if valid {
        Ok(())
    } else {
        Err(format!("must be {what}"))
    }
}

#[inline(always)]
fn check_number(s: &NumberSchema, value: &Value) -> Result<(), String> {
    // The common case, a JSON integer within `i64` against `i64` bounds, decided by two integer
    // comparisons; the result is the same as the general path's below.
    if let Value::Number(n) = value
        && let Some(v) = n.as_i64()
    {
        let below = |bound: &Number| {
            bound
                .as_i64()
                .map_or_else(|| compare(n, bound).is_lt(), |b| v < b)
        };
        let above = |bound: &Number| {
            bound
                .as_i64()
                .map_or_else(|| compare(n, bound).is_gt(), |b| v > b)
        };
        if let Some(min) = &s.minimum
            && below(min)
        {
            return Err(format!("must be at least {min}"));
        }
        if let Some(max) = &s.maximum
            && above(max)
        {
            return Err(format!("must be at most {max}"));
        }
        return Ok(());
    }
    // A JSON float for a `number` against bounds that are exactly floats (every bound the derive
    // writes): two float comparisons, exact, with the same result as the general path.
    if let Value::Number(n) = value
        && !s.integer
        && n.is_f64()
        && let Some(v) = n.as_f64()
        && let Some(min) = as_exact_float(s.minimum.as_ref())
        && let Some(max) = as_exact_float(s.maximum.as_ref())
    {
        if let (Some(bound), Some(min)) = (&s.minimum, min)
            && v < min
        {
            return Err(format!("must be at least {bound}"));
        }
        if let (Some(bound), Some(max)) = (&s.maximum, max)
            && v > max
        {
            return Err(format!("must be at most {bound}"));
        }
        return Ok(());
    }
    check_number_general(s, value)
}

/// [`check_number`] for every value and bound, through [`compare`].
fn check_number_general(s: &NumberSchema, value: &Value) -> Result<(), String> {
    let n = match value {
        Value::Number(n) if !s.integer || is_whole(n) => n,
        _ if s.integer => return Err("must be a whole number".to_owned()),
        _ => return Err("must be a number".to_owned()),
    };
    // Whole numbers are held as 64-bit signed integers on every side of the wire; beyond that
    // range no Rust field and few clients could hold the value exactly.
    if let Some(min) = s.minimum.as_ref().filter(|min| compare(n, min).is_lt()) {
        return Err(format!("must be at least {min}"));
    }
    if let Some(max) = s.maximum.as_ref().filter(|max| compare(n, max).is_gt()) {
        return Err(format!("must be at most {max}"));
    }
    if s.integer && !n.is_i64() {
        if compare(n, &Number::from(i64::MAX)).is_gt() {
            return Err(format!("must be at most {}", i64::MAX));
        }
        if compare(n, &Number::from(i64::MIN)).is_lt() {
            return Err(format!("must be at least {}", i64::MIN));
        }
    }
    Ok(())
}

#[inline(always)]
fn check_multi(s: &MultiSelectSchema, value: &Value) -> Result<(), String> {
    let Value::Array(chosen) = value else {
        return Err("must be a list of options".to_owned());
    };
    // A long list is looked up through sets, the options' and the choices' so far: searched
    // in place, its cost would grow with the square of its length. (An empty set allocates
    // nothing.)
    let long = chosen.len() > SEARCHED_IN_PLACE;
    let options: HashSet<&str> = if long {
        s.options.values().collect()
    } else {
        HashSet::new()
    };
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, item) in chosen.iter().enumerate() {
        let Value::String(v) = item else {
            return Err(format!("must list options as text, not {}", kind_of(item)));
        };
        let known = if long {
            options.contains(v.as_str())
        } else {
            s.options.contains(v)
        };
        if !known {
            let mut reason = format!("chooses `{}`, which is not one of ", Quoted(v));
            push_options(&mut reason, &s.options);
            return Err(reason);
        }
        let repeated = if long {
            !seen.insert(v)
        } else {
            chosen[..i]
                .iter()
                .any(|earlier| earlier.as_str() == Some(v))
        };
        if repeated {
            return Err(format!("chooses `{}` more than once", Quoted(v)));
        }
    }
    let count = chosen.len() as u64;
    if let Some(min) = s.min_items.filter(|&min| count < min) {
        return Err(format!("must choose at least {}", options_count(min)));
    }
    if let Some(max) = s.max_items.filter(|&max| count > max) {
        return Err(format!("must choose at most {}", options_count(max)));
    }
    Ok(())
}

/// "must be one of `a`, `b`, …" for a single select.
fn one_of(options: &EnumOptions) -> String {
    if options.is_empty() {
        return "cannot be answered: there are no options".to_owned();
    }
    let mut reason = String::from("must be one of ");
    push_options(&mut reason, options);
    reason
}

/// Appends up to [`LISTED_OPTIONS`] option values in backticks, then `, …` if there are more.
fn push_options(out: &mut String, options: &EnumOptions) {
    for (i, value) in options.values().enumerate() {
        if i == LISTED_OPTIONS {
            out.push_str(", …");
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push('`');
        out.push_str(value);
        out.push('`');
    }
}

fn characters(n: u64) -> String {
    if n == 1 {
        "1 character".to_owned()
    } else {
        format!("{n} characters")
    }
}

fn options_count(n: u64) -> String {
    if n == 1 {
        "1 option".to_owned()
    } else {
        format!("{n} options")
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Displays an answer, cut to [`QUOTED_CHARS`] characters so errors stay short.
struct Quoted<'a>(&'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(QUOTED_CHARS) {
            f.write_char(c)?;
        }
        if chars.next().is_some() {
            f.write_char('…')?;
        }
        Ok(())
    }
}

/// Whether `n` is a whole number: a JSON integer or a float without fractional part.
#[inline]
pub(super) fn is_whole(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// The numeric order of two JSON numbers, exact whenever one side is an integer.
#[inline]
pub(super) fn compare(a: &Number, b: &Number) -> Ordering {
    // Fast paths for the common cases, with the same results as the general one below.
    if let (Some(a), Some(b)) = (a.as_i64(), b.as_i64()) {
        return a.cmp(&b);
    }
    if let (Some(a), Some(b)) = (a.as_u64(), b.as_u64()) {
        return a.cmp(&b);
    }
    // A float against an integer that is exactly an `f64`: comparing the two floats is exact.
    // (`partial_cmp` is `None` only for a NaN, which the general path orders.)
    let as_floats = match (a.is_f64(), b.is_f64()) {
        (true, false) => a.as_f64().zip(exact_f64(b)),
        (false, true) => exact_f64(a).zip(b.as_f64()),
        _ => None,
    };
    if let Some(order) = as_floats.and_then(|(a, b)| a.partial_cmp(&b)) {
        return order;
    }
    compare_general(a, b)
}

/// [`compare`] for every pair of numbers, through `i128` and the float's floor.
fn compare_general(a: &Number, b: &Number) -> Ordering {
    match (exact(a), exact(b)) {
        (Exact::Int(a), Exact::Int(b)) => a.cmp(&b),
        (Exact::Int(a), Exact::Float(b)) => int_vs_float(a, b),
        (Exact::Float(a), Exact::Int(b)) => int_vs_float(b, a).reverse(),
        (Exact::Float(a), Exact::Float(b)) => a.partial_cmp(&b).unwrap_or_else(|| a.total_cmp(&b)),
    }
}

enum Exact {
    Int(i128),
    Float(f64),
}

fn exact(n: &Number) -> Exact {
    if let Some(i) = n.as_i64() {
        Exact::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Exact::Int(i128::from(u))
    } else {
        Exact::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Largest magnitude up to which every integer is exactly an `f64` (2^53).
const F64_EXACT_INT: u64 = 1 << 53;

/// An integer `n` as the `f64` of the same value, when that exists (|n| <= 2^53).
#[allow(clippy::cast_precision_loss)] // exact: both casts happen only for |n| <= 2^53
#[inline(always)]
fn exact_f64(n: &Number) -> Option<f64> {
    if let Some(i) = n.as_i64() {
        (i.unsigned_abs() <= F64_EXACT_INT).then_some(i as f64)
    } else if let Some(u) = n.as_u64() {
        (u <= F64_EXACT_INT).then_some(u as f64)
    } else {
        None
    }
}

/// A bound as the float of exactly its value: `Some(None)` when there is no bound, `None` when
/// the bound is an integer no `f64` holds exactly (then only the general path is exact).
#[inline(always)]
fn as_exact_float(bound: Option<&Number>) -> Option<Option<f64>> {
    match bound {
        None => Some(None),
        Some(b) if b.is_f64() => b.as_f64().map(Some),
        Some(b) => exact_f64(b).map(Some),
    }
}

/// Compares an integer (within the u64/i64 range) with a float without rounding the integer.
fn int_vs_float(i: i128, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Less;
    }
    let floor = f.floor();
    // `as` saturates; saturated values lie far outside the u64/i64 range of `i`.
    match i.cmp(&(floor as i128)) {
        Ordering::Equal if f > floor => Ordering::Less,
        other => other,
    }
}

#[cfg(test)]
mod tests;

/// The fast paths above against the general computations they shortcut.
#[cfg(test)]
mod fast_path_tests;
