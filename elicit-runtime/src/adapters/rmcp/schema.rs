//! A form's `requestedSchema` as rmcp's typed `ElicitationSchema`, built field by field.
//!
//! Why not through JSON text: rmcp's `PrimitiveSchemaDefinition` and its enum schemas are
//! untagged, so parsing a schema buffers every property and tries it as each variant in turn;
//! for the demo's booking form that parse was the largest single cost of handing an
//! `input_required` result to rmcp (callgrind, `scripts/bench-whole-call`). Each property here
//! maps to the variant rmcp's own parse picks; anything that would not map exactly (a number
//! `f64` cannot hold, an integer beyond `i64`, an empty multi-select default, which rmcp's
//! builder drops but its parse keeps) returns `None` and the caller takes the JSON path.
//! `tests.rs` checks both paths write the same JSON.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rmcp::model::{
    BooleanSchema, ConstTitle, ElicitationSchema, EnumSchema, IntegerSchema, LegacyEnumSchema,
    NumberSchema, PrimitiveSchemaDefinition, StringFormat as RmcpFormat, StringSchema, TitledItems,
    TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema,
};
use serde_json::Number;

use crate::schema::{
    Annotations, EnumOptions, MultiSelectSchema, NumberSchema as OurNumber, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema as OurString,
};

/// `schema` as rmcp's, or `None` where only rmcp's own parse gives the exact result.
pub(super) fn elicitation_schema(schema: &RequestedSchema) -> Option<ElicitationSchema> {
    let mut properties = BTreeMap::new();
    for (name, property) in &schema.properties {
        if properties
            .insert(name.clone(), property_schema(property)?)
            .is_some()
        {
            return None;
        }
    }
    let mut out = ElicitationSchema::new(properties);
    out.property_order = Some(schema.properties.iter().map(|(n, _)| n.clone()).collect());
    out.required = (!schema.required.is_empty()).then(|| schema.required.clone());
    out.schema = schema.schema_uri.clone().map(Cow::Owned);
    Some(out)
}

fn property_schema(property: &PropertySchema) -> Option<PrimitiveSchemaDefinition> {
    Some(match property {
        PropertySchema::String(s) => PrimitiveSchemaDefinition::String(string(s)?),
        PropertySchema::Number(n) if n.integer => PrimitiveSchemaDefinition::Integer(integer(n)?),
        PropertySchema::Number(n) => PrimitiveSchemaDefinition::Number(number(n)?),
        PropertySchema::Boolean(b) => {
            let mut out = BooleanSchema::new();
            (out.title, out.description) = labels(&b.annotations);
            out.default = b.default;
            PrimitiveSchemaDefinition::Boolean(out)
        }
        PropertySchema::SingleSelect(s) => PrimitiveSchemaDefinition::Enum(single(s)?),
        PropertySchema::MultiSelect(m) => PrimitiveSchemaDefinition::Enum(multi(m)?),
    })
}

fn labels(a: &Annotations) -> (Option<Cow<'static, str>>, Option<Cow<'static, str>>) {
    let owned = |s: &Option<String>| s.clone().map(Cow::Owned);
    (owned(&a.title), owned(&a.description))
}

fn string(s: &OurString) -> Option<StringSchema> {
    let mut out = StringSchema::new();
    (out.title, out.description) = labels(&s.annotations);
    // rmcp holds lengths as u32 (its parse refuses more).
    let length = |n: Option<u64>| n.map(u32::try_from).transpose().ok();
    out.min_length = length(s.min_length)?;
    out.max_length = length(s.max_length)?;
    out.format = s.format.map(|f| match f {
        StringFormat::Email => RmcpFormat::Email,
        StringFormat::Uri => RmcpFormat::Uri,
        StringFormat::Date => RmcpFormat::Date,
        StringFormat::DateTime => RmcpFormat::DateTime,
    });
    out.default = s.default.clone();
    Some(out)
}

fn integer(n: &OurNumber) -> Option<IntegerSchema> {
    let int = |v: &Option<Number>| match v {
        None => Some(None),
        Some(v) => v.as_i64().map(Some),
    };
    let mut out = IntegerSchema::new();
    (out.title, out.description) = labels(&n.annotations);
    out.minimum = int(&n.minimum)?;
    out.maximum = int(&n.maximum)?;
    out.default = int(&n.default)?;
    Some(out)
}

fn number(n: &OurNumber) -> Option<NumberSchema> {
    let float = |v: &Option<Number>| match v {
        None => Some(None),
        Some(v) => v.as_f64().map(Some),
    };
    let mut out = NumberSchema::new();
    (out.title, out.description) = labels(&n.annotations);
    out.minimum = float(&n.minimum)?;
    out.maximum = float(&n.maximum)?;
    out.default = float(&n.default)?;
    Some(out)
}

fn single(s: &SingleSelectSchema) -> Option<EnumSchema> {
    let (title, description) = labels(&s.annotations);
    Some(match &s.options {
        EnumOptions::Untitled(values) => {
            let mut builder = EnumSchema::builder(values.clone());
            if let Some(default) = &s.default {
                builder = builder.with_default(default.clone()).ok()?;
            }
            let mut built = builder.build();
            set_labels(&mut built, title, description);
            built
        }
        EnumOptions::Titled(options) => {
            let mut out = TitledSingleSelectEnumSchema::new(const_titles(options));
            (out.title, out.description) = (title, description);
            out.default = s.default.clone();
            EnumSchema::Single(rmcp::model::SingleSelectEnumSchema::Titled(out))
        }
        EnumOptions::Legacy { values, names } => {
            let mut out = LegacyEnumSchema::new(values.clone());
            (out.title, out.description) = (title, description);
            out.enum_names = Some(names.clone());
            out.default = s.default.clone();
            EnumSchema::Legacy(out)
        }
    })
}

fn multi(m: &MultiSelectSchema) -> Option<EnumSchema> {
    let (title, description) = labels(&m.annotations);
    if m.default.as_ref().is_some_and(Vec::is_empty) {
        return None;
    }
    Some(match &m.options {
        EnumOptions::Untitled(values) => {
            let mut builder = EnumSchema::builder(values.clone()).multiselect();
            if let Some(min) = m.min_items {
                builder = builder.min_items(min).ok()?;
            }
            if let Some(max) = m.max_items {
                builder = builder.max_items(max).ok()?;
            }
            if let Some(default) = &m.default {
                builder = builder.with_default(default.clone()).ok()?;
            }
            let mut built = builder.build();
            set_labels(&mut built, title, description);
            built
        }
        EnumOptions::Titled(options) => {
            let mut out = TitledMultiSelectEnumSchema::new(TitledItems::new(const_titles(options)));
            (out.title, out.description) = (title, description);
            out.min_items = m.min_items;
            out.max_items = m.max_items;
            out.default = m.default.clone();
            EnumSchema::Multi(rmcp::model::MultiSelectEnumSchema::Titled(out))
        }
        EnumOptions::Legacy { .. } => return None,
    })
}

fn const_titles(options: &[crate::schema::TitledOption]) -> Vec<ConstTitle> {
    options
        .iter()
        .map(|o| ConstTitle::new(o.value.clone(), o.title.clone()))
        .collect()
}

/// Title and description on an untitled enum schema the builder made (set after `build`, so
/// the builder's own checks see exactly what rmcp's parse would).
fn set_labels(
    schema: &mut EnumSchema,
    title: Option<Cow<'static, str>>,
    description: Option<Cow<'static, str>>,
) {
    use rmcp::model::{MultiSelectEnumSchema as Multi, SingleSelectEnumSchema as Single};
    match schema {
        EnumSchema::Single(Single::Untitled(s)) => (s.title, s.description) = (title, description),
        EnumSchema::Multi(Multi::Untitled(m)) => (m.title, m.description) = (title, description),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
