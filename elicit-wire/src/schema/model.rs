//! The restricted `requestedSchema` of form-mode elicitation as typed data.
//!
//! Only what the spec allows can be represented: a flat object of string, number, integer,
//! boolean and enum (single- and multi-select) properties. Serialization emits exactly the
//! spec's object; deserialization (see `parse.rs`) refuses anything else with the path at fault.

use serde_json::Number;

/// A form's `requestedSchema`: `{"type":"object","properties":{…},"required":[…]}`.
///
/// Properties keep their declaration order. `required` is omitted from the JSON when empty.
///
/// ```
/// use elicit_wire::schema::{PropertySchema, RequestedSchema, StringSchema};
///
/// let schema = RequestedSchema::new()
///     .property("name", PropertySchema::String(StringSchema::default()), true);
/// assert_eq!(
///     serde_json::to_string(&schema).unwrap(),
///     r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestedSchema {
    /// The optional `$schema` dialect URI; absent unless asked for.
    pub schema_uri: Option<String>,
    /// `(wire name, schema)` in declaration order.
    pub properties: Vec<(String, PropertySchema)>,
    /// Wire names of required properties, in declaration order.
    pub required: Vec<String>,
}

/// An owned schema, for [`FormParams::new`](crate::FormParams::new).
impl From<RequestedSchema> for std::borrow::Cow<'static, RequestedSchema> {
    fn from(schema: RequestedSchema) -> Self {
        Self::Owned(schema)
    }
}

/// A form's own schema (what `ElicitForm::requested_schema` in `elicit-runtime` returns),
/// shared instead of copied.
impl From<&'static RequestedSchema> for std::borrow::Cow<'static, RequestedSchema> {
    fn from(schema: &'static RequestedSchema) -> Self {
        Self::Borrowed(schema)
    }
}

/// One property of a [`RequestedSchema`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PropertySchema {
    /// `{"type":"string", …}` without an enum.
    String(StringSchema),
    /// `{"type":"number"|"integer", …}`.
    Number(NumberSchema),
    /// `{"type":"boolean", …}`.
    Boolean(BooleanSchema),
    /// `{"type":"string","enum"|"oneOf":…}`: pick one.
    SingleSelect(SingleSelectSchema),
    /// `{"type":"array","items":…}`: pick any number of the options.
    MultiSelect(MultiSelectSchema),
}

/// Annotations every property may carry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Annotations {
    /// `title`: a short label.
    pub title: Option<String>,
    /// `description`: help text.
    pub description: Option<String>,
}

/// A free-text property.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StringSchema {
    /// Title and description.
    pub annotations: Annotations,
    /// `minLength`, counted in Unicode scalar values.
    pub min_length: Option<u64>,
    /// `maxLength`, counted in Unicode scalar values.
    pub max_length: Option<u64>,
    /// `format`.
    pub format: Option<StringFormat>,
    /// `default`.
    pub default: Option<String>,
}

/// The four string formats the spec allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StringFormat {
    /// `email`
    Email,
    /// `uri`: an absolute URI.
    Uri,
    /// `date`: RFC 3339 `full-date`.
    Date,
    /// `date-time`: RFC 3339 `date-time`.
    DateTime,
}

/// A numeric property.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumberSchema {
    /// Title and description.
    pub annotations: Annotations,
    /// `true` for `"type":"integer"`, `false` for `"type":"number"`.
    pub integer: bool,
    /// `minimum` (inclusive).
    pub minimum: Option<Number>,
    /// `maximum` (inclusive).
    pub maximum: Option<Number>,
    /// `default`.
    pub default: Option<Number>,
}

/// A yes/no property.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BooleanSchema {
    /// Title and description.
    pub annotations: Annotations,
    /// `default`.
    pub default: Option<bool>,
}

/// The options of a select.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EnumOptions {
    /// `enum: [values]`.
    Untitled(Vec<String>),
    /// `oneOf` (single) / `items.anyOf` (multi) of `{const, title}`.
    Titled(Vec<TitledOption>),
    /// Deprecated `enum` + `enumNames` (single-select only); accepted when parsing, never emitted by the derive.
    Legacy {
        /// `enum`.
        values: Vec<String>,
        /// `enumNames`, one label per value.
        names: Vec<String>,
    },
}

/// One `{const, title}` option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TitledOption {
    /// `const`: the wire value.
    pub value: String,
    /// `title`: the label shown to the user.
    pub title: String,
}

/// A single-select property.
#[derive(Debug, Clone, PartialEq)]
pub struct SingleSelectSchema {
    /// Title and description.
    pub annotations: Annotations,
    /// The options.
    pub options: EnumOptions,
    /// `default`: one of the option values.
    pub default: Option<String>,
}

/// A multi-select property.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiSelectSchema {
    /// Title and description.
    pub annotations: Annotations,
    /// The options (never [`EnumOptions::Legacy`]).
    pub options: EnumOptions,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `default`: option values.
    pub default: Option<Vec<String>>,
}

impl PropertySchema {
    /// The advertised `default`, as JSON.
    pub fn default_value(&self) -> Option<serde_json::Value> {
        use serde_json::Value;
        match self {
            PropertySchema::String(s) => s.default.clone().map(Value::String),
            PropertySchema::Number(n) => n.default.clone().map(Value::Number),
            PropertySchema::Boolean(b) => b.default.map(Value::Bool),
            PropertySchema::SingleSelect(s) => s.default.clone().map(Value::String),
            PropertySchema::MultiSelect(m) => m
                .default
                .as_ref()
                .map(|d| Value::Array(d.iter().cloned().map(Value::String).collect())),
        }
    }
}

impl RequestedSchema {
    /// An empty schema: `{"type":"object","properties":{}}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the property `name` (its wire name) at the end, listing it in `required` when
    /// `required` is true.
    ///
    /// Declaring a name a second time replaces the earlier schema in place (keeping its
    /// position) and updates whether it is required.
    pub fn property(
        mut self,
        name: impl Into<String>,
        schema: PropertySchema,
        required: bool,
    ) -> Self {
        let name = name.into();
        match self.properties.iter_mut().find(|(n, _)| *n == name) {
            Some((_, slot)) => *slot = schema,
            None => self.properties.push((name.clone(), schema)),
        }
        let listed = self.required.iter().position(|r| *r == name);
        match (required, listed) {
            (true, None) => self.required.push(name),
            (false, Some(i)) => {
                self.required.remove(i);
            }
            _ => {}
        }
        self
    }

    /// Sets the `$schema` dialect URI emitted first in the JSON.
    pub fn with_schema_uri(mut self, uri: impl Into<String>) -> Self {
        self.schema_uri = Some(uri.into());
        self
    }

    /// The schema of the property with wire name `name`, if declared.
    pub fn get(&self, name: &str) -> Option<&PropertySchema> {
        self.properties
            .iter()
            .find_map(|(n, schema)| (n == name).then_some(schema))
    }

    /// Whether `name` is listed in `required`.
    pub fn is_required(&self, name: &str) -> bool {
        self.required.iter().any(|r| r == name)
    }
}

impl PropertySchema {
    /// The title and description of this property, whatever its kind.
    pub fn annotations(&self) -> &Annotations {
        match self {
            PropertySchema::String(s) => &s.annotations,
            PropertySchema::Number(s) => &s.annotations,
            PropertySchema::Boolean(s) => &s.annotations,
            PropertySchema::SingleSelect(s) => &s.annotations,
            PropertySchema::MultiSelect(s) => &s.annotations,
        }
    }
}

impl EnumOptions {
    /// The wire values of the options, in order (`enum` entries or `const`s).
    ///
    /// ```
    /// use elicit_wire::schema::{EnumOptions, TitledOption};
    ///
    /// let options = EnumOptions::Titled(vec![TitledOption { value: "#f00".into(), title: "Red".into() }]);
    /// assert_eq!(options.values().collect::<Vec<_>>(), ["#f00"]);
    /// assert!(options.contains("#f00"));
    /// assert!(!options.contains("Red"));
    /// ```
    pub fn values(&self) -> impl Iterator<Item = &str> + '_ {
        let (plain, titled): (&[String], &[TitledOption]) = match self {
            EnumOptions::Untitled(values) | EnumOptions::Legacy { values, .. } => (values, &[]),
            EnumOptions::Titled(options) => (&[], options),
        };
        plain
            .iter()
            .map(String::as_str)
            .chain(titled.iter().map(|o| o.value.as_str()))
    }

    /// Whether `value` is the wire value of one of the options.
    #[inline]
    pub fn contains(&self, value: &str) -> bool {
        match self {
            EnumOptions::Untitled(values) | EnumOptions::Legacy { values, .. } => {
                values.iter().any(|v| v == value)
            }
            EnumOptions::Titled(options) => options.iter().any(|o| o.value == value),
        }
    }

    /// How many options there are.
    pub fn len(&self) -> usize {
        match self {
            EnumOptions::Untitled(values) | EnumOptions::Legacy { values, .. } => values.len(),
            EnumOptions::Titled(options) => options.len(),
        }
    }

    /// Whether there are no options at all (never the case for a parsed schema).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
