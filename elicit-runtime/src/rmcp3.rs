//! `?` on an ask inside an rmcp 3 method (feature `rmcp3`, which `elicit-rmcp` turns on).
//!
//! The one item of the SDK's that the core names: Rust's orphan rule lets only the crate that
//! defines [`Interrupt`] or rmcp's `ErrorData` write this conversion, and without it a tool
//! returning `Result<_, rmcp::ErrorData>` could not use `?` on an ask. The feature carries
//! rmcp's major in its name, so a later rmcp is a new, additive feature here, never a breaking
//! release of the core. Everything else about rmcp lives in `elicit-rmcp`.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use crate::interrupt::Interrupt;

/// The marker `elicit-rmcp`'s wiring recognizes in the error an input-required [`Interrupt`]
/// becomes on its way through rmcp's router: `{"elicit": "input_required"}` as its `data`.
const MARKER: (&str, &str) = ("elicit", "input_required");

/// What a call fails with when a method takes `elicit_rmcp::Elicit` but the call did not come
/// through `elicit_rmcp::ElicitHandler`.
#[doc(hidden)]
pub const MISSING_WIRING: &str = "this tool or prompt takes `elicit_rmcp::Elicit`, but the call \
     did not run through elicit: annotate the `ServerHandler` impl with \
     `#[tool_handler(router = self.elicit.tools(&self.tool_router))]`, or have `call_tool` \
     return `self.elicit.call_tool(&self.tool_router, self, request, context).await` \
     (for prompts, `get_prompt` returns `self.elicit.get_prompt(&self.prompt_router, self, \
     request, context).await`)";

/// `?` on an ask inside an rmcp method: a failed request becomes its JSON-RPC error; "input
/// required" becomes an error `elicit-rmcp`'s wiring replaces with the round's
/// `InputRequiredResult` (a client only ever sees it when the wiring is missing, and then it
/// says so).
impl From<Interrupt> for ErrorData {
    fn from(interrupt: Interrupt) -> Self {
        match interrupt.into_error() {
            Some(error) => ErrorData::new(
                ErrorCode(i32::try_from(error.code).unwrap_or(-32603)),
                error.message,
                error.data,
            ),
            None => ErrorData::internal_error(
                format!("input required, but {MISSING_WIRING}"),
                Some(json!({MARKER.0: MARKER.1})),
            ),
        }
    }
}

/// Whether `data` is the marker of an input-required [`Interrupt`].
#[doc(hidden)]
pub fn is_marker(data: Option<&Value>) -> bool {
    matches!(data, Some(Value::Object(data))
        if data.len() == 1 && data.get(MARKER.0).and_then(Value::as_str) == Some(MARKER.1))
}
