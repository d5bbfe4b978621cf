//! What the soak and the HTTP load benchmark's clients share: rmcp's client handler on
//! 2026-07-28 and a browser confirming a URL-mode landing page.

use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationCapability,
    FormElicitationCapability, Implementation, InitializeRequestParams, ProtocolVersion,
    UrlElicitationCapability,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient};

/// rmcp's client handler, named by its `&str`: declares form and URL elicitation; on
/// 2026-07-28 the server never pushes a request, so answering one is an error.
#[derive(Clone)]
pub(crate) struct Handler(pub &'static str);

impl ClientHandler for Handler {
    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Err(ErrorData::internal_error(
            "a 2026-07-28 server pushed elicitation/create",
            None,
        ))
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::default())
                .with_url(UrlElicitationCapability::default()),
        );
        InitializeRequestParams::new(
            capabilities,
            Implementation::new(self.0, env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::V_2026_07_28)
    }
}

/// Opens a landing page as a browser would: GET it; if it is the confirmation page, POST its
/// form with the page's token and Confirm, from the page's own origin. The status of the
/// last answer.
pub(crate) async fn confirm_page(
    http: &reqwest::Client,
    url: &str,
    timeout: std::time::Duration,
) -> Result<reqwest::StatusCode, reqwest::Error> {
    let page = http.get(url).timeout(timeout).send().await?;
    let status = page.status();
    let html = page.text().await?;
    let Some(token) = html
        .split("name=\"token\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
    else {
        return Ok(status);
    };
    let origin = url.splitn(4, '/').take(3).collect::<Vec<_>>().join("/");
    let confirmed = http
        .post(url)
        .header("origin", origin)
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("token={token}&decision=confirm"))
        .timeout(timeout)
        .send()
        .await?;
    let status = confirmed.status();
    let _ = confirmed.bytes().await;
    Ok(status)
}
