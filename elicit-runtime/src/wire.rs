//! The exact JSON shapes of MCP elicitation on protocol revisions 2025-11-25 and 2026-07-28:
//! the items of the [`elicit_wire`] crate (its front page says what changed between the two
//! revisions, in terms of these types), at the paths they always had. The restricted schema of
//! forms is [`crate::schema`].
//!
//! ```
//! use elicit_runtime::wire::{ElicitMode, RequestMeta};
//! use serde_json::json;
//!
//! let params = json!({
//!     "_meta": {
//!         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
//!     }
//! });
//! let meta = RequestMeta::from_params(&params)?.expect("2026-07-28 request");
//! assert!(!meta.client_capabilities.supports(ElicitMode::Url));
//! # Ok::<(), elicit_runtime::wire::WireError>(())
//! ```

#[doc(inline)]
pub use elicit_wire::{
    ClientCapabilities, ElicitAction, ElicitMode, ElicitParams, ElicitRequestParams, ElicitResult,
    ElicitationCapability, ElicitationCompleteNotification, FormMode, FormParams, INTERNAL_ERROR,
    INVALID_PARAMS, INVALID_REQUEST, InputRequest, InputRequiredResult, InputResponse,
    InputResponses, JsonRpcError, LEGACY_PROTOCOL_VERSIONS, META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO,
    METHOD_ELICITATION_COMPLETE, METHOD_ELICITATION_CREATE, METHOD_NOT_FOUND, METHOD_PROMPTS_GET,
    METHOD_RESOURCES_READ, METHOD_ROOTS_LIST, METHOD_SAMPLING_CREATE_MESSAGE, METHOD_TASKS_GET,
    METHOD_TASKS_UPDATE, METHOD_TOOLS_CALL, MISSING_REQUIRED_CLIENT_CAPABILITY, MRTR_METHODS,
    PARSE_ERROR, PROTOCOL_2025_11_25, PROTOCOL_2026_07_28, ProtocolEra,
    REASON_INVALID_REQUEST_STATE, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED, RequestMeta,
    RetryFields, SchemaJson, TASK_STATUS_INPUT_REQUIRED, TaskInputRequired, TasksUpdateAck,
    TasksUpdateParams, URL_ELICITATION_REQUIRED, UrlParams, WireError,
};
