//! An incoming elicitation, parsed strictly: a 2025-11-25 `elicitation/create` request's
//! params, or one entry of a 2026-07-28 round's `inputRequests`. A form whose schema leaves the
//! restricted grammar is an error that says where and why, never a form to render.

use std::borrow::Cow;
use std::fmt;

use elicit_wire::schema::{RequestedSchema, SchemaError};
use serde_json::{Map, Value};

use crate::form::FormModel;
use crate::limits::{self, Cap};

/// What a server asks the person: a form to fill in, or a URL to open.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation {
    /// Form mode: the fields to render, and the server's message.
    Form(FormModel),
    /// URL mode: a page to open in the browser, after the person consents.
    Url(UrlRequest),
}

/// A URL-mode request: what to show on the consent screen before anything is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    /// Why the server asks (show it with the server's name).
    pub message: String,
    /// The URL, exactly as sent: check it with [`UrlReport::assess`](crate::UrlReport::assess)
    /// before offering to open it.
    pub url: String,
    /// The server's id of this elicitation (2025-11-25 only; 2026-07-28 URL requests have
    /// none), for matching `notifications/elicitation/complete`.
    pub elicitation_id: Option<String>,
}

/// Why an incoming elicitation cannot be shown. Each is answered without asking the person:
/// a host replies with a JSON-RPC error (`-32602`) on 2025-11-25, or a `cancel` in the round.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The params (or the input request) are not a JSON object.
    NotAnObject,
    /// An input request of a round whose method is not `elicitation/create` (sampling, roots:
    /// not elicitations).
    NotAnElicitation {
        /// Its method.
        method: String,
    },
    /// A `mode` other than `form` and `url`.
    UnknownMode(String),
    /// A member the mode needs is missing or of the wrong type.
    Malformed {
        /// The member (`message`, `url`, `requestedSchema`, `elicitationId`).
        member: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The form's schema is outside the spec's restricted grammar (nested objects, `pattern`,
    /// `$ref`, a default that breaks its own constraints, …): never rendered.
    OutOfGrammar(SchemaError),
    /// The request is over one of the host's [`limits`](crate::limits) (its size, a text's
    /// length, a form's fields, a field's options): never parsed further.
    TooLarge(Cap),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::NotAnObject => f.write_str("the elicitation params are not an object"),
            RequestError::NotAnElicitation { method } => {
                write!(
                    f,
                    "the input request is `{}`, not an elicitation",
                    method.escape_debug()
                )
            }
            RequestError::UnknownMode(mode) => {
                write!(f, "unknown elicitation mode \"{}\"", mode.escape_debug())
            }
            RequestError::Malformed { member, problem } => write!(f, "`{member}` {problem}"),
            RequestError::OutOfGrammar(error) => {
                write!(
                    f,
                    "the form's schema is outside the elicitation grammar: {error}"
                )
            }
            RequestError::TooLarge(cap) => write!(f, "the request is too large: {cap}"),
        }
    }
}

impl std::error::Error for RequestError {}

impl Elicitation {
    /// Parses the params of an `elicitation/create` request (2025-11-25), or the `params` of
    /// an `elicitation/create` input request (2026-07-28). `_meta` and `task` are ignored;
    /// properties keep the order of `params` (document order when the host's `serde_json`
    /// keeps it, as rmcp's does: its `preserve_order` feature). A request over one of the
    /// host's [`limits`](crate::limits) is [`RequestError::TooLarge`].
    ///
    /// ```
    /// use elicit_host::{Elicitation, RequestError};
    /// use serde_json::json;
    ///
    /// let params = json!({
    ///     "mode": "form",
    ///     "message": "Where to?",
    ///     "requestedSchema": {
    ///         "type": "object",
    ///         "properties": {"city": {"type": "string", "title": "City", "minLength": 1}},
    ///         "required": ["city"]
    ///     }
    /// });
    /// let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
    /// assert_eq!(form.message(), "Where to?");
    /// assert_eq!(form.fields().next().unwrap().label(), "City");
    ///
    /// let nested = json!({"message": "?", "requestedSchema": {
    ///     "type": "object", "properties": {"address": {"type": "object"}}
    /// }});
    /// let error = Elicitation::from_params(&nested).unwrap_err();
    /// assert!(matches!(error, RequestError::OutOfGrammar(_)));
    /// # Ok::<(), RequestError>(())
    /// ```
    pub fn from_params(params: &Value) -> Result<Self, RequestError> {
        limits::check_request(params).map_err(RequestError::TooLarge)?;
        Self::parse(params)
    }

    /// [`from_params`](Self::from_params), once the request is within the size limits.
    fn parse(params: &Value) -> Result<Self, RequestError> {
        let Value::Object(params) = params else {
            return Err(RequestError::NotAnObject);
        };
        let message = string(params, "message")?.to_owned();
        match params.get("mode") {
            None | Some(Value::Null) => form(params, message),
            Some(Value::String(mode)) if mode == "form" => form(params, message),
            Some(Value::String(mode)) if mode == "url" => url(params, message),
            Some(Value::String(mode)) => Err(RequestError::UnknownMode(mode.clone())),
            Some(_) => Err(RequestError::Malformed {
                member: "mode",
                problem: "is not a string",
            }),
        }
    }

    /// Parses one entry of a 2026-07-28 round's `inputRequests` (`{"method", "params"}`).
    /// Parse each entry on its own: one the host cannot show is answered `cancel` under its
    /// key while the others are still asked. The host's [`limits`](crate::limits) apply to
    /// the entry.
    ///
    /// ```
    /// use elicit_host::{Elicitation, RequestError};
    /// use serde_json::json;
    ///
    /// let link = json!({"method": "elicitation/create", "params": {
    ///     "mode": "url", "message": "Connect GitHub", "url": "https://app.example.com/connect?e=1"
    /// }});
    /// let Elicitation::Url(url) = Elicitation::from_input_request(&link)? else { unreachable!() };
    /// assert_eq!(url.elicitation_id, None);
    ///
    /// let sampling = json!({"method": "sampling/createMessage", "params": {}});
    /// assert_eq!(
    ///     Elicitation::from_input_request(&sampling).unwrap_err().to_string(),
    ///     "the input request is `sampling/createMessage`, not an elicitation"
    /// );
    /// # Ok::<(), RequestError>(())
    /// ```
    pub fn from_input_request(request: &Value) -> Result<Self, RequestError> {
        limits::check_request(request).map_err(RequestError::TooLarge)?;
        let Value::Object(request) = request else {
            return Err(RequestError::NotAnObject);
        };
        let method = string(request, "method")?;
        if method != elicit_wire::METHOD_ELICITATION_CREATE {
            return Err(RequestError::NotAnElicitation {
                method: method.to_owned(),
            });
        }
        match request.get("params") {
            Some(params) => Self::parse(params),
            None => Err(RequestError::Malformed {
                member: "params",
                problem: "is missing",
            }),
        }
    }

    /// The server's message.
    pub fn message(&self) -> &str {
        match self {
            Elicitation::Form(form) => form.message(),
            Elicitation::Url(url) => &url.message,
        }
    }
}

fn string<'a>(
    params: &'a Map<String, Value>,
    member: &'static str,
) -> Result<&'a str, RequestError> {
    match params.get(member) {
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(RequestError::Malformed {
            member,
            problem: "is not a string",
        }),
        None => Err(RequestError::Malformed {
            member,
            problem: "is missing",
        }),
    }
}

fn form(params: &Map<String, Value>, message: String) -> Result<Elicitation, RequestError> {
    let Some(schema) = params.get("requestedSchema") else {
        return Err(RequestError::Malformed {
            member: "requestedSchema",
            problem: "is missing",
        });
    };
    limits::check_form(schema).map_err(RequestError::TooLarge)?;
    let (schema, title, description) = root_annotations(schema)?;
    let schema = RequestedSchema::from_value(&schema).map_err(RequestError::OutOfGrammar)?;
    Ok(Elicitation::Form(
        FormModel::new(message, schema).with_annotations(title, description),
    ))
}

/// A schema without its root annotations, its `title` and its `description`.
type Annotated<'a> = (Cow<'a, Value>, Option<String>, Option<String>);

/// The schema without its root `title` and `description`, and those two. The spec's schema
/// type lists neither, but the Python SDK sends a `title` on every form (its model's name)
/// and rmcp's own schema type carries both: they are words for the person and constrain
/// nothing, so a host keeps them rather than refuse every form such a server asks. Every
/// other key outside the grammar is still refused.
fn root_annotations(schema: &Value) -> Result<Annotated<'_>, RequestError> {
    let Value::Object(root) = schema else {
        return Ok((Cow::Borrowed(schema), None, None));
    };
    if !root.contains_key("title") && !root.contains_key("description") {
        return Ok((Cow::Borrowed(schema), None, None));
    }
    let mut root = root.clone();
    let mut take = |key: &str, member: &'static str| match root.remove(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(RequestError::Malformed {
            member,
            problem: "is not a string",
        }),
    };
    let title = take("title", "requestedSchema.title")?;
    let description = take("description", "requestedSchema.description")?;
    Ok((Cow::Owned(Value::Object(root)), title, description))
}

fn url(params: &Map<String, Value>, message: String) -> Result<Elicitation, RequestError> {
    let url = string(params, "url")?.to_owned();
    let elicitation_id = match params.get("elicitationId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => {
            return Err(RequestError::Malformed {
                member: "elicitationId",
                problem: "is not a string",
            });
        }
    };
    Ok(Elicitation::Url(UrlRequest {
        message,
        url,
        elicitation_id,
    }))
}
