//! Multi round-trip requests (2026-07-28): `InputRequiredResult` and the embedded requests it
//! carries (what a client sends back on its retry is in `retry.rs`).

use std::collections::BTreeMap;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::elicit::{ElicitParams, FormParams, METHOD_ELICITATION_CREATE, UrlParams};
use super::errors::WireError;
use crate::ordered::Ordered;

/// Method name of an embedded sampling request.
pub const METHOD_SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// Method name of an embedded roots request.
pub const METHOD_ROOTS_LIST: &str = "roots/list";
/// `tools/call`, which may answer with an [`InputRequiredResult`].
pub const METHOD_TOOLS_CALL: &str = "tools/call";
/// `prompts/get`, which may answer with an [`InputRequiredResult`].
pub const METHOD_PROMPTS_GET: &str = "prompts/get";
/// `resources/read`, which may answer with an [`InputRequiredResult`].
pub const METHOD_RESOURCES_READ: &str = "resources/read";
/// The only methods whose result may be an [`InputRequiredResult`].
pub const MRTR_METHODS: [&str; 3] = [METHOD_TOOLS_CALL, METHOD_PROMPTS_GET, METHOD_RESOURCES_READ];

/// `resultType` of a final result.
pub const RESULT_TYPE_COMPLETE: &str = "complete";
/// `resultType` of an [`InputRequiredResult`].
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";

/// A request embedded in `inputRequests`: `{"method", "params"?}` with no `jsonrpc` or `id`.
///
/// Parsing is keyed by `method`; a method this library does not model becomes
/// [`InputRequest::Other`] rather than an error.
#[derive(Debug, Clone, PartialEq)]
pub enum InputRequest {
    /// `elicitation/create`.
    Elicit(ElicitParams),
    /// `sampling/createMessage`, params kept raw.
    Sampling(Value),
    /// `roots/list`, with optional raw params.
    ListRoots(Option<Value>),
    /// Any other method.
    Other {
        /// The method name.
        method: String,
        /// The params, if present.
        params: Option<Value>,
    },
}

impl InputRequest {
    /// The method name this request is sent under.
    pub fn method(&self) -> &str {
        match self {
            Self::Elicit(_) => METHOD_ELICITATION_CREATE,
            Self::Sampling(_) => METHOD_SAMPLING_CREATE_MESSAGE,
            Self::ListRoots(_) => METHOD_ROOTS_LIST,
            Self::Other { method, .. } => method,
        }
    }

    /// The elicitation params, when this is an elicitation.
    pub fn as_elicit(&self) -> Option<&ElicitParams> {
        match self {
            Self::Elicit(p) => Some(p),
            _ => None,
        }
    }
}

impl InputRequest {
    /// The request as 2026-07-28 (and a task) shapes it: a URL elicitation without the
    /// 2025-11-25 `elicitationId`.
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn for_2026(mut self) -> Self {
        if let Self::Elicit(ElicitParams::Url(url)) = &mut self {
            url.elicitation_id = None;
        }
        self
    }
}

impl From<ElicitParams> for InputRequest {
    fn from(p: ElicitParams) -> Self {
        Self::Elicit(p)
    }
}

impl From<FormParams> for InputRequest {
    fn from(p: FormParams) -> Self {
        Self::Elicit(ElicitParams::Form(p))
    }
}

impl From<UrlParams> for InputRequest {
    fn from(p: UrlParams) -> Self {
        Self::Elicit(ElicitParams::Url(p))
    }
}

impl Serialize for InputRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let has_params = !matches!(
            self,
            Self::ListRoots(None) | Self::Other { params: None, .. }
        );
        let mut map = serializer.serialize_map(Some(1 + usize::from(has_params)))?;
        map.serialize_entry("method", self.method())?;
        match self {
            Self::Elicit(p) => map.serialize_entry("params", p)?,
            Self::Sampling(v)
            | Self::ListRoots(Some(v))
            | Self::Other {
                params: Some(v), ..
            } => map.serialize_entry("params", v)?,
            Self::ListRoots(None) | Self::Other { params: None, .. } => {}
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for InputRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_ordered(Ordered::deserialize(deserializer)?)
    }
}

impl InputRequest {
    /// Reads `method`, then parses the buffered `params` as that method's params.
    fn from_ordered<E: de::Error>(mut tree: Ordered) -> Result<Self, E> {
        if !matches!(tree, Ordered::Object(_)) {
            return Err(E::custom("an input request must be a JSON object"));
        }
        let method = match tree.take("method") {
            Some(Ordered::String(m)) => m,
            Some(_) => return Err(E::custom("input request `method` must be a string")),
            None => return Err(E::missing_field("method")),
        };
        let params = match tree.take("params") {
            None | Some(Ordered::Null) => None,
            Some(p) => Some(p),
        };
        Ok(match method.as_str() {
            METHOD_ELICITATION_CREATE => {
                let params = params.ok_or_else(|| E::missing_field("params"))?;
                Self::Elicit(ElicitParams::from_ordered(params)?)
            }
            METHOD_SAMPLING_CREATE_MESSAGE => {
                let params = params.ok_or_else(|| E::missing_field("params"))?;
                Self::Sampling(params.parse()?)
            }
            METHOD_ROOTS_LIST => Self::ListRoots(params.map(Ordered::parse).transpose()?),
            _ => Self::Other {
                params: params.map(Ordered::parse).transpose()?,
                method,
            },
        })
    }
}

/// The server's answer that it needs more input before it can finish a `tools/call`,
/// `prompts/get` or `resources/read`:
/// `{"resultType":"input_required", "inputRequests"?, "requestState"?, "_meta"?}`.
///
/// At least one of `inputRequests` and `requestState` is always present: the constructors
/// and deserialization both enforce it, which is why the fields are private.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequiredResult {
    input_requests: Option<BTreeMap<String, InputRequest>>,
    request_state: Option<String>,
    meta: Option<Map<String, Value>>,
}

impl InputRequiredResult {
    /// The `resultType` value of this result.
    pub const RESULT_TYPE: &'static str = RESULT_TYPE_INPUT_REQUIRED;

    /// A result asking for `input_requests` and/or carrying `request_state`.
    ///
    /// Fails when there is nothing to ask and no state: `input_requests` is `None` or empty
    /// and `request_state` is `None`. (An empty map is accepted by deserialization, as the
    /// schema allows it, but a server that builds one without state would make the client
    /// retry with nothing.)
    pub fn new(
        input_requests: Option<BTreeMap<String, InputRequest>>,
        request_state: Option<String>,
    ) -> Result<Self, WireError> {
        let has_requests = input_requests.as_ref().is_some_and(|m| !m.is_empty());
        if !has_requests && request_state.is_none() {
            return Err(WireError::missing("inputRequests|requestState"));
        }
        Ok(Self {
            input_requests,
            request_state,
            meta: None,
        })
    }

    /// A result carrying only `requestState`; the client may retry at once.
    pub fn state_only(request_state: impl Into<String>) -> Self {
        Self {
            input_requests: None,
            request_state: Some(request_state.into()),
            meta: None,
        }
    }

    /// Sets `_meta` (which should hold `io.modelcontextprotocol/serverInfo`).
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// `inputRequests`, keyed by the server's ids.
    pub fn input_requests(&self) -> Option<&BTreeMap<String, InputRequest>> {
        self.input_requests.as_ref()
    }

    /// `requestState`, opaque to the client.
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    /// `_meta`.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// `(inputRequests, requestState, _meta)`.
    #[allow(clippy::type_complexity)]
    pub fn into_parts(
        self,
    ) -> (
        Option<BTreeMap<String, InputRequest>>,
        Option<String>,
        Option<Map<String, Value>>,
    ) {
        (self.input_requests, self.request_state, self.meta)
    }
}

impl Serialize for InputRequiredResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = 1
            + usize::from(self.input_requests.is_some())
            + usize::from(self.request_state.is_some())
            + usize::from(self.meta.is_some());
        let mut s = serializer.serialize_struct("InputRequiredResult", len)?;
        s.serialize_field("resultType", RESULT_TYPE_INPUT_REQUIRED)?;
        if let Some(requests) = &self.input_requests {
            s.serialize_field("inputRequests", requests)?;
        }
        if let Some(state) = &self.request_state {
            s.serialize_field("requestState", state)?;
        }
        if let Some(meta) = &self.meta {
            s.serialize_field("_meta", meta)?;
        }
        s.end()
    }
}

/// Input shape of [`InputRequiredResult`]; the invariants are checked after parsing.
#[derive(Deserialize)]
struct InputRequiredResultIn {
    #[serde(rename = "resultType")]
    result_type: String,
    #[serde(rename = "inputRequests", default)]
    input_requests: Option<BTreeMap<String, InputRequest>>,
    #[serde(rename = "requestState", default)]
    request_state: Option<String>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl<'de> Deserialize<'de> for InputRequiredResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = InputRequiredResultIn::deserialize(deserializer)?;
        if raw.result_type != RESULT_TYPE_INPUT_REQUIRED {
            return Err(de::Error::custom(format_args!(
                "expected \"resultType\":\"input_required\", found {:?}",
                raw.result_type
            )));
        }
        if raw.input_requests.is_none() && raw.request_state.is_none() {
            return Err(de::Error::custom(
                "an input_required result needs inputRequests or requestState",
            ));
        }
        Ok(Self {
            input_requests: raw.input_requests,
            request_state: raw.request_state,
            meta: raw.meta,
        })
    }
}
