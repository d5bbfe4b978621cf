//! The answering half any rmcp `ClientHandler` can hold: 2025-11-25 requests and completion
//! notifications, the capability to declare, and the settings the round driver uses.

use std::sync::Arc;

use elicit_host::Elicitation;
use rmcp::model::{
    CustomNotification, ElicitRequestParams, ElicitationCapability, FormElicitationCapability,
    UrlElicitationCapability,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData as McpError, RoleClient};
use serde_json::Value;

use crate::ask::{ask, parse, to_rmcp};
use crate::asker::Asker;
use crate::host::Host;
use crate::limits::Limits;
use crate::links::{Links, Server};
use crate::outcome::{Elicited, Outcome};

/// Answers a server's elicitations through a [`Host`]: strictly parsed, checked, with every
/// outcome named. Cheap to clone (one shared state).
///
/// One answerer (or its clones) may answer several servers at once: each server's 2025-11-25
/// `elicitationId`s are kept apart, by the connection they came on, so no server can make
/// another's request a replay or report another's page complete. What it remembers of them is
/// bounded per server: [`REMEMBERED_URL_REQUESTS`](crate::REMEMBERED_URL_REQUESTS) requests
/// in at most [`MAX_REMEMBERED_BYTES`](crate::MAX_REMEMBERED_BYTES) (13 MiB), a URL request
/// over [`MAX_URL_BYTES`](crate::MAX_URL_BYTES),
/// [`MAX_URL_MESSAGE_BYTES`](crate::MAX_URL_MESSAGE_BYTES) or
/// [`MAX_ELICITATION_ID_BYTES`](crate::MAX_ELICITATION_ID_BYTES) being refused unseen, and a
/// server's ids are dropped once its connection is gone.
///
/// Put it in your own `ClientHandler` (two methods forward to it, and
/// [`capability`](Self::capability) goes in `get_info`), or use the ready
/// [`ElicitingClient`](crate::ElicitingClient). Drive 2026-07-28 calls with
/// [`call_tool`](Self::call_tool), [`get_prompt`](Self::get_prompt) and
/// [`read_resource`](Self::read_resource) rather than rmcp's own helpers: they refuse what must
/// not be shown without failing the call, and wait for a person on a page.
///
/// ```
/// use elicit_host::{FormInput, FormModel, UrlReport, UrlRequest};
/// use elicit_host_rmcp::{Answerer, Asker, Consent, Host};
/// use elicit_wire::ElicitResult;
/// use rmcp::model::{CustomNotification, ElicitRequestParams, ElicitResult as RmcpResult};
/// use rmcp::service::{NotificationContext, RequestContext};
/// use rmcp::{ClientHandler, ErrorData as McpError, RoleClient};
///
/// # struct Terminal;
/// # impl Host for Terminal {
/// #     async fn fill(&self, _: &Asker, form: &FormModel) -> ElicitResult { ElicitResult::cancel() }
/// #     async fn open(&self, _: &Asker, _: &UrlRequest, _: &UrlReport) -> Consent { Consent::Cancelled }
/// # }
/// /// A host's own handler (it also answers sampling, say), elicitation forwarded.
/// struct MyClient {
///     answerer: Answerer<Terminal>,
/// }
///
/// impl ClientHandler for MyClient {
///     async fn create_elicitation(
///         &self,
///         request: ElicitRequestParams,
///         context: RequestContext<RoleClient>,
///     ) -> Result<RmcpResult, McpError> {
///         self.answerer.create_elicitation(request, context).await
///     }
///
///     async fn on_custom_notification(
///         &self,
///         notification: CustomNotification,
///         context: NotificationContext<RoleClient>,
///     ) {
///         self.answerer.on_custom_notification(&notification, &context.peer);
///     }
///
///     fn get_info(&self) -> rmcp::model::ClientConfig {
///         let mut info = rmcp::model::ClientConfig::default();
///         info.capabilities.elicitation = Some(self.answerer.capability());
///         info
///     }
/// }
///
/// let client = MyClient { answerer: Answerer::new(Terminal) };
/// assert!(client.get_info().capabilities.elicitation.unwrap().url.is_some());
/// ```
pub struct Answerer<H> {
    pub(crate) shared: Arc<Shared<H>>,
    pub(crate) limits: Limits,
    pub(crate) url_mode: bool,
    pub(crate) origin: Option<String>,
}

/// What every clone shares: the host, and the 2025-11-25 links seen.
pub(crate) struct Shared<H> {
    pub(crate) host: H,
    pub(crate) links: Links,
}

impl<H> Clone for Answerer<H> {
    fn clone(&self) -> Self {
        Answerer {
            shared: self.shared.clone(),
            limits: self.limits,
            url_mode: self.url_mode,
            origin: self.origin.clone(),
        }
    }
}

impl<H> std::fmt::Debug for Answerer<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answerer")
            .field("limits", &self.limits)
            .field("url_mode", &self.url_mode)
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

/// Why a server origin was refused by [`Answerer::with_server_origin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginError(String);

impl std::fmt::Display for OriginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a server URL: {}", self.0)
    }
}

impl std::error::Error for OriginError {}

impl<H: Host> Answerer<H> {
    /// Answers through `host`, declaring form and URL mode, with the default [`Limits`].
    pub fn new(host: H) -> Self {
        Answerer {
            shared: Arc::new(Shared {
                host,
                links: Links::new(),
            }),
            limits: Limits::default(),
            url_mode: true,
            origin: None,
        }
    }

    /// Declares form mode only: URL requests are refused without being shown (`-32602` on
    /// 2025-11-25, `cancel` in a round), as the spec requires of a mode not declared.
    pub fn form_only(mut self) -> Self {
        self.url_mode = false;
        self
    }

    /// Bounds on rounds, waits and the person's time.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The URL of the MCP server (streamable HTTP), whose origin each URL report compares
    /// pages with: a page on a host that can be mistaken for the server's is refused.
    ///
    /// ```
    /// # use elicit_host::{FormModel, UrlReport, UrlRequest};
    /// # use elicit_host_rmcp::{Answerer, Asker, Consent, Host};
    /// # use elicit_wire::ElicitResult;
    /// # struct Terminal;
    /// # impl Host for Terminal {
    /// #     async fn fill(&self, _: &Asker, _: &FormModel) -> ElicitResult { ElicitResult::cancel() }
    /// #     async fn open(&self, _: &Asker, _: &UrlRequest, _: &UrlReport) -> Consent { Consent::Cancelled }
    /// # }
    /// let answerer = Answerer::new(Terminal).with_server_origin("https://mcp.example.com/mcp")?;
    /// assert!(Answerer::new(Terminal).with_server_origin("mcp.example.com").is_err());
    /// # Ok::<(), elicit_host_rmcp::OriginError>(())
    /// ```
    pub fn with_server_origin(mut self, server_url: &str) -> Result<Self, OriginError> {
        let parsed = url::Url::parse(server_url).map_err(|e| OriginError(e.to_string()))?;
        if !matches!(parsed.scheme(), "https" | "http") || parsed.host().is_none() {
            return Err(OriginError(format!("`{server_url}` is not an http(s) URL")));
        }
        let origin = parsed.origin().ascii_serialization();
        self.origin = Some(origin);
        Ok(self)
    }

    /// The `elicitation` capability to declare in the client's `get_info`.
    pub fn capability(&self) -> ElicitationCapability {
        let capability =
            ElicitationCapability::new().with_form(FormElicitationCapability::default());
        if self.url_mode {
            capability.with_url(UrlElicitationCapability::default())
        } else {
            capability
        }
    }

    /// The host.
    pub fn host(&self) -> &H {
        &self.shared.host
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Who is asking, from the server's handshake.
    pub fn asker(&self, peer: &Peer<RoleClient>) -> Asker {
        let info = peer.peer_info();
        let server = info.as_ref().and_then(|info| info.server_info.as_ref());
        Asker {
            name: server.map(|s| s.name.clone()).unwrap_or_default(),
            title: server.and_then(|s| s.title.clone()),
            version: server.map(|s| s.version.clone()).unwrap_or_default(),
            origin: self.origin.clone(),
        }
    }

    /// Answers a 2025-11-25 `elicitation/create` (rmcp's `ClientHandler::create_elicitation`).
    ///
    /// A request that must not be shown is refused without asking: a malformed or
    /// out-of-grammar one and a mode not declared with `-32602`; a URL the report refuses with
    /// `decline`; an `elicitationId` this server sent before with `cancel`; a URL, message or
    /// id over its cap ([`MAX_URL_BYTES`](crate::MAX_URL_BYTES) and the two beside it) with
    /// `-32602`. The person has the
    /// [answer timeout](Limits::with_answer_timeout); a request the server cancels is
    /// withdrawn from the host.
    ///
    /// rmcp types the request before it gets here: schema keywords outside its model (such as
    /// `pattern`) are dropped by rmcp, and a schema it cannot type at all is refused by rmcp.
    pub async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, McpError> {
        let asker = self.asker(&context.peer);
        let params = serde_json::to_value(&request)
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        let elicitation = match parse(&params, self.url_mode) {
            Ok(elicitation) => elicitation,
            Err(outcome) => {
                let message = refusal(&outcome);
                self.report(&asker, None, None, outcome);
                return Err(McpError::invalid_params(message, None));
            }
        };
        let id = match &elicitation {
            Elicitation::Url(request) => request.elicitation_id.clone(),
            Elicitation::Form(_) => None,
        };
        let server = Server::of(&context.peer);
        if let Some(id) = &id
            && !self.shared.links.first_sight(&server, id)
        {
            self.report(&asker, None, Some(elicitation), Outcome::Replayed);
            return Ok(to_rmcp(&elicit_wire::ElicitResult::cancel()));
        }
        let timeout = self.limits.answer_timeout();
        let withdrawn = context.ct.cancelled();
        let (result, outcome) =
            ask(&self.shared.host, &asker, timeout, &elicitation, withdrawn).await;
        if let (Some(id), Elicitation::Url(request), Outcome::Opened) =
            (&id, &elicitation, &outcome)
        {
            self.shared.links.opened(&server, id, request);
        }
        self.report(&asker, None, Some(elicitation), outcome);
        Ok(to_rmcp(&result))
    }

    /// Takes `notifications/elicitation/complete` (rmcp delivers it to
    /// `ClientHandler::on_custom_notification`); other notifications are ignored. An open
    /// page's elicitation becomes [`Outcome::Completed`]; unknown and already completed ids
    /// are ignored, and so are ids of requests `peer` did not send (another server's).
    pub fn on_custom_notification(
        &self,
        notification: &CustomNotification,
        peer: &Peer<RoleClient>,
    ) {
        if notification.method != elicit_wire::METHOD_ELICITATION_COMPLETE {
            return;
        }
        let id = notification
            .params
            .as_ref()
            .and_then(|params| params.get("elicitationId"))
            .and_then(Value::as_str);
        let server = Server::of(peer);
        if let Some(request) = id.and_then(|id| self.shared.links.complete(&server, id)) {
            self.report(
                &self.asker(peer),
                None,
                Some(Elicitation::Url(request)),
                Outcome::Completed,
            );
        }
    }

    /// The bytes the remembered 2025-11-25 URL requests of every server hold now: at most
    /// [`MAX_REMEMBERED_BYTES`](crate::MAX_REMEMBERED_BYTES) per server.
    #[doc(hidden)]
    pub fn remembered_bytes(&self) -> usize {
        self.shared.links.bytes()
    }

    pub(crate) fn report(
        &self,
        asker: &Asker,
        key: Option<String>,
        elicitation: Option<Elicitation>,
        outcome: Outcome,
    ) -> Elicited {
        let elicited = Elicited {
            asker: asker.clone(),
            key,
            elicitation,
            outcome,
        };
        self.shared.host.outcome(&elicited);
        elicited
    }
}

/// The `-32602` message for a request refused unseen.
fn refusal(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Malformed(error) => format!("Invalid elicitation request: {error}"),
        Outcome::Unsupported(_) => {
            "Client does not support URL-mode elicitation requests".to_owned()
        }
        other => format!("Elicitation refused: {other:?}"),
    }
}
