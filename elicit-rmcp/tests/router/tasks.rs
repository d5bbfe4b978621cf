//! Tools that answer with a task (`Elicit::task`, `#[elicit_rmcp::handler(tasks)]`): the exact
//! JSON of `resultType: "task"`, `tasks/get`, `tasks/update` and `tasks/cancel`, the tasks
//! extension's rules (keys unique for the task's life, partial and stray answers), each task
//! visible to the principal that created it alone, and the same tool in the call for a client
//! without the extension or on 2025-11-25.

use std::time::Duration;

use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, Principal};
use rmcp::model::{
    CallToolResponse, CancelTaskParams, ElicitationAction::Accept, GetTaskParams,
    RequestMetaObject, TaskStatus, UpdateTaskParams,
};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::{Value, json};

use super::harness::{ERAS, Era, Session, User, call, connect, object, text_of};
use super::servers::{elicit_server, user_from_meta};

/// How many guests?
#[derive(Debug, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

/// Overwrite last week's export?
#[derive(Debug, ElicitForm)]
struct Overwrite {
    overwrite: bool,
}

#[derive(Clone)]
struct Exports {
    elicit: ElicitHandler,
}

#[tool_router]
impl Exports {
    /// Asks whether to overwrite, then exports.
    #[tool]
    async fn export(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            Ok(match Overwrite::ask(&mut input).await? {
                Answer::Accepted(Overwrite { overwrite: true }) => "exported".to_owned(),
                _ => "kept last week's".to_owned(),
            })
        })
        .await
    }

    /// Asks the same form twice: lunch, then dinner.
    #[tool]
    async fn twice(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            let lunch = Guests::question().message("Lunch?").ask(&mut input).await?;
            let dinner = Guests::question()
                .message("Dinner?")
                .ask(&mut input)
                .await?;
            let count = |answer: Answer<Guests>| answer.accepted().map_or(0, |g| g.count);
            Ok(format!(
                "{} for lunch, {} for dinner",
                count(lunch),
                count(dinner)
            ))
        })
        .await
    }

    /// Two questions outstanding at once (in a task; in the call, one round).
    #[tool]
    async fn both(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            let (guests, overwrite) = match input.alongside() {
                Some(mut second) => {
                    let (guests, overwrite) =
                        tokio::join!(Guests::ask(&mut input), Overwrite::ask(&mut second));
                    (guests?, overwrite?)
                }
                None => {
                    let guests = Guests::ask(&mut input).await;
                    let overwrite = Overwrite::ask(&mut input).await;
                    (guests?, overwrite?)
                }
            };
            Ok(format!("{guests:?} {overwrite:?}"))
        })
        .await
    }

    /// Fails with a JSON-RPC error after its question.
    #[tool]
    async fn broken(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            let _answer = Overwrite::ask(&mut input).await?;
            Err::<String, _>(McpError::internal_error("the export store is down", None))
        })
        .await
    }
}

#[elicit_rmcp::handler(tasks)]
impl ServerHandler for Exports {}

/// The same tools on a server wired without `tasks`.
#[derive(Clone)]
struct Unwired {
    elicit: ElicitHandler,
}

#[tool_router]
impl Unwired {
    /// As `Exports::export`.
    #[tool]
    async fn export(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|_input| async move { Ok("exported".to_owned()) })
            .await
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Unwired {}

fn exports() -> Exports {
    Exports {
        elicit: ElicitHandler::new(elicit_server(), user_from_meta()),
    }
}

/// `_meta` naming the user (what `user_from_meta` reads).
fn as_user(user: &str) -> RequestMetaObject {
    let mut meta = RequestMetaObject::new();
    meta.insert("example.com/user".to_owned(), json!(user));
    meta
}

/// A client that declares the tasks extension and answers every pushed question (2025-11-25)
/// with `content`.
fn tasks_user(content: Value) -> User {
    let mut user = User::always(Accept, Some(content));
    user.with_tasks();
    user
}

/// Starts `tool` as `user`; its task's id.
async fn start(session: &Session, tool: &'static str, user: &str) -> String {
    let mut params = call(tool, json!({}));
    params.meta = Some(as_user(user));
    match session.client.call_tool_once(params).await.unwrap() {
        CallToolResponse::Task(created) => created.task.task_id,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// A JSON-RPC error as JSON (anything else fails the test).
fn error_json(error: rmcp::service::ServiceError) -> Value {
    match error {
        rmcp::service::ServiceError::McpError(e) => serde_json::to_value(e).unwrap(),
        other => panic!("{other}"),
    }
}

/// `tasks/get` as `user`: the result's JSON, or the error's.
async fn get(session: &Session, id: &str, user: &str) -> Result<Value, Value> {
    let mut params = GetTaskParams::new(id);
    params.meta = Some(as_user(user));
    let got = session.client.get_task(params).await.map_err(error_json)?;
    Ok(serde_json::to_value(got).unwrap())
}

/// `tasks/cancel` as `user`.
async fn cancel(session: &Session, id: &str, user: &str) -> Result<(), Value> {
    let mut params = CancelTaskParams::new(id);
    params.meta = Some(as_user(user));
    session.client.cancel_task(params).await.map_err(error_json)
}

/// `tasks/get` as `user` until the task shows `status` (any other change fails the test).
async fn until(session: &Session, id: &str, user: &str, status: &str) -> Value {
    for _ in 0..2000 {
        let got = get(session, id, user).await.unwrap();
        if got["status"] == status {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    panic!("the task never reached {status}");
}

/// `tasks/update` as `user` with `responses`.
async fn update(session: &Session, id: &str, user: &str, responses: Value) -> Result<(), Value> {
    let mut params = UpdateTaskParams::new(id, object(responses).into_iter().collect());
    params.meta = Some(as_user(user));
    session.client.update_task(params).await.map_err(error_json)
}

/// The task's JSON without what changes from run to run (its id and timestamps), which must
/// be there.
/// Alice answers her task's questions (`tasks/update`), and it accepts them.
async fn answer(session: &Session, id: &str, responses: Value) {
    update(session, id, "alice", responses).await.unwrap();
}

/// The text of Alice's task once it has completed.
async fn completed_text(session: &Session, id: &str) -> Value {
    until(session, id, "alice", "completed").await["result"]["content"][0]["text"].clone()
}

fn stable(mut task: Value) -> Value {
    let map = task.as_object_mut().unwrap();
    for key in ["taskId", "createdAt", "lastUpdatedAt"] {
        assert!(map.remove(key).unwrap().is_string(), "{key}");
    }
    task
}

fn overwrite_request() -> Value {
    json!({"method": "elicitation/create", "params": {
        "mode": "form",
        "message": "Overwrite last week's export?",
        "requestedSchema": {
            "type": "object",
            "properties": {"overwrite": {"type": "boolean"}},
            "required": ["overwrite"]
        }
    }})
}

#[tokio::test]
async fn a_call_declaring_the_extension_becomes_a_task_answered_by_tasks_update() {
    let session = connect(exports(), Era::Mrtr, tasks_user(json!({}))).await;
    let id = start(&session, "export", "alice").await;
    let created = session.wire.responses_to("tools/call").pop().unwrap();
    assert_eq!(
        stable(created["result"].clone()),
        json!({"resultType": "task", "status": "working", "ttlMs": 3_600_000, "pollIntervalMs": 1000})
    );
    assert_eq!(created["result"]["taskId"], json!(id));

    let waiting = until(&session, &id, "alice", "input_required").await;
    assert_eq!(
        stable(waiting),
        json!({
            "resultType": "complete",
            "status": "input_required",
            "ttlMs": 3_600_000,
            "pollIntervalMs": 1000,
            "inputRequests": {"overwrite": overwrite_request()}
        })
    );
    answer(
        &session,
        &id,
        json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}}),
    )
    .await;
    let ack = session.wire.responses_to("tasks/update").pop().unwrap();
    assert_eq!(ack["result"], json!({"resultType": "complete"}));
    // Rmcp's client sent the update exactly so.
    let sent = session
        .wire
        .params_of(super::harness::From::Client, "tasks/update");
    assert_eq!(
        sent[0]["inputResponses"],
        json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}})
    );

    let done = until(&session, &id, "alice", "completed").await;
    assert_eq!(
        stable(done),
        json!({
            "resultType": "complete",
            "status": "completed",
            "ttlMs": 3_600_000,
            "pollIntervalMs": 1000,
            // The call's `CallToolResult`, exactly as the call would have answered.
            "result": {
                "resultType": "complete",
                "content": [{"type": "text", "text": "exported"}],
                "isError": false
            }
        })
    );
}

#[tokio::test]
async fn keys_are_never_reused_and_answers_to_answered_keys_are_ignored() {
    let session = connect(exports(), Era::Mrtr, tasks_user(json!({}))).await;
    let id = start(&session, "twice", "alice").await;
    let keys = |got: &Value| {
        got["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    let first = until(&session, &id, "alice", "input_required").await;
    assert_eq!(keys(&first), ["guests"]);
    answer(
        &session,
        &id,
        json!({"guests": {"action": "accept", "content": {"count": 2}}}),
    )
    .await;

    // The same form again: a key of its own, never `guests`.
    let second = loop {
        let got = until(&session, &id, "alice", "input_required").await;
        if keys(&got) != ["guests"] {
            break got;
        }
    };
    assert_eq!(keys(&second), ["guests.2"]);
    assert_eq!(
        second["inputRequests"]["guests.2"]["params"]["message"],
        "Dinner?"
    );
    // A late answer under the first key, and a key never issued: ignored, acknowledged.
    answer(
        &session,
        &id,
        json!({
            "guests": {"action": "accept", "content": {"count": 9}},
            "dessert": {"action": "accept", "content": {"count": 1}}
        }),
    )
    .await;
    let still = get(&session, &id, "alice").await.unwrap();
    assert_eq!(
        (still["status"].clone(), keys(&still)),
        (json!("input_required"), vec!["guests.2".to_owned()])
    );
    answer(
        &session,
        &id,
        json!({"guests.2": {"action": "accept", "content": {"count": 4}}}),
    )
    .await;
    assert_eq!(
        completed_text(&session, &id).await,
        "2 for lunch, 4 for dinner"
    );
}

#[tokio::test]
async fn a_partial_update_keeps_the_task_waiting_for_the_rest() {
    let session = connect(exports(), Era::Mrtr, tasks_user(json!({}))).await;
    let id = start(&session, "both", "alice").await;
    let both = loop {
        let got = until(&session, &id, "alice", "input_required").await;
        if got["inputRequests"].as_object().unwrap().len() == 2 {
            break got;
        }
    };
    assert_eq!(both["inputRequests"]["overwrite"], overwrite_request());
    answer(
        &session,
        &id,
        json!({"guests": {"action": "accept", "content": {"count": 3}}}),
    )
    .await;
    let rest = get(&session, &id, "alice").await.unwrap();
    assert_eq!(rest["status"], "input_required");
    assert_eq!(
        rest["inputRequests"],
        json!({"overwrite": overwrite_request()})
    );
    answer(&session, &id, json!({"overwrite": {"action": "decline"}})).await;
    assert_eq!(
        completed_text(&session, &id).await,
        "Accepted(Guests { count: 3 }) Declined"
    );
}

#[tokio::test]
async fn another_principal_gets_what_an_unknown_task_gets() {
    let session = connect(exports(), Era::Mrtr, tasks_user(json!({}))).await;
    let id = start(&session, "export", "alice").await;
    until(&session, &id, "alice", "input_required").await;
    let unknown =
        |id: &str| json!({"code": -32602, "message": "no such task", "data": {"taskId": id}});

    assert_eq!(get(&session, &id, "bob").await, Err(unknown(&id)));
    assert_eq!(
        get(&session, "no-such-id", "alice").await,
        Err(unknown("no-such-id"))
    );
    let answer = json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}});
    assert_eq!(
        update(&session, &id, "bob", answer.clone()).await,
        Err(unknown(&id))
    );
    assert_eq!(
        update(&session, "no-such-id", "alice", answer).await,
        Err(unknown("no-such-id"))
    );
    assert_eq!(cancel(&session, &id, "bob").await, Err(unknown(&id)));

    // Bob's answer and cancel did nothing: alice's question is still hers to answer.
    let mine = get(&session, &id, "alice").await.unwrap();
    assert_eq!(
        mine["inputRequests"],
        json!({"overwrite": overwrite_request()})
    );
}

#[tokio::test]
async fn a_cancelled_task_withdraws_its_questions_and_a_failing_one_carries_its_error() {
    let session = connect(exports(), Era::Mrtr, tasks_user(json!({}))).await;
    let id = start(&session, "export", "alice").await;
    until(&session, &id, "alice", "input_required").await;
    cancel(&session, &id, "alice").await.unwrap();
    let ack = session.wire.responses_to("tasks/cancel").pop().unwrap();
    assert_eq!(ack["result"], json!({"resultType": "complete"}));
    let cancelled = get(&session, &id, "alice").await.unwrap();
    assert_eq!(
        stable(cancelled),
        json!({
            "resultType": "complete",
            "status": "cancelled",
            "statusMessage": "cancelled by tasks/cancel",
            "ttlMs": 3_600_000,
            "pollIntervalMs": 1000
        })
    );

    let id = start(&session, "broken", "alice").await;
    until(&session, &id, "alice", "input_required").await;
    answer(
        &session,
        &id,
        json!({"overwrite": {"action": "accept", "content": {"overwrite": true}}}),
    )
    .await;
    let failed = until(&session, &id, "alice", "failed").await;
    assert_eq!(
        stable(failed),
        json!({
            "resultType": "complete",
            "status": "failed",
            "statusMessage": "the export store is down",
            "ttlMs": 3_600_000,
            "pollIntervalMs": 1000,
            "error": {"code": -32603, "message": "the export store is down"}
        })
    );
    assert_eq!(
        TaskStatus::Failed,
        serde_json::from_value(json!("failed")).unwrap()
    );
}

#[tokio::test]
async fn without_the_extension_or_on_2025_the_same_tool_asks_in_the_call() {
    for era in ERAS {
        for declared in [false, true] {
            let mut user = User::always(Accept, Some(json!({"overwrite": true})));
            if declared {
                user.with_tasks();
            }
            let session = connect(exports(), era, user).await;
            let mut params = call("export", json!({}));
            params.meta = Some(as_user("alice"));
            let response = session.client.call_tool_once(params.clone()).await.unwrap();
            let as_task = matches!(response, CallToolResponse::Task(_));
            assert_eq!(as_task, declared && era == Era::Mrtr, "{era:?} {declared}");
            if as_task {
                continue;
            }
            // In the call: an `input_required` round on 2026-07-28, a pushed question on
            // 2025-11-25; rmcp's client drives it to the result.
            let done = session.client.call_tool(params).await.unwrap();
            assert_eq!(
                text_of(&done),
                json!({"isError": false, "text": ["exported"]}),
                "{era:?}"
            );
        }
    }
}

#[tokio::test]
async fn a_tool_running_a_task_on_a_server_without_tasks_fails_saying_what_to_add() {
    for era in ERAS {
        let mut user = User::always(Accept, Some(json!({})));
        user.with_tasks();
        let server = Unwired {
            elicit: ElicitHandler::new(elicit_server(), Principal::anonymous()),
        };
        assert!(!server.get_info().capabilities.supports_tasks());
        let session = connect(server, era, user).await;
        let error = session
            .client
            .call_tool(call("export", json!({})))
            .await
            .unwrap_err();
        let rmcp::service::ServiceError::McpError(error) = error else {
            panic!("{error}")
        };
        assert_eq!(error.code.0, -32603);
        assert!(
            error
                .message
                .contains("write `#[elicit_rmcp::handler(tasks)]`"),
            "{}",
            error.message
        );
    }
}

#[test]
fn the_handler_announces_the_extension() {
    let info = serde_json::to_value(exports().get_info()).unwrap();
    assert_eq!(
        info["capabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}, "tools": {}})
    );
}
