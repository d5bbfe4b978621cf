//! A form's `requestedSchema` as rmcp's typed `ElicitationSchema`, built field by field.
//!
//! Why not through JSON text: rmcp's `PrimitiveSchemaDefinition` and its enum schemas are
//! untagged, so parsing a schema buffers every property and tries it as each variant in turn;
//! for the demo's booking form that parse was the largest single cost of handing an
//! `input_required` result to rmcp (callgrind, `scripts/bench-whole-call`). Each property here
//! maps to the variant rmcp's own parse picks, with its fields set as that parse sets them
//! (rmcp's builders check and drop things its parse keeps, so they only make the empty
//! untitled enums); anything that would not map exactly (a number `f64` cannot hold, an
//! integer beyond `i64`, a length beyond `u32`, a legacy multi-select) returns `None` and the
//! caller takes the JSON path.
//! `tests.rs` checks both paths write the same JSON.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rmcp::model::{
    BooleanSchema, ConstTitle, ElicitationSchema, EnumSchema, IntegerSchema, LegacyEnumSchema,
    MultiSelectEnumSchema as Multi, NumberSchema, PrimitiveSchemaDefinition,
    SingleSelectEnumSchema as Single, StringFormat as RmcpFormat, StringSchema, TitledItems,
    TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema,
};
use serde_json::Number;

use crate::schema::{
    Annotations, EnumOptions, MultiSelectSchema, NumberSchema as OurNumber, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema as OurString,
};

/// `schema` as rmcp's, or `None` where only rmcp's own parse gives the exact result. A form's
/// own schema lives as long as the program, so its titles and descriptions are lent to rmcp
/// (which holds them as `Cow<'static, str>`) instead of copied.
#[expect(
    clippy::ptr_arg,
    reason = "the variant says whether the schema lives as long as the program"
)]
pub(super) fn elicitation_schema(
    schema: &Cow<'static, RequestedSchema>,
) -> Option<ElicitationSchema> {
    match schema {
        Cow::Borrowed(schema) => build(schema, |text: &'static str| Cow::Borrowed(text)),
        Cow::Owned(schema) => build(schema, |text: &str| Cow::Owned(text.to_owned())),
    }
}

/// How a label of a schema borrowed for `'s` becomes rmcp's.
trait Label<'s>: Fn(&'s str) -> Cow<'static, str> + Copy {}

impl<'s, F: Fn(&'s str) -> Cow<'static, str> + Copy> Label<'s> for F {}

fn build<'s>(schema: &'s RequestedSchema, label: impl Label<'s>) -> Option<ElicitationSchema> {
    let mut properties = BTreeMap::new();
    for (name, property) in &schema.properties {
        if properties
            .insert(name.clone(), property_schema(property, label)?)
            .is_some()
        {
            return None;
        }
    }
    let mut out = ElicitationSchema::new(properties);
    out.property_order = Some(schema.properties.iter().map(|(n, _)| n.clone()).collect());
    out.required = (!schema.required.is_empty()).then(|| schema.required.clone());
    out.schema = schema.schema_uri.as_deref().map(label);
    Some(out)
}

fn property_schema<'s>(
    property: &'s PropertySchema,
    label: impl Label<'s>,
) -> Option<PrimitiveSchemaDefinition> {
    Some(match property {
        PropertySchema::String(s) => PrimitiveSchemaDefinition::String(string(s, label)?),
        PropertySchema::Number(n) if n.integer => {
            PrimitiveSchemaDefinition::Integer(integer(n, label)?)
        }
        PropertySchema::Number(n) => PrimitiveSchemaDefinition::Number(number(n, label)?),
        PropertySchema::Boolean(b) => {
            let mut out = BooleanSchema::new();
            (out.title, out.description) = labels(&b.annotations, label);
            out.default = b.default;
            PrimitiveSchemaDefinition::Boolean(out)
        }
        PropertySchema::SingleSelect(s) => PrimitiveSchemaDefinition::Enum(single(s, label)?),
        PropertySchema::MultiSelect(m) => PrimitiveSchemaDefinition::Enum(multi(m, label)?),
        // A kind rmcp 3.11 has no model for: the caller takes the JSON path.
        _ => return None,
    })
}

fn labels<'s>(
    a: &'s Annotations,
    label: impl Label<'s>,
) -> (Option<Cow<'static, str>>, Option<Cow<'static, str>>) {
    (
        a.title.as_deref().map(label),
        a.description.as_deref().map(label),
    )
}

fn string<'s>(s: &'s OurString, label: impl Label<'s>) -> Option<StringSchema> {
    let mut out = StringSchema::new();
    (out.title, out.description) = labels(&s.annotations, label);
    // rmcp holds lengths as u32 (its parse refuses more).
    let length = |n: Option<u64>| n.map(u32::try_from).transpose().ok();
    out.min_length = length(s.min_length)?;
    out.max_length = length(s.max_length)?;
    out.format = match s.format {
        None => None,
        Some(StringFormat::Email) => Some(RmcpFormat::Email),
        Some(StringFormat::Uri) => Some(RmcpFormat::Uri),
        Some(StringFormat::Date) => Some(RmcpFormat::Date),
        Some(StringFormat::DateTime) => Some(RmcpFormat::DateTime),
        Some(_) => return None,
    };
    out.default = s.default.clone();
    Some(out)
}

/// A bound or default read as rmcp holds it: `Some(None)` when absent, `None` when `read`
/// cannot hold the number (the caller then takes the JSON path).
fn bound<T>(value: &Option<Number>, read: impl Fn(&Number) -> Option<T>) -> Option<Option<T>> {
    match value {
        None => Some(None),
        Some(number) => read(number).map(Some),
    }
}

fn integer<'s>(n: &'s OurNumber, label: impl Label<'s>) -> Option<IntegerSchema> {
    let mut out = IntegerSchema::new();
    (out.title, out.description) = labels(&n.annotations, label);
    out.minimum = bound(&n.minimum, Number::as_i64)?;
    out.maximum = bound(&n.maximum, Number::as_i64)?;
    out.default = bound(&n.default, Number::as_i64)?;
    Some(out)
}

fn number<'s>(n: &'s OurNumber, label: impl Label<'s>) -> Option<NumberSchema> {
    let mut out = NumberSchema::new();
    (out.title, out.description) = labels(&n.annotations, label);
    out.minimum = bound(&n.minimum, Number::as_f64)?;
    out.maximum = bound(&n.maximum, Number::as_f64)?;
    out.default = bound(&n.default, Number::as_f64)?;
    Some(out)
}

fn single<'s>(s: &'s SingleSelectSchema, label: impl Label<'s>) -> Option<EnumSchema> {
    let (title, description) = labels(&s.annotations, label);
    Some(match &s.options {
        EnumOptions::Untitled(values) => {
            let mut built = EnumSchema::builder(values.clone()).build();
            if let EnumSchema::Single(Single::Untitled(out)) = &mut built {
                (out.title, out.description) = (title, description);
                out.default = s.default.clone();
            }
            built
        }
        EnumOptions::Titled(options) => {
            let mut out = TitledSingleSelectEnumSchema::new(const_titles(options));
            (out.title, out.description) = (title, description);
            out.default = s.default.clone();
            EnumSchema::Single(Single::Titled(out))
        }
        EnumOptions::Legacy { values, names } => {
            let mut out = LegacyEnumSchema::new(values.clone());
            (out.title, out.description) = (title, description);
            out.enum_names = Some(names.clone());
            out.default = s.default.clone();
            EnumSchema::Legacy(out)
        }
        _ => return None,
    })
}

fn multi<'s>(m: &'s MultiSelectSchema, label: impl Label<'s>) -> Option<EnumSchema> {
    let (title, description) = labels(&m.annotations, label);
    Some(match &m.options {
        EnumOptions::Untitled(values) => {
            let mut built = EnumSchema::builder(values.clone()).multiselect().build();
            if let EnumSchema::Multi(Multi::Untitled(out)) = &mut built {
                (out.title, out.description) = (title, description);
                (out.min_items, out.max_items) = (m.min_items, m.max_items);
                out.default = m.default.clone();
            }
            built
        }
        EnumOptions::Titled(options) => {
            let mut out = TitledMultiSelectEnumSchema::new(TitledItems::new(const_titles(options)));
            (out.title, out.description) = (title, description);
            (out.min_items, out.max_items) = (m.min_items, m.max_items);
            out.default = m.default.clone();
            EnumSchema::Multi(Multi::Titled(out))
        }
        // `enumNames` has no multi-select form; anything else rmcp has no model for either.
        _ => return None,
    })
}

fn const_titles(options: &[crate::schema::TitledOption]) -> Vec<ConstTitle> {
    options
        .iter()
        .map(|o| ConstTitle::new(o.value.clone(), o.title.clone()))
        .collect()
}

#[cfg(test)]
mod tests;
