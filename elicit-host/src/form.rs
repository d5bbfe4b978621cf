//! The form a host renders: the server's message and its fields, each with its label, help,
//! whether it is required, its kind and constraints (the core's schema model, seen from the
//! client), its default, and a plain-language hint of what it accepts.

use std::collections::{HashMap, HashSet};

use elicit_wire::schema::{EnumOptions, PropertySchema, RequestedSchema, StringFormat};
use serde_json::Value;

/// A form-mode request, parsed and inside the grammar: what to render.
///
/// ```
/// use elicit_host::{Elicitation, Control};
/// use serde_json::json;
///
/// let params = json!({"message": "Book a table", "requestedSchema": {
///     "type": "object",
///     "properties": {
///         "party": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12, "default": 2},
///         "seating": {"type": "string", "oneOf": [
///             {"const": "in", "title": "Inside"}, {"const": "out", "title": "Terrace"}
///         ]}
///     },
///     "required": ["party"]
/// }});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let party = form.field("party").unwrap();
/// assert!(party.required());
/// assert_eq!(party.hint(), "a whole number from 1 to 12");
/// assert_eq!(party.default_value(), Some(json!(2)));
/// let seating = form.field("seating").unwrap();
/// assert_eq!(seating.control(), Control::Choice);
/// assert_eq!(seating.options(), [("in", "Inside"), ("out", "Terrace")]);
/// # Ok::<(), elicit_host::RequestError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FormModel {
    message: String,
    title: Option<String>,
    description: Option<String>,
    schema: RequestedSchema,
    /// Each field's position, by name: a field is found in constant time, however many.
    index: HashMap<String, usize>,
    /// Whether each field, by position, is required.
    required: Vec<bool>,
}

/// What kind of control a field needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Control {
    /// Free text (maybe with a format: email, URI, date, date-time).
    Text,
    /// A number (`integer` or not: [`Field::integer`]).
    Number,
    /// Yes or no.
    Boolean,
    /// Pick one of the options.
    Choice,
    /// Pick any number of the options (within `minItems`/`maxItems`).
    MultiChoice,
}

/// One field of a [`FormModel`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field<'a> {
    name: &'a str,
    schema: &'a PropertySchema,
    required: bool,
}

impl FormModel {
    pub(crate) fn new(message: String, schema: RequestedSchema) -> Self {
        let index = schema
            .properties
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.clone(), i))
            .collect();
        let required: HashSet<&str> = schema.required.iter().map(String::as_str).collect();
        let required = schema
            .properties
            .iter()
            .map(|(name, _)| required.contains(name.as_str()))
            .collect();
        FormModel {
            message,
            title: None,
            description: None,
            schema,
            index,
            required,
        }
    }

    pub(crate) fn with_annotations(
        mut self,
        title: Option<String>,
        description: Option<String>,
    ) -> Self {
        self.title = title;
        self.description = description;
        self
    }

    /// The server's message: why it asks.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The schema's own `title`, when the server gave one (the Python SDK names every form
    /// after its model: `"Registration"`). Not in the spec's schema type, but words for the
    /// person that constrain nothing; a heading for the form, never a replacement for the
    /// [`message`](Self::message).
    ///
    /// ```
    /// use elicit_host::Elicitation;
    /// use serde_json::json;
    ///
    /// let params = json!({"message": "Please provide your registration details:",
    ///     "requestedSchema": {"type": "object", "title": "Registration",
    ///         "properties": {"username": {"type": "string", "title": "Username"}},
    ///         "required": ["username"]}});
    /// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
    /// assert_eq!(form.title(), Some("Registration"));
    /// assert_eq!(form.description(), None);
    /// # Ok::<(), elicit_host::RequestError>(())
    /// ```
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The schema's own `description`, when the server gave one (as [`title`](Self::title)).
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The fields, in the order the server declared them.
    pub fn fields(&self) -> impl ExactSizeIterator<Item = Field<'_>> + '_ {
        (0..self.schema.properties.len()).map(|i| self.nth(i))
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<Field<'_>> {
        self.index_of(name).map(|i| self.nth(i))
    }

    /// The position of the field named `name`, in constant time.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The field at position `i` (`i` below the number of fields).
    pub(crate) fn nth(&self, i: usize) -> Field<'_> {
        let (name, schema) = &self.schema.properties[i];
        Field {
            name,
            schema,
            required: self.required[i],
        }
    }

    /// The schema itself (the core's model), for a renderer that wants every detail.
    pub fn schema(&self) -> &RequestedSchema {
        &self.schema
    }
}

impl<'a> Field<'a> {
    /// The property's name on the wire (the key of the answer).
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// What to label it with: its `title`, or its name when it has none.
    pub fn label(&self) -> &'a str {
        self.schema
            .annotations()
            .title
            .as_deref()
            .unwrap_or(self.name)
    }

    /// Its `description` (help text), if any.
    pub fn description(&self) -> Option<&'a str> {
        self.schema.annotations().description.as_deref()
    }

    /// Whether the form cannot be accepted without it.
    pub fn required(&self) -> bool {
        self.required
    }

    /// The kind of control it needs.
    pub fn control(&self) -> Control {
        match self.schema {
            PropertySchema::Number(_) => Control::Number,
            PropertySchema::Boolean(_) => Control::Boolean,
            PropertySchema::SingleSelect(_) => Control::Choice,
            PropertySchema::MultiSelect(_) => Control::MultiChoice,
            _ => Control::Text,
        }
    }

    /// For a number: whether it must be whole (`"type":"integer"`).
    pub fn integer(&self) -> bool {
        matches!(self.schema, PropertySchema::Number(n) if n.integer)
    }

    /// For text: its format, if any.
    pub fn format(&self) -> Option<StringFormat> {
        match self.schema {
            PropertySchema::String(s) => s.format,
            _ => None,
        }
    }

    /// The options of a choice, as `(value, label)`; empty for other kinds.
    pub fn options(&self) -> Vec<(&'a str, &'a str)> {
        let options = match self.schema {
            PropertySchema::SingleSelect(s) => &s.options,
            PropertySchema::MultiSelect(m) => &m.options,
            _ => return Vec::new(),
        };
        match options {
            EnumOptions::Untitled(values) => values.iter().map(|v| (&**v, &**v)).collect(),
            EnumOptions::Titled(options) => options
                .iter()
                .map(|o| (o.value.as_str(), o.title.as_str()))
                .collect(),
            EnumOptions::Legacy { values, names } => values
                .iter()
                .zip(names)
                .map(|(v, n)| (v.as_str(), n.as_str()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The server's default, to pre-fill (the person reviews it; it is sent only if kept).
    pub fn default_value(&self) -> Option<Value> {
        self.schema.default_value()
    }

    /// The property's schema (the core's model): every constraint.
    pub fn schema(&self) -> &'a PropertySchema {
        self.schema
    }

    /// What the field accepts, in words, to show beside it ("1 to 200 characters", "a whole
    /// number from 1 to 12", "an email address", "choose up to 3"); empty when anything goes.
    pub fn hint(&self) -> String {
        match self.schema {
            PropertySchema::String(s) => {
                let format = s.format.map(|f| match f {
                    StringFormat::Email => "an email address",
                    StringFormat::Uri => "an absolute URI",
                    StringFormat::Date => "a date (YYYY-MM-DD)",
                    StringFormat::DateTime => "a date and time (RFC 3339)",
                    _ => "text",
                });
                let length = range(s.min_length, s.max_length, "character", "characters");
                match (format, length) {
                    (Some(format), Some(length)) => format!("{format}, {length}"),
                    (Some(format), None) => format.to_owned(),
                    (None, Some(length)) => length,
                    (None, None) => String::new(),
                }
            }
            PropertySchema::Number(n) => {
                let what = if n.integer {
                    "a whole number"
                } else {
                    "a number"
                };
                match (&n.minimum, &n.maximum) {
                    (Some(min), Some(max)) => format!("{what} from {min} to {max}"),
                    (Some(min), None) => format!("{what}, at least {min}"),
                    (None, Some(max)) => format!("{what}, at most {max}"),
                    (None, None) => what.to_owned(),
                }
            }
            PropertySchema::Boolean(_) => "yes or no".to_owned(),
            PropertySchema::SingleSelect(_) => "choose one".to_owned(),
            PropertySchema::MultiSelect(m) => match (m.min_items, m.max_items) {
                (Some(min), Some(max)) if min == max => format!("choose {min}"),
                (Some(min), Some(max)) => format!("choose {min} to {max}"),
                (Some(min), None) => format!("choose at least {min}"),
                (None, Some(max)) => format!("choose up to {max}"),
                (None, None) => "choose any".to_owned(),
            },
            _ => String::new(),
        }
    }
}

fn range(min: Option<u64>, max: Option<u64>, one: &str, many: &str) -> Option<String> {
    let unit = |n: u64| if n == 1 { one } else { many };
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {min} {}", unit(min))),
        (Some(min), Some(max)) => Some(format!("{min} to {max} {many}")),
        (Some(0) | None, None) => None,
        (Some(min), None) => Some(format!("at least {min} {}", unit(min))),
        (None, Some(max)) => Some(format!("at most {max} {}", unit(max))),
    }
}
