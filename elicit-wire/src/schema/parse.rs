//! Strict parsing of a `requestedSchema` from any JSON.
//!
//! Anything the form-mode schema does not allow is refused with a [`SchemaError`] that names
//! the place at fault (`properties.age.minimum`, `required.2`, …). The [`Deserialize`] impl
//! keeps `properties` in the order of the input document; [`RequestedSchema::from_value`]
//! keeps the order of the given [`Value`], which sorts object keys unless serde_json's
//! `preserve_order` is on, so parse the JSON text when the order matters.

use std::collections::HashSet;

use serde::de::{self, Deserialize, Deserializer};
use serde_json::Value;

use super::error::SchemaError;
use super::model::{PropertySchema, RequestedSchema};
use crate::ordered::Ordered;
use property::parse_property;

impl RequestedSchema {
    /// Parses a `requestedSchema` object, refusing anything outside the form-mode subset.
    ///
    /// Properties keep the order they have in `value`: sorted by name, as a `Value`'s object
    /// keys are. To keep the order of a JSON document, deserialize the schema from the text
    /// (`serde_json::from_str::<RequestedSchema>`) instead.
    ///
    /// ```
    /// use elicit_wire::schema::RequestedSchema;
    /// use serde_json::json;
    ///
    /// let schema = RequestedSchema::from_value(&json!({
    ///     "type": "object",
    ///     "properties": {"name": {"type": "string", "minLength": 1}},
    ///     "required": ["name"]
    /// }))
    /// .unwrap();
    /// assert!(schema.is_required("name"));
    ///
    /// let err = RequestedSchema::from_value(&json!({
    ///     "type": "object",
    ///     "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}}
    /// }))
    /// .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "`properties.name.pattern`: `pattern` is not allowed in a string property of an elicitation form"
    /// );
    /// ```
    pub fn from_value(value: &Value) -> Result<Self, SchemaError> {
        let Value::Object(root) = value else {
            return Err(SchemaError::new(SchemaError::ROOT, "expected an object"));
        };
        let members: Vec<(&str, Member<'_>)> = root
            .iter()
            .map(|(key, value)| {
                let member = if key == "properties" {
                    Member::Properties(match value {
                        Value::Object(props) => {
                            Some(props.iter().map(|(k, v)| (k.as_str(), v)).collect())
                        }
                        _ => None,
                    })
                } else {
                    Member::Plain(value)
                };
                (key.as_str(), member)
            })
            .collect();
        parse_root(&members)
    }
}

/// Parses the JSON of a `requestedSchema` as [`RequestedSchema::from_value`] does, but keeps
/// `properties` in document order (buffered through the crate's one order-keeping tree).
/// Errors carry the [`SchemaError`] text, path included.
impl<'de> Deserialize<'de> for RequestedSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Ordered::Object(root) = Ordered::deserialize(deserializer)? else {
            return Err(de::Error::custom(SchemaError::new(
                SchemaError::ROOT,
                "expected an object",
            )));
        };
        // `properties` keeps its entries in order (and repeats, which are refused); every
        // other member, and each property's own object, is read as a `Value`.
        let root: Vec<(String, OwnedMember)> = root
            .into_iter()
            .map(|(key, value)| {
                let member = match value {
                    Ordered::Object(props) if key == "properties" => OwnedMember::Properties(Some(
                        props
                            .into_iter()
                            .map(|(k, v)| (k, v.into_value()))
                            .collect(),
                    )),
                    _ if key == "properties" => OwnedMember::Properties(None),
                    value => OwnedMember::Plain(value.into_value()),
                };
                (key, member)
            })
            .collect();
        let members: Vec<(&str, Member<'_>)> = root
            .iter()
            .map(|(key, member)| {
                let member = match member {
                    OwnedMember::Plain(value) => Member::Plain(value),
                    OwnedMember::Properties(props) => Member::Properties(
                        props
                            .as_ref()
                            .map(|props| props.iter().map(|(k, v)| (k.as_str(), v)).collect()),
                    ),
                };
                (key.as_str(), member)
            })
            .collect();
        parse_root(&members).map_err(de::Error::custom)
    }
}

/// One member of the root object; `properties` comes as an ordered list of entries (or
/// `None` when it is not an object).
enum Member<'a> {
    Plain(&'a Value),
    Properties(Option<Vec<(&'a str, &'a Value)>>),
}

fn parse_root(members: &[(&str, Member<'_>)]) -> Result<RequestedSchema, SchemaError> {
    let mut seen: Vec<&str> = Vec::with_capacity(members.len());
    let (mut ty, mut schema_uri, mut properties, mut required) = (None, None, None, None);
    for (key, member) in members {
        if seen.contains(key) {
            return Err(SchemaError::new(*key, "appears more than once"));
        }
        seen.push(key);
        match (*key, member) {
            ("type", Member::Plain(v)) => ty = Some(*v),
            ("$schema", Member::Plain(v)) => schema_uri = Some(*v),
            ("required", Member::Plain(v)) => required = Some(*v),
            ("properties", Member::Properties(p)) => properties = Some(p),
            _ => {
                return Err(SchemaError::new(
                    *key,
                    format!("`{key}` is not allowed at the root of an elicitation form"),
                ));
            }
        }
    }

    match ty {
        None => return Err(SchemaError::new(SchemaError::ROOT, "missing `type`")),
        Some(Value::String(t)) if t == "object" => {}
        Some(_) => return Err(SchemaError::new("type", "must be `object`")),
    }
    let schema_uri = match schema_uri {
        None => None,
        Some(Value::String(uri)) => Some(uri.clone()),
        Some(_) => return Err(SchemaError::new("$schema", "expected a string")),
    };
    let entries = match properties {
        None => return Err(SchemaError::new(SchemaError::ROOT, "missing `properties`")),
        Some(None) => return Err(SchemaError::new("properties", "expected an object")),
        Some(Some(entries)) => entries,
    };

    let (names, parsed) = parse_properties(entries)?;
    let required = parse_required(required, &names)?;

    Ok(RequestedSchema {
        schema_uri,
        properties: parsed,
        required,
    })
}

/// Parsed properties in order, and the set of their names.
type Properties<'a> = (HashSet<&'a str>, Vec<(String, PropertySchema)>);

/// The `properties` entries, in order: names unique and non-empty, each property valid.
fn parse_properties<'a>(entries: &[(&'a str, &Value)]) -> Result<Properties<'a>, SchemaError> {
    let mut names: HashSet<&str> = HashSet::with_capacity(entries.len());
    let mut parsed = Vec::with_capacity(entries.len());
    for &(name, value) in entries {
        if name.is_empty() {
            return Err(SchemaError::new(
                "properties",
                "property names must not be empty",
            ));
        }
        if !names.insert(name) {
            return Err(SchemaError::new(
                format!("properties.{name}"),
                "is declared more than once",
            ));
        }
        parsed.push((
            name.to_owned(),
            parse_property(&format!("properties.{name}"), value)?,
        ));
    }
    Ok((names, parsed))
}

/// `required`: an array of declared property names, each listed once.
fn parse_required(
    required: Option<&Value>,
    names: &HashSet<&str>,
) -> Result<Vec<String>, SchemaError> {
    Ok(match required {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut listed: HashSet<&str> = HashSet::with_capacity(items.len());
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let Value::String(name) = item else {
                    return Err(SchemaError::new(
                        format!("required.{i}"),
                        "expected a string",
                    ));
                };
                if !names.contains(name.as_str()) {
                    return Err(SchemaError::new(
                        format!("required.{i}"),
                        format!("`{name}` is not a declared property"),
                    ));
                }
                if !listed.insert(name) {
                    return Err(SchemaError::new(
                        format!("required.{i}"),
                        format!("`{name}` is listed more than once"),
                    ));
                }
                out.push(name.clone());
            }
            out
        }
        Some(_) => return Err(SchemaError::new("required", "expected an array of strings")),
    })
}

/// What the deserializer keeps of one root member.
enum OwnedMember {
    Plain(Value),
    Properties(Option<Vec<(String, Value)>>),
}

mod property;
#[cfg(test)]
mod tests;
