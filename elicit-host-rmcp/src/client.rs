//! A ready `ClientHandler` for hosts whose only server-to-client duty is elicitation.

use rmcp::model::{
    ClientConfig, CustomNotification, ElicitRequestParams, ElicitResult, Implementation,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, ErrorData as McpError, RoleClient};

use crate::answerer::Answerer;
use crate::host::Host;

/// An rmcp `ClientHandler` that answers elicitations through an [`Answerer`] and declares its
/// capability. Serve it as any rmcp client; drive calls with
/// `client.service().answerer().call_tool(&client, params)`.
///
/// ```no_run
/// # use elicit_host::{FormModel, UrlReport, UrlRequest};
/// # use elicit_host_rmcp::{Asker, Consent, Host};
/// # use elicit_wire::ElicitResult;
/// # struct Terminal;
/// # impl Host for Terminal {
/// #     async fn fill(&self, _: &Asker, _: &FormModel) -> ElicitResult { ElicitResult::cancel() }
/// #     async fn open(&self, _: &Asker, _: &UrlRequest, _: &UrlReport) -> Consent { Consent::Cancelled }
/// # }
/// use elicit_host::safe_text;
/// use elicit_host_rmcp::{Answerer, ElicitingClient};
/// use rmcp::ServiceExt;
/// use rmcp::model::CallToolRequestParams;
///
/// # async fn run(transport: tokio::io::DuplexStream) -> Result<(), Box<dyn std::error::Error>> {
/// let client = ElicitingClient::new(Answerer::new(Terminal)).serve(transport).await?;
/// let call = client
///     .service()
///     .answerer()
///     .call_tool(&client, CallToolRequestParams::new("deploy"))
///     .await;
/// for elicited in &call.elicitations {
///     println!("{}: {:?}", safe_text(elicited.asker.shown_name()), elicited.outcome);
/// }
/// let result = call.result?;
/// # let _ = result;
/// # Ok(())
/// # }
/// ```
pub struct ElicitingClient<H> {
    answerer: Answerer<H>,
    client_info: Implementation,
    protocol_version: ProtocolVersion,
}

impl<H> std::fmt::Debug for ElicitingClient<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElicitingClient")
            .field("answerer", &self.answerer)
            .field("client_info", &self.client_info)
            .field("protocol_version", &self.protocol_version)
            .finish()
    }
}

impl<H: Host> ElicitingClient<H> {
    /// A client answering through `answerer`, named after this crate, speaking the latest
    /// revision rmcp knows (2026-07-28; `initialize` falls back to 2025-11-25 by itself).
    pub fn new(answerer: Answerer<H>) -> Self {
        ElicitingClient {
            answerer,
            client_info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            protocol_version: ProtocolVersion::default(),
        }
    }

    /// The host's own name and version, sent in the handshake.
    pub fn with_client_info(mut self, info: Implementation) -> Self {
        self.client_info = info;
        self
    }

    /// The protocol revision offered (`ProtocolVersion::V_2025_11_25` for a host that stays on
    /// the older one).
    pub fn with_protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.protocol_version = version;
        self
    }

    /// The answerer, to drive calls with.
    pub fn answerer(&self) -> &Answerer<H> {
        &self.answerer
    }
}

impl<H: Host> ClientHandler for ElicitingClient<H> {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        self.answerer.create_elicitation(request, context).await
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleClient>,
    ) {
        self.answerer
            .on_custom_notification(&notification, &context.peer);
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = rmcp::model::ClientCapabilities::default();
        capabilities.elicitation = Some(self.answerer.capability());
        rmcp::model::InitializeRequestParams::new(capabilities, self.client_info.clone())
            .with_protocol_version(self.protocol_version.clone())
    }
}
