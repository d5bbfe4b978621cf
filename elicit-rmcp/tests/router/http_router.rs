//! `#[elicit_rmcp::handler]`'s default router over real streamable HTTP: rmcp asks for it on
//! every call, twice (`get_tool` for its header checks, then `call_tool`), and it is built
//! once, not on each ask. A server generic over a type builds it per call, as rmcp does, and
//! answers the same.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, ElicitServer, Principal};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ElicitationAction, InputResponses, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt, ErrorData as McpError, RoleClient};
use rmcp::{ServerHandler, tool, tool_router};
use serde_json::json;
use tokio::net::TcpListener;

use crate::harness::User;

/// Go ahead?
#[derive(Debug, ElicitForm)]
#[elicit(key = "go")]
struct Go {
    #[elicit(title = "Yes")]
    yes: bool,
}

/// How many times `Counted::tool_router()` ran.
static BUILT: AtomicUsize = AtomicUsize::new(0);

#[derive(Clone)]
struct Counted {
    elicit: ElicitHandler,
}

#[tool_router(router = routes)]
impl Counted {
    #[tool(description = "Asks, then answers")]
    async fn go(&self, mut cx: Elicit) -> Result<String, McpError> {
        go(&mut cx).await
    }
}

impl Counted {
    /// The router the attribute uses by default, counting each build.
    fn tool_router() -> ToolRouter<Self> {
        BUILT.fetch_add(1, Ordering::SeqCst);
        Self::routes()
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Counted {}

/// The same tool on a server generic over `T`: no static can name its type.
#[derive(Clone)]
struct Generic<T> {
    elicit: ElicitHandler,
    _tag: T,
}

#[tool_router]
impl<T: Clone + Send + Sync + 'static> Generic<T> {
    #[tool(description = "Asks, then answers")]
    async fn go(&self, mut cx: Elicit) -> Result<String, McpError> {
        go(&mut cx).await
    }
}

#[elicit_rmcp::handler]
impl<T: Clone + Send + Sync + 'static> ServerHandler for Generic<T> {}

async fn go(cx: &mut Elicit) -> Result<String, McpError> {
    Ok(match Go::ask(cx).await? {
        Answer::Accepted(Go { yes: true }) => "went".to_owned(),
        _ => "stayed".to_owned(),
    })
}

fn handler() -> ElicitHandler {
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "router"));
    ElicitHandler::new(server, Principal::fixed("alice"))
}

/// Serves `server` over streamable HTTP on a loopback port; rmcp's client on 2026-07-28.
async fn connect<S: ServerHandler + Clone>(server: S) -> RunningService<RoleClient, User> {
    let config = StreamableHttpServerConfig::default().with_json_response(true);
    let app =
        axum::Router::new().nest_service("/mcp", elicit_rmcp::streamable_http(server, config));
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("{origin}/mcp")),
    );
    User::always(ElicitationAction::Decline, None)
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client discovers the server over HTTP")
}

/// One whole flow: the call, its question, the retry with a yes; the final text.
async fn flow(client: &RunningService<RoleClient, User>) -> String {
    let call = CallToolRequestParams::new("go");
    let Ok(CallToolResponse::InputRequired(round)) = client.call_tool_once(call.clone()).await
    else {
        panic!("the first call asks")
    };
    let mut yes = InputResponses::new();
    yes.insert(
        "go".into(),
        json!({"action": "accept", "content": {"yes": true}}),
    );
    let retry = call
        .with_input_responses(yes)
        .with_request_state(round.request_state.expect("a sealed state"));
    match client.call_tool_once(retry).await {
        Ok(CallToolResponse::Complete(result)) => serde_json::to_value(&result).unwrap()["content"]
            [0]["text"]
            .as_str()
            .unwrap()
            .to_owned(),
        other => panic!("the retry answers, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_tool_router_is_built_once_not_on_every_call() {
    let client = connect(Counted { elicit: handler() }).await;
    assert_eq!(flow(&client).await, "went");
    // Once for each method rmcp asked it from (`get_tool`, `call_tool`), whatever it asks.
    let built = BUILT.load(Ordering::SeqCst);
    assert!((1..=3).contains(&built), "built {built} times");
    for _ in 0..5 {
        assert_eq!(flow(&client).await, "went");
    }
    assert_eq!(BUILT.load(Ordering::SeqCst), built, "12 calls later");
    let _ = client.cancel().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_server_builds_its_router_per_call_and_answers_the_same() {
    let client = connect(Generic {
        elicit: handler(),
        _tag: 7u8,
    })
    .await;
    for _ in 0..2 {
        assert_eq!(flow(&client).await, "went");
    }
    let _ = client.cancel().await;
}
