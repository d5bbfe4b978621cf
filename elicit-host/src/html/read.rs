//! A posted form, read back through the server's rules.

use elicit_wire::ElicitResult;

use crate::form::{FieldKind, FormModel};
use crate::input::{FieldProblem, FormInput};

/// Reads what the browser posted for `form` (the `application/x-www-form-urlencoded` pairs,
/// decoded): `elicit-action` says send, decline or cancel; on send every field is set as the
/// person typed it, by the server's rules, and the whole answer must pass. The problems, by
/// field, otherwise: render the form again with them
/// ([`form`](super::form) with the [`FormInput`] [`filled`] gives for the same post).
pub fn read(
    form: &FormModel,
    posted: impl IntoIterator<Item = (String, String)>,
) -> Result<ElicitResult, Vec<FieldProblem>> {
    let posted: Vec<(String, String)> = posted.into_iter().collect();
    let action = posted
        .iter()
        .find(|(name, _)| name == "elicit-action")
        .map(|(_, value)| value.as_str());
    match action {
        Some("decline") => return Ok(ElicitResult::decline()),
        Some("accept") => {}
        // Anything else, or no action at all, is a dismissal.
        _ => return Ok(ElicitResult::cancel()),
    }
    let (input, problems) = filled(form, &posted);
    if !problems.is_empty() {
        return Err(problems);
    }
    input.accept().map_err(|errors| {
        errors
            .errors()
            .iter()
            .map(|error| FieldProblem {
                field: error.field.clone(),
                reason: error.reason.clone(),
            })
            .collect()
    })
}

/// What the browser posted for `form`, set field by field by the server's rules (an unticked
/// box is no, a multi-select's repeated name its choices): the input holding every value that
/// passed, to render the form again with ([`form`](super::form)), and the problems of those
/// that did not (their fields left empty).
///
/// ```
/// use elicit_host::{Elicitation, html};
/// use serde_json::json;
///
/// let params = json!({"message": "How many?", "requestedSchema": {"type": "object",
///     "properties": {"replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2},
///                    "note": {"type": "string"}}}});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let posted = [("elicit-action", "accept"), ("replicas", "40"), ("note", "hi")];
/// let posted: Vec<(String, String)> =
///     posted.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
/// let (input, problems) = html::filled(&form, &posted);
/// assert_eq!(problems[0].to_string(), "`replicas`: must be at most 10");
/// assert_eq!(input.value("note"), Some(&json!("hi")));
/// let again = html::form("Desk", &input, "/answer", &problems);
/// assert!(again.contains("must be at most 10"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn filled<'f>(
    form: &'f FormModel,
    posted: &[(String, String)],
) -> (FormInput<'f>, Vec<FieldProblem>) {
    let mut input = FormInput::empty(form);
    let mut problems = Vec::new();
    for field in form.fields() {
        let values: Vec<&str> = posted
            .iter()
            .filter(|(name, _)| name == field.name())
            .map(|(_, value)| value.as_str())
            .collect();
        let text = match field.kind() {
            // An unticked box sends nothing: no.
            FieldKind::Boolean => if values.is_empty() { "no" } else { "yes" }.to_owned(),
            FieldKind::MultiChoice => values.join(","),
            _ => values.first().copied().unwrap_or_default().to_owned(),
        };
        if let Err(problem) = input.set_text(field.name(), &text) {
            problems.push(problem);
        }
    }
    (input, problems)
}
