//! A form on the terminal: each field asked in turn, then the whole answer for review.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use elicit_wire::ElicitResult;
use serde_json::Value;

use super::{Terminal, Typed, from_server};
use crate::form::{Control, Field, FormModel};
use crate::input::FormInput;

/// How a form's prompts ended.
enum Step {
    Done,
    Stop(ElicitResult),
}

impl<R: BufRead, W: Write> Terminal<R, W> {
    /// Asks `form` of the person on behalf of `server` (the name to show), and returns their
    /// answer: `accept` with content that passes the form's schema, `decline` or `cancel`.
    pub fn fill(&mut self, server: &str, form: &FormModel) -> io::Result<ElicitResult> {
        let server = from_server(server, "");
        let heading = self.bold(&format!("── {server} asks ──"));
        self.say(&heading)?;
        self.say(&from_server(form.message(), ""))?;
        // The schema's own words (a Python server's model name), below the server's message.
        if let Some(title) = form.title() {
            let title = self.bold(&from_server(title, ""));
            self.say(&title)?;
        }
        if let Some(description) = form.description() {
            self.say(&from_server(description, ""))?;
        }
        self.say("(Enter keeps the value in brackets, - clears it; :d declines, :c cancels)")?;
        let mut input = FormInput::new(form);
        for (index, field) in form.fields().enumerate() {
            if let Step::Stop(result) = self.edit(&mut input, field, index + 1)? {
                return Ok(result);
            }
        }
        loop {
            self.review(&input)?;
            let typed = self.ask("[s]end, a field's number to change it, [d]ecline, [c]ancel:")?;
            let line = match typed {
                Typed::Decline => return Ok(ElicitResult::decline()),
                Typed::Cancel => return Ok(ElicitResult::cancel()),
                Typed::Line(line) => line.trim().to_lowercase(),
            };
            match line.as_str() {
                "s" | "send" => match input.accept() {
                    Ok(result) => return Ok(result),
                    Err(errors) => {
                        for error in errors.errors() {
                            let label = form
                                .field(&error.field)
                                .map_or(error.field.as_str(), |f| f.label());
                            let label = from_server(label, "    ");
                            let reason = from_server(&error.reason, "    ");
                            self.say(&format!("  ✗ {label}: {reason}"))?;
                        }
                    }
                },
                "d" | "decline" => return Ok(ElicitResult::decline()),
                "c" | "cancel" => return Ok(ElicitResult::cancel()),
                number => match number
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| Some((n, form.fields().nth(n.checked_sub(1)?)?)))
                {
                    Some((n, field)) => {
                        if let Step::Stop(result) = self.edit(&mut input, field, n)? {
                            return Ok(result);
                        }
                    }
                    None => self.say("  type s, d, c or a field's number")?,
                },
            }
        }
    }

    /// Asks one field until the person keeps, clears or sets a valid value.
    fn edit(
        &mut self,
        input: &mut FormInput<'_>,
        field: Field<'_>,
        number: usize,
    ) -> io::Result<Step> {
        let required = if field.required() { " *" } else { "" };
        let label = from_server(field.label(), "     ");
        let title = self.bold(&format!("{number}. {label}{required}"));
        self.say(&format!("  {title} — {}", field.hint()))?;
        if let Some(description) = field.description() {
            self.say(&format!("     {}", from_server(description, "     ")))?;
        }
        let options = field.options();
        if !options.is_empty() {
            let listed: Vec<String> = options
                .iter()
                .enumerate()
                .map(|(i, (_, label))| format!("{}) {}", i + 1, from_server(label, "     ")))
                .collect();
            self.say(&format!("     {}", listed.join("   ")))?;
        }
        loop {
            let shown = shown(field, input.value(field.name()));
            let shown = from_server(&shown, "     ");
            let line = match self.ask(&format!("     [{shown}] >"))? {
                Typed::Decline => return Ok(Step::Stop(ElicitResult::decline())),
                Typed::Cancel => return Ok(Step::Stop(ElicitResult::cancel())),
                Typed::Line(line) => line,
            };
            let text = line.trim();
            if text.is_empty() {
                return Ok(Step::Done);
            }
            if text == "-" {
                if field.required() {
                    self.say("     ✗ this field is required")?;
                    continue;
                }
                input.clear(field.name());
                return Ok(Step::Done);
            }
            // A text field takes the line as typed; others are read as typed, options also by
            // their number.
            let set = match field.control() {
                Control::Text => input.set_text(field.name(), &line),
                // Options picked by number are set as values, never joined into text again
                // (an option's value may hold a comma).
                Control::MultiChoice => match numbered(field, text) {
                    Some(picked) => input.set(field.name(), picked),
                    None => input.set_text(field.name(), &by_number(field, text)),
                },
                _ => input.set_text(field.name(), &by_number(field, text)),
            };
            match set {
                Ok(()) => return Ok(Step::Done),
                Err(problem) => {
                    let reason = from_server(&problem.reason, "     ");
                    self.say(&format!("     ✗ {reason}"))?;
                }
            }
        }
    }

    /// The whole answer as it stands.
    fn review(&mut self, input: &FormInput<'_>) -> io::Result<()> {
        let form = input.form();
        let heading = self.bold("Your answer:");
        self.say(&heading)?;
        let labels: Vec<_> = form
            .fields()
            .map(|f| from_server(f.label(), "     "))
            .collect();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 2;
        for ((index, field), label) in form.fields().enumerate().zip(&labels) {
            let required = if field.required() { " *" } else { "" };
            let label = format!("{label}{required}");
            let value = shown(field, input.value(field.name()));
            let value = from_server(&value, "     ");
            self.say(&format!("  {}. {label:<width$} {value}", index + 1))?;
        }
        Ok(())
    }
}

/// Options typed by number (`2`, `1, 3`) as their values; anything else as typed.
fn by_number(field: Field<'_>, text: &str) -> String {
    let options = field.options();
    if options.is_empty() {
        return text.to_owned();
    }
    let one = |part: &str| -> String {
        let part = part.trim();
        option_by_number(&options, part).unwrap_or(part).to_owned()
    };
    let whole = options
        .iter()
        .any(|(value, label)| *value == text.trim() || *label == text.trim());
    match field.control() {
        Control::MultiChoice if !whole => text.split(',').map(one).collect::<Vec<_>>().join(","),
        _ => one(text),
    }
}

/// A multi-choice answer typed as option numbers only (`1, 3`) as the array of their values;
/// `None` when any part is not the number of an option (or is itself an option's name).
fn numbered(field: Field<'_>, text: &str) -> Option<Value> {
    let options = field.options();
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| option_by_number(&options, part).map(|value| Value::String(value.to_owned())))
        .collect::<Option<Vec<_>>>()
        .filter(|picked| !picked.is_empty())
        .map(Value::Array)
}

/// The value of the option whose number (from 1) is `part`, unless `part` is itself an
/// option's value or label (then it was typed by name).
fn option_by_number<'a>(options: &[(&'a str, &str)], part: &str) -> Option<&'a str> {
    let named = options.iter().any(|(v, l)| *v == part || *l == part);
    let n = part.parse::<usize>().ok().filter(|_| !named)?;
    options.get(n.checked_sub(1)?).map(|(value, _)| *value)
}

/// A value as the person reads it: options by label, yes/no, `(empty)`.
fn shown(field: Field<'_>, value: Option<&Value>) -> String {
    // Each option's label by its value (the first option of a value, as listed), so a long
    // list of choices costs one look-up each, not a scan of the options.
    let labels: HashMap<&str, &str> = field.options().into_iter().rev().collect();
    let label = |value: &str| (*labels.get(value).unwrap_or(&value)).to_owned();
    match value {
        None => "(empty)".to_owned(),
        Some(Value::String(text)) if field.control() == Control::Choice => label(text),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Bool(yes)) => if *yes { "yes" } else { "no" }.to_owned(),
        Some(Value::Array(items)) if items.is_empty() => "(none)".to_owned(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map_or_else(|| item.to_string(), label))
            .collect::<Vec<_>>()
            .join(", "),
        Some(other) => other.to_string(),
    }
}
