//! The stand-ins for the user's side: a browser signed in to the app, and an MCP client (rmcp's
//! own) that opens every URL-mode link in that browser and then accepts.

use std::io;
use std::sync::{Arc, Mutex};

use elicit_rmcp::WireFix;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    InitializeRequestParams, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ClientLifecycleMode, ErrorData, RoleClient, ServerHandler, ServiceExt};

use crate::http;

/// A browser with the app's session cookie: follows redirects, sends the cookie only to the app.
#[derive(Clone)]
pub struct Browser {
    pub app_origin: String,
    pub cookie: String,
}

impl Browser {
    /// Opens `url` and follows redirects; returns the last response.
    pub async fn visit(&self, url: &str) -> io::Result<http::Response> {
        let mut url = url.to_owned();
        for _ in 0..5 {
            let at_app = url.starts_with(&format!("{}/", self.app_origin));
            let headers: &[(&str, &str)] = if at_app {
                &[("cookie", &self.cookie)]
            } else {
                &[]
            };
            let response = http::send("GET", &url, headers, "").await?;
            println!("  browser: GET {} -> {}", path_of(&url), response.status);
            match response.location.clone() {
                Some(next) if (300..400).contains(&response.status) => url = next,
                _ => return Ok(response),
            }
        }
        Err(io::Error::other("too many redirects"))
    }
}

/// `url` without its query (the handle in it is not for logs).
fn path_of(url: &str) -> &str {
    url.split('?').next().unwrap_or(url)
}

/// The MCP client's user: opens URL-mode links in the browser, declines forms.
struct User {
    era: ProtocolVersion,
    browser: Browser,
    links: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::UrlElicitationParams { message, url, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        println!("  client: \"{message}\" -> opening {}", path_of(&url));
        self.links.lock().unwrap().push(url.clone());
        let page = self.browser.visit(&url).await;
        let page = page.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        println!("  browser shows: {}", page.body);
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::default())
                .with_url(UrlElicitationCapability::default()),
        );
        InitializeRequestParams::new(capabilities, Implementation::new("oauth-example", "1.0"))
            .with_protocol_version(self.era.clone())
    }
}

/// Connects an MCP client speaking `era` to `server` in process (in production the server runs
/// on stdio or streamable HTTP), calls `tool`, and returns its text and the links it opened.
pub async fn call_tool<S: ServerHandler>(
    server: S,
    era: ProtocolVersion,
    browser: Browser,
    tool: &'static str,
) -> Result<(String, Vec<String>), Box<dyn std::error::Error>> {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = WireFix::new(server).serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let links = Arc::new(Mutex::new(Vec::new()));
    let user = User {
        era: era.clone(),
        browser,
        links: links.clone(),
    };
    let client = if era == ProtocolVersion::V_2026_07_28 {
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![era],
        };
        rmcp::ClientServiceExt::serve_with_lifecycle(user, client_io, lifecycle).await?
    } else {
        user.serve(client_io).await?
    };
    let result = client.call_tool(CallToolRequestParams::new(tool)).await?;
    let _ = client.cancel().await;
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    let links = links.lock().unwrap().clone();
    Ok((text, links))
}
