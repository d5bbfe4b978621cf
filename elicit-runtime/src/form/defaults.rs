//! Pre-filled values in a form's schema: the call site's defaults, and the values a re-asked
//! question keeps from the answer before.

use serde_json::{Map, Value};

use crate::field::whole_number;
use crate::schema::{Annotations, PropertySchema, RequestedSchema};

/// `schema` with `content` as defaults: each value is checked against its property, becomes
/// its `default`, and takes the field out of `required`.
pub(super) fn with_defaults(
    schema: &RequestedSchema,
    content: &Map<String, Value>,
) -> Result<RequestedSchema, String> {
    let mut schema = schema.clone();
    for (name, value) in content {
        let Some((_, property)) = schema.properties.iter_mut().find(|(n, _)| n == name) else {
            return Err(format!("the form has no field `{name}`"));
        };
        property
            .check(value)
            .map_err(|reason| format!("`{name}` {reason}"))?;
        set_default(property, value);
        schema.required.retain(|r| r != name);
    }
    Ok(schema)
}

/// `schema` with the model's `suggested` values, for fields the user decides: each value that
/// passes its property's check is named at the end of the field's description
/// (`… (suggested: 99999)`), and a required field also gets it as its `default`. The field keeps
/// its place in `required`, so an answer must give it; an optional field gets no `default`,
/// since leaving an optional field out takes its default and the value would then be the
/// model's, not the user's.
pub(super) fn with_suggestions(
    schema: &RequestedSchema,
    suggested: &Map<String, Value>,
) -> RequestedSchema {
    let mut schema = schema.clone();
    for (name, value) in suggested {
        let required = schema.is_required(name);
        let Some((_, property)) = schema.properties.iter_mut().find(|(n, _)| n == name) else {
            continue;
        };
        if property.check(value).is_err() {
            continue;
        }
        if required {
            set_default(property, value);
        }
        if let Some(annotations) = annotations_mut(property) {
            annotations.description = Some(match annotations.description.take() {
                Some(description) if !description.is_empty() => {
                    format!("{description} (suggested: {value})")
                }
                _ => format!("Suggested: {value}"),
            });
        }
    }
    schema
}

/// The property's title and description, to change.
fn annotations_mut(property: &mut PropertySchema) -> Option<&mut Annotations> {
    match property {
        PropertySchema::String(s) => Some(&mut s.annotations),
        PropertySchema::Number(n) => Some(&mut n.annotations),
        PropertySchema::Boolean(b) => Some(&mut b.annotations),
        PropertySchema::SingleSelect(s) => Some(&mut s.annotations),
        PropertySchema::MultiSelect(m) => Some(&mut m.annotations),
        // A kind a later elicit-wire adds.
        _ => None,
    }
}

/// `value` as an integer property's default is written: `1`, not `1.0` (a client may send either
/// and the check accepts both, but a default typed `integer` must be a JSON integer for clients
/// that read it into an integer type, rmcp among them).
fn canonical(value: &serde_json::Number, integer: bool) -> serde_json::Number {
    let whole = integer
        .then(|| whole_number(&Value::Number(value.clone())))
        .flatten();
    let Some(whole) = whole else {
        return value.clone();
    };
    i64::try_from(whole)
        .map(serde_json::Number::from)
        .or_else(|_| u64::try_from(whole).map(serde_json::Number::from))
        .unwrap_or_else(|_| value.clone())
}

/// Writes `value` as the property's `default`.
fn set_default(property: &mut PropertySchema, value: &Value) {
    match property {
        PropertySchema::String(s) => s.default = value.as_str().map(str::to_owned),
        PropertySchema::Number(n) => {
            n.default = value.as_number().map(|v| canonical(v, n.integer));
        }
        PropertySchema::Boolean(b) => b.default = value.as_bool(),
        PropertySchema::SingleSelect(s) => s.default = value.as_str().map(str::to_owned),
        PropertySchema::MultiSelect(m) => {
            m.default = value.as_array().map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
        }
        // A kind a later elicit-wire adds has no default yet.
        _ => {}
    }
}
