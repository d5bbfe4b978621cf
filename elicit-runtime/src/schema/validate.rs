//! Checking an answer's `content` against the schema that asked for it.
//!
//! Nothing here recurses into the answer or allocates unless something fails, so hostile
//! content (deep nesting, huge strings or arrays, extreme numbers) costs little.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::error::ContentError;
use super::formats::{is_valid_date, is_valid_date_time, is_valid_email, is_valid_uri};
use super::model::{
    EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema, RequestedSchema, StringFormat,
    StringSchema,
};

/// How many options a "must be one of" message lists before eliding the rest.
const LISTED_OPTIONS: usize = 10;
/// How many characters of an answer are quoted back in a message.
const QUOTED_CHARS: usize = 40;

impl RequestedSchema {
    /// Checks an accepted answer's `content` against this schema.
    ///
    /// `content` must be an object. A property whose key is missing or whose value is `null`
    /// counts as not answered, which is only an error when it is required. Every answered
    /// property must pass [`PropertySchema::check`]. Keys the schema does not declare are
    /// ignored. All failures are reported, in property declaration order.
    ///
    /// ```
    /// use elicit_runtime::schema::RequestedSchema;
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
        for (name, schema) in &self.properties {
            match answers.get(name) {
                None | Some(Value::Null) => {
                    if self.is_required(name) {
                        errors.push(name, "is required");
                    }
                }
                Some(value) => {
                    if let Err(reason) = schema.check(value) {
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
    /// use elicit_runtime::schema::{NumberSchema, PropertySchema};
    /// use serde_json::json;
    ///
    /// let count = PropertySchema::Number(NumberSchema {
    ///     integer: true,
    ///     maximum: Some(10.into()),
    ///     ..NumberSchema::default()
    /// });
    /// assert_eq!(count.check(&json!(3.0)), Ok(()));
    /// assert_eq!(count.check(&json!(3.5)), Err("must be a whole number".to_owned()));
    /// assert_eq!(count.check(&json!(11)), Err("must be at most 10".to_owned()));
    /// ```
    pub fn check(&self, value: &Value) -> Result<(), String> {
        match self {
            PropertySchema::String(s) => check_string(s, value),
            PropertySchema::Number(s) => check_number(s, value),
            PropertySchema::Boolean(_) => match value {
                Value::Bool(_) => Ok(()),
                _ => Err("must be true or false".to_owned()),
            },
            PropertySchema::SingleSelect(s) => match value {
                Value::String(v) if s.options.contains(v) => Ok(()),
                _ => Err(one_of(&s.options)),
            },
            PropertySchema::MultiSelect(s) => check_multi(s, value),
        }
    }
}

fn check_string(s: &StringSchema, value: &Value) -> Result<(), String> {
    let Value::String(text) = value else {
        return Err("must be text".to_owned());
    };
    if s.min_length.is_some() || s.max_length.is_some() {
        let len = text.chars().count() as u64;
        if let Some(min) = s.min_length.filter(|&min| len < min) {
            return Err(format!("must be at least {} long", characters(min)));
        }
        if let Some(max) = s.max_length.filter(|&max| len > max) {
            return Err(format!("must be at most {} long", characters(max)));
        }
    }
    let (valid, what) = match s.format {
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

fn check_number(s: &NumberSchema, value: &Value) -> Result<(), String> {
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

fn check_multi(s: &MultiSelectSchema, value: &Value) -> Result<(), String> {
    let Value::Array(chosen) = value else {
        return Err("must be a list of options".to_owned());
    };
    // Each round either fails or has seen one more distinct option value, so this loop runs
    // at most (number of distinct options + 1) times however long `chosen` is.
    for (i, item) in chosen.iter().enumerate() {
        let Value::String(v) = item else {
            return Err(format!("must list options as text, not {}", kind_of(item)));
        };
        if !s.options.contains(v) {
            let mut reason = format!("chooses `{}`, which is not one of ", Quoted(v));
            push_options(&mut reason, &s.options);
            return Err(reason);
        }
        if chosen[..i]
            .iter()
            .any(|earlier| earlier.as_str() == Some(v))
        {
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
pub(super) fn is_whole(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// The numeric order of two JSON numbers, exact whenever one side is an integer.
pub(super) fn compare(a: &Number, b: &Number) -> Ordering {
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
