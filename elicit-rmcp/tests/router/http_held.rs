//! A retry held over real streamable HTTP is released when its client goes away: rmcp's
//! client accepts a URL-mode question, its retry is held for the page, and the client is shut
//! down mid-hold (its HTTP connection closes). rmcp cancels the request, the hold ends and its
//! wait goes back to the pool (`ElicitServer::url_waits_held`) long before the hold would
//! have passed, even after the hold's first progress report went out (rmcp's client asks for
//! progress on every request, so the response had already started).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use elicit_rmcp::adapter::WireFix;
use elicit_rmcp::url::{MemoryCompletionStore, UrlSettings};
use elicit_rmcp::{ElicitServer, Principal};
use rmcp::ClientLifecycleMode;
use rmcp::ClientServiceExt;
use rmcp::model::{ElicitationAction, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::net::TcpListener;

use crate::harness::{User, call};
use crate::servers::{Wired, elicit_server};

/// Serves `Wired` (its URL-mode retries held 60 s) at `/mcp` on a loopback port.
async fn serve(server: ElicitServer) -> String {
    let wired = Wired::with_server(server, Principal::fixed("alice"));
    let mcp = WireFix::new(StreamableHttpService::new(
        move || Ok(wired.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_json_response(true),
    ));
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let app = Router::new().nest_service("/mcp", mcp);
    tokio::spawn(async move { axum::serve(listener, app).await });
    origin
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_client_gone_mid_hold_gives_its_wait_back() {
    let user = User::always(ElicitationAction::Accept, None);
    let server = elicit_server().with_url(
        UrlSettings::new(Arc::new(MemoryCompletionStore::new())).with_hold(Duration::from_secs(60)),
    );
    let origin = serve(server.clone()).await;
    let client = user
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(
                StreamableHttpClientTransportConfig::with_uri(format!("{origin}/mcp")),
            ),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client discovers the server over HTTP");
    // The client, its rounds driven by its handler, in a task of its own: aborted, it is
    // dropped with its transport and its HTTP connection closes, as a client that goes away.
    let calling = tokio::spawn(async move {
        client
            .call_tool(call("connect_account", json!({"service": "github"})))
            .await
    });
    tokio::time::timeout(Duration::from_secs(20), async {
        while server.url_waits_held() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the accepted retry is held");
    // Past the first progress report (once a second), so rmcp has started the response.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.url_waits_held(), 1, "still held");
    let gone = std::time::Instant::now();
    calling.abort();
    tokio::time::timeout(Duration::from_secs(20), async {
        while server.url_waits_held() != 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the wait came back when the client went away, not when the 60 s hold passed");
    eprintln!(
        "the wait came back {:?} after the client went away",
        gone.elapsed()
    );
    assert!(calling.await.unwrap_err().is_cancelled(), "never answered");
}
