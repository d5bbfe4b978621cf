//! [`Elicit`] as an input channel (an [`AdapterChannel`]): it asks through the call's context,
//! and its asks fail with rmcp's `ErrorData`, so `?` after an ask works in a method returning
//! `Result<_, rmcp::ErrorData>`.
//!
//! "Input required" and "end with a link" cannot be said in an `ErrorData`, so they travel as
//! an internal error carrying a marker that [`ElicitHandler`](super::ElicitHandler)'s wiring
//! recognizes and replaces with the round's result; the context keeps what the result needs
//! (the questions of the round, the link). A client sees the marker only when that wiring is
//! missing, and then the message says what to add.

use rmcp::ErrorData as McpError;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use super::convert::to_mcp_error;
use super::extract::{Elicit, MISSING_WIRING};
use crate::Interrupt;
use crate::request::{AdapterChannel, ElicitContext};
use crate::wire::{ClientCapabilities, ProtocolEra};

/// The `data` of the error an input-required [`Interrupt`] becomes on its way through rmcp's
/// router: `{"elicit": "input_required"}`.
const MARKER: (&str, &str) = ("elicit", "input_required");

/// An [`Interrupt`] as the error an rmcp method returns: a failed request is its JSON-RPC
/// error; "input required" (or a link) is the marker the wiring replaces.
fn to_error_data(interrupt: Interrupt) -> McpError {
    match interrupt.into_error() {
        Some(error) => to_mcp_error(error),
        None => McpError::internal_error(
            format!("input required, but {MISSING_WIRING}"),
            Some(json!({MARKER.0: MARKER.1})),
        ),
    }
}

/// Whether `error` is an input-required [`Interrupt`] on its way through rmcp's router.
pub(super) fn is_input_required(error: &McpError) -> bool {
    // Compared in place: this runs on every error a method returns.
    error.code == ErrorCode::INTERNAL_ERROR
        && matches!(&error.data, Some(Value::Object(data))
            if data.len() == 1 && data.get(MARKER.0).and_then(Value::as_str) == Some(MARKER.1))
}

/// What a method reads of its call, and the context's requests with rmcp's error, so `?`
/// works on them in a method. Forms and URL-mode questions are asked through the
/// [`InputChannel`](crate::InputChannel) `Elicit` is (`Form::ask(&mut cx)`); the whole
/// [`ElicitContext`] is `cx.as_ref()`, for code shared with other adapters.
impl Elicit {
    /// The protocol era of this call ([`ElicitContext::era`]).
    pub fn era(&self) -> ProtocolEra {
        self.cx().era()
    }

    /// The client capabilities this call declared (2026-07-28) or its session declared
    /// (2025-11-25) ([`ElicitContext::capabilities`]).
    pub fn capabilities(&self) -> &ClientCapabilities {
        self.cx().capabilities()
    }

    /// The tool or prompt name of this call ([`ElicitContext::target`]).
    pub fn target(&self) -> &str {
        self.cx().target()
    }

    /// The call's arguments, `{}` when absent ([`ElicitContext::arguments`]).
    pub fn arguments(&self) -> &Value {
        self.cx().arguments()
    }

    /// Who is asking, as the handler's [`Principal`](crate::Principal) read it
    /// ([`ElicitContext::principal`]).
    pub fn principal(&self) -> Option<&str> {
        self.cx().principal()
    }

    /// [`ElicitContext::sample`], failing with rmcp's error.
    pub async fn sample(&mut self, key: &str, params: Value) -> Result<Value, McpError> {
        self.cx_mut()
            .sample(key, params)
            .await
            .map_err(to_error_data)
    }

    /// [`ElicitContext::list_roots`], failing with rmcp's error.
    pub async fn list_roots(&mut self, key: &str) -> Result<Value, McpError> {
        self.cx_mut().list_roots(key).await.map_err(to_error_data)
    }

    /// [`ElicitContext::retry_later`] as rmcp's error: `return Err(cx.retry_later())` ends
    /// this round without new questions, and the client retries with the sealed state.
    pub fn retry_later(&self) -> McpError {
        to_error_data(self.cx().retry_later())
    }
}

/// The call's context, as an [`AdapterChannel`] holds it.
impl AsRef<ElicitContext> for Elicit {
    fn as_ref(&self) -> &ElicitContext {
        self.cx()
    }
}

/// The call's context, as an [`AdapterChannel`] holds it.
impl AsMut<ElicitContext> for Elicit {
    fn as_mut(&mut self) -> &mut ElicitContext {
        self.cx_mut()
    }
}

/// An input channel that asks through the call's context and fails with rmcp's error, which a
/// tool or prompt method returns.
impl AdapterChannel for Elicit {
    type SdkError = McpError;

    fn sdk_error(&self, interrupt: Interrupt) -> McpError {
        to_error_data(interrupt)
    }
}
