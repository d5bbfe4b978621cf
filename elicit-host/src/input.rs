//! The person's input to a form, checked field by field as it is entered, with the rules the
//! server applies (the core's one validator), and the exact `ElicitResult` to send.

use std::collections::{HashMap, HashSet};
use std::fmt;

use elicit_wire::ElicitResult;
use elicit_wire::schema::ContentError;
use serde_json::{Map, Number, Value};

use crate::form::{Control, Field, FormModel};

/// What the person has entered so far, pre-filled with the server's defaults.
///
/// ```
/// use elicit_host::{Elicitation, FormInput};
/// use serde_json::json;
///
/// let params = json!({"message": "Book a table", "requestedSchema": {
///     "type": "object",
///     "properties": {
///         "party": {"type": "integer", "minimum": 1, "maximum": 12, "default": 2},
///         "email": {"type": "string", "format": "email"}
///     },
///     "required": ["party", "email"]
/// }});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let mut input = FormInput::new(&form);
/// assert_eq!(input.value("party"), Some(&json!(2)));
///
/// // Each field is checked as it is entered, by the server's rules.
/// let error = input.set_text("party", "20").unwrap_err();
/// assert_eq!(error.to_string(), "`party`: must be at most 12");
/// assert_eq!(input.missing(), ["email"]);
///
/// input.set_text("email", "ada@example.com")?;
/// let result = input.accept()?;
/// assert_eq!(
///     serde_json::to_value(&result)?,
///     json!({"action": "accept", "content": {"party": 2, "email": "ada@example.com"}})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct FormInput<'f> {
    form: &'f FormModel,
    values: Map<String, Value>,
}

/// Why a value was not taken for a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    /// The field's name.
    pub field: String,
    /// What is wrong, in words for the person.
    pub reason: String,
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.field, self.reason)
    }
}

impl std::error::Error for FieldProblem {}

impl<'f> FormInput<'f> {
    /// Input pre-filled with every default the server sent.
    pub fn new(form: &'f FormModel) -> Self {
        let values = form
            .fields()
            .filter_map(|field| Some((field.name().to_owned(), field.default_value()?)))
            .collect();
        FormInput { form, values }
    }

    /// Input with nothing filled in.
    pub fn empty(form: &'f FormModel) -> Self {
        FormInput {
            form,
            values: Map::new(),
        }
    }

    /// The form this input is for.
    pub fn form(&self) -> &'f FormModel {
        self.form
    }

    /// The value of `field`, if it has one.
    pub fn value(&self, field: &str) -> Option<&Value> {
        self.values.get(field)
    }

    /// Sets `field` to `value` if the field's schema accepts it; otherwise keeps what it had
    /// and says why.
    pub fn set(&mut self, field: &str, value: Value) -> Result<(), FieldProblem> {
        let spec = self.field(field)?;
        spec.schema()
            .check(&value)
            .map_err(|e| problem(field, e.reason()))?;
        self.values.insert(field.to_owned(), value);
        Ok(())
    }

    /// Sets `field` from what the person typed: text as is; a number in JSON's notation; yes
    /// or no as `y`/`yes`/`true`/`1` or `n`/`no`/`false`/`0`; a choice by its value or its
    /// label (any case); several, separated by commas (an option whose value or label has a
    /// comma in it is taken whole when the text is exactly that option). Blank clears an
    /// optional field.
    pub fn set_text(&mut self, field: &str, text: &str) -> Result<(), FieldProblem> {
        let spec = self.field(field)?;
        let trimmed = text.trim();
        if trimmed.is_empty() && !(spec.required() && spec.control() == Control::Text) {
            self.values.remove(field);
            return Ok(());
        }
        let value = match spec.control() {
            Control::Number => serde_json::from_str::<Number>(trimmed)
                .map(Value::Number)
                .map_err(|_| problem(field, "is not a number"))?,
            Control::Boolean => match trimmed.to_lowercase().as_str() {
                "y" | "yes" | "true" | "1" => Value::Bool(true),
                "n" | "no" | "false" | "0" => Value::Bool(false),
                _ => return Err(problem(field, "answer yes or no")),
            },
            Control::Choice => Value::String(Choices::of(&spec).value(trimmed)?),
            Control::MultiChoice => {
                let choices = Choices::of(&spec);
                // One option whose value or label has a comma in it is that option, not a list.
                if let Ok(one) = choices.value(trimmed) {
                    return self.set(field, Value::Array(vec![Value::String(one)]));
                }
                let picked: Result<Vec<Value>, FieldProblem> = trimmed
                    .split(',')
                    .map(str::trim)
                    .filter(|part| !part.is_empty())
                    .map(|part| choices.value(part).map(Value::String))
                    .collect();
                Value::Array(picked?)
            }
            _ => Value::String(text.to_owned()),
        };
        self.set(field, value)
    }

    /// Removes `field`'s value (an optional field left out of the answer).
    pub fn clear(&mut self, field: &str) {
        self.values.remove(field);
    }

    /// The required fields that have no value yet, in form order.
    pub fn missing(&self) -> Vec<&'f str> {
        self.form
            .fields()
            .filter(|field| field.required() && !self.values.contains_key(field.name()))
            .map(|field| field.name())
            .collect()
    }

    /// The `accept` result, once the whole answer passes the form's schema (every required
    /// field present, every value valid: what the server will check again), with the fields
    /// in form order; otherwise every problem, by field.
    pub fn accept(&self) -> Result<ElicitResult, ContentError> {
        let content: Map<String, Value> = self
            .form
            .fields()
            .filter_map(|field| {
                let value = self.values.get(field.name())?;
                Some((field.name().to_owned(), value.clone()))
            })
            .collect();
        let content = Value::Object(content);
        self.form.schema().validate(&content)?;
        let Value::Object(content) = content else {
            unreachable!("built as an object")
        };
        Ok(ElicitResult::accept(content))
    }

    fn field(&self, name: &str) -> Result<Field<'f>, FieldProblem> {
        self.form
            .field(name)
            .ok_or_else(|| problem(name, "is not a field of this form"))
    }
}

/// A choice field's options, found by value or by label in constant time: each of several
/// picks is one lookup, however many options there are.
struct Choices<'a> {
    field: &'a str,
    options: Vec<(&'a str, &'a str)>,
    /// Each value, as is.
    exact: HashSet<&'a str>,
    /// Each label and value in ASCII lower case, to the value of the first option that has it.
    folded: HashMap<String, &'a str>,
}

impl<'a> Choices<'a> {
    fn of(spec: &Field<'a>) -> Self {
        let options = spec.options();
        let exact = options.iter().map(|(value, _)| *value).collect();
        let mut folded = HashMap::with_capacity(options.len() * 2);
        for (value, label) in &options {
            folded.entry(label.to_ascii_lowercase()).or_insert(*value);
            folded.entry(value.to_ascii_lowercase()).or_insert(*value);
        }
        Choices {
            field: spec.name(),
            options,
            exact,
            folded,
        }
    }

    /// The value of the option `text` names: by its value, or else by a label or value in any
    /// case.
    fn value(&self, text: &str) -> Result<String, FieldProblem> {
        if let Some(value) = self.exact.get(text) {
            return Ok((*value).to_owned());
        }
        if let Some(value) = self.folded.get(&text.to_ascii_lowercase()) {
            return Ok((*value).to_owned());
        }
        let labels: Vec<&str> = self.options.iter().map(|(_, label)| *label).collect();
        Err(problem(
            self.field,
            &format!("choose one of: {}", labels.join(", ")),
        ))
    }
}

fn problem(field: &str, reason: &str) -> FieldProblem {
    FieldProblem {
        field: field.to_owned(),
        reason: reason.to_owned(),
    }
}
