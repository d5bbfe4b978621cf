//! Parsing one property of a `requestedSchema`: which variant it is, which keys that variant
//! allows, and each constraint's type and range.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Number, Value};

use super::super::error::SchemaError;
use super::super::model::{
    Annotations, BooleanSchema, EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema,
    SingleSelectSchema, StringFormat, StringSchema, TitledOption,
};
use super::super::validate::{compare, is_whole};

/// The variant a property object is parsed as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Number,
    Integer,
    Boolean,
    UntitledSingle,
    TitledSingle,
    LegacySingle,
    Multi,
}

impl Kind {
    fn allows(self, key: &str) -> bool {
        matches!(key, "type" | "title" | "description" | "default")
            || match self {
                Kind::String => matches!(key, "minLength" | "maxLength" | "format"),
                Kind::Number | Kind::Integer => matches!(key, "minimum" | "maximum"),
                Kind::Boolean => false,
                Kind::UntitledSingle => key == "enum",
                Kind::LegacySingle => matches!(key, "enum" | "enumNames"),
                Kind::TitledSingle => key == "oneOf",
                Kind::Multi => matches!(key, "minItems" | "maxItems" | "items"),
            }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::String => "a string property",
            Kind::Number => "a number property",
            Kind::Integer => "an integer property",
            Kind::Boolean => "a boolean property",
            Kind::UntitledSingle | Kind::TitledSingle | Kind::LegacySingle => {
                "a single-select property"
            }
            Kind::Multi => "a multi-select property",
        }
    }
}

/// A property object being parsed, with its path (`properties.<name>`).
struct Prop<'a> {
    path: &'a str,
    obj: &'a Map<String, Value>,
}

impl<'a> Prop<'a> {
    fn err(&self, key: impl fmt::Display, message: impl Into<String>) -> SchemaError {
        SchemaError::new(format!("{}.{key}", self.path), message)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.obj.get(key)
    }

    fn string(&self, key: &str) -> Result<Option<String>, SchemaError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.err(key, "expected a string")),
        }
    }

    fn count(&self, key: &str) -> Result<Option<u64>, SchemaError> {
        self.get(key)
            .map(|v| count(v).ok_or_else(|| self.err(key, "expected a non-negative integer")))
            .transpose()
    }

    fn number(&self, key: &str, integer: bool) -> Result<Option<Number>, SchemaError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) if !integer || is_whole(n) => Ok(Some(n.clone())),
            Some(Value::Number(_)) => Err(self.err(key, "expected a whole number")),
            Some(_) => Err(self.err(key, "expected a number")),
        }
    }

    fn annotations(&self) -> Result<Annotations, SchemaError> {
        Ok(Annotations {
            title: self.string("title")?,
            description: self.string("description")?,
        })
    }

    /// Refuses `maximum < minimum` (or the like), blaming the upper bound.
    fn ordered<T: fmt::Display>(
        &self,
        (min_key, min): (&str, Option<&T>),
        (max_key, max): (&str, Option<&T>),
        less: impl Fn(&T, &T) -> bool,
    ) -> Result<(), SchemaError> {
        match (min, max) {
            (Some(min), Some(max)) if less(max, min) => {
                Err(self.err(max_key, format!("{max} is less than `{min_key}` ({min})")))
            }
            _ => Ok(()),
        }
    }

    /// Checks `default` (already known to have the right JSON type) against the finished
    /// property.
    fn default_fits(&self, schema: &PropertySchema, default: &Value) -> Result<(), SchemaError> {
        schema
            .check(default)
            .map_err(|reason| self.err("default", format!("default {reason}")))
    }
}

/// A non-negative whole number that fits `u64` (`3.0` counts).
fn count(value: &Value) -> Option<u64> {
    let Value::Number(n) = value else { return None };
    n.as_u64().or_else(|| {
        let f = n.as_f64()?;
        // 2^64 is exactly representable; anything below it that is whole fits.
        ((0.0..18_446_744_073_709_551_616.0).contains(&f) && f.fract() == 0.0).then_some(f as u64)
    })
}

pub(super) fn parse_property(path: &str, value: &Value) -> Result<PropertySchema, SchemaError> {
    let Value::Object(obj) = value else {
        return Err(SchemaError::new(path, "expected an object"));
    };
    let prop = Prop { path, obj };
    let kind = match obj.get("type") {
        None => return Err(SchemaError::new(path, "missing `type`")),
        Some(Value::String(t)) => match t.as_str() {
            "string" if obj.contains_key("enum") && obj.contains_key("enumNames") => {
                Kind::LegacySingle
            }
            "string" if obj.contains_key("enum") => Kind::UntitledSingle,
            "string" if obj.contains_key("oneOf") => Kind::TitledSingle,
            "string" => Kind::String,
            "number" => Kind::Number,
            "integer" => Kind::Integer,
            "boolean" => Kind::Boolean,
            "array" => Kind::Multi,
            "object" => {
                return Err(prop.err(
                    "type",
                    "nested objects are not allowed in an elicitation form",
                ));
            }
            other => {
                return Err(prop.err(
                    "type",
                    format!(
                        "`{other}` is not a property type of an elicitation form; expected `string`, `number`, `integer`, `boolean` or `array`"
                    ),
                ));
            }
        },
        Some(_) => return Err(prop.err("type", "expected a string")),
    };
    if let Some(key) = obj.keys().find(|key| !kind.allows(key)) {
        return Err(prop.err(
            key,
            format!(
                "`{key}` is not allowed in {} of an elicitation form",
                kind.describe()
            ),
        ));
    }
    let annotations = prop.annotations()?;
    let default = obj.get("default");
    match kind {
        Kind::String => parse_string(&prop, annotations, default),
        Kind::Number | Kind::Integer => {
            parse_number(&prop, annotations, kind == Kind::Integer, default)
        }
        Kind::Boolean => match default {
            None => Ok(PropertySchema::Boolean(BooleanSchema {
                annotations,
                default: None,
            })),
            Some(Value::Bool(b)) => Ok(PropertySchema::Boolean(BooleanSchema {
                annotations,
                default: Some(*b),
            })),
            Some(_) => Err(prop.err("default", "expected a boolean")),
        },
        Kind::UntitledSingle | Kind::TitledSingle | Kind::LegacySingle => {
            parse_single(&prop, annotations, kind, default)
        }
        Kind::Multi => parse_multi(&prop, annotations, default),
    }
}

fn parse_string(
    prop: &Prop<'_>,
    annotations: Annotations,
    default: Option<&Value>,
) -> Result<PropertySchema, SchemaError> {
    let min_length = prop.count("minLength")?;
    let max_length = prop.count("maxLength")?;
    prop.ordered(
        ("minLength", min_length.as_ref()),
        ("maxLength", max_length.as_ref()),
        |a, b| a < b,
    )?;
    let format = match prop.get("format") {
        None => None,
        Some(Value::String(f)) => Some(StringFormat::from_wire(f).ok_or_else(|| {
            prop.err(
                "format",
                format!(
                    "`{f}` is not an allowed format; expected `email`, `uri`, `date` or `date-time`"
                ),
            )
        })?),
        Some(_) => return Err(prop.err("format", "expected a string")),
    };
    let mut schema = StringSchema {
        annotations,
        min_length,
        max_length,
        format,
        default: None,
    };
    if let Some(value) = default {
        let Value::String(text) = value else {
            return Err(prop.err("default", "expected a string"));
        };
        prop.default_fits(&PropertySchema::String(schema.clone()), value)?;
        schema.default = Some(text.clone());
    }
    Ok(PropertySchema::String(schema))
}

fn parse_number(
    prop: &Prop<'_>,
    annotations: Annotations,
    integer: bool,
    default: Option<&Value>,
) -> Result<PropertySchema, SchemaError> {
    let minimum = prop.number("minimum", integer)?;
    let maximum = prop.number("maximum", integer)?;
    prop.ordered(
        ("minimum", minimum.as_ref()),
        ("maximum", maximum.as_ref()),
        |a, b| compare(a, b).is_lt(),
    )?;
    let mut schema = NumberSchema {
        annotations,
        integer,
        minimum,
        maximum,
        default: None,
    };
    if let Some(value) = default {
        let default = prop.number("default", integer)?;
        prop.default_fits(&PropertySchema::Number(schema.clone()), value)?;
        schema.default = default;
    }
    Ok(PropertySchema::Number(schema))
}

fn parse_single(
    prop: &Prop<'_>,
    annotations: Annotations,
    kind: Kind,
    default: Option<&Value>,
) -> Result<PropertySchema, SchemaError> {
    let path = |key: &str| format!("{}.{key}", prop.path);
    let options = match kind {
        Kind::TitledSingle => {
            EnumOptions::Titled(titled_options(&path("oneOf"), prop.get("oneOf"))?)
        }
        _ => {
            let values = enum_values(&path("enum"), prop.get("enum"))?;
            match prop.get("enumNames") {
                None => EnumOptions::Untitled(values),
                Some(names) => {
                    let names_path = path("enumNames");
                    let names = string_list(&names_path, names)?;
                    if names.len() != values.len() {
                        return Err(SchemaError::new(
                            names_path,
                            format!("has {} names for {} options", names.len(), values.len()),
                        ));
                    }
                    EnumOptions::Legacy { values, names }
                }
            }
        }
    };
    let mut schema = SingleSelectSchema {
        annotations,
        options,
        default: None,
    };
    if let Some(value) = default {
        let Value::String(text) = value else {
            return Err(prop.err("default", "expected a string"));
        };
        prop.default_fits(&PropertySchema::SingleSelect(schema.clone()), value)?;
        schema.default = Some(text.clone());
    }
    Ok(PropertySchema::SingleSelect(schema))
}

fn parse_multi(
    prop: &Prop<'_>,
    annotations: Annotations,
    default: Option<&Value>,
) -> Result<PropertySchema, SchemaError> {
    let min_items = prop.count("minItems")?;
    let max_items = prop.count("maxItems")?;
    prop.ordered(
        ("minItems", min_items.as_ref()),
        ("maxItems", max_items.as_ref()),
        |a, b| a < b,
    )?;
    let Some(items_value) = prop.get("items") else {
        return Err(SchemaError::new(prop.path, "missing `items`"));
    };
    let options = items(&format!("{}.items", prop.path), items_value)?;
    if let Some(min) = min_items.filter(|&min| min > options.len() as u64) {
        return Err(prop.err(
            "minItems",
            format!(
                "asks for at least {min} choices but there are only {} options",
                options.len()
            ),
        ));
    }
    let mut schema = MultiSelectSchema {
        annotations,
        options,
        min_items,
        max_items,
        default: None,
    };
    if let Some(value) = default {
        let default_path = format!("{}.default", prop.path);
        let chosen = string_list(&default_path, value)?;
        prop.default_fits(&PropertySchema::MultiSelect(schema.clone()), value)?;
        schema.default = Some(chosen);
    }
    Ok(PropertySchema::MultiSelect(schema))
}

/// The `items` of a multi-select: `{"type":"string","enum":[…]}` or `{"anyOf":[…]}`
/// (`oneOf` is accepted as an alias of `anyOf`).
fn items(path: &str, value: &Value) -> Result<EnumOptions, SchemaError> {
    let Value::Object(obj) = value else {
        return Err(SchemaError::new(path, "expected an object"));
    };
    let titled_key = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| obj.contains_key(*k));
    let allowed = |key: &str| match titled_key {
        Some(titled) => key == titled,
        None => matches!(key, "type" | "enum"),
    };
    if let Some(key) = obj.keys().find(|key| !allowed(key)) {
        let message = match titled_key {
            Some(titled) => format!(
                "`{key}` is not allowed next to `{titled}` in the items of a multi-select property"
            ),
            None => format!("`{key}` is not allowed in the items of a multi-select property"),
        };
        return Err(SchemaError::new(format!("{path}.{key}"), message));
    }
    if let Some(titled) = titled_key {
        return Ok(EnumOptions::Titled(titled_options(
            &format!("{path}.{titled}"),
            obj.get(titled),
        )?));
    }
    if !obj.contains_key("enum") {
        return Err(SchemaError::new(path, "missing `enum` or `anyOf`"));
    }
    match obj.get("type") {
        Some(Value::String(t)) if t == "string" => {}
        None => return Err(SchemaError::new(path, "missing `type`")),
        Some(_) => return Err(SchemaError::new(format!("{path}.type"), "must be `string`")),
    }
    Ok(EnumOptions::Untitled(enum_values(
        &format!("{path}.enum"),
        obj.get("enum"),
    )?))
}

/// A JSON array of strings, each element checked.
fn string_list(path: &str, value: &Value) -> Result<Vec<String>, SchemaError> {
    let Value::Array(items) = value else {
        return Err(SchemaError::new(path, "expected an array of strings"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            _ => Err(SchemaError::new(format!("{path}.{i}"), "expected a string")),
        })
        .collect()
}

/// `enum`: a non-empty array of distinct strings.
fn enum_values(path: &str, value: Option<&Value>) -> Result<Vec<String>, SchemaError> {
    let values = string_list(path, value.unwrap_or(&Value::Null))?;
    if values.is_empty() {
        return Err(SchemaError::new(path, "must list at least one option"));
    }
    let mut seen: HashSet<&str> = HashSet::with_capacity(values.len());
    if let Some((i, v)) = values
        .iter()
        .enumerate()
        .find(|(_, v)| !seen.insert(v.as_str()))
    {
        return Err(SchemaError::new(
            format!("{path}.{i}"),
            format!("`{v}` is listed more than once"),
        ));
    }
    Ok(values)
}

/// `oneOf` / `anyOf`: a non-empty array of `{"const": string, "title": string}` with distinct
/// `const`s.
fn titled_options(path: &str, value: Option<&Value>) -> Result<Vec<TitledOption>, SchemaError> {
    let Some(Value::Array(items)) = value else {
        return Err(SchemaError::new(path, "expected an array of options"));
    };
    if items.is_empty() {
        return Err(SchemaError::new(path, "must list at least one option"));
    }
    let mut seen: HashSet<&str> = HashSet::with_capacity(items.len());
    let mut options = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let item_path = format!("{path}.{i}");
        let Value::Object(obj) = item else {
            return Err(SchemaError::new(
                item_path,
                "expected an object with `const` and `title`",
            ));
        };
        if let Some(key) = obj
            .keys()
            .find(|k| !matches!(k.as_str(), "const" | "title"))
        {
            return Err(SchemaError::new(
                format!("{item_path}.{key}"),
                format!("`{key}` is not allowed in an option of an elicitation form"),
            ));
        }
        let field = |key: &str| match obj.get(key) {
            None => Err(SchemaError::new(
                item_path.as_str(),
                format!("missing `{key}`"),
            )),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(SchemaError::new(
                format!("{item_path}.{key}"),
                "expected a string",
            )),
        };
        let (value, title) = (field("const")?, field("title")?);
        if !seen.insert(value) {
            return Err(SchemaError::new(
                format!("{item_path}.const"),
                format!("`{value}` is listed more than once"),
            ));
        }
        options.push(TitledOption {
            value: value.clone(),
            title: title.clone(),
        });
    }
    Ok(options)
}
