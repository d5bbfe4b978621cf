//! The field trait: which Rust types can be a property of a form, how each one is described
//! in the schema and decoded from an accepted answer.

use std::collections::{BTreeSet, HashSet};
use std::hash::Hash;

use serde_json::{Number, Value};

use crate::choice::ElicitEnum;

use crate::schema::{
    Annotations, BooleanSchema, Expect, InvalidValue, MultiSelectSchema, NumberSchema,
    PropertySchema, SingleSelectSchema, StringFormat, StringSchema,
};

/// What kind of property a field type becomes, known at compile time.
///
/// The derive uses it to check attributes on types it cannot see through (type aliases,
/// newtypes): `min_items` needs [`FieldKind::MultiSelect`], `format` needs [`FieldKind::Text`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum FieldKind {
    /// Free text: `{"type":"string"}`.
    Text,
    /// A whole number within the Rust type's range: `{"type":"integer"}`.
    Integer {
        /// The smallest value the Rust type holds.
        min: i128,
        /// The largest value the Rust type holds.
        max: i128,
    },
    /// A floating-point number: `{"type":"number"}`.
    Number {
        /// The largest magnitude the Rust type holds.
        max: f64,
    },
    /// Yes or no: `{"type":"boolean"}`.
    Boolean,
    /// One of a fixed set of wire values.
    SingleSelect(&'static [&'static str]),
    /// Any subset of a fixed set of wire values.
    MultiSelect(&'static [&'static str]),
}

/// The attributes of one field, as written in `#[elicit(...)]`, handed to
/// [`ElicitField::property`] to build the field's schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSpec {
    /// `title`.
    pub title: Option<String>,
    /// `description` (or the field's doc comment).
    pub description: Option<String>,
    /// `min_length`.
    pub min_length: Option<u64>,
    /// `max_length`.
    pub max_length: Option<u64>,
    /// `format`.
    pub format: Option<StringFormat>,
    /// `minimum`.
    pub minimum: Option<Number>,
    /// `maximum`.
    pub maximum: Option<Number>,
    /// `min_items`.
    pub min_items: Option<u64>,
    /// `max_items`.
    pub max_items: Option<u64>,
    /// `default`, as the JSON value the client may pre-fill.
    pub default: Option<Value>,
}

impl FieldSpec {
    fn annotations(&self) -> Annotations {
        Annotations {
            title: self.title.clone(),
            description: self.description.clone(),
        }
    }
}

/// A Rust type that can be one property of an elicitation form.
///
/// Implemented for `String`, `bool`, every integer type, `f32`, `f64`, enums deriving
/// [`ElicitEnum`], `Vec`/`BTreeSet`/`HashSet` of such enums, and `Option` of
/// any of these. Implement it for a newtype to use the newtype as a field:
///
/// ```
/// use elicit_runtime::ElicitField;
/// use elicit_runtime::field::{FieldKind, FieldSpec};
/// use elicit_runtime::schema::InvalidValue;
/// use elicit_runtime::schema::PropertySchema;
///
/// struct Handle(String);
///
/// impl ElicitField for Handle {
///     const KIND: FieldKind = FieldKind::Text;
///     fn property(spec: &FieldSpec) -> PropertySchema {
///         String::property(spec)
///     }
///     fn decode(value: &serde_json::Value) -> Result<Self, InvalidValue> {
///         let s = String::decode(value)?;
///         if s.starts_with('@') { Ok(Handle(s)) } else { Err("must start with `@`".into()) }
///     }
///     fn encode(&self) -> Option<serde_json::Value> {
///         self.0.encode()
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "not a form primitive",
    note = "form fields must be `String`, `bool`, an integer, `f32`/`f64`, a unit enum deriving `ElicitEnum`, a `Vec`/`BTreeSet`/`HashSet` of such an enum, or an `Option` of one of these",
    note = "the MCP spec allows only flat forms: split nested data into several fields or several questions"
)]
pub trait ElicitField: Sized {
    /// The kind of property this type becomes.
    const KIND: FieldKind;
    /// `true` when the field may be left out of the answer (`Option<T>`).
    const OPTIONAL: bool = false;
    /// The property schema for this type with the field's attributes applied.
    fn property(spec: &FieldSpec) -> PropertySchema;
    /// Converts a value that already satisfies [`ElicitField::property`] into `Self`.
    ///
    /// Returns a reason a user can read when the value does not fit the Rust type.
    fn decode(value: &Value) -> Result<Self, InvalidValue>;
    /// The JSON this value is sent as; `None` when the field is absent.
    fn encode(&self) -> Option<Value>;
    /// The value of an absent field, when absence is allowed.
    fn absent() -> Option<Self> {
        None
    }
}

/// The schema variant a field of type `T` is described by: a constant for each `T`, so the
/// decoder's check of the field dispatches at compile time
/// (`PropertySchema::check_expecting`; the checks are [`PropertySchema::check`]'s).
#[inline(always)]
pub(crate) fn expect<T: ElicitField>() -> Expect {
    match T::KIND {
        FieldKind::Text => Expect::String,
        FieldKind::Integer { .. } | FieldKind::Number { .. } => Expect::Number,
        FieldKind::Boolean => Expect::Boolean,
        FieldKind::SingleSelect(_) => Expect::SingleSelect,
        FieldKind::MultiSelect(_) => Expect::MultiSelect,
    }
}

/// A copy of an answered text. Out of line on purpose: inlined into a form's decoder (a large
/// function), the allocation's own helper was not, and each text field paid for the call
/// twice; this way the `form_decode` bench's form decodes in 149 fewer instructions.
#[inline(never)]
fn owned(text: &str) -> String {
    text.to_owned()
}

impl ElicitField for String {
    const KIND: FieldKind = FieldKind::Text;
    fn property(spec: &FieldSpec) -> PropertySchema {
        PropertySchema::String(StringSchema {
            annotations: spec.annotations(),
            min_length: spec.min_length,
            max_length: spec.max_length,
            format: spec.format,
            default: spec
                .default
                .as_ref()
                .and_then(|d| d.as_str().map(str::to_owned)),
        })
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        value
            .as_str()
            .map(owned)
            .ok_or_else(|| InvalidValue::new("must be text"))
    }
    fn encode(&self) -> Option<Value> {
        Some(Value::String(self.clone()))
    }
}

impl ElicitField for bool {
    const KIND: FieldKind = FieldKind::Boolean;
    fn property(spec: &FieldSpec) -> PropertySchema {
        PropertySchema::Boolean(BooleanSchema {
            annotations: spec.annotations(),
            default: spec.default.as_ref().and_then(Value::as_bool),
        })
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        value
            .as_bool()
            .ok_or_else(|| InvalidValue::new("must be true or false"))
    }
    fn encode(&self) -> Option<Value> {
        Some(Value::Bool(*self))
    }
}

/// Reads a JSON number as a whole number, accepting `3.0` as `3` (as JSON Schema does).
#[inline]
pub(crate) fn whole_number(value: &Value) -> Option<i128> {
    let n = value.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    // Above 2^63 floats are whole but no longer exact; every Rust integer type ends before that
    // for i64 and the u64 range is checked against the exact bound below.
    if f.fract() == 0.0 && f.abs() < 1.9e19 {
        Some(f as i128)
    } else {
        None
    }
}

macro_rules! integer_field {
    ($($ty:ty => $advertise:expr),* $(,)?) => {$(
        impl ElicitField for $ty {
            const KIND: FieldKind = FieldKind::Integer { min: <$ty>::MIN as i128, max: <$ty>::MAX as i128 };
            fn property(spec: &FieldSpec) -> PropertySchema {
                let advertise: bool = $advertise;
                // Unsigned types always say they start at zero; the full range only when it is
                // narrower than 64 bits (wider bounds are not exact in every client's numbers).
                #[allow(unused_comparisons)]
                let unsigned = <$ty>::MIN == 0;
                let minimum = spec.minimum.clone().or_else(|| (advertise || unsigned).then(|| Number::from(<$ty>::MIN)));
                let maximum = spec.maximum.clone().or_else(|| advertise.then(|| Number::from(<$ty>::MAX)));
                PropertySchema::Number(NumberSchema {
                    annotations: spec.annotations(),
                    integer: true,
                    minimum,
                    maximum,
                    default: spec.default.as_ref().and_then(|d| d.as_number().cloned()),
                })
            }
            #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
                let Some(n) = whole_number(value) else {
                    return Err(InvalidValue::new("must be a whole number"));
                };
                <$ty>::try_from(n).map_err(|_| {
                    InvalidValue::new(format!("must be between {} and {}", <$ty>::MIN, <$ty>::MAX))
                })
            }
            fn encode(&self) -> Option<Value> {
                Some(Value::from(*self))
            }
        }
    )*};
}

integer_field! {
    i8 => true, i16 => true, i32 => true, i64 => false, isize => false,
    u8 => true, u16 => true, u32 => true, u64 => false, usize => false,
}

macro_rules! float_field {
    ($($ty:ty => $advertise:expr),*) => {$(
        impl ElicitField for $ty {
            const KIND: FieldKind = FieldKind::Number { max: <$ty>::MAX as f64 };
            fn property(spec: &FieldSpec) -> PropertySchema {
                // Only `f32` advertises its range: beyond it a value cannot be held at all.
                let advertise: bool = $advertise;
                // f32::MAX as Rust prints it (3.4028235e38): the bound every client can write back.
                let limit = |sign: f64| advertise.then(|| Number::from_f64(sign * F32_LIMIT)).flatten();
                PropertySchema::Number(NumberSchema {
                    annotations: spec.annotations(),
                    integer: false,
                    minimum: spec.minimum.clone().or_else(|| limit(-1.0)),
                    maximum: spec.maximum.clone().or_else(|| limit(1.0)),
                    default: spec.default.as_ref().and_then(|d| d.as_number().cloned()),
                })
            }
            #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
                let f = value.as_f64().ok_or_else(|| InvalidValue::new("must be a number"))?;
                let v = f as $ty;
                if v.is_finite() {
                    Ok(v)
                } else {
                    Err(InvalidValue::new(format!("must be between {:e} and {:e}", <$ty>::MIN, <$ty>::MAX)))
                }
            }
            fn encode(&self) -> Option<Value> {
                // The shortest decimal that reads back as this value, so `0.7f32` is sent as
                // 0.7 (not 0.699999988…) and still satisfies a `minimum` of 0.7.
                self.to_string().parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number)
            }
        }
    )*};
}

/// The largest f32 written as Rust prints it; as f64 it rounds back to `f32::MAX`.
const F32_LIMIT: f64 = 3.4028235e38;

float_field!(f32 => true, f64 => false);

impl<T: ElicitField> ElicitField for Option<T> {
    const KIND: FieldKind = T::KIND;
    const OPTIONAL: bool = true;
    fn property(spec: &FieldSpec) -> PropertySchema {
        T::property(spec)
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        T::decode(value).map(Some)
    }
    fn encode(&self) -> Option<Value> {
        self.as_ref().and_then(T::encode)
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
}

/// Builds the schema of a single-select from an enum's options.
pub fn single_select<E: ElicitEnum>(spec: &FieldSpec) -> PropertySchema {
    PropertySchema::SingleSelect(SingleSelectSchema {
        annotations: spec.annotations(),
        options: E::options(),
        default: spec
            .default
            .as_ref()
            .and_then(|d| d.as_str().map(str::to_owned)),
    })
}

/// Decodes one wire value of a single-select.
pub fn decode_choice<E: ElicitEnum>(value: &Value) -> Result<E, InvalidValue> {
    value.as_str().and_then(E::from_value).ok_or_else(|| {
        InvalidValue::new(format!(
            "must be one of {}",
            crate::choice::list_values(E::VALUES)
        ))
    })
}

fn multi_select<E: ElicitEnum>(spec: &FieldSpec) -> PropertySchema {
    PropertySchema::MultiSelect(MultiSelectSchema {
        annotations: spec.annotations(),
        options: E::options(),
        min_items: spec.min_items,
        max_items: spec.max_items,
        default: spec.default.as_ref().and_then(|d| {
            d.as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect()
        }),
    })
}

fn decode_many<E: ElicitEnum, C: FromIterator<E>>(value: &Value) -> Result<C, InvalidValue> {
    let items = value
        .as_array()
        .ok_or_else(|| InvalidValue::new("must be a list of choices"))?;
    items.iter().map(decode_choice::<E>).collect()
}

fn encode_many<'a, E: ElicitEnum + 'a>(items: impl Iterator<Item = &'a E>) -> Option<Value> {
    Some(Value::Array(
        items.map(|e| Value::from(e.value())).collect::<Vec<_>>(),
    ))
}

// Written out rather than generated by a macro: these impls appear in users' compiler
// errors ("the trait `ElicitField` is implemented for `Vec<E>`"), which should read plainly.
impl<E: ElicitEnum> ElicitField for Vec<E> {
    const KIND: FieldKind = FieldKind::MultiSelect(E::VALUES);
    fn property(spec: &FieldSpec) -> PropertySchema {
        multi_select::<E>(spec)
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        decode_many::<E, _>(value)
    }
    fn encode(&self) -> Option<Value> {
        // A `Vec` keeps the user's order.
        encode_many(self.iter())
    }
}

impl<E: ElicitEnum + Ord> ElicitField for BTreeSet<E> {
    const KIND: FieldKind = FieldKind::MultiSelect(E::VALUES);
    fn property(spec: &FieldSpec) -> PropertySchema {
        multi_select::<E>(spec)
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        decode_many::<E, _>(value)
    }
    fn encode(&self) -> Option<Value> {
        encode_in_declaration_order(self.iter())
    }
}

impl<E: ElicitEnum + Eq + Hash, S: std::hash::BuildHasher + Default> ElicitField for HashSet<E, S> {
    const KIND: FieldKind = FieldKind::MultiSelect(E::VALUES);
    fn property(spec: &FieldSpec) -> PropertySchema {
        multi_select::<E>(spec)
    }
    #[inline]
    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        decode_many::<E, _>(value)
    }
    fn encode(&self) -> Option<Value> {
        encode_in_declaration_order(self.iter())
    }
}

/// A set's items in the enum's declaration order, so one set always encodes the same way.
fn encode_in_declaration_order<'a, E: ElicitEnum + 'a>(
    items: impl Iterator<Item = &'a E>,
) -> Option<Value> {
    let mut items: Vec<&E> = items.collect();
    items.sort_by_key(|e| E::VALUES.iter().position(|v| *v == e.value()));
    encode_many(items.into_iter())
}
