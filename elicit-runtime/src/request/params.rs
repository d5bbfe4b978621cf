//! A request's params as a context is built from them: borrowed, owned, or (for the rmcp
//! adapter) already taken apart; and what each way reads of them.

use serde_json::{Map, Value};

#[cfg(feature = "rmcp")]
use super::ContextBuilder;
#[cfg(feature = "rmcp")]
use crate::server::ElicitServer;
use crate::wire::{RequestMeta, RetryFields, WireError};

/// The parts of a request's params, for an adapter that parsed the request already (rmcp's
/// typed params): a context is built from them without assembling a params object first.
#[cfg(feature = "rmcp")]
pub(crate) struct RequestParts {
    /// The tool or prompt name, or the resource URI.
    pub target: String,
    pub arguments: Option<Map<String, Value>>,
    pub meta: Option<Map<String, Value>>,
    /// `inputResponses`, each as the client sent it.
    pub input_responses: Option<Map<String, Value>>,
    pub request_state: Option<String>,
}

#[cfg(feature = "rmcp")]
impl ElicitServer {
    /// Like [`ElicitServer::context_owned`], from the params' parts.
    pub(crate) fn context_from_parts<'a>(
        &'a self,
        method: &'a str,
        parts: RequestParts,
    ) -> ContextBuilder<'a> {
        ContextBuilder::new(self, method, Params::Parts(Box::new(parts)))
    }
}

/// A request's params, as [`ElicitServer::context`], [`ElicitServer::context_owned`] or (for
/// the rmcp adapter) `ElicitServer::context_from_parts` got them.
pub(super) enum Params<'a> {
    Borrowed(&'a Value),
    Owned(Value),
    #[cfg(feature = "rmcp")]
    Parts(Box<RequestParts>),
}

impl Params<'_> {
    pub(super) fn meta(&self) -> Result<Option<RequestMeta>, WireError> {
        match self {
            Self::Borrowed(params) => RequestMeta::essentials_from_params(params),
            Self::Owned(params) => RequestMeta::essentials_from_params(params),
            #[cfg(feature = "rmcp")]
            Self::Parts(parts) => match &parts.meta {
                Some(meta) => RequestMeta::essentials_from_meta(meta),
                None => Ok(None),
            },
        }
    }

    /// What `requestState` is bound to: the tool or prompt name and arguments, or the URI.
    pub(super) fn target_and_arguments(&mut self, method: &str) -> (String, Value) {
        let resource = method == "resources/read";
        let (target, arguments) = match self {
            Self::Borrowed(params) => (
                target_of(params, resource),
                params.get("arguments").cloned(),
            ),
            Self::Owned(params) => (
                target_of(params, resource),
                params.get_mut("arguments").map(Value::take),
            ),
            #[cfg(feature = "rmcp")]
            Self::Parts(parts) => (
                std::mem::take(&mut parts.target),
                parts.arguments.take().map(Value::Object),
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
            #[cfg(feature = "rmcp")]
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
