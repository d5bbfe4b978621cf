//! Serving the demo: the landing page on loopback, and MCP over stdio or streamable HTTP.

use std::net::SocketAddr;

use axum::Router;
use axum::http::request::Parts;
use axum::response::Response;
use elicit_axum::{ConnectHook, ConnectStep, LocalBrowser, OpenedLink, landing_routes};
use elicit_rmcp::url::LandingPage;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::json;
use tokio::net::TcpListener;

use super::bounded::{self, Bounds};
use super::config::DemoConfig;
use super::forms::ConnectAccount;
use super::server::{DEMO_USER, DemoServer};

/// The demo's stand-in for a third party: confirming the link completes the flow for the
/// local demo user. The demo has one local user (`LocalBrowser`): each link belongs to the
/// browser that opened it first. A server with sign-in reads the browser session's user in
/// `subject` instead (the route then refuses a handle started by anyone else), and runs OAuth
/// before completing (`elicit_axum::oauth`).
struct DemoConnect {
    local: LocalBrowser,
}

impl ConnectHook for DemoConnect {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.local.subject(parts).await
    }

    async fn connect(&self, link: &OpenedLink, _parts: &Parts) -> ConnectStep {
        let service = match link.state_as::<ConnectAccount>() {
            Ok(state) => state.service,
            Err(other_kind) => return ConnectStep::refuse(other_kind),
        };
        let account = format!("{DEMO_USER}@{service}");
        ConnectStep::complete(Some(json!({"account": account})))
            .with_heading(format!("Connected {service}"))
            .with_message(format!("Signed in as {account}."))
    }
}

/// Binds the landing page on an ephemeral loopback port; returns the router and the origin.
async fn landing() -> std::io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let origin = format!("http://{}", listener.local_addr()?);
    Ok((listener, origin))
}

/// The landing page at `/connect` (what `serve_stdio` and `serve_http` mount; the tests open
/// its links in elicit-axum's test browser).
pub fn connect_routes(server: &DemoServer) -> Router {
    let local = LocalBrowser::new(server.elicitation());
    landing_routes(
        LandingPage::new(server.elicitation()),
        DemoConnect { local },
    )
}

/// Serves MCP on stdin/stdout (the landing page on an ephemeral loopback port), set up by
/// `config`.
pub async fn serve_stdio(
    config: &DemoConfig,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (listener, origin) = landing().await?;
    let server = DemoServer::with_elicitation(config.elicit_server(&origin).await?);
    let app = connect_routes(&server);
    tokio::spawn(bounded::serve(listener, app, Bounds::default()));
    eprintln!("elicit demo: landing page at {origin}/connect; MCP on stdio");
    Ok(elicit_rmcp::serve_stdio(server).await?)
}

/// Serves a raw rmcp `service` (the benchmark's floor, elicit-free) on stdin/stdout through
/// rmcp's `stdio_pipes()` until the client leaves, as `elicit_rmcp::serve_stdio` serves an
/// elicit server: a client that closes its pipe before any session starts (a probe that only
/// sent `server/discover`) is a normal end, not an error.
pub async fn serve_until_closed<S: rmcp::Service<rmcp::RoleServer>>(
    service: S,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let running = match service.serve(rmcp::transport::stdio_pipes()).await {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    running.waiting().await?;
    Ok(())
}

/// Serves MCP over streamable HTTP at `http://127.0.0.1:{port}/mcp`, with the landing page
/// on the same port, set up by `config`.
///
/// Requests carrying the 2026-07-28 `_meta` envelope are served statelessly, so with shared
/// keys and Redis ([`DemoConfig`]) every round of a flow, and the landing page its link opens,
/// may reach a different replica.
pub async fn serve_http(
    port: u16,
    config: &DemoConfig,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    let origin = format!("http://{}", listener.local_addr()?);
    let server = DemoServer::with_elicitation(config.elicit_server(&origin).await?);
    let http = StreamableHttpServerConfig::default().with_json_response(true);
    let mcp = elicit_rmcp::streamable_http(server.clone(), http);
    let app = connect_routes(&server).nest_service("/mcp", mcp);
    let store = if config.redis.is_some() {
        "completions and spent states in Redis"
    } else {
        "completions in memory"
    };
    eprintln!(
        "elicit demo: MCP at {origin}/mcp; landing page at {origin}/connect; links to {}; {store}",
        config.public_origin.as_deref().unwrap_or(&origin),
    );
    bounded::serve(listener, app, Bounds::default()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use elicit_rmcp::testing::TestClient;
    use elicit_rmcp::{ElicitContext, Reply};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::*;

    /// One HTTP/1.1 exchange with the demo's landing page, sent with `host`: the status code
    /// and the body.
    async fn send(addr: &str, head: &str, host: &str, body: &str) -> (u16, String) {
        let (status, _, body) = exchange(addr, head, host, body).await;
        (status, body)
    }

    /// [`send`], with the response's head too.
    async fn exchange(addr: &str, head: &str, host: &str, body: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let request = format!("{head}Host: {host}\r\nConnection: close\r\n\r\n{body}");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let status = response.split(' ').nth(1).unwrap().parse().unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        (status, head.to_owned(), body.to_owned())
    }

    /// The value of header `name` in a response head.
    fn header(head: &str, name: &str) -> String {
        head.lines()
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.eq_ignore_ascii_case(name)
                    .then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("no {name} in {head}"))
    }

    /// Issue 32: the demo's `/mcp` refused a rebinding attacker's `Host`, its `/connect`
    /// showed the page and confirmed. Its route now checks `Host` against the links' origin
    /// (`UrlSettings::with_origin`, the loopback port): the attacker's name for 127.0.0.1 gets the
    /// uniform 404 on `GET` and `POST`, the link's own host the page.
    #[tokio::test]
    async fn the_landing_page_refuses_a_rebinding_hosts_requests() {
        let (listener, origin) = landing().await.unwrap();
        let server = DemoServer::new(&origin);
        let app = connect_routes(&server);
        tokio::spawn(bounded::serve(listener, app, Bounds::default()));

        // connect_account's link.
        let client =
            TestClient::new(server.elicitation().clone()).principal(elicit_rmcp::LOCAL_PRINCIPAL);
        let call = client.tool_params("connect_account", json!({"service": "github"}));
        let mut ask = async |cx: &mut ElicitContext| {
            let service = "github".to_owned();
            ConnectAccount { service }.ask(cx).await
        };
        let Ok(Reply::InputRequired(round)) = client.round("tools/call", &call, &mut ask).await
        else {
            panic!("the first round asks");
        };
        let request = serde_json::to_value(round.input_requests().unwrap()).unwrap();
        let url = request.as_object().unwrap().values().next().unwrap()["params"]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let path = url
            .strip_prefix(&origin)
            .expect("the link is on the landing origin");
        let addr = origin.strip_prefix("http://").unwrap();
        let port = addr.rsplit_once(':').unwrap().1;
        // The demo's one local user: the first browser to open the link gets its cookie.
        let (status, head, _) = exchange(addr, &format!("GET {path} HTTP/1.1\r\n"), addr, "").await;
        assert_eq!(status, 303, "{head}");
        let cookie = header(&head, "set-cookie");
        let cookie = cookie.split(';').next().unwrap();
        let location = header(&head, "location");
        let get = format!("GET {location} HTTP/1.1\r\nCookie: {cookie}\r\n");

        let (status, page) = send(addr, &get, addr, "").await;
        assert_eq!(status, 200, "{page}");
        // What is being confirmed: the service (`#[elicit(show = "Service")]`).
        assert!(page.contains("<dt>Service</dt><dd>github</dd>"), "{page}");
        let token = page.split("name=\"token\" value=\"").nth(1).unwrap();
        let token = &token[..token.find('"').unwrap()];
        let form = format!("token={token}&decision=confirm");
        let post = |from: &str| {
            format!(
                "POST {path} HTTP/1.1\r\nCookie: {cookie}\r\nOrigin: http://{from}\r\nSec-Fetch-Site: same-origin\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                form.len()
            )
        };
        let attacker = format!("attacker.example:{port}");
        let (status, refused) = send(addr, &get, &attacker, "").await;
        assert_eq!(status, 404);
        assert!(
            refused.contains("This link is invalid or has expired."),
            "{refused}"
        );
        assert_eq!(send(addr, &post(&attacker), &attacker, &form).await.0, 404);
        // The page's own host and origin: confirmed.
        let (status, done) = send(addr, &post(addr), addr, &form).await;
        assert_eq!(status, 200, "{done}");
        assert!(done.contains("Connected github"), "{done}");
    }
}
