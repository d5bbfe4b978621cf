//! Tasks over real streamable HTTP (`WireFix` around rmcp's `StreamableHttpService`): rmcp's
//! client sends `Mcp-Name: <taskId>` on `tasks/*` as SEP-2663 requires and drives a task
//! through its question as its user; another user gets what an unknown id gets; a `tasks/get`
//! whose `Mcp-Name` is missing or names another task is refused before it reaches the task.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use elicit_rmcp::adapter::WireFix;
use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, ElicitServer, Principal};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ElicitationAction, GetTaskParams, ProtocolVersion,
    TaskPayload, UpdateTaskParams,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData as McpError, RoleClient, ServerHandler,
};
use rmcp::{tool, tool_router};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tower::ServiceExt as _;

use crate::harness::{User, object};
use crate::http_auth::{Authenticated, authenticate};

/// Publish the report?
#[derive(Debug, ElicitForm)]
struct Publish {
    publish: bool,
}

#[derive(Clone)]
struct Reports {
    elicit: ElicitHandler,
}

#[tool_router]
impl Reports {
    #[tool(description = "Build the quarterly report")]
    async fn build_report(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            Ok(match Publish::ask(&mut input).await? {
                Answer::Accepted(Publish { publish: true }) => "published".to_owned(),
                _ => "kept as a draft".to_owned(),
            })
        })
        .await
    }
}

#[elicit_rmcp::handler(tasks)]
impl ServerHandler for Reports {}

/// The app serving `Reports` at `/mcp`.
fn app() -> Router {
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "reports"));
    let reports = Reports {
        elicit: ElicitHandler::new(
            server,
            Principal::from_http_extension(|user: &Authenticated| Some(user.0.clone())),
        ),
    };
    let mcp = WireFix::new(StreamableHttpService::new(
        move || Ok(reports.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_json_response(true),
    ));
    Router::new().nest_service("/mcp", tower::ServiceExt::map_request(mcp, authenticate))
}

async fn serve(app: Router) -> String {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    origin
}

/// rmcp's client on 2026-07-28 as `user`, declaring the tasks extension.
async fn client(origin: &str, user: &str) -> RunningService<RoleClient, User> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(format!("{origin}/mcp")).auth_header(user);
    let mut me = User::always(ElicitationAction::Decline, None);
    me.with_tasks();
    me.serve_with_lifecycle(
        StreamableHttpClientTransport::from_config(config),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .expect("the client discovers the server over HTTP")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_task_is_driven_through_its_question_by_its_own_user() {
    let router = app();
    let origin = serve(router.clone()).await;
    let alice = client(&origin, "alice").await;
    let bob = client(&origin, "bob").await;

    let call = CallToolRequestParams::new("build_report").with_arguments(object(json!({})));
    let Ok(CallToolResponse::Task(created)) = alice.call_tool_once(call).await else {
        panic!("the call becomes a task")
    };
    let id = created.task.task_id;
    let shown = loop {
        let got = alice
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if let TaskPayload::InputRequired { input_requests } = got.task.payload {
            break input_requests;
        }
    };
    assert_eq!(shown.keys().collect::<Vec<_>>(), ["publish"]);

    // Bob, with the id: what an unknown id gets.
    let Err(ServiceError::McpError(refused)) = bob.get_task(GetTaskParams::new(id.clone())).await
    else {
        panic!("bob sees no task")
    };
    assert_eq!(
        serde_json::to_value(refused).unwrap(),
        json!({"code": -32602, "message": "no such task", "data": {"taskId": id}})
    );

    // Raw `tasks/get` without the routing header, or naming another task: refused by the
    // transport (SEP-2243's -32020, HTTP 400).
    for name in [None, Some("another-task")] {
        let (status, body) = raw_get(&router, &id, name).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}");
        assert_eq!(body["error"]["code"], -32020, "{name:?}: {body}");
    }
    // With `Mcp-Name: <taskId>` it is served (to alice).
    let (status, body) = raw_get(&router, &id, Some(&id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["result"]["status"], "input_required", "{body}");

    let mut answers = rmcp::model::InputResponses::new();
    answers.insert(
        "publish".into(),
        json!({"action": "accept", "content": {"publish": true}}),
    );
    alice
        .update_task(UpdateTaskParams::new(id.clone(), answers))
        .await
        .unwrap();
    let result = loop {
        let got = alice
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if let TaskPayload::Completed { result } = got.task.payload {
            break Value::Object(result);
        }
    };
    assert_eq!(result["content"][0]["text"], "published");
    for running in [alice, bob] {
        let _ = running.cancel().await;
    }
}

/// A `tasks/get` for `id` posted by hand as alice, with `Mcp-Name: name` when given.
async fn raw_get(router: &Router, id: &str, name: Option<&str>) -> (StatusCode, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 70, "method": "tasks/get", "params": {
        "taskId": id,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}
        }
    }});
    let mut request = Request::post("/mcp")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .header(header::AUTHORIZATION, "Bearer alice")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tasks/get");
    if let Some(name) = name {
        request = request.header("Mcp-Name", name);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}
