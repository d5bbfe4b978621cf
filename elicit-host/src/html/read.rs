//! A posted form, read back through the server's rules.

use std::collections::HashMap;
use std::fmt;

use elicit_wire::ElicitResult;
use serde_json::Value;

use super::{ACTION, FIELD_PREFIX};
use crate::consent::Consent;
use crate::form::{Control, FormModel};
use crate::input::{FieldProblem, FormInput};

/// Why a post was not taken as the person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// The answer breaks the server's rules: render the form again with these problems at
    /// their fields ([`form`](super::form), with the input [`filled`] gives for the post).
    Problems(Vec<FieldProblem>),
    /// Not a post of this page: a second `elicit-action`, an action other than `accept`,
    /// `decline` and `cancel`, a name the page has no control for, or a one-value field sent
    /// twice. No browser sends it from the page as rendered; answer nothing (HTTP 400), and
    /// show the page again.
    NotThisForm(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Problems(problems) => {
                f.write_str("the answer breaks the form's rules: ")?;
                for (i, problem) in problems.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{problem}")?;
                }
                Ok(())
            }
            ReadError::NotThisForm(why) => write!(f, "not a post of this page: {why}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads what the browser posted for `form` (the `application/x-www-form-urlencoded` pairs,
/// decoded, as [`form`](super::form) renders them): one `elicit-action` (`accept`, `decline`
/// or `cancel`; none at all is a dismissal, `cancel`) and each field under `field:` and its
/// name (`field:replicas`; a multi-select's name once per ticked option). On `accept` every
/// field is set as the person typed it, by the server's rules, and the whole answer must pass;
/// otherwise [`ReadError::Problems`], by field. Anything else in the post is
/// [`ReadError::NotThisForm`], whatever the action: a field's name never decides it.
///
/// ```
/// use elicit_host::{Elicitation, html};
/// use serde_json::json;
///
/// let params = json!({"message": "Delete?", "requestedSchema": {"type": "object",
///     "properties": {"elicit-action": {"type": "string", "default": "accept"}}}});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let pairs = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
///     pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
/// };
/// // The field named like the buttons posts under its own name: Decline is decline.
/// let declined = html::read(&form, pairs(&[("field:elicit-action", "accept"), ("elicit-action", "decline")]))?;
/// assert_eq!(serde_json::to_value(declined)?, json!({"action": "decline"}));
/// // A second action is not taken, first or last.
/// let forged = html::read(&form, pairs(&[("elicit-action", "accept"), ("elicit-action", "decline")]));
/// assert_eq!(forged.unwrap_err().to_string(), "not a post of this page: `elicit-action` is posted more than once");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read(
    form: &FormModel,
    posted: impl IntoIterator<Item = (String, String)>,
) -> Result<ElicitResult, ReadError> {
    let posted: Vec<(String, String)> = posted.into_iter().collect();
    let post = Post::sort(Some(form), &posted);
    if let Some(why) = post.refused {
        return Err(ReadError::NotThisForm(why));
    }
    match post.action {
        None | Some(Consent::Cancelled) => return Ok(ElicitResult::cancel()),
        Some(Consent::Declined) => return Ok(ElicitResult::decline()),
        Some(Consent::Opened) => {}
    }
    let (input, problems) = post.fill(form);
    if !problems.is_empty() {
        return Err(ReadError::Problems(problems));
    }
    input.accept().map_err(|errors| {
        ReadError::Problems(
            errors
                .errors()
                .iter()
                .map(|error| FieldProblem {
                    field: error.field.clone(),
                    reason: error.reason.clone(),
                })
                .collect(),
        )
    })
}

/// Reads what the browser posted from the [`consent`](super::consent) panel: exactly one
/// `elicit-action` and nothing else (none at all is a dismissal).
///
/// ```
/// use elicit_host::{Consent, html};
///
/// let open = [("elicit-action".to_owned(), "accept".to_owned())];
/// assert_eq!(html::read_consent(open)?, Consent::Opened);
/// assert_eq!(html::read_consent([])?, Consent::Cancelled);
/// let twice = [("elicit-action", "decline"), ("elicit-action", "accept")]
///     .map(|(k, v)| (k.to_owned(), v.to_owned()));
/// assert!(html::read_consent(twice).is_err());
/// # Ok::<(), html::ReadError>(())
/// ```
pub fn read_consent(
    posted: impl IntoIterator<Item = (String, String)>,
) -> Result<Consent, ReadError> {
    let posted: Vec<(String, String)> = posted.into_iter().collect();
    let post = Post::sort(None, &posted);
    match post.refused {
        Some(why) => Err(ReadError::NotThisForm(why)),
        None => Ok(post.action.unwrap_or(Consent::Cancelled)),
    }
}

/// What the browser posted for `form`, set field by field by the server's rules (an unticked
/// box is no, a multi-select's repeated name its choices): the input holding every value that
/// passed, to render the form again with ([`form`](super::form)), and the problems of those
/// that did not (their fields left empty). Names that are not the form's are left out (as
/// [`read`] refuses them); a one-value field sent twice is a problem, not its first value.
///
/// ```
/// use elicit_host::{Elicitation, html};
/// use serde_json::json;
///
/// let params = json!({"message": "How many?", "requestedSchema": {"type": "object",
///     "properties": {"replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2},
///                    "note": {"type": "string"}}}});
/// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
/// let posted = [("elicit-action", "accept"), ("field:replicas", "40"), ("field:note", "hi")];
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
    Post::sort(Some(form), posted).fill(form)
}

/// A post sorted in one pass: its action, each field's values by the field's index, and the
/// first reason it is not a post of the page, if any.
struct Post<'p> {
    action: Option<Consent>,
    values: HashMap<usize, Vec<&'p str>>,
    refused: Option<String>,
}

impl<'p> Post<'p> {
    /// Sorts `posted` for `form` (`None`: the consent panel, which has no fields).
    fn sort(form: Option<&FormModel>, posted: &'p [(String, String)]) -> Self {
        let mut post = Post {
            action: None,
            values: HashMap::new(),
            refused: None,
        };
        for (name, value) in posted {
            if name == ACTION {
                let action = match value.as_str() {
                    "accept" => Consent::Opened,
                    "decline" => Consent::Declined,
                    "cancel" => Consent::Cancelled,
                    _ => {
                        post.refuse(format!(
                            "`{ACTION}` is `{}`, not accept, decline or cancel",
                            value.escape_debug()
                        ));
                        continue;
                    }
                };
                if post.action.replace(action).is_some() {
                    post.refuse(format!("`{ACTION}` is posted more than once"));
                }
                continue;
            }
            let field = name
                .strip_prefix(FIELD_PREFIX)
                .zip(form)
                .and_then(|(field, form)| form.index_of(field).map(|i| (i, form.nth(i))));
            let Some((index, field)) = field else {
                post.refuse(format!(
                    "`{}` is not a name this page posts",
                    name.escape_debug()
                ));
                continue;
            };
            let values = post.values.entry(index).or_default();
            values.push(value);
            if values.len() == 2 && field.control() != Control::MultiChoice {
                post.refuse(format!(
                    "`{}` is posted more than once",
                    name.escape_debug()
                ));
            }
        }
        post
    }

    /// Keeps the first reason.
    fn refuse(&mut self, why: String) {
        self.refused.get_or_insert(why);
    }

    /// The input the post gives `form`, field by field, and the problems.
    fn fill(self, form: &FormModel) -> (FormInput<'_>, Vec<FieldProblem>) {
        let mut input = FormInput::empty(form);
        let mut problems = Vec::new();
        for (index, field) in form.fields().enumerate() {
            let values = self.values.get(&index).map_or(&[][..], Vec::as_slice);
            // A field of one value sent more than once.
            let set = if values.len() > 1 && field.control() != Control::MultiChoice {
                Err(FieldProblem {
                    field: field.name().to_owned(),
                    reason: "was sent more than once".to_owned(),
                })
            } else {
                match field.control() {
                    // An unticked box sends nothing: no.
                    Control::Boolean => {
                        input.set_text(field.name(), if values.is_empty() { "no" } else { "yes" })
                    }
                    // The browser posts each ticked option's value as it is.
                    Control::MultiChoice if values.is_empty() => {
                        input.clear(field.name());
                        Ok(())
                    }
                    Control::MultiChoice => input.set(
                        field.name(),
                        Value::Array(
                            values
                                .iter()
                                .map(|v| Value::String((*v).to_owned()))
                                .collect(),
                        ),
                    ),
                    _ => input.set_text(field.name(), values.first().copied().unwrap_or_default()),
                }
            };
            if let Err(problem) = set {
                problems.push(problem);
            }
        }
        (input, problems)
    }
}
