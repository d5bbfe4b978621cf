//! The input channel of an SDK adapter: a request's context whose asks fail with the SDK's
//! error type. The adapter says only that; every other part of [`InputChannel`] is the
//! context's, so no adapter can forget to pass one on.

use std::future::Future;

use super::ElicitContext;
use crate::channel::{ChannelRules, InputChannel};
use crate::interrupt::Interrupt;
use crate::wire::{ClientCapabilities, InputRequest, InputResponse};

/// The extractor of an adapter to an MCP SDK: it holds the request's [`ElicitContext`] (built
/// with [`ElicitServer::context`](crate::ElicitServer::context) from `RequestParts`) and
/// names the error the SDK's handlers return, so that `?` after an ask works in them.
///
/// Every implementor is an [`InputChannel`] that asks through its context, with
/// [`InputChannel::Error`] set to [`SdkError`](Self::SdkError), and lends its context's rules
/// (the round, URL mode, the link fallback) through `AsMut<ElicitContext>`. Its dispatch turns the
/// handler's error back into an [`Interrupt`] for [`ElicitContext::respond`].
/// `elicit_rmcp::Elicit` is one, for rmcp.
///
/// ```
/// use elicit_runtime::request::{AdapterChannel, ElicitContext, RequestParts};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::{Answer, ElicitForm, ElicitServer, Interrupt, Reply};
///
/// /// The SDK's error type.
/// #[derive(Debug)]
/// enum SdkError {
///     Rpc(i64, String),
///     Suspended,
/// }
///
/// /// The SDK's extractor.
/// struct Cx(ElicitContext);
///
/// impl AsRef<ElicitContext> for Cx {
///     fn as_ref(&self) -> &ElicitContext { &self.0 }
/// }
/// impl AsMut<ElicitContext> for Cx {
///     fn as_mut(&mut self) -> &mut ElicitContext { &mut self.0 }
/// }
/// impl AdapterChannel for Cx {
///     type SdkError = SdkError;
///     fn sdk_error(&self, interrupt: Interrupt) -> SdkError {
///         match interrupt.into_error() {
///             Some(error) => SdkError::Rpc(error.code, error.message),
///             None => SdkError::Suspended,
///         }
///     }
/// }
///
/// /// Delete the draft?
/// #[derive(ElicitForm)]
/// struct Confirm { sure: bool }
///
/// // A handler of the SDK: `?` returns the SDK's error.
/// async fn delete(cx: &mut Cx) -> Result<&'static str, SdkError> {
///     Ok(match Confirm::ask(cx).await? {
///         Answer::Accepted(Confirm { sure: true }) => "deleted",
///         _ => "kept",
///     })
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "my-server"));
/// let mut parts = RequestParts::new("delete");
/// parts.meta = serde_json::json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
/// }).as_object().cloned();
/// let mut cx = Cx(server.context("tools/call", parts).build().unwrap());
/// let result = pollster::block_on(delete(&mut cx)).map_err(|error| match error {
///     SdkError::Suspended => Interrupt::input_required(),
///     SdkError::Rpc(code, message) => elicit_runtime::wire::JsonRpcError::new(code, message, None).into(),
/// });
/// // The first round asks: the SDK sends this `InputRequiredResult`.
/// let reply = pollster::block_on(cx.0.respond(result)).unwrap();
/// assert!(matches!(reply, Reply::InputRequired(_)));
/// ```
pub trait AdapterChannel: Send + AsRef<ElicitContext> + AsMut<ElicitContext> {
    /// The error the SDK's handlers return.
    type SdkError: Send;

    /// `interrupt` as the SDK's error: a failed request as its JSON-RPC error; "input
    /// required" (and a link) as something the adapter's dispatch recognizes, to answer with
    /// [`ElicitContext::respond`] instead.
    fn sdk_error(&self, interrupt: Interrupt) -> Self::SdkError;
}

impl<T: AdapterChannel> InputChannel for T {
    type Error = T::SdkError;

    fn stop(&self, interrupt: Interrupt) -> T::SdkError {
        self.sdk_error(interrupt)
    }

    fn capabilities(&self) -> &ClientCapabilities {
        self.as_ref().capabilities()
    }

    fn input<'a>(
        &'a mut self,
        key: &'a str,
        digest: &'a str,
        request: InputRequest,
    ) -> impl Future<Output = Result<InputResponse, Interrupt>> + Send + 'a {
        self.as_mut().input(key, digest, request)
    }

    fn rules(&mut self) -> ChannelRules<'_> {
        self.as_mut().rules()
    }
}
