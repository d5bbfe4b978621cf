//! Client capabilities as far as elicitation cares: which modes the client can show, plus
//! sampling and roots for the other kinds of embedded request.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::elicit::ElicitMode;

/// A client's `capabilities` (2025-11-25 `initialize`) or
/// `_meta["io.modelcontextprotocol/clientCapabilities"]` (2026-07-28).
///
/// Members this library does not interpret are kept in [`ClientCapabilities::other`] and
/// written back unchanged.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// `elicitation`: present when the client can show elicitations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// `sampling`, kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Value>,
    /// `roots`, kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Value>,
    /// Every other member (`experimental`, `tasks`, `extensions`, …).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl ClientCapabilities {
    /// Whether the client declared elicitation in `mode`.
    pub fn supports(&self, mode: ElicitMode) -> bool {
        self.elicitation.as_ref().is_some_and(|e| e.supports(mode))
    }

    /// Whether the client declared `sampling`.
    pub fn supports_sampling(&self) -> bool {
        self.sampling.is_some()
    }

    /// Whether the client declared `roots`.
    pub fn supports_roots(&self) -> bool {
        self.roots.is_some()
    }

    /// Whether the client declared the tasks extension ([`TASKS_EXTENSION`], SEP-2663): an
    /// object under that name in `extensions`. Only then may a `tools/call` answer with a task.
    ///
    /// ```
    /// use elicit_wire::ClientCapabilities;
    /// use serde_json::json;
    ///
    /// let declared: ClientCapabilities = serde_json::from_value(json!({
    ///     "extensions": {"io.modelcontextprotocol/tasks": {}}
    /// })).unwrap();
    /// assert!(declared.supports_tasks());
    /// assert!(!ClientCapabilities::default().supports_tasks());
    /// let not_an_object: ClientCapabilities = serde_json::from_value(json!({
    ///     "extensions": {"io.modelcontextprotocol/tasks": true}
    /// })).unwrap();
    /// assert!(!not_an_object.supports_tasks());
    /// ```
    pub fn supports_tasks(&self) -> bool {
        self.other
            .get("extensions")
            .and_then(|extensions| extensions.get(TASKS_EXTENSION))
            .is_some_and(Value::is_object)
    }
}

/// The tasks extension's identifier, under which a client declares it in
/// `capabilities.extensions` (SEP-2663).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The `elicitation` capability: `{"form"?: {…}, "url"?: {…}}`.
///
/// An object with neither member (`{}`) means form mode only, for compatibility with clients
/// written before URL mode existed. Members inside `form` and `url` (such as SDK-specific
/// flags) carry no meaning here and are kept raw.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ElicitationCapability {
    /// Present when the client can show forms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<Map<String, Value>>,
    /// Present when the client can open URLs for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Map<String, Value>>,
}

impl ElicitationCapability {
    /// Declares both modes: `{"form":{},"url":{}}`.
    pub fn both() -> Self {
        Self {
            form: Some(Map::new()),
            url: Some(Map::new()),
        }
    }

    /// True when `form` is declared, or when neither mode is (the bare `{}` form).
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }

    /// True when `url` is declared.
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }

    /// Whether `mode` is declared.
    pub fn supports(&self, mode: ElicitMode) -> bool {
        match mode {
            ElicitMode::Form => self.supports_form(),
            ElicitMode::Url => self.supports_url(),
        }
    }
}
