//! Building the context of one request: protocol era and capabilities from `_meta` (or the
//! session), `inputResponses`, and the `requestState` opened and checked against the request.

use std::future::Future;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{Value, json};

use super::params::{Params, RequestParams};
use super::round;
use super::trace::Escaped;
use super::{Cancellation, ContextError, ElicitContext};
use crate::legacy::LegacyPeer;
use crate::progress::{ProgressSink, WaitProgress};
use crate::server::ElicitServer;
use crate::state::OpenedState;
use crate::wire::{
    ClientCapabilities, INTERNAL_ERROR, INVALID_REQUEST, JsonRpcError, ProtocolEra, RequestMeta,
};

/// Builds an [`ElicitContext`]; see [`ElicitServer::context`].
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use serde_json::json;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
/// let params = json!({
///     "name": "book_table", "arguments": {"restaurant": "Chez Rust"},
///     "_meta": {
///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
///     }
/// });
/// let cx = server.context("tools/call", &params).principal("alice").build().unwrap();
/// assert_eq!((cx.target(), cx.principal()), ("book_table", Some("alice")));
/// ```
pub struct ContextBuilder<'a> {
    server: &'a ElicitServer,
    method: &'a str,
    params: Params<'a>,
    principal: Option<&'a str>,
    legacy: Option<Session>,
    cancel: Option<Cancellation>,
    progress: Option<ProgressSink>,
}

/// The request being read, without its params (they are the client's, and may be large).
impl std::fmt::Debug for ContextBuilder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextBuilder")
            .field("method", &self.method)
            .field("principal", &self.principal)
            .field("legacy", &self.legacy.is_some())
            .finish_non_exhaustive()
    }
}

/// What a 2025-11-25 connection negotiated in `initialize`: the client's capabilities and
/// the back channel.
type Session = (ClientCapabilities, Option<Arc<dyn LegacyPeer>>);

impl ElicitServer {
    /// Starts a context for one incoming request: `method` (`tools/call`, `prompts/get`,
    /// `resources/read`) and its `params` exactly as received, borrowed (`&Value`), owned
    /// (`Value`: what the context keeps is moved out instead of copied) or as an SDK took
    /// them apart ([`RequestParts`](super::RequestParts)); see [`RequestParams`].
    pub fn context<'a>(
        &'a self,
        method: &'a str,
        params: impl Into<RequestParams<'a>>,
    ) -> ContextBuilder<'a> {
        ContextBuilder::new(self, method, params.into().0)
    }
}

impl<'a> ContextBuilder<'a> {
    pub(super) fn new(server: &'a ElicitServer, method: &'a str, params: Params<'a>) -> Self {
        ContextBuilder {
            server,
            method,
            params,
            principal: None,
            legacy: None,
            cancel: None,
            progress: None,
        }
    }

    /// The authenticated principal (e.g. the `sub` of the MCP authorization token). Sealed
    /// state is bound to it: another principal cannot use it.
    pub fn principal(mut self, principal: impl Into<Option<&'a str>>) -> Self {
        self.principal = principal.into();
        self
    }

    /// The session, when the connection negotiated 2025-11-25 in `initialize`: the
    /// capabilities the client declared there, and the peer that sends server-to-client
    /// requests. Used only when the request carries no 2026-07-28 `_meta`.
    pub fn legacy(
        mut self,
        capabilities: ClientCapabilities,
        peer: Option<Arc<dyn LegacyPeer>>,
    ) -> Self {
        self.legacy = Some((capabilities, peer));
        self
    }

    /// How the SDK says this request was cancelled (the client sent `notifications/cancelled`,
    /// or went away): `cancelled()` makes a future that resolves then. A wait on a URL-mode
    /// page (a held 2026-07-28 retry, a 2025-11-25 wait) ends at once with an error
    /// (`data.reason = "cancelled"`), giving its place in the wait pool back; the handler's
    /// own work is not interrupted. `elicit-rmcp` passes rmcp's per-request token.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use serde_json::json;
    /// use tokio::sync::watch;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
    /// let params = json!({"name": "connect", "arguments": {}, "_meta": {
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}
    /// }});
    /// // Whatever the SDK offers: here a watch channel the transport flips on cancellation.
    /// let (_cancel, cancelled) = watch::channel(false);
    /// let cx = server
    ///     .context("tools/call", &params)
    ///     .principal("alice")
    ///     .cancelled_by(move || {
    ///         let mut cancelled = cancelled.clone();
    ///         async move {
    ///             let _ = cancelled.wait_for(|gone| *gone).await;
    ///         }
    ///     })
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(cx.principal(), Some("alice"));
    /// ```
    pub fn cancelled_by<F>(mut self, cancelled: impl Fn() -> F + Send + Sync + 'static) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.cancel = Some(Cancellation::new(cancelled));
        self
    }

    /// How to tell the client that a wait on a URL-mode page goes on, for a request that
    /// carried a `progressToken` in its `_meta` (give it for no other request): `send` gets a
    /// [`WaitProgress`] when a held 2026-07-28 retry or a 2025-11-25 wait after an accept
    /// starts, then once a second until it ends, and sends it as `notifications/progress`
    /// for that token. The reports stop before the request answers. `elicit-rmcp` passes
    /// rmcp's peer and the request's token.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use serde_json::json;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "demo"));
    /// let params = json!({"name": "connect", "arguments": {}, "_meta": {
    ///     "progressToken": "p-1",
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}
    /// }});
    /// let token = params["_meta"]["progressToken"].clone();
    /// let cx = server
    ///     .context("tools/call", &params)
    ///     .principal("alice")
    ///     .progress_by(move |report| {
    ///         let notification = json!({
    ///             "method": "notifications/progress",
    ///             "params": {"progressToken": token, "progress": report.waited,
    ///                        "total": report.limit, "message": report.message}
    ///         });
    ///         async move {
    ///             // Send `notification` on the request's stream.
    ///             let _ = notification;
    ///         }
    ///     })
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(cx.principal(), Some("alice"));
    /// ```
    pub fn progress_by<F>(
        mut self,
        send: impl Fn(WaitProgress) -> F + Send + Sync + 'static,
    ) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.progress = Some(ProgressSink::new(send));
        self
    }

    /// Reads the request: era and capabilities from `_meta` (never from earlier requests),
    /// `inputResponses`, and `requestState`, which is opened and checked against this request.
    ///
    /// Synchronous and free of I/O: with a replay guard, the state is redeemed later, when the
    /// handler first asks (or when [`respond`](ElicitContext::respond) carries it into the next
    /// round).
    pub fn build(self) -> Result<ElicitContext, ContextError> {
        // An empty principal would bind state and URL handles to "nobody", which an empty
        // browser subject could then claim: a server bug, refused before anything is sealed.
        if self.principal == Some("") {
            let error = JsonRpcError::new(INTERNAL_ERROR, "the request's principal is empty", None);
            return Err(ContextError::new(
                error,
                "an empty principal was given: pass `None` for an unauthenticated request",
            ));
        }
        if self.principal.is_none() && self.server.principal_required() {
            let error = JsonRpcError::new(
                INVALID_REQUEST,
                "this server requires an authenticated user, and the request carries none",
                Some(json!({"reason": "unauthenticated"})),
            );
            return Err(ContextError::new(
                error,
                "no principal for this request, and the server requires one \
                 (`ElicitServer::with_required_principal`): is the authentication layer in \
                 front, and does the principal read where it put the user?",
            ));
        }
        let mut params = self.params;
        let meta = params
            .meta()
            .map_err(|e| ContextError::new(e.to_json_rpc_error(), e.to_string()))?;
        let (era, (capabilities, peer)) = negotiate(meta, self.legacy)?;
        let (target, arguments) = params.target_and_arguments(self.method);
        let mut cx = ElicitContext::new(
            self.server.clone(),
            era,
            self.method,
            target,
            arguments,
            self.principal,
            capabilities,
            peer,
        );
        cx.rules.cancel = self.cancel;
        cx.rules.progress = self.progress;
        if era == ProtocolEra::Mrtr2026 {
            let retry = params
                .retry_fields()
                .map_err(|e| ContextError::new(e.to_json_rpc_error(), e.to_string()))?;
            if let Some(responses) = retry.input_responses {
                cx.rules.answers.responses = responses.into_inner().into();
            }
            if let Some(token) = retry.request_state {
                let opened = cx
                    .rules
                    .server
                    .sealer()
                    .open_with(&token, &cx.binding(), SystemTime::now(), round::read)
                    .map_err(|e| {
                        // The client gets the uniform refusal; operators get the reason, whatever
                        // adapter (rmcp's included) turns the error into its own.
                        tracing::warn!(
                            target: "elicit",
                            method = %Escaped(&cx.rules.call.method),
                            target = %Escaped(&cx.rules.call.target),
                            reason = e.reason(),
                            detail = %Escaped(&e.to_string()),
                            "elicit requestState refused"
                        );
                        ContextError::from(&e)
                    })?;
                cx.resume(
                    opened.payload,
                    OpenedState {
                        id: opened.id,
                        issued_at: opened.issued_at,
                        expires_at: opened.expires_at,
                    },
                );
            }
        }
        Ok(cx)
    }
}

/// The era of a request and what the client can do: `_meta` decides; without it, the
/// 2025-11-25 session does.
fn negotiate(
    meta: Option<RequestMeta>,
    legacy: Option<Session>,
) -> Result<(ProtocolEra, Session), ContextError> {
    let Some(meta) = meta else {
        return match legacy {
            Some(session) => Ok((ProtocolEra::Legacy2025, session)),
            None => Err(ContextError::new(
                JsonRpcError::invalid_params(
                    "Missing required `_meta` key `io.modelcontextprotocol/protocolVersion`",
                    None,
                ),
                "missing `_meta` protocol version and client capabilities",
            )),
        };
    };
    match (meta.era(), legacy) {
        (Some(ProtocolEra::Mrtr2026), _) => {
            Ok((ProtocolEra::Mrtr2026, (meta.client_capabilities, None)))
        }
        (Some(ProtocolEra::Legacy2025), Some(session)) => Ok((ProtocolEra::Legacy2025, session)),
        (Some(ProtocolEra::Legacy2025), None) => Err(unsupported(
            format!(
                "protocol version `{}` needs an `initialize` handshake; this server speaks 2026-07-28 here",
                meta.protocol_version
            ),
            json!(["2026-07-28"]),
        )),
        // `None`, or an era a later elicit-wire knows and this runtime does not.
        (_, _) => Err(unsupported(
            format!("unsupported protocol version `{}`", meta.protocol_version),
            json!(["2025-11-25", "2026-07-28"]),
        )),
    }
}

fn unsupported(message: String, supported: Value) -> ContextError {
    let error =
        JsonRpcError::invalid_params(message.clone(), Some(json!({"supported": supported})));
    ContextError::new(error, message)
}
