//! A form as an accessible HTML `<form>`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use elicit_wire::schema::{PropertySchema, StringFormat};
use serde_json::Value;

use super::{actions, escape, exact, id_of, name_of};
use crate::form::{Control, Field};
use crate::input::{FieldProblem, FormInput};

/// The form `input` holds (its values: the defaults at first, what the person sent after a
/// refused answer) as a `<form method="post" action="{action}">` asked by `server`, with each
/// of `problems` shown at its field (`role="alert"`). Send, Decline and Cancel post
/// `elicit-action`, each field its value under `field:` and its name; read the post with
/// [`read`](super::read).
///
/// Each field's control has the id `elicit-` and the field's name with every byte outside
/// `A-Z`, `a-z` and `0-9` written `_` and two hex digits (`replicas` is `elicit-replicas`,
/// `a.b` is `elicit-a_2eb`); its help is that id and `-help`, its problem `-problem`, a
/// multi-select's boxes `-0`, `-1`, …; the heading is `elicit--title`. No two fields share
/// an id, so every label points at its own field's control.
///
/// ```
/// use elicit_host::{Elicitation, FormInput, html};
/// use serde_json::json;
///
/// let params = json!({"message": "Pick", "requestedSchema": {"type": "object", "properties": {
///     "a.b": {"type": "boolean"}, "a_b": {"type": "boolean"}}}});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let page = html::form("Desk", &FormInput::new(&form), "/answer", &[]);
/// assert!(page.contains(r#"id="elicit-a_2eb" name="field:a.b""#));
/// assert!(page.contains(r#"id="elicit-a_5fb" name="field:a_b""#));
/// # Ok::<(), elicit_host::RequestError>(())
/// ```
pub fn form(
    server: &str,
    input: &FormInput<'_>,
    action: &str,
    problems: &[FieldProblem],
) -> String {
    let model = input.form();
    let mut html = String::new();
    let _ = write!(
        html,
        "<form class=\"elicit-form\" method=\"post\" action=\"{}\" aria-labelledby=\"elicit--title\">\n  \
         <h2 id=\"elicit--title\"><span class=\"elicit-server\">{}</span> asks</h2>\n  \
         <p class=\"elicit-message\">{}</p>\n",
        escape(action),
        escape(server),
        escape(model.message())
    );
    // The schema's own words (a Python server's model name), below the server's message.
    if let Some(title) = model.title() {
        let _ = writeln!(
            html,
            "  <p class=\"elicit-form-title\"><strong>{}</strong></p>",
            escape(title)
        );
    }
    if let Some(description) = model.description() {
        let _ = writeln!(
            html,
            "  <p class=\"elicit-form-description\">{}</p>",
            escape(description)
        );
    }
    // The first problem of each field, found by name however many fields there are.
    let mut by_field: HashMap<&str, &FieldProblem> = HashMap::with_capacity(problems.len());
    for problem in problems {
        by_field.entry(problem.field.as_str()).or_insert(problem);
    }
    for field in model.fields() {
        let problem = by_field.get(field.name()).copied();
        html.push_str(&one(field, input.value(field.name()), problem));
    }
    html.push_str(&actions("Send"));
    html.push_str("</form>\n");
    html
}

/// One field: its label, control, help and problem.
fn one(field: Field<'_>, value: Option<&Value>, problem: Option<&FieldProblem>) -> String {
    let id = id_of(field.name());
    let name = exact(&name_of(field.name()));
    let label = escape(field.label());
    let star = if field.required() {
        " <span class=\"elicit-required\" aria-hidden=\"true\">*</span>"
    } else {
        ""
    };
    let required = if field.required() { " required" } else { "" };
    let help_id = format!("{id}-help");
    let problem_id = format!("{id}-problem");
    let described = match problem {
        Some(_) => format!("{help_id} {problem_id}"),
        None => help_id.clone(),
    };
    let invalid = if problem.is_some() {
        " aria-invalid=\"true\""
    } else {
        ""
    };
    let mut help = String::new();
    if let Some(description) = field.description() {
        help.push_str(&escape(description));
        help.push_str(" — ");
    }
    help.push_str(&escape(&field.hint()));
    let control = match field.control() {
        Control::Choice => {
            let current = value.and_then(Value::as_str);
            let mut options = String::new();
            if !field.required() || current.is_none() {
                let _ = write!(options, "<option value=\"\">—</option>");
            }
            for (option, title) in field.options() {
                let selected = if current == Some(option) {
                    " selected"
                } else {
                    ""
                };
                let _ = write!(
                    options,
                    "<option value=\"{}\"{selected}>{}</option>",
                    exact(option),
                    escape(title)
                );
            }
            format!(
                "    <label for=\"{id}\">{label}{star}</label>\n    \
                 <select id=\"{id}\" name=\"{name}\" aria-describedby=\"{described}\"{invalid}{required}>{options}</select>\n"
            )
        }
        Control::MultiChoice => {
            let picked: HashSet<&str> = value
                .and_then(Value::as_array)
                .map(|items| items.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut boxes = String::new();
            for (index, (option, title)) in field.options().into_iter().enumerate() {
                let checked = if picked.contains(option) {
                    " checked"
                } else {
                    ""
                };
                let _ = writeln!(
                    boxes,
                    "      <label for=\"{id}-{index}\"><input type=\"checkbox\" id=\"{id}-{index}\" name=\"{name}\" value=\"{}\"{checked}> {}</label>",
                    exact(option),
                    escape(title)
                );
            }
            return format!(
                "  <fieldset class=\"elicit-field\" aria-describedby=\"{described}\"{invalid}>\n    \
                 <legend>{label}{star}</legend>\n{boxes}    \
                 <p id=\"{help_id}\" class=\"elicit-help\">{help}</p>\n{}  </fieldset>\n",
                problem_html(&problem_id, problem)
            );
        }
        Control::Boolean => {
            let checked = if value == Some(&Value::Bool(true)) {
                " checked"
            } else {
                ""
            };
            format!(
                "    <input type=\"checkbox\" id=\"{id}\" name=\"{name}\" value=\"true\" aria-describedby=\"{described}\"{invalid}{checked}>\n    \
                 <label for=\"{id}\">{label}{star}</label>\n"
            )
        }
        Control::Text | Control::Number => {
            let shown = match value {
                Some(Value::String(text)) => text.clone(),
                Some(Value::Number(number)) => number.to_string(),
                _ => String::new(),
            };
            format!(
                "    <label for=\"{id}\">{label}{star}</label>\n    \
                 <input id=\"{id}\" name=\"{name}\" {} value=\"{}\"{required} aria-describedby=\"{described}\"{invalid}>\n",
                constraints(field),
                escape(&shown)
            )
        }
    };
    format!(
        "  <div class=\"elicit-field\">\n{control}    <p id=\"{help_id}\" class=\"elicit-help\">{help}</p>\n{}  </div>\n",
        problem_html(&problem_id, problem)
    )
}

fn problem_html(id: &str, problem: Option<&FieldProblem>) -> String {
    match problem {
        Some(problem) => format!(
            "    <p id=\"{id}\" class=\"elicit-problem\" role=\"alert\">{}</p>\n",
            escape(&problem.reason)
        ),
        None => String::new(),
    }
}

/// The control's type and the schema's constraints, as the browser checks them.
fn constraints(field: Field<'_>) -> String {
    match field.schema() {
        PropertySchema::Number(number) => {
            let mut attributes = String::from("type=\"number\"");
            if let Some(minimum) = &number.minimum {
                let _ = write!(attributes, " min=\"{minimum}\"");
            }
            if let Some(maximum) = &number.maximum {
                let _ = write!(attributes, " max=\"{maximum}\"");
            }
            attributes.push_str(if number.integer {
                " step=\"1\""
            } else {
                " step=\"any\""
            });
            attributes
        }
        PropertySchema::String(text) => {
            let kind = match text.format {
                Some(StringFormat::Email) => "email",
                Some(StringFormat::Uri) => "url",
                Some(StringFormat::Date) => "date",
                // `datetime-local` has no offset; RFC 3339 needs one: typed as text.
                _ => "text",
            };
            let mut attributes = format!("type=\"{kind}\"");
            if let Some(min) = text.min_length {
                let _ = write!(attributes, " minlength=\"{min}\"");
            }
            if let Some(max) = text.max_length {
                let _ = write!(attributes, " maxlength=\"{max}\"");
            }
            if text.format == Some(StringFormat::DateTime) {
                attributes.push_str(" placeholder=\"2026-12-24T19:30:00+01:00\"");
            }
            attributes
        }
        _ => "type=\"text\"".to_owned(),
    }
}
