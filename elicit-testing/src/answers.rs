//! Generated answers for any form: proptest strategies built from the form's own
//! [`RequestedSchema`], the model its decoder checks answers against.
//!
//! - [`valid`] gives `content` objects a conforming client sends, every one of which the form
//!   decodes and the form's own `requestedSchema` accepts (formats checked): optional fields
//!   present and absent (never `null`); advertised defaults; lengths, numbers and set sizes at both
//!   inclusive bounds and between; every option; every format (with exact lengths); whole
//!   numbers also as floats (`3.0`).
//! - [`lenient`] gives what a sloppy client may send and the server still accepts: [`valid`]'s
//!   answers, and `null` for optional fields (which the `requestedSchema` does not allow, but
//!   the form reads as absent).
//! - [`invalid`] gives content that breaks exactly one advertised rule of one field, labelled
//!   with that field and the [`Rule`], so a test can assert that the decoder's error names it.
//!
//! ```
//! use elicit_runtime::ElicitForm;
//! use elicit_testing::answers;
//! use elicit_testing::proptest::prelude::*;
//! use serde_json::Value;
//!
//! /// Book a table
//! #[derive(Debug, ElicitForm)]
//! struct Booking {
//!     #[elicit(minimum = 1, maximum = 12)]
//!     guests: u8,
//!     #[elicit(format = "date")]
//!     day: String,
//!     #[elicit(max_length = 200)]
//!     note: Option<String>,
//! }
//!
//! proptest!(|(content in answers::valid::<Booking>())| {
//!     let booking = Booking::from_content(&Value::Object(content)).unwrap();
//!     prop_assert!((1..=12).contains(&booking.guests));
//! });
//!
//! proptest!(|(bad in answers::invalid::<Booking>())| {
//!     let err = Booking::from_content(&Value::Object(bad.content)).unwrap_err();
//!     prop_assert_eq!(err.errors().len(), 1);
//!     prop_assert_eq!(&err.errors()[0].field, &bad.field, "{}", bad.rule);
//! });
//! ```
//!
//! Your handler's own tests do the same with its logic: feed `valid` answers through
//! [`Responses::reply`](super::Responses::reply) with
//! [`UserReply::Accept`](super::UserReply::Accept) and assert it never fails;
//! feed `invalid` ones and assert the form is asked again.

mod invalid;
mod text;
mod valid;

use std::fmt;

use proptest::prelude::*;
use serde_json::{Map, Value};

use elicit_runtime::form::ElicitForm;
use elicit_runtime::schema::RequestedSchema;

/// The rule an [`Invalid`] answer breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A required field is absent or `null`.
    Required,
    /// The value has the wrong JSON type (text for a number, a number for a choice, …).
    WrongType,
    /// Text shorter than `minLength` characters.
    TooShort,
    /// Text longer than `maxLength` characters.
    TooLong,
    /// Text that is not of its `format` (email, uri, date, date-time).
    Format,
    /// A number below `minimum` (or, for a whole number, below the 64-bit signed range, such
    /// as `-9.3e18` for an `i64`).
    BelowMinimum,
    /// A number above `maximum` (or, for a whole number, beyond the 64-bit signed range every
    /// side of the wire holds whole numbers in, such as `1e20` for a `u64`).
    AboveMaximum,
    /// A fraction for an `integer` property.
    NotWhole,
    /// A value that is none of the select's options.
    UnknownOption,
    /// A multi-select that chooses one option twice.
    Duplicate,
    /// A multi-select with fewer than `minItems` options.
    TooFewItems,
    /// A multi-select with more than `maxItems` options.
    TooManyItems,
}

impl Rule {
    /// A short name for the rule, such as `too long`.
    ///
    /// ```
    /// assert_eq!(elicit_testing::answers::Rule::BelowMinimum.as_str(), "below minimum");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Required => "required",
            Rule::WrongType => "wrong type",
            Rule::TooShort => "too short",
            Rule::TooLong => "too long",
            Rule::Format => "format",
            Rule::BelowMinimum => "below minimum",
            Rule::AboveMaximum => "above maximum",
            Rule::NotWhole => "not whole",
            Rule::UnknownOption => "unknown option",
            Rule::Duplicate => "duplicate option",
            Rule::TooFewItems => "too few items",
            Rule::TooManyItems => "too many items",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Content that breaks exactly one rule: every other field holds a valid answer (or is
/// absent where that is allowed).
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The `content` of the accepted answer.
    pub content: Map<String, Value>,
    /// The wire name of the field at fault.
    pub field: String,
    /// The rule its value breaks.
    pub rule: Rule,
}

/// Content objects a conforming client sends for form `T`: each one the form decodes and its
/// `requestedSchema` accepts. Optional fields are present or absent, never `null`. See the
/// [module docs](self) for what they cover.
///
/// # Panics
///
/// When built, if a required field of `T` admits no answer at all (say `minLength` above
/// `maxLength`, or `format = "date"` with `maxLength` below 10).
pub fn valid<T: ElicitForm>() -> impl Strategy<Value = Map<String, Value>> {
    valid_for(T::requested_schema())
}

/// What a sloppy client may send for form `T` and the server still accepts: [`valid`]'s
/// answers, and `null` for optional fields (read as absent, though the `requestedSchema` gives
/// them no `null` type). Test with it that your handler copes with both; test with [`valid`]
/// what a schema-validating client sends.
///
/// ```
/// use elicit_runtime::ElicitForm;
/// use elicit_testing::answers;
/// use elicit_testing::proptest::prelude::*;
/// use serde_json::Value;
///
/// /// Anything to add?
/// #[derive(Debug, ElicitForm)]
/// struct Note {
///     note: Option<String>,
/// }
///
/// proptest!(|(content in answers::lenient::<Note>())| {
///     // `{}`, `{"note": null}` and `{"note": "…"}` all decode.
///     Note::from_content(&Value::Object(content)).unwrap();
/// });
/// ```
///
/// # Panics
///
/// As [`valid`].
pub fn lenient<T: ElicitForm>() -> impl Strategy<Value = Map<String, Value>> {
    lenient_for(T::requested_schema())
}

/// Content objects that break exactly one rule of form `T`, each labelled with the field and
/// the rule. Every rule each field advertises is drawn, as is a missing value for every
/// required field and a wrong JSON type for every field.
///
/// Where text cannot meet its `format` at the too-short or too-long length (a date is always
/// 10 characters), it breaks the format too; the decoder reports the length, for that field.
///
/// # Panics
///
/// When built, as [`valid`] does, or if `T` has no fields (no answer to it is invalid).
pub fn invalid<T: ElicitForm>() -> impl Strategy<Value = Invalid> {
    invalid_for(T::requested_schema())
}

/// [`valid`] for any schema, such as one a client received.
///
/// ```
/// use elicit_runtime::schema::RequestedSchema;
/// use elicit_testing::answers;
/// use elicit_testing::proptest::prelude::*;
/// use serde_json::{Value, json};
///
/// let schema = RequestedSchema::from_value(&json!({
///     "type": "object",
///     "properties": {"colors": {"type": "array", "minItems": 1, "maxItems": 2,
///         "items": {"type": "string", "enum": ["Red", "Green", "Blue"]}}},
///     "required": ["colors"]
/// }))
/// .unwrap();
/// let checked = schema.clone();
/// proptest!(|(content in answers::valid_for(&schema))| {
///     let colors = content["colors"].as_array().unwrap();
///     prop_assert!((1..=2).contains(&colors.len()));
///     prop_assert!(checked.validate(&Value::Object(content)).is_ok());
/// });
/// ```
///
/// # Panics
///
/// As [`valid`].
pub fn valid_for(schema: &RequestedSchema) -> BoxedStrategy<Map<String, Value>> {
    content_for(schema, false)
}

/// [`lenient`] for any schema.
///
/// # Panics
///
/// As [`valid`].
pub fn lenient_for(schema: &RequestedSchema) -> BoxedStrategy<Map<String, Value>> {
    content_for(schema, true)
}

/// Valid content for `schema`; with `nulls`, optional fields are sometimes `null`.
fn content_for(schema: &RequestedSchema, nulls: bool) -> BoxedStrategy<Map<String, Value>> {
    let fields: Vec<BoxedStrategy<(String, Option<Value>)>> = schema
        .properties
        .iter()
        .map(|(name, property)| {
            let answer = valid::value(property);
            let entry = match (schema.is_required(name), answer) {
                (true, Some(answer)) => answer.prop_map(Some).boxed(),
                (true, None) => panic!("required field `{name}` admits no valid answer"),
                (false, Some(answer)) if nulls => prop_oneof![
                    1 => Just(None),
                    1 => Just(Some(Value::Null)),
                    4 => answer.prop_map(Some),
                ]
                .boxed(),
                (false, Some(answer)) => prop_oneof![
                    1 => Just(None),
                    4 => answer.prop_map(Some),
                ]
                .boxed(),
                (false, None) => Just(None).boxed(),
            };
            let name = name.clone();
            entry.prop_map(move |value| (name.clone(), value)).boxed()
        })
        .collect();
    fields
        .prop_map(|entries| {
            entries
                .into_iter()
                .filter_map(|(name, value)| Some((name, value?)))
                .collect()
        })
        .boxed()
}

/// [`invalid`] for any schema.
///
/// ```
/// use elicit_runtime::schema::RequestedSchema;
/// use elicit_testing::answers::{self, Rule};
/// use elicit_testing::proptest::prelude::*;
/// use serde_json::{Value, json};
///
/// let schema = RequestedSchema::from_value(&json!({
///     "type": "object",
///     "properties": {"age": {"type": "integer", "minimum": 18}},
/// }))
/// .unwrap();
/// let checked = schema.clone();
/// proptest!(|(bad in answers::invalid_for(&schema))| {
///     prop_assert_eq!(&bad.field, "age");
///     // No maximum: beyond the 64-bit signed range (`1e20`) is above it.
///     prop_assert!(matches!(
///         bad.rule,
///         Rule::WrongType | Rule::BelowMinimum | Rule::AboveMaximum | Rule::NotWhole
///     ));
///     let err = checked.validate(&Value::Object(bad.content)).unwrap_err();
///     prop_assert_eq!(&err.errors()[0].field, "age");
/// });
/// ```
///
/// # Panics
///
/// As [`invalid`].
pub fn invalid_for(schema: &RequestedSchema) -> BoxedStrategy<Invalid> {
    let base = valid_for(schema);
    let cases: Vec<BoxedStrategy<Invalid>> = schema
        .properties
        .iter()
        .flat_map(|(name, property)| {
            let base = base.clone();
            invalid::breaking(property, schema.is_required(name))
                .into_iter()
                .map(move |(rule, breaking)| {
                    let field = name.clone();
                    (base.clone(), breaking)
                        .prop_map(move |(mut content, value)| {
                            match value {
                                Some(value) => content.insert(field.clone(), value),
                                None => content.remove(&field),
                            };
                            Invalid {
                                content,
                                field: field.clone(),
                                rule,
                            }
                        })
                        .boxed()
                })
        })
        .collect();
    assert!(
        !cases.is_empty(),
        "a form without fields has no invalid answer"
    );
    valid::one_of(cases)
}
