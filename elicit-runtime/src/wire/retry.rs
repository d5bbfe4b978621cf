//! What a client sends back on a 2026-07-28 retry: the `inputResponses` answering the
//! embedded requests of an `InputRequiredResult`, and the `requestState` it echoes.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// Classifies a raw `inputResponses` value (never fails).
    pub fn from_value(value: Value) -> Self {
        match Kind::of(&value) {
            Kind::Elicit => match ElicitResult::take(value) {
                Ok(result) => Self::Elicit(result),
                Err((raw, e)) => Self::Malformed {
                    error: format!("invalid elicitation result: {e}"),
                    raw,
                },
            },
            kind => kind.wrap(value),
        }
    }

    /// Classifies a raw `inputResponses` value without taking it (never fails): an
    /// elicitation result is read from the borrowed value, so only its content is copied.
    pub fn from_ref(value: &Value) -> Self {
        match Kind::of(value) {
            Kind::Elicit => match ElicitResult::deserialize(value) {
                Ok(result) => Self::Elicit(result),
                Err(e) => Self::Malformed {
                    error: format!("invalid elicitation result: {e}"),
                    raw: value.clone(),
                },
            },
            kind => kind.wrap(value.clone()),
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

/// The shape of a raw `inputResponses` value, told by its keys alone.
enum Kind {
    NotObject,
    Elicit,
    Roots,
    BadRoots,
    Sampling,
    Unknown,
}

impl Kind {
    fn of(value: &Value) -> Self {
        let Value::Object(map) = value else {
            return Self::NotObject;
        };
        if map.contains_key("action") {
            Self::Elicit
        } else if let Some(roots) = map.get("roots") {
            if roots.is_array() {
                Self::Roots
            } else {
                Self::BadRoots
            }
        } else if ["role", "content", "model"]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            Self::Sampling
        } else {
            Self::Unknown
        }
    }

    /// `value` as the response of this kind (not [`Kind::Elicit`], which is parsed).
    fn wrap(self, value: Value) -> InputResponse {
        let malformed = |raw, error: &str| InputResponse::Malformed {
            raw,
            error: error.to_owned(),
        };
        match self {
            Self::NotObject => malformed(value, "an input response must be a JSON object"),
            Self::BadRoots => malformed(value, "invalid roots result: `roots` must be an array"),
            Self::Roots => InputResponse::Roots(value),
            Self::Sampling => InputResponse::Sampling(value),
            Self::Elicit | Self::Unknown => InputResponse::Unknown(value),
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
        let params = match params {
            Value::Null => return Ok(Self::default()),
            Value::Object(map) => map,
            _ => return Err(WireError::invalid("params", "expected a JSON object")),
        };
        let input_responses = match params.get("inputResponses") {
            None | Some(Value::Null) => None,
            Some(Value::Object(map)) => Some(
                map.iter()
                    .map(|(k, v)| (k.clone(), InputResponse::from_ref(v)))
                    .collect(),
            ),
            Some(_) => {
                return Err(WireError::invalid(
                    "inputResponses",
                    "expected a JSON object",
                ));
            }
        };
        let request_state = match params.get("requestState") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(WireError::invalid("requestState", "expected a string")),
        };
        Ok(Self {
            input_responses,
            request_state,
        })
    }

    /// Like [`RetryFields::from_params`], but removes both members from `params`, moving them
    /// rather than copying them, so the rest can be parsed as an ordinary request. On error
    /// `params` is left as it was.
    ///
    /// ```
    /// use elicit_runtime::wire::RetryFields;
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
        let map = match params {
            Value::Null => return Ok(Self::default()),
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
        let mut take = |key: &str| map.remove(key);
        let input_responses = match take("inputResponses") {
            Some(Value::Object(responses)) => Some(
                responses
                    .into_iter()
                    .map(|(k, v)| (k, InputResponse::from_value(v)))
                    .collect(),
            ),
            _ => None,
        };
        let request_state = match take("requestState") {
            Some(Value::String(state)) => Some(state),
            _ => None,
        };
        Ok(Self {
            input_responses,
            request_state,
        })
    }

    /// Whether this request is a retry (either member present).
    pub fn is_retry(&self) -> bool {
        self.input_responses.is_some() || self.request_state.is_some()
    }
}
