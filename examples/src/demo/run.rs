//! Serving the demo: the landing page on loopback, and MCP over stdio or streamable HTTP.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::response::Html;
use axum::routing::get;
use elicit_runtime::adapters::rmcp::ElicitService;
use elicit_runtime::url::{LandingPage, PageError};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::net::TcpListener;

use super::server::{DEMO_USER, DemoServer};

/// The demo's stand-in for a third party: opening the link completes the flow for the local
/// demo user. A real page would check the browser session's user against the handle (as
/// `LandingPage::open` does here with the demo user) and run OAuth before completing.
async fn connect_page(
    State(page): State<LandingPage>,
    Query(query): Query<HashMap<String, String>>,
) -> (axum::http::StatusCode, Html<String>) {
    use axum::http::StatusCode;
    let Some(handle) = query.get("elicitation") else {
        return (
            StatusCode::BAD_REQUEST,
            Html("<p>missing elicitation handle</p>".into()),
        );
    };
    let opened = match page.open_raw(handle, DEMO_USER).await {
        Ok(opened) => opened,
        Err(PageError::WrongSubject) => {
            return (
                StatusCode::FORBIDDEN,
                Html("<p>This link was started by another user.</p>".into()),
            );
        }
        Err(e) => {
            // The precise reason goes to the log; the browser sees the uniform text.
            eprintln!("connect page: {}", e.reason());
            return (StatusCode::BAD_REQUEST, Html(format!("<p>{e}</p>")));
        }
    };
    let (key, state) = opened;
    let service = state
        .get("service")
        .and_then(|s| s.as_str())
        .unwrap_or("the service")
        .to_owned();
    let account = format!("{DEMO_USER}@{service}");
    match page
        .complete_raw(&key, Some(json!({"account": account})))
        .await
    {
        Ok(()) => (
            StatusCode::OK,
            Html(format!(
                "<h1>Connected {service}</h1><p>Signed in as {account}. You can close this tab and return to your assistant.</p>"
            )),
        ),
        Err(e) => (StatusCode::CONFLICT, Html(format!("<p>{e}</p>"))),
    }
}

/// Binds the landing page on an ephemeral loopback port; returns the router and the origin.
async fn landing() -> std::io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let origin = format!("http://{}", listener.local_addr()?);
    Ok((listener, origin))
}

fn landing_routes(server: &DemoServer) -> Router {
    Router::new()
        .route("/connect", get(connect_page))
        .with_state(LandingPage::new(server.elicitation()))
}

/// Serves MCP on stdin/stdout (the landing page on an ephemeral loopback port).
pub async fn serve_stdio() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (listener, origin) = landing().await?;
    let server = DemoServer::new(&origin);
    let app = landing_routes(&server);
    tokio::spawn(async move { axum::serve(listener, app).await });
    eprintln!("elicit demo: landing page at {origin}/connect; MCP on stdio");
    // A client may close its pipe before any session starts (e.g. a probe that only sent
    // `server/discover`): that is a normal end, not an error.
    let running = match ElicitService::new(server)
        .serve(rmcp::transport::stdio_pipes())
        .await
    {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    running.waiting().await?;
    Ok(())
}

/// Serves MCP over streamable HTTP at `http://127.0.0.1:{port}/mcp`, with the landing page
/// on the same port.
pub async fn serve_http(port: u16) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    let origin = format!("http://{}", listener.local_addr()?);
    let server = DemoServer::new(&origin);
    let factory = server.clone();
    let mcp = ElicitService::new(StreamableHttpService::new(
        move || Ok(factory.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_json_response(true),
    ));
    let app = landing_routes(&server).nest_service("/mcp", mcp);
    eprintln!("elicit demo: MCP at {origin}/mcp; landing page at {origin}/connect");
    axum::serve(listener, app).await?;
    Ok(())
}
