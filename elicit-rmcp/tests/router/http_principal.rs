//! Issue 21 item 2: the principal over real streamable HTTP. An authentication layer in front
//! of rmcp's `StreamableHttpService` puts the user into the HTTP request's extensions;
//! `Principal::from_http_extension` reads it where rmcp hands it on (the HTTP request's
//! `Parts`), and `ElicitServer::with_required_principal` refuses a request without one.
//! rmcp's own client talks to the server over a loopback socket, as two users and as nobody.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use elicit_rmcp::adapter::WireFix;
use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, ElicitServer, Principal};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ElicitationAction, InputResponses, ProtocolVersion,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData as McpError, RoleClient, ServerHandler,
};
use rmcp::{schemars, tool, tool_router};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::harness::{User, object};
use crate::http_auth::{Authenticated, authenticate};

/// Delete the file?
#[derive(Debug, ElicitForm)]
#[elicit(key = "confirm_delete")]
struct ConfirmDelete {
    #[elicit(title = "Yes, delete it")]
    confirm: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct FileArgs {
    path: String,
}

#[derive(Clone)]
struct Files {
    elicit: ElicitHandler,
    deleted: Arc<Mutex<Vec<String>>>,
}

#[tool_router]
impl Files {
    #[tool(description = "Delete a file")]
    async fn delete_file(
        &self,
        Parameters(args): Parameters<FileArgs>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        Ok(match ConfirmDelete::ask(&mut cx).await? {
            Answer::Accepted(ConfirmDelete { confirm: true }) => {
                let who = cx.principal().unwrap_or("nobody").to_owned();
                self.deleted
                    .lock()
                    .unwrap()
                    .push(format!("{} for {who}", args.path));
                format!("deleted {}", args.path)
            }
            _ => "kept".to_owned(),
        })
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Files {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// Serves `Files` over streamable HTTP on a loopback port; returns its origin and the record
/// of what was deleted.
async fn serve() -> (String, Arc<Mutex<Vec<String>>>) {
    let deleted = Arc::new(Mutex::new(Vec::new()));
    let server =
        ElicitServer::new(StateSealer::new(KeyRing::generate(), "files")).with_required_principal();
    let files = Files {
        elicit: ElicitHandler::new(
            server,
            Principal::from_http_extension(|user: &Authenticated| Some(user.0.clone())),
        ),
        deleted: deleted.clone(),
    };
    let mcp = WireFix::new(StreamableHttpService::new(
        move || Ok(files.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_json_response(true),
    ));
    let app = Router::new().nest_service("/mcp", tower::ServiceExt::map_request(mcp, authenticate));
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, deleted)
}

/// rmcp's client on 2026-07-28, sending `Authorization: Bearer <user>` when given a user.
async fn client(origin: &str, user: Option<&str>) -> RunningService<RoleClient, User> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{origin}/mcp"));
    if let Some(user) = user {
        config = config.auth_header(user);
    }
    User::always(ElicitationAction::Decline, None)
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(config),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client discovers the server over HTTP")
}

fn delete(path: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("delete_file").with_arguments(object(json!({"path": path})))
}

fn yes() -> InputResponses {
    let mut answers = InputResponses::new();
    answers.insert(
        "confirm_delete".into(),
        json!({"action": "accept", "content": {"confirm": true}}),
    );
    answers
}

fn error_of(outcome: Result<CallToolResponse, ServiceError>) -> Value {
    match outcome {
        Err(ServiceError::McpError(error)) => serde_json::to_value(error).unwrap(),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

fn text_of(outcome: Result<CallToolResponse, ServiceError>) -> String {
    match outcome {
        Ok(CallToolResponse::Complete(result)) => serde_json::to_value(&result).unwrap()["content"]
            [0]["text"]
            .as_str()
            .unwrap()
            .to_owned(),
        other => panic!("expected a result, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_bob_cannot_replay_alices_confirmation() {
    let (origin, deleted) = serve().await;
    let alice = client(&origin, Some("alice")).await;
    let bob = client(&origin, Some("bob")).await;

    // Alice asks to delete her file; the server asks her to confirm.
    let Ok(CallToolResponse::InputRequired(round)) =
        alice.call_tool_once(delete("alice/report.txt")).await
    else {
        panic!("the first call asks for confirmation")
    };
    let state = round.request_state.clone().expect("a sealed state");
    let retry = delete("alice/report.txt")
        .with_input_responses(yes())
        .with_request_state(state);

    // Bob sends Alice's confirmation with her state: refused, nothing deleted.
    let refused = error_of(bob.call_tool_once(retry.clone()).await);
    assert_eq!(
        refused,
        json!({"code": -32602, "message": "Invalid or expired requestState", "data": {"reason": "invalid_request_state"}})
    );
    assert!(deleted.lock().unwrap().is_empty());

    // Alice's own retry deletes her file, bound to her.
    assert_eq!(
        text_of(alice.call_tool_once(retry.clone()).await),
        "deleted alice/report.txt"
    );
    assert_eq!(*deleted.lock().unwrap(), ["alice/report.txt for alice"]);

    // Bob after the fact, and Alice again: still nothing more (the state is spent).
    for user in [&bob, &alice] {
        let again = error_of(user.call_tool_once(retry.clone()).await);
        assert_eq!(again["code"], -32602);
    }
    assert_eq!(deleted.lock().unwrap().len(), 1);
    for running in [alice, bob] {
        let _ = running.cancel().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_request_without_a_user_is_refused_when_the_principal_is_required() {
    let (origin, deleted) = serve().await;
    let nobody = client(&origin, None).await;
    let refused = error_of(nobody.call_tool_once(delete("alice/report.txt")).await);
    assert_eq!(
        refused,
        json!({
            "code": -32600,
            "message": "this server requires an authenticated user, and the request carries none",
            "data": {"reason": "unauthenticated"}
        })
    );
    // Nor can it answer with a state sealed for someone: refused before the state is opened.
    let alice = client(&origin, Some("alice")).await;
    let Ok(CallToolResponse::InputRequired(round)) = alice.call_tool_once(delete("x")).await else {
        panic!("the first call asks for confirmation")
    };
    let retry = delete("x")
        .with_input_responses(yes())
        .with_request_state(round.request_state.unwrap());
    assert_eq!(error_of(nobody.call_tool_once(retry).await)["code"], -32600);
    assert!(deleted.lock().unwrap().is_empty());
    for running in [alice, nobody] {
        let _ = running.cancel().await;
    }
}
