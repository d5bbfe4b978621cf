//! `elicitation/create` params and `ElicitResult`, shared by both protocol revisions, plus the
//! 2025-11-25 completion notification.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::ordered::Ordered;

/// The JSON of a form's `requestedSchema`.
pub type SchemaJson = crate::schema::RequestedSchema;

/// Method name of the elicitation request (a pushed request on 2025-11-25, an entry of
/// `inputRequests` on 2026-07-28).
pub const METHOD_ELICITATION_CREATE: &str = "elicitation/create";
/// Method name of the URL-elicitation completion notification (2025-11-25 only).
pub const METHOD_ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// The two elicitation modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitMode {
    /// In-band form described by a `requestedSchema`.
    Form,
    /// Out-of-band interaction at a URL opened by the user.
    Url,
}

impl ElicitMode {
    /// The wire spelling: `"form"` or `"url"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Form => "form",
            Self::Url => "url",
        }
    }

    /// The client capability a request of this mode needs, as a `ClientCapabilities` object:
    /// `{"elicitation":{"form":{}}}` or `{"elicitation":{"url":{}}}`.
    pub fn required_capability(self) -> Value {
        json!({ "elicitation": { self.as_str(): {} } })
    }
}

impl fmt::Display for ElicitMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted (form mode) or agreed to open the URL (URL mode).
    Accept,
    /// The user explicitly refused.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

impl ElicitAction {
    /// The wire spelling: `"accept"`, `"decline"` or `"cancel"`.
    ///
    /// ```
    /// use elicit_wire::ElicitAction;
    /// assert_eq!(ElicitAction::Decline.as_str(), "decline");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accept => "accept",
            Self::Decline => "decline",
            Self::Cancel => "cancel",
        }
    }

    /// The action spelled `text` on the wire, if any.
    ///
    /// ```
    /// use elicit_wire::ElicitAction;
    /// assert_eq!(ElicitAction::from_wire("cancel"), Some(ElicitAction::Cancel));
    /// assert_eq!(ElicitAction::from_wire("Accept"), None);
    /// ```
    pub fn from_wire(text: &str) -> Option<Self> {
        match text {
            "accept" => Some(Self::Accept),
            "decline" => Some(Self::Decline),
            "cancel" => Some(Self::Cancel),
            _ => None,
        }
    }
}

/// The result of an elicitation: `{"action", "content"?, "_meta"?}`.
///
/// `content` is kept as raw JSON; checking it against the form's schema happens elsewhere.
/// It is normally present only for a form-mode `accept`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted form values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// Result metadata (`_meta`), allowed on 2025-11-25.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ElicitResult {
    /// Reads a result from a raw value, moving its content out rather than copying it. The
    /// usual shape (`action` one of the three, `content` and `_meta` objects if present,
    /// nothing else) is taken apart in place; anything else is read by serde, which says what
    /// is wrong, and on error the value comes back with it.
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn take(value: Value) -> Result<Self, (Value, serde_json::Error)> {
        let Value::Object(mut map) = value else {
            return Self::deserialize(&value).map_err(|e| (value, e));
        };
        let action = map
            .get("action")
            .and_then(Value::as_str)
            .and_then(ElicitAction::from_wire);
        let plain = map.iter().all(|(k, v)| match k.as_str() {
            "action" => true,
            "content" | "_meta" => v.is_object(),
            _ => false,
        });
        match action {
            Some(action) if plain => {
                let mut object = |key: &str| match map.remove(key) {
                    Some(Value::Object(inner)) => Some(inner),
                    _ => None,
                };
                Ok(Self {
                    action,
                    content: object("content"),
                    meta: object("_meta"),
                })
            }
            _ => {
                let value = Value::Object(map);
                Self::deserialize(&value).map_err(|e| (value, e))
            }
        }
    }

    /// An `accept` carrying form `content`.
    pub fn accept(content: Map<String, Value>) -> Self {
        Self {
            action: ElicitAction::Accept,
            content: Some(content),
            meta: None,
        }
    }

    /// An `accept` without content (the URL-mode answer).
    pub fn accept_empty() -> Self {
        Self::bare(ElicitAction::Accept)
    }

    /// A `decline`.
    pub fn decline() -> Self {
        Self::bare(ElicitAction::Decline)
    }

    /// A `cancel`.
    pub fn cancel() -> Self {
        Self::bare(ElicitAction::Cancel)
    }

    fn bare(action: ElicitAction) -> Self {
        Self {
            action,
            content: None,
            meta: None,
        }
    }
}

/// The `mode` tag of form params; its only value is `"form"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum FormMode {
    /// `"form"`.
    #[default]
    #[serde(rename = "form")]
    Form,
}

/// Form-mode params: `{"mode":"form", "message", "requestedSchema"}`.
///
/// `mode` may be absent on input (a missing mode means form); [`FormParams::new`] always sets
/// it so the JSON we send says `"mode":"form"` explicitly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormParams {
    /// `Some(FormMode::Form)` when the JSON carries `"mode":"form"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    /// Why the server asks, shown to the user.
    pub message: String,
    /// The restricted schema of the form: borrowed when it is a form's own (`'static`) schema,
    /// so asking does not copy it.
    #[serde(rename = "requestedSchema")]
    pub requested_schema: Cow<'static, SchemaJson>,
}

impl FormParams {
    /// Form params with an explicit `"mode":"form"`, over an owned schema or a form's own
    /// `&'static` one.
    ///
    /// ```
    /// use elicit_wire::FormParams;
    /// use elicit_wire::schema::RequestedSchema;
    /// use serde_json::json;
    ///
    /// // A form's own schema is `&'static` (what `#[derive(ElicitForm)]` returns).
    /// let schema: &'static RequestedSchema = Box::leak(Box::new(serde_json::from_value(json!({
    ///     "type": "object",
    ///     "properties": {"count": {"type": "integer", "minimum": 0, "maximum": 255}},
    ///     "required": ["count"]
    /// }))?));
    ///
    /// let borrowed = FormParams::new("How many?", schema);
    /// let owned = FormParams::new("How many?", schema.clone());
    /// assert_eq!(borrowed, owned);
    /// assert_eq!(serde_json::to_value(&borrowed)?["mode"], "form");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn new(
        message: impl Into<String>,
        requested_schema: impl Into<Cow<'static, SchemaJson>>,
    ) -> Self {
        Self {
            mode: Some(FormMode::Form),
            message: message.into(),
            requested_schema: requested_schema.into(),
        }
    }
}

/// URL-mode params: `{"mode":"url", "elicitationId"?, "url", "message"}`.
///
/// `elicitationId` is required on 2025-11-25 and does not exist on 2026-07-28; use
/// [`UrlParams::for_2025`] or [`UrlParams::for_2026`] to get the right shape. Input must carry
/// `"mode":"url"`, a `url` and a `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParams {
    /// Why the server asks, shown to the user.
    pub message: String,
    /// The URL the user is asked to open.
    pub url: String,
    /// The server's opaque id of this elicitation (2025-11-25 only).
    pub elicitation_id: Option<String>,
}

impl UrlParams {
    /// The 2026-07-28 shape, without `elicitationId`.
    pub fn for_2026(message: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            elicitation_id: None,
        }
    }

    /// The 2025-11-25 shape, with its required `elicitationId`.
    pub fn for_2025(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            elicitation_id: Some(elicitation_id.into()),
        }
    }
}

impl Serialize for UrlParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = if self.elicitation_id.is_some() { 4 } else { 3 };
        let mut s = serializer.serialize_struct("UrlParams", len)?;
        s.serialize_field("mode", "url")?;
        if let Some(id) = &self.elicitation_id {
            s.serialize_field("elicitationId", id)?;
        }
        s.serialize_field("url", &self.url)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}

/// Input shape of [`UrlParams`]; `mode` is checked after parsing.
#[derive(Deserialize)]
struct UrlParamsIn {
    mode: String,
    message: String,
    url: String,
    #[serde(rename = "elicitationId", default)]
    elicitation_id: Option<String>,
}

impl<'de> Deserialize<'de> for UrlParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = UrlParamsIn::deserialize(deserializer)?;
        if raw.mode != "url" {
            return Err(de::Error::custom(format_args!(
                "URL elicitation params need \"mode\":\"url\", found {:?}",
                raw.mode
            )));
        }
        Ok(Self {
            message: raw.message,
            url: raw.url,
            elicitation_id: raw.elicitation_id,
        })
    }
}

/// The params of an elicitation, either mode.
///
/// On input the variant is chosen by `mode`: `"url"` → [`ElicitParams::Url`]; `"form"` or no
/// `mode` → [`ElicitParams::Form`]; anything else is refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitParams {
    /// Form mode.
    Form(FormParams),
    /// URL mode.
    Url(UrlParams),
}

impl ElicitParams {
    /// The mode of these params.
    pub fn mode(&self) -> ElicitMode {
        match self {
            Self::Form(_) => ElicitMode::Form,
            Self::Url(_) => ElicitMode::Url,
        }
    }

    /// The message shown to the user.
    pub fn message(&self) -> &str {
        match self {
            Self::Form(p) => &p.message,
            Self::Url(p) => &p.message,
        }
    }
}

impl From<FormParams> for ElicitParams {
    fn from(p: FormParams) -> Self {
        Self::Form(p)
    }
}

impl From<UrlParams> for ElicitParams {
    fn from(p: UrlParams) -> Self {
        Self::Url(p)
    }
}

impl Serialize for ElicitParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Form(p) => p.serialize(serializer),
            Self::Url(p) => p.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ElicitParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_ordered(Ordered::deserialize(deserializer)?)
    }
}

impl ElicitParams {
    /// Picks the variant by `mode` and parses the buffered params as that variant.
    pub(super) fn from_ordered<E: de::Error>(tree: Ordered) -> Result<Self, E> {
        if !matches!(tree, Ordered::Object(_)) {
            return Err(E::custom("elicitation params must be a JSON object"));
        }
        let mode = match tree.get("mode") {
            None | Some(Ordered::Null) => ElicitMode::Form,
            Some(Ordered::String(s)) if s == "form" => ElicitMode::Form,
            Some(Ordered::String(s)) if s == "url" => ElicitMode::Url,
            Some(Ordered::String(s)) => {
                return Err(E::custom(format_args!("unknown elicitation mode {s:?}")));
            }
            Some(_) => return Err(E::custom("elicitation `mode` must be a string")),
        };
        match mode {
            ElicitMode::Form => tree
                .parse::<FormParams, E>()
                .map(Self::Form)
                .map_err(|e| E::custom(format_args!("invalid form elicitation params: {e}"))),
            ElicitMode::Url => tree
                .parse::<UrlParams, E>()
                .map(Self::Url)
                .map_err(|e| E::custom(format_args!("invalid URL elicitation params: {e}"))),
        }
    }
}

/// The full params of a pushed 2025-11-25 `elicitation/create` request: the elicitation
/// itself plus the optional `_meta` and `task` (experimental 2025-11-25 tasks) members.
///
/// 2026-07-28 embedded requests carry neither; use [`ElicitParams`] there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElicitRequestParams {
    /// The elicitation.
    #[serde(flatten)]
    pub elicit: ElicitParams,
    /// Request metadata such as `progressToken`.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Task augmentation (`TaskMetadata`), kept raw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<Value>,
}

impl From<ElicitParams> for ElicitRequestParams {
    fn from(elicit: ElicitParams) -> Self {
        Self {
            elicit,
            meta: None,
            task: None,
        }
    }
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut tree = Ordered::deserialize(deserializer)?;
        if !matches!(tree, Ordered::Object(_)) {
            return Err(de::Error::custom(
                "elicitation params must be a JSON object",
            ));
        }
        let meta = match tree.take("_meta") {
            None => None,
            Some(meta) => meta
                .parse::<Option<Map<String, Value>>, D::Error>()
                .map_err(|e| de::Error::custom(format_args!("invalid `_meta`: {e}")))?,
        };
        let task = match tree.take("task") {
            None | Some(Ordered::Null) => None,
            Some(task) => Some(task.parse::<Value, D::Error>()?),
        };
        let elicit = ElicitParams::from_ordered(tree)?;
        Ok(Self { elicit, meta, task })
    }
}

/// Params of `notifications/elicitation/complete`: `{"elicitationId"}` (2025-11-25 only).
///
/// Tells the client that the out-of-band step of a URL elicitation has finished. It does not
/// exist on 2026-07-28.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElicitationCompleteNotification {
    /// The id given in the original URL elicitation.
    #[serde(rename = "elicitationId")]
    pub elicitation_id: String,
}

impl ElicitationCompleteNotification {
    /// The notification's method name.
    pub const METHOD: &'static str = METHOD_ELICITATION_COMPLETE;

    /// Params for the elicitation with this id.
    pub fn new(elicitation_id: impl Into<String>) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
        }
    }

    /// The complete JSON-RPC notification message:
    /// `{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{…}}`.
    pub fn to_message(&self) -> Value {
        json!({
            "jsonrpc": "2.0",
            "method": Self::METHOD,
            "params": { "elicitationId": self.elicitation_id },
        })
    }
}
