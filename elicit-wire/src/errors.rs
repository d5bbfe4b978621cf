//! JSON-RPC error objects used around elicitation, and the error type of wire-level parsing.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::elicit::{ElicitMode, UrlParams};

/// JSON-RPC `-32700`: the message was not valid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC `-32600`: the message is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC `-32601`: no such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC `-32602`: the parameters are wrong (also used for a bad `requestState` and for a
/// 2026-07-28 request whose `_meta` lacks a required key).
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC `-32603`: the server failed internally.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP `MissingRequiredClientCapabilityError` (2026-07-28): processing needs a client capability
/// that the request's `_meta` did not declare. Sent with HTTP status 400.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// MCP `URLElicitationRequiredError` (2025-11-25 only; retired on 2026-07-28, where it must never
/// be emitted).
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// The `reason` put in the `data` of [`JsonRpcError::invalid_request_state`].
pub const REASON_INVALID_REQUEST_STATE: &str = "invalid_request_state";

/// The `reason` put in the `data` of [`JsonRpcError::state_store_unavailable`].
pub(crate) const REASON_STATE_STORE_UNAVAILABLE: &str = "state_store_unavailable";

/// The `error` member of a JSON-RPC error response: `{"code", "message", "data"?}`.
///
/// `data` is left out of the JSON when it is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JsonRpcError {
    /// The numeric error code (see the constants of this module).
    pub code: i64,
    /// A short human-readable description.
    pub message: String,
    /// Structured details, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl JsonRpcError {
    /// An error with any code, message and optional data.
    pub fn new(code: i64, message: impl Into<String>, data: Option<Value>) -> Self {
        Self {
            code,
            message: message.into(),
            data,
        }
    }

    /// `-32602` Invalid params, with an optional `data` payload.
    pub fn invalid_params(message: impl Into<String>, data: Option<Value>) -> Self {
        Self::new(INVALID_PARAMS, message, data)
    }

    /// `-32602` for a `requestState` that failed verification, expired, or belongs to another
    /// request: message `"Invalid or expired requestState"`, data
    /// `{"reason":"invalid_request_state"}`.
    ///
    /// The message and reason are the ones the Python and TypeScript SDKs send, so clients see
    /// the same error whichever server they talk to. Never say *why* the state was refused.
    pub fn invalid_request_state() -> Self {
        Self::invalid_params(
            "Invalid or expired requestState",
            Some(json!({ "reason": REASON_INVALID_REQUEST_STATE })),
        )
    }

    /// `-32603` for a `requestState` that passed every check but could not be redeemed because
    /// the replay guard's store (Redis) did not answer in time: message `"The requestState
    /// could not be checked right now; retry the request"`, data
    /// `{"reason":"state_store_unavailable"}`.
    ///
    /// Not a refusal of the state, so it says so: only a state that opened, for this request
    /// and principal, gets here, and the same retry succeeds once the store is back.
    ///
    /// ```
    /// use elicit_wire::JsonRpcError;
    ///
    /// let error = JsonRpcError::state_store_unavailable();
    /// assert_eq!(error.code, -32603);
    /// assert_eq!(error.data.unwrap()["reason"], "state_store_unavailable");
    /// ```
    pub fn state_store_unavailable() -> Self {
        Self::new(
            INTERNAL_ERROR,
            "The requestState could not be checked right now; retry the request",
            Some(json!({ "reason": REASON_STATE_STORE_UNAVAILABLE })),
        )
    }

    /// `-32021` MissingRequiredClientCapabilityError.
    ///
    /// `required` is the capability object the request lacked (a `ClientCapabilities`-shaped
    /// object such as `{"elicitation":{"url":{}}}`); it is sent as
    /// `data.requiredCapabilities`. The message names the top-level capabilities, and the
    /// elicitation mode when exactly one mode is asked for.
    pub fn missing_capability(required: Value) -> Self {
        let message = missing_capability_message(&required);
        Self::new(
            MISSING_REQUIRED_CLIENT_CAPABILITY,
            message,
            Some(json!({ "requiredCapabilities": required })),
        )
    }

    /// `-32021` for an elicitation of `mode` when the client did not declare that mode.
    ///
    /// `data.requiredCapabilities` is `{"elicitation":{"form":{}}}` or
    /// `{"elicitation":{"url":{}}}`.
    pub fn missing_elicitation_capability(mode: ElicitMode) -> Self {
        Self::missing_capability(mode.required_capability())
    }

    /// `-32042` URLElicitationRequiredError with `data` `{"elicitations":[…]}`.
    ///
    /// **2025-11-25 only.** On 2026-07-28 this code is retired and must never be sent; return an
    /// `InputRequiredResult` with a URL elicitation instead. Every entry must carry an
    /// `elicitationId` (checked by a debug assertion), i.e. be built with
    /// [`UrlParams::for_2025`].
    pub fn url_elicitation_required(elicitations: Vec<UrlParams>) -> Self {
        debug_assert!(
            elicitations.iter().all(|e| e.elicitation_id.is_some()),
            "every URL elicitation in a -32042 error needs an elicitationId"
        );
        let list: Vec<Value> = elicitations
            .iter()
            .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
            .collect();
        Self::new(
            URL_ELICITATION_REQUIRED,
            "The request cannot continue until the user completes a URL elicitation",
            Some(json!({ "elicitations": list })),
        )
    }

    /// The URL elicitations carried by a `-32042` error.
    ///
    /// Fails when the code is not [`URL_ELICITATION_REQUIRED`] or when `data.elicitations` is
    /// missing or not a list of URL-mode params.
    pub fn url_elicitations(&self) -> Result<Vec<UrlParams>, WireError> {
        if self.code != URL_ELICITATION_REQUIRED {
            return Err(WireError::invalid(
                "code",
                format!("expected {URL_ELICITATION_REQUIRED}, found {}", self.code),
            ));
        }
        let list = self
            .data
            .as_ref()
            .and_then(|d| d.get("elicitations"))
            .ok_or_else(|| WireError::missing("data.elicitations"))?;
        let Value::Array(items) = list else {
            return Err(WireError::invalid("data.elicitations", "expected an array"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                UrlParams::deserialize(item).map_err(|e| {
                    WireError::invalid(format!("data.elicitations[{i}]"), e.to_string())
                })
            })
            .collect()
    }
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for JsonRpcError {}

/// Builds the message of a `-32021` error from the capability object it reports.
fn missing_capability_message(required: &Value) -> String {
    let Some(map) = required.as_object().filter(|m| !m.is_empty()) else {
        return "Server requires a client capability that this request did not declare".to_owned();
    };
    // Named in name order, whatever order the `Value` keeps its keys in.
    let mut names: Vec<(&String, &Value)> = map.iter().collect();
    names.sort_by_key(|(name, _)| *name);
    let names: Vec<String> = names
        .into_iter()
        .map(
            |(name, value)| match (name.as_str(), elicitation_mode_of(value)) {
                ("elicitation", Some(mode)) => format!("elicitation capability ({mode} mode)"),
                _ => format!("{name} capability"),
            },
        )
        .collect();
    let list = match names.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    format!("Server requires the {list} for this request")
}

/// `Some("form")`/`Some("url")` when an elicitation capability object names exactly one mode.
fn elicitation_mode_of(value: &Value) -> Option<&'static str> {
    let map = value.as_object()?;
    match (map.contains_key("form"), map.contains_key("url")) {
        (true, false) => Some("form"),
        (false, true) => Some("url"),
        _ => None,
    }
}

/// A wire value that is absent or malformed, found while reading MCP params or results.
///
/// Every variant stands for a malformed client message, so it answers with `-32602` (see
/// [`WireError::to_json_rpc_error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireError {
    /// A required member is absent.
    Missing {
        /// Dotted path of the member, e.g. `_meta.io.modelcontextprotocol/protocolVersion`.
        field: String,
    },
    /// A member is present but has the wrong type or value.
    Invalid {
        /// Dotted path of the member.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl WireError {
    /// A [`WireError::Missing`] for `field`.
    pub fn missing(field: impl Into<String>) -> Self {
        Self::Missing {
            field: field.into(),
        }
    }

    /// A [`WireError::Invalid`] for `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The path of the member at fault.
    pub fn field(&self) -> &str {
        match self {
            Self::Missing { field } | Self::Invalid { field, .. } => field,
        }
    }

    /// The JSON-RPC error to answer with: always `-32602`, with `data` `{"field": …}`.
    pub fn to_json_rpc_error(&self) -> JsonRpcError {
        let mut data = Map::new();
        data.insert("field".to_owned(), Value::String(self.field().to_owned()));
        JsonRpcError::invalid_params(self.to_string(), Some(Value::Object(data)))
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { field } => write!(f, "missing required member `{field}`"),
            Self::Invalid { field, reason } => write!(f, "invalid member `{field}`: {reason}"),
        }
    }
}

impl std::error::Error for WireError {}

impl From<WireError> for JsonRpcError {
    fn from(err: WireError) -> Self {
        err.to_json_rpc_error()
    }
}
