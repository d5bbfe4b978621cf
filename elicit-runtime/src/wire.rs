//! The exact JSON shapes of MCP elicitation on protocol revisions 2025-11-25 and 2026-07-28
//! that a server or an SDK adapter names: the messages, the client's capabilities, the error
//! codes a test matches on and the two revisions. They are items of the [`elicit_wire`] crate
//! (its front page says what changed between the two revisions, in terms of these types), which
//! also has the method and `_meta` names the engine speaks. The restricted schema of forms is
//! [`crate::schema`].
//!
//! ```
//! use elicit_runtime::wire::{ClientCapabilities, ElicitMode};
//! use serde_json::json;
//!
//! let capabilities: ClientCapabilities = serde_json::from_value(json!({"elicitation": {}}))?;
//! // An empty `elicitation` object is form mode, as the spec says.
//! assert!(capabilities.supports(ElicitMode::Form));
//! assert!(!capabilities.supports(ElicitMode::Url));
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::ser::{Serialize, SerializeMap, Serializer};

#[doc(inline)]
pub use elicit_wire::{
    ClientCapabilities, ElicitAction, ElicitMode, ElicitParams, ElicitRequestParams, ElicitResult,
    ElicitationCapability, FormMode, FormParams, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST,
    InputRequest, InputRequiredResult, InputResponse, InputResponses, JsonRpcError,
    MISSING_REQUIRED_CLIENT_CAPABILITY, PROTOCOL_2025_11_25, PROTOCOL_2026_07_28, ProtocolEra,
    TASKS_EXTENSION, TaskInputRequired, TasksUpdateAck, TasksUpdateParams,
    URL_ELICITATION_REQUIRED, UrlParams, WireError,
};

/// What only the engine names: the completion notice, `_meta` and method names, parsing.
pub(crate) use elicit_wire::{
    ElicitationCompleteNotification, META_SERVER_INFO, METHOD_TOOLS_CALL, MRTR_METHODS,
    RequestMeta, RetryFields,
};

/// What of an elicitation result is worth keeping, as JSON: the action, and content only on
/// accept (serialized without building a `Value`).
pub(crate) struct Normalized<'a>(pub &'a ElicitResult);

impl Serialize for Normalized<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let content = match (self.0.action, &self.0.content) {
            (ElicitAction::Accept, Some(content)) => Some(content),
            _ => None,
        };
        let mut map = serializer.serialize_map(Some(1 + usize::from(content.is_some())))?;
        map.serialize_entry("action", self.0.action.as_str())?;
        if let Some(content) = content {
            map.serialize_entry("content", content)?;
        }
        map.end()
    }
}
