//! The server the MCP conformance suite (`@modelcontextprotocol/conformance`) tests: its
//! elicitation fixtures (2025-11-25, over an `initialize` session) and its input-required
//! fixtures (2026-07-28, stateless) and the tasks extension's input flow, served as
//! streamable HTTP at `http://127.0.0.1:PORT/mcp`. `scripts/conformance` builds it and runs
//! the suite against it.
//!
//! ```text
//! conformance-server --port 8123
//! ```

use std::net::{Ipv4Addr, SocketAddr};

use elicit_rmcp::adapter::WireFix;
use elicit_runtime::ElicitServer;
use elicit_runtime::state::{KeyRing, StateSealer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

mod fixtures;
mod forms;
mod tasks;

use fixtures::Fixtures;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let port: u16 = match args.as_slice() {
        [flag, port] if flag == "--port" => port.parse()?,
        _ => {
            eprintln!("usage: conformance-server --port PORT");
            std::process::exit(2);
        }
    };

    let sealer = StateSealer::new(KeyRing::generate(), "elicit-conformance-server");
    let elicit = ElicitServer::new(sealer)
        .with_server_info("elicit-conformance-server", env!("CARGO_PKG_VERSION"));
    let fixtures = Fixtures::new(elicit);

    // Sessions for clients that send `initialize` (2025-11-25: questions go to the client as
    // `elicitation/create` on the request's SSE stream). Requests carrying the 2026-07-28
    // `_meta` envelope are served statelessly whatever this says, and get a plain JSON body
    // (`json_response` only affects stateless requests). The default `Host` allow-list is the
    // loopback names, which is what the suite sends.
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true);
    // `WireFix` around the HTTP service, as around a stdio handler: the suite's requests
    // and answers (JSON bodies and SSE streams) go through the same wire fix users get.
    let service: StreamableHttpService<Fixtures, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(fixtures.clone()), Default::default(), config);
    let service = WireFix::new(service);
    let router = axum::Router::new().nest_service("/mcp", service);

    let listener =
        tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
    eprintln!("conformance-server: http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
