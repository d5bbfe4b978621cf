//! Between our wire types and rmcp's: errors and input-required results.

use std::collections::BTreeMap;

use rmcp::ErrorData as McpError;
use rmcp::model::{ErrorCode, MetaObject};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::rmcp_schema::elicitation_schema;
use crate::wire::{ElicitParams, InputRequest, InputRequiredResult, JsonRpcError};

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

/// Our input-required result as rmcp's (see [`WireFix`](crate::adapter::WireFix) for the
/// URL-mode bridge), taking its parts rather than copying them.
///
/// Built field by field: only each request goes through JSON text (see `input_request`),
/// so rmcp's untagged parse of the whole result never runs.
pub fn input_required(
    result: InputRequiredResult,
) -> Result<rmcp::model::InputRequiredResult, McpError> {
    let (requests, state, meta) = result.into_parts();
    let requests = requests.map(input_requests).transpose()?;
    let mut out = rmcp::model::InputRequiredResult::new(requests, state);
    out.meta = meta.map(MetaObject);
    Ok(out)
}

/// An `inputRequests` map as rmcp's: a round's, or a task's outstanding questions.
pub(super) fn input_requests(
    requests: BTreeMap<String, InputRequest>,
) -> Result<rmcp::model::InputRequests, McpError> {
    requests
        .into_iter()
        .map(|(key, request)| Ok((key, input_request(request)?)))
        .collect()
}

/// One request of `inputRequests` as rmcp's. A form is built as rmcp's typed params; other
/// elicitations are parsed straight into `ElicitRequestParams`: rmcp's `InputRequest` is
/// untagged, so parsing the whole request would buffer it and try it as a sampling request
/// first (about a fifth of the conversion for the demo's booking form). Other requests take
/// the general path.
fn input_request(request: InputRequest) -> Result<rmcp::model::InputRequest, McpError> {
    match request {
        InputRequest::Elicit(params) => {
            let params = match params {
                ElicitParams::Form(form) => match elicitation_schema(&form.requested_schema) {
                    Some(requested_schema) => {
                        rmcp::model::ElicitRequestParams::FormElicitationParams {
                            meta: None,
                            message: form.message,
                            requested_schema,
                        }
                    }
                    None => convert(&ElicitParams::Form(form))?,
                },
                other => convert(&other)?,
            };
            Ok(rmcp::model::InputRequest::Elicitation(
                rmcp::model::ElicitRequest::new(params),
            ))
        }
        other => convert(&other),
    }
}
