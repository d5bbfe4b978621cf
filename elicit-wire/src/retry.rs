//! What a client sends back on a 2026-07-28 retry: the `inputResponses` answering the
//! embedded requests of an `InputRequiredResult`, and the `requestState` it echoes.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::elicit::ElicitResult;
use super::errors::WireError;

/// One value of `inputResponses`: the bare result of the embedded request with the same key.
///
/// The variant is chosen by shape, never by failing: an object with `action` is an
/// elicitation result, one with `roots` a roots result, one with `role`, `content` or
/// `model` a sampling result, any other object [`InputResponse::Unknown`]. A value that
/// looks like one kind but does not parse, or is not an object at all, is
/// [`InputResponse::Malformed`], so one bad entry can be reported on its own.
#[derive(Debug, Clone, PartialEq)]
pub enum InputResponse {
    /// `{"action", "content"?}`.
    Elicit(ElicitResult),
    /// A `CreateMessageResult`, kept raw.
    Sampling(Value),
    /// A `ListRootsResult` (`{"roots":[…]}`), kept raw.
    Roots(Value),
    /// An object of no known shape.
    Unknown(Value),
    /// A value that could not be read.
    Malformed {
        /// The value as received.
        raw: Value,
        /// Why it was refused.
        error: String,
    },
}

impl InputResponse {
    /// Classifies a raw `inputResponses` value (never fails). An elicitation result's content
    /// is moved out of `value`, not copied.
    pub fn from_value(value: Value) -> Self {
        let malformed = |raw, error: &str| Self::Malformed {
            raw,
            error: error.to_owned(),
        };
        let Value::Object(map) = &value else {
            return malformed(value, "an input response must be a JSON object");
        };
        if map.contains_key("action") {
            match ElicitResult::take(value) {
                Ok(result) => Self::Elicit(result),
                Err((raw, e)) => malformed(raw, &format!("invalid elicitation result: {e}")),
            }
        } else if let Some(roots) = map.get("roots") {
            if roots.is_array() {
                Self::Roots(value)
            } else {
                malformed(value, "invalid roots result: `roots` must be an array")
            }
        } else if ["role", "content", "model"]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            Self::Sampling(value)
        } else {
            Self::Unknown(value)
        }
    }

    /// The response as JSON again: what the client sent, except that an elicitation result
    /// is written as its typed fields (unknown members dropped).
    ///
    /// ```
    /// use elicit_wire::InputResponse;
    /// use serde_json::json;
    ///
    /// let sent = json!({"action": "accept", "content": {"sure": true}});
    /// assert_eq!(InputResponse::from_value(sent.clone()).into_value(), sent);
    /// assert_eq!(InputResponse::from_value(json!(7)).into_value(), json!(7));
    /// ```
    pub fn into_value(self) -> Value {
        match self {
            // Its fields are a string, and objects with string keys: nothing fails.
            Self::Elicit(result) => serde_json::to_value(result).unwrap_or(Value::Null),
            Self::Sampling(v) | Self::Roots(v) | Self::Unknown(v) => v,
            Self::Malformed { raw, .. } => raw,
        }
    }

    /// The elicitation result, when this is one.
    pub fn as_elicit(&self) -> Option<&ElicitResult> {
        match self {
            Self::Elicit(r) => Some(r),
            _ => None,
        }
    }

    /// The parse error, when this entry is malformed.
    pub fn malformed_error(&self) -> Option<&str> {
        match self {
            Self::Malformed { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<ElicitResult> for InputResponse {
    fn from(r: ElicitResult) -> Self {
        Self::Elicit(r)
    }
}

impl Serialize for InputResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Elicit(r) => r.serialize(serializer),
            Self::Sampling(v) | Self::Roots(v) | Self::Unknown(v) => v.serialize(serializer),
            Self::Malformed { raw, .. } => raw.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for InputResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Self::from_value)
    }
}

/// The `inputResponses` map of a retry, keyed like the `inputRequests` it answers.
///
/// Deserialization fails only when the whole value is not an object; each entry is
/// classified on its own (see [`InputResponse`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InputResponses(BTreeMap<String, InputResponse>);

impl InputResponses {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces the answer under `key`.
    pub fn insert(&mut self, key: impl Into<String>, response: impl Into<InputResponse>) {
        self.0.insert(key.into(), response.into());
    }

    /// The answer under `key`.
    pub fn get(&self, key: &str) -> Option<&InputResponse> {
        self.0.get(key)
    }

    /// The elicitation result under `key`, if that entry is one.
    pub fn elicit(&self, key: &str) -> Option<&ElicitResult> {
        self.get(key).and_then(InputResponse::as_elicit)
    }

    /// `(key, error)` of every malformed entry.
    pub fn malformed(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0
            .iter()
            .filter_map(|(k, v)| v.malformed_error().map(|e| (k.as_str(), e)))
    }

    /// All entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &InputResponse)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The underlying map.
    pub fn into_inner(self) -> BTreeMap<String, InputResponse> {
        self.0
    }
}

impl From<BTreeMap<String, InputResponse>> for InputResponses {
    fn from(map: BTreeMap<String, InputResponse>) -> Self {
        Self(map)
    }
}

impl FromIterator<(String, InputResponse)> for InputResponses {
    fn from_iter<I: IntoIterator<Item = (String, InputResponse)>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl Serialize for InputResponses {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for InputResponses {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(map) => Ok(map
                .into_iter()
                .map(|(k, v)| (k, InputResponse::from_value(v)))
                .collect()),
            _ => Err(de::Error::custom("`inputResponses` must be a JSON object")),
        }
    }
}

/// The retry members of `tools/call`, `prompts/get` and `resources/read` params:
/// `inputResponses` and `requestState`, read from the top level of `params` (not `_meta`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RetryFields {
    /// `inputResponses`.
    #[serde(
        rename = "inputResponses",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub input_responses: Option<InputResponses>,
    /// `requestState`, exactly as the server sent it.
    #[serde(
        rename = "requestState",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub request_state: Option<String>,
}

impl RetryFields {
    /// Reads the retry members of a request's `params`.
    ///
    /// Null or absent members count as absent. Fails (answer `-32602`) when `params` is
    /// neither null nor an object, when `inputResponses` is not an object, or when
    /// `requestState` is not a string. Individual malformed responses do not fail; see
    /// [`InputResponses::malformed`].
    pub fn from_params(params: &Value) -> Result<Self, WireError> {
        Ok(match checked(params)? {
            Some(map) => Self::from_members(
                map.get("inputResponses").cloned(),
                map.get("requestState").cloned(),
            ),
            None => Self::default(),
        })
    }

    /// Like [`RetryFields::from_params`], but removes both members from `params`, moving them
    /// rather than copying them, so the rest can be parsed as an ordinary request. On error
    /// `params` is left as it was.
    ///
    /// ```
    /// use elicit_wire::RetryFields;
    /// use serde_json::json;
    ///
    /// let mut params = json!({
    ///     "name": "book_table",
    ///     "inputResponses": {"booking": {"action": "decline"}},
    ///     "requestState": "opaque"
    /// });
    /// let retry = RetryFields::take_from(&mut params).unwrap();
    /// assert_eq!(retry.request_state.as_deref(), Some("opaque"));
    /// assert_eq!(retry.input_responses.unwrap().len(), 1);
    /// assert_eq!(params, json!({"name": "book_table"}));
    /// ```
    pub fn take_from(params: &mut Value) -> Result<Self, WireError> {
        checked(params)?;
        Ok(match params {
            Value::Object(map) => {
                Self::from_members(map.remove("inputResponses"), map.remove("requestState"))
            }
            _ => Self::default(),
        })
    }

    /// The retry fields from the two members as [`checked`] let them through (`null` counts
    /// as absent).
    fn from_members(input_responses: Option<Value>, request_state: Option<Value>) -> Self {
        let object = |v| match v {
            Some(Value::Object(map)) => Some(map),
            _ => None,
        };
        let string = |v| match v {
            Some(Value::String(s)) => Some(s),
            _ => None,
        };
        Self::from_parts(object(input_responses), string(request_state))
    }

    /// The retry fields from `inputResponses` (each entry as the client sent it) and
    /// `requestState`, for an adapter that parsed the request already.
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn from_parts(
        input_responses: Option<Map<String, Value>>,
        request_state: Option<String>,
    ) -> Self {
        Self {
            input_responses: input_responses.map(|responses| {
                responses
                    .into_iter()
                    .map(|(k, v)| (k, InputResponse::from_value(v)))
                    .collect()
            }),
            request_state,
        }
    }

    /// Whether this request is a retry (either member present).
    pub fn is_retry(&self) -> bool {
        self.input_responses.is_some() || self.request_state.is_some()
    }
}

/// `params` as an object whose retry members have the types the spec gives them (`None` for
/// null params); otherwise the `-32602` error naming the member.
fn checked(params: &Value) -> Result<Option<&Map<String, Value>>, WireError> {
    let map = match params {
        Value::Null => return Ok(None),
        Value::Object(map) => map,
        _ => return Err(WireError::invalid("params", "expected a JSON object")),
    };
    if map
        .get("inputResponses")
        .is_some_and(|v| !v.is_null() && !v.is_object())
    {
        return Err(WireError::invalid(
            "inputResponses",
            "expected a JSON object",
        ));
    }
    if map
        .get("requestState")
        .is_some_and(|v| !v.is_null() && !v.is_string())
    {
        return Err(WireError::invalid("requestState", "expected a string"));
    }
    Ok(Some(map))
}
