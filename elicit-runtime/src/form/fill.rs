//! Filling in a form from the values the model gave: the fields it left out or got wrong are
//! asked in one form of just those fields, and the whole form is decoded from both.

use std::future::Future;

use serde_json::{Map, Value};

use super::ElicitForm;
use super::answer::Answer;
use super::prepared::Prepared;
use super::question::{Question, question_digest};
use crate::channel::InputChannel;
use crate::schema::{ContentError, RequestedSchema};

/// The complete form `T` from `given` (the tool arguments the model sent, say), asking the
/// user only for what is missing or invalid.
///
/// When every field of `given` passes `T`'s checks, that is the answer and nobody is asked.
/// Otherwise `question` is asked with a schema of just the fields that failed (the message
/// names the values that were kept), and the user's answer together with the kept values is
/// decoded and checked as a whole `T`: a bad answer is asked again as any question's is.
/// Extra members of `given` are ignored. A decline or cancel is the answer as usual. The
/// schema to publish for such arguments (a tool's `inputSchema`) is [`input_schema::<T>()`]:
/// the same declaration, so the model is told what these checks accept.
///
/// [`input_schema::<T>()`]: super::input_schema
///
/// A field marked `#[elicit(user_decides)]` is always asked, and stays in `required`: the
/// model's valid value is only a suggestion, named in the field's description
/// (`… (suggested: 99999)`) and, for a required field, sent as its `default` for clients that
/// pre-fill. Clients may ignore defaults, so an answer that leaves the field out fails the
/// form's checks and is asked again; it is never completed with the model's value.
///
/// ```
/// use elicit_runtime::form::fill_in;
/// use elicit_runtime::{ElicitForm, ElicitServer, Reply};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// /// Book a table
/// #[derive(Debug, ElicitForm)]
/// struct Booking {
///     restaurant: String,
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "bookings"));
/// let call = json!({
///     "name": "book", "arguments": {"restaurant": "Chez Rust", "guests": 40},
///     "_meta": {
///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
///     }
/// });
/// let mut cx = server.context("tools/call", &call).build().unwrap();
/// let given = cx.arguments().as_object().unwrap().clone();
/// let asked = pollster::block_on(fill_in(&mut cx, &given, Booking::question()));
/// let Reply::InputRequired(round) = pollster::block_on(cx.respond(asked.map(|_| ()))).unwrap() else {
///     panic!("40 guests is out of range: asked")
/// };
/// let request = serde_json::to_value(&round).unwrap();
/// // Only the guests are asked; the restaurant the model gave is kept (and said so).
/// let params = &request["inputRequests"]["booking"]["params"];
/// assert_eq!(params["message"], "Book a table (kept: restaurant = \"Chez Rust\")");
/// assert_eq!(
///     params["requestedSchema"],
///     json!({"type": "object", "properties": {"guests": {"type": "integer", "minimum": 1, "maximum": 12}}, "required": ["guests"]})
/// );
/// ```
pub fn fill_in<'a, T, C>(
    channel: &'a mut C,
    given: &Map<String, Value>,
    question: Question<T>,
) -> impl Future<Output = Result<Answer<T>, C::Error>> + Send + 'a
where
    T: ElicitForm + Send,
    T::Defaults: Send,
    C: InputChannel + ?Sized,
{
    let plan = plan::<T>(given);
    let asking = match plan {
        Plan::Complete(form) => Err(form),
        Plan::Ask { kept, schema } => {
            let note = kept_note(&kept);
            let prepare = move |key: &str, message: &str| {
                let message = format!("{message}{note}");
                let digest = question_digest(key, &message, &schema);
                Ok(Prepared {
                    key: key.to_owned(),
                    message,
                    schema: schema.into(),
                    digest,
                })
            };
            let decode: Box<super::decode::Decode<T>> =
                Box::new(move |content: &Value, asked: &RequestedSchema| {
                    merged::<T>(&kept, content, asked)
                });
            Ok((prepare, decode))
        }
    };
    async move {
        match asking {
            Err(form) => Ok(Answer::Accepted(form)),
            Ok((prepare, decode)) => question.ask_missing(channel, prepare, &*decode).await,
        }
    }
}

/// What `given` leaves to ask.
enum Plan<T> {
    /// Everything was there and valid.
    Complete(T),
    /// The valid values kept, and the schema of the fields to ask.
    Ask {
        kept: Map<String, Value>,
        schema: RequestedSchema,
    },
}

fn plan<T: ElicitForm>(given: &Map<String, Value>) -> Plan<T> {
    let own = T::requested_schema();
    let mut kept: Map<String, Value> = own
        .properties
        .iter()
        .filter_map(|(name, _)| Some((name.clone(), given.get(name)?.clone())))
        .collect();
    let errors = match T::from_content(&Value::Object(kept.clone())) {
        Ok(form) if T::user_decides().is_empty() => return Plan::Complete(form),
        Ok(_) => ContentError::default(),
        Err(errors) => errors,
    };
    let mut failed = failed_fields(&errors, own);
    // The user's to decide: asked whatever the model gave, its valid value only suggested.
    let mut suggested = Map::new();
    for name in T::user_decides() {
        if failed.iter().any(|f| f == name) {
            continue;
        }
        if let Some(value) = kept.get(*name) {
            suggested.insert((*name).to_owned(), value.clone());
        }
        failed.push((*name).to_owned());
    }
    kept.retain(|name, _| !failed.contains(name));
    let schema = RequestedSchema {
        schema_uri: own.schema_uri.clone(),
        properties: own
            .properties
            .iter()
            .filter(|(name, _)| failed.contains(name))
            .cloned()
            .collect(),
        required: own
            .required
            .iter()
            .filter(|name| failed.contains(*name))
            .cloned()
            .collect(),
    };
    // Shown, never taken: a user_decides field stays required whatever its suggestion.
    let schema = super::defaults::with_suggestions(&schema, &suggested);
    Plan::Ask { kept, schema }
}

/// The wire names of the fields `errors` is about (an error about no field asks every field).
fn failed_fields(errors: &ContentError, own: &RequestedSchema) -> Vec<String> {
    let names: Vec<String> = errors
        .errors()
        .iter()
        .filter(|e| own.properties.iter().any(|(name, _)| *name == e.field))
        .map(|e| e.field.clone())
        .collect();
    if names.is_empty() && !errors.errors().is_empty() {
        own.properties
            .iter()
            .map(|(name, _)| name.clone())
            .collect()
    } else {
        names
    }
}

/// The kept values, as the message shows them: ` (kept: a = 1, b = "x")`.
fn kept_note(kept: &Map<String, Value>) -> String {
    if kept.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = kept.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    format!(" (kept: {})", shown.join(", "))
}

/// The form from the kept values and the user's answer to the fields `asked` asked (other
/// members of the answer are ignored: they cannot change a kept value). An optional asked field
/// the answer leaves out takes the `default` `asked` gave it (a re-ask pre-fills the values an
/// earlier answer got right and no longer requires them); a required one is missing, and the
/// answer fails the form's checks. A field the user decides is required with the model's value
/// as a mere suggestion, so an answer without it is never paid with the model's value.
fn merged<T: ElicitForm>(
    kept: &Map<String, Value>,
    content: &Value,
    asked: &RequestedSchema,
) -> Result<T, ContentError> {
    let mut all = kept.clone();
    let answer = match content {
        Value::Object(answer) => Some(answer),
        _ => None,
    };
    for (name, property) in &asked.properties {
        let optional = || !asked.is_required(name);
        let value = answer
            .and_then(|answer| answer.get(name).cloned())
            .or_else(|| optional().then(|| property.default_value()).flatten());
        if let Some(value) = value {
            all.insert(name.clone(), value);
        }
    }
    T::from_content(&Value::Object(all))
}
