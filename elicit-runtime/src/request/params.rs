//! A request's params as a context is built from them: borrowed, owned, or already
//! taken apart by an SDK; and what each way reads of them.

use serde_json::{Map, Value};

use crate::wire::{RequestMeta, RetryFields, WireError};

/// A request's params taken apart, for an adapter whose SDK parsed the request already: a
/// context is built from them ([`ElicitServer::context`](crate::ElicitServer::context))
/// without assembling a params object first. Every member is as the client sent it; the
/// context validates them.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::request::RequestParts;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "my-server"));
/// let mut parts = RequestParts::new("book_table");
/// parts.meta = json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
/// }).as_object().cloned();
/// let cx = server.context("tools/call", parts).build().unwrap();
/// assert_eq!(cx.target(), "book_table");
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct RequestParts {
    /// The tool or prompt name, or for `resources/read` the resource URI.
    pub target: String,
    /// `arguments` (tools and prompts); ignored for `resources/read`.
    pub arguments: Option<Map<String, Value>>,
    /// `_meta`: the 2026-07-28 protocol version and client capabilities are read from it.
    pub meta: Option<Map<String, Value>>,
    /// `inputResponses`, each as the client sent it.
    pub input_responses: Option<Map<String, Value>>,
    /// `requestState`, as the client echoed it.
    pub request_state: Option<String>,
}

impl RequestParts {
    /// The parts of a request for `target` (a tool or prompt name, or a resource URI), with
    /// every other member absent.
    pub fn new(target: impl Into<String>) -> Self {
        RequestParts {
            target: target.into(),
            ..Self::default()
        }
    }
}

/// A request's params as [`ElicitServer::context`](crate::ElicitServer::context) takes them:
/// borrowed (`&Value`: the arguments and answers the context keeps are copied out), owned
/// (`Value`: moved out, for a caller done with them), or taken apart by an SDK that parsed the
/// request already ([`RequestParts`]). Every form is read by the same rules.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::request::RequestParts;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
/// let meta = json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
/// });
/// let params = json!({"name": "book_table", "arguments": {"guests": 2}, "_meta": meta});
///
/// let borrowed = server.context("tools/call", &params).build().unwrap();
/// let owned = server.context("tools/call", params.clone()).build().unwrap();
/// let mut parts = RequestParts::new("book_table");
/// parts.arguments = json!({"guests": 2}).as_object().cloned();
/// parts.meta = meta.as_object().cloned();
/// let taken_apart = server.context("tools/call", parts).build().unwrap();
/// for cx in [&borrowed, &owned, &taken_apart] {
///     assert_eq!((cx.target(), cx.arguments()), ("book_table", &json!({"guests": 2})));
/// }
/// ```
pub struct RequestParams<'a>(pub(super) Params<'a>);

impl std::fmt::Debug for RequestParams<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match &self.0 {
            Params::Borrowed(_) => "borrowed",
            Params::Owned(_) => "owned",
            Params::Parts(_) => "parts",
        };
        f.debug_tuple("RequestParams").field(&form).finish()
    }
}

impl<'a> From<&'a Value> for RequestParams<'a> {
    fn from(params: &'a Value) -> Self {
        RequestParams(Params::Borrowed(params))
    }
}

impl From<Value> for RequestParams<'_> {
    fn from(params: Value) -> Self {
        RequestParams(Params::Owned(params))
    }
}

impl From<RequestParts> for RequestParams<'_> {
    fn from(parts: RequestParts) -> Self {
        RequestParams(Params::Parts(Box::new(parts)))
    }
}

/// A request's params, in the form [`RequestParams`] got them.
pub(super) enum Params<'a> {
    Borrowed(&'a Value),
    Owned(Value),
    Parts(Box<RequestParts>),
}

impl Params<'_> {
    pub(super) fn meta(&self) -> Result<Option<RequestMeta>, WireError> {
        match self {
            Self::Borrowed(params) => RequestMeta::essentials_from_params(params),
            Self::Owned(params) => RequestMeta::essentials_from_params(params),
            Self::Parts(parts) => match &parts.meta {
                Some(meta) => RequestMeta::essentials_from_meta(meta),
                None => Ok(None),
            },
        }
    }

    /// What `requestState` is bound to: the tool or prompt name and arguments, or the URI.
    /// Arguments handed over owned are copied to their size (see [`fitted`]); borrowed ones
    /// are cloned, which sizes them already.
    pub(super) fn target_and_arguments(&mut self, method: &str) -> (String, Value) {
        let resource = method == "resources/read";
        let (target, arguments) = match self {
            Self::Borrowed(params) => (
                target_of(params, resource),
                params.get("arguments").cloned(),
            ),
            Self::Owned(params) => (
                target_of(params, resource),
                params.get_mut("arguments").map(Value::take).map(fitted),
            ),
            Self::Parts(parts) => (
                std::mem::take(&mut parts.target),
                parts.arguments.take().map(|a| fitted(Value::Object(a))),
            ),
        };
        let arguments = arguments
            .filter(|a| !resource && !a.is_null())
            .unwrap_or_else(|| Value::Object(Map::new()));
        (target, arguments)
    }

    pub(super) fn retry_fields(&mut self) -> Result<RetryFields, WireError> {
        match self {
            Self::Borrowed(params) => RetryFields::from_params(params),
            Self::Owned(params) => RetryFields::take_from(params),
            Self::Parts(parts) => Ok(RetryFields::from_parts(
                parts.input_responses.take(),
                parts.request_state.take(),
            )),
        }
    }
}

/// The tool or prompt name (`name`), or for `resources/read` the URI (`uri`).
fn target_of(params: &Value, resource: bool) -> String {
    let key = if resource { "uri" } else { "name" };
    params
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// An object copied into one allocated to its size. The context keeps a call's arguments for
/// the whole call (a held URL-mode retry, for minutes), and a parsed object keeps the capacity
/// its parser grew it to: four entries for one argument, about 230 bytes for nothing.
fn fitted(arguments: Value) -> Value {
    match arguments {
        Value::Object(map) if !map.is_empty() => {
            let mut fitted = Map::with_capacity(map.len());
            fitted.extend(map);
            Value::Object(fitted)
        }
        other => other,
    }
}
