//! The stand-ins for the user's side: a browser signed in to the app, and an MCP client (rmcp's
//! own) that accepts every URL-mode link at once, the person opening it in that browser a moment
//! later.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Arc, Mutex};

use elicit_host::safe_text;
use elicit_rmcp::adapter::WireFix;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    InitializeRequestParams, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ClientLifecycleMode, ErrorData, RoleClient, ServerHandler, ServiceExt};

use crate::http;

/// A browser signed in to the app: keeps the cookies the app sets (beside its session
/// cookie), sends them only to the app, follows redirects, and the user presses Confirm on
/// the landing route's confirmation page.
#[derive(Clone)]
pub(crate) struct Browser {
    app_origin: String,
    cookies: Arc<Mutex<BTreeMap<String, String>>>,
}

impl Browser {
    /// A browser whose session cookie at `app_origin` is `session`.
    pub(crate) fn new(app_origin: &str, session: &str) -> Self {
        let cookies = BTreeMap::from([("session".to_owned(), session.to_owned())]);
        Browser {
            app_origin: app_origin.to_owned(),
            cookies: Arc::new(Mutex::new(cookies)),
        }
    }

    /// Opens `url`, confirms if it shows the confirmation page, and follows redirects;
    /// returns the last response.
    pub(crate) async fn visit(&self, url: &str) -> io::Result<http::Response> {
        let mut request = ("GET", url.to_owned(), String::new());
        for _ in 0..6 {
            let (method, url, form) = &request;
            let at_app = url.starts_with(&format!("{}/", self.app_origin));
            let cookie = self.cookie_header();
            let mut headers = vec![];
            if at_app {
                headers.push(("cookie", cookie.as_str()));
            }
            if *method == "POST" {
                // What a browser sends with a page's own form.
                headers.push(("origin", self.app_origin.as_str()));
                headers.push(("sec-fetch-site", "same-origin"));
                headers.push(("content-type", "application/x-www-form-urlencoded"));
            }
            let response = http::send(method, url, &headers, form).await?;
            println!(
                "  browser: {method} {} -> {}",
                path_of(url),
                response.status
            );
            if at_app {
                self.keep(&response.set_cookies);
            }
            request = match (&response.location, confirm_form(&response.body)) {
                (Some(next), _) if (300..400).contains(&response.status) => {
                    ("GET", next.clone(), String::new())
                }
                // The user reads the page and presses Confirm: its form posts to the same URL.
                (_, Some(form)) if response.status == 200 => ("POST", url.clone(), form),
                _ => return Ok(response),
            };
        }
        Err(io::Error::other("too many redirects"))
    }

    fn cookie_header(&self) -> String {
        let cookies = self.cookies.lock().unwrap();
        let pairs: Vec<String> = cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
        pairs.join("; ")
    }

    /// Keeps (or, with `Max-Age=0`, drops) what `Set-Cookie` says.
    fn keep(&self, set_cookies: &[String]) {
        let mut cookies = self.cookies.lock().unwrap();
        for set in set_cookies {
            let pair = set.split(';').next().unwrap_or_default();
            let Some((name, value)) = pair.split_once('=') else {
                continue;
            };
            if set.contains("Max-Age=0") {
                cookies.remove(name.trim());
            } else {
                cookies.insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
    }
}

/// The confirmation page's form, as the Confirm button posts it.
fn confirm_form(html: &str) -> Option<String> {
    let token = html
        .split("name=\"token\" value=\"")
        .nth(1)?
        .split('"')
        .next()?;
    html.contains("value=\"confirm\"")
        .then(|| format!("token={token}&decision=confirm"))
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
    /// The person's visits to the pages, still under way.
    people: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

/// How long after the client accepted the person opens the link.
const PERSON_DELAY: std::time::Duration = std::time::Duration::from_millis(1500);

impl ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::UrlElicitationParams { message, url, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        // The server's words, shown and never obeyed.
        println!(
            "  client: \"{}\" -> accepts; the person opens {} a moment later",
            safe_text(&message),
            safe_text(path_of(&url))
        );
        self.links.lock().unwrap().push(url.clone());
        // As a person does it: the client's callback returns at once, and the person comes to
        // the page later, while the server holds the retry (2026-07-28) or waits (2025-11-25).
        let browser = self.browser.clone();
        let person = tokio::spawn(async move {
            tokio::time::sleep(PERSON_DELAY).await;
            match browser.visit(&url).await {
                Ok(page) => {
                    let heading = page
                        .body
                        .split("<h1>")
                        .nth(1)
                        .and_then(|h| h.split("</h1>").next());
                    let heading = heading.unwrap_or(page.body.trim());
                    println!("  browser shows: {}", safe_text(heading));
                }
                Err(e) => println!("  browser: {e}"),
            }
        });
        self.people.lock().unwrap().push(person);
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
pub(crate) async fn call_tool<S: ServerHandler>(
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
    let people = Arc::new(Mutex::new(Vec::new()));
    let user = User {
        era: era.clone(),
        browser,
        links: links.clone(),
        people: people.clone(),
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
    // The person's visits ended before the call did (it waited for them); their last lines
    // are printed before the result.
    let visits: Vec<_> = people.lock().unwrap().drain(..).collect();
    for visit in visits {
        visit.await?;
    }
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    let links = links.lock().unwrap().clone();
    Ok((text, links))
}
