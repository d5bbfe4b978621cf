//! The exact JSON shapes of MCP elicitation on protocol revisions 2025-11-25 and 2026-07-28,
//! and the restricted schema of its forms ([`schema`]).
//!
//! This crate only turns wire JSON into typed values and back, and checks a form's schema and
//! answers against the spec's grammar. It does not decide when to ask or seal `requestState`:
//! that is `elicit-runtime`, which re-exports this crate as `elicit_runtime::wire` and
//! `elicit_runtime::schema`. A host (an MCP client) or a test kit can use it alone: it needs
//! serde and nothing else.
//!
//! What changed between the two revisions, in terms of these types:
//!
//! * **2025-11-25** negotiates capabilities once in `initialize`. The server pushes an
//!   `elicitation/create` request ([`ElicitRequestParams`]) and gets an [`ElicitResult`]
//!   back. URL elicitations carry an `elicitationId` ([`UrlParams::for_2025`]), may be
//!   demanded through a `-32042` error ([`JsonRpcError::url_elicitation_required`]) and may
//!   be followed by [`ElicitationCompleteNotification`].
//! * **2026-07-28** is stateless. Every request carries its version and capabilities in
//!   `_meta` ([`RequestMeta`]). A `tools/call`, `prompts/get` or `resources/read` that needs
//!   input ends with an [`InputRequiredResult`] listing [`InputRequest`]s; the client retries
//!   the same call with [`RetryFields`] (`inputResponses` + `requestState`). URL
//!   elicitations have no id ([`UrlParams::for_2026`]), and a missing capability is reported
//!   with `-32021` ([`JsonRpcError::missing_capability`]). Once a call has become a task,
//!   input moves to `tasks/get` / `tasks/update` ([`TaskInputRequired`],
//!   [`TasksUpdateParams`]).
//!
//! Optional members are left out of the JSON when absent (never written as `null`), and
//! unknown members are ignored on input.
//!
//! ```
//! use elicit_wire::{
//!     ElicitMode, InputRequest, InputRequiredResult, RequestMeta, RetryFields, UrlParams,
//! };
//! use serde_json::json;
//!
//! // A first `tools/call` on 2026-07-28 from a client that can only show forms.
//! let params = json!({
//!     "_meta": {
//!         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
//!     },
//!     "name": "connect"
//! });
//! let meta = RequestMeta::from_params(&params)?.expect("2026-07-28 request");
//! assert!(meta.client_capabilities.supports(ElicitMode::Form));
//! assert!(!meta.client_capabilities.supports(ElicitMode::Url));
//! assert!(!RetryFields::from_params(&params)?.is_retry());
//!
//! // Asking a URL-capable client to open a page.
//! let link = UrlParams::for_2026("Connect your account", "https://example.com/connect");
//! let result = InputRequiredResult::new(
//!     Some([("connect".to_owned(), InputRequest::from(link))].into()),
//!     Some("opaque".to_owned()),
//! )?;
//! assert_eq!(
//!     serde_json::to_string(&result)?,
//!     r#"{"resultType":"input_required","inputRequests":{"connect":{"method":"elicitation/create","params":{"mode":"url","url":"https://example.com/connect","message":"Connect your account"}}},"requestState":"opaque"}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod ordered;
pub mod schema;

mod capabilities;
mod elicit;
mod errors;
mod meta;
mod mrtr;
mod retry;
mod tasks;

#[cfg(test)]
mod tests;

pub use capabilities::{ClientCapabilities, ElicitationCapability, TASKS_EXTENSION};
pub use elicit::{
    ElicitAction, ElicitMode, ElicitParams, ElicitRequestParams, ElicitResult,
    ElicitationCompleteNotification, FormMode, FormParams, METHOD_ELICITATION_COMPLETE,
    METHOD_ELICITATION_CREATE, SchemaJson, UrlParams,
};
pub use errors::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, JsonRpcError, METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY, PARSE_ERROR, REASON_INVALID_REQUEST_STATE,
    URL_ELICITATION_REQUIRED, WireError,
};
pub use meta::{
    LEGACY_PROTOCOL_VERSIONS, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL,
    META_PROTOCOL_VERSION, META_SERVER_INFO, PROTOCOL_2025_11_25, PROTOCOL_2026_07_28, ProtocolEra,
    RequestMeta,
};
pub use mrtr::{
    InputRequest, InputRequiredResult, METHOD_PROMPTS_GET, METHOD_RESOURCES_READ,
    METHOD_ROOTS_LIST, METHOD_SAMPLING_CREATE_MESSAGE, METHOD_TOOLS_CALL, MRTR_METHODS,
    RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED,
};
pub use retry::{InputResponse, InputResponses, RetryFields};
pub use tasks::{
    METHOD_TASKS_GET, METHOD_TASKS_UPDATE, TASK_STATUS_INPUT_REQUIRED, TaskInputRequired,
    TasksUpdateAck, TasksUpdateParams,
};
