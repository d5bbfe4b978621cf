//! Between our wire types and rmcp's: errors and input-required results.

use rmcp::ErrorData as McpError;
use rmcp::model::ErrorCode;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::wire::{InputRequiredResult, JsonRpcError};

/// Our JSON-RPC error as rmcp's.
pub fn to_mcp_error(error: JsonRpcError) -> McpError {
    McpError::new(
        ErrorCode(i32::try_from(error.code).unwrap_or(-32603)),
        error.message,
        error.data,
    )
}

/// rmcp's JSON-RPC error as ours.
pub fn from_mcp_error(error: McpError) -> JsonRpcError {
    JsonRpcError::new(
        i64::from(error.code.0),
        error.message.into_owned(),
        error.data,
    )
}

/// Our type as rmcp's, through JSON text: a `Value` in between would sort object keys and
/// reorder a form's `properties` (rmcp keeps the order it parses).
pub(super) fn convert<T: Serialize, U: DeserializeOwned>(value: &T) -> Result<U, McpError> {
    serde_json::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|e| McpError::internal_error(format!("cannot convert to rmcp type: {e}"), None))
}

/// Our input-required result as rmcp's (see [`ElicitService`](super::ElicitService) for the URL-mode bridge).
pub fn input_required(
    result: &InputRequiredResult,
) -> Result<rmcp::model::InputRequiredResult, McpError> {
    convert(result)
}
