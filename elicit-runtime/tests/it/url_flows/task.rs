//! A running task asks a URL-mode question through its `TaskInput`: `tasks/get` shows the link
//! (the 2026 shape), `tasks/update` accepts, and the worker goes on once the page recorded the
//! completion.

use super::*;
use elicit_runtime::tasks::TaskInput;
use elicit_runtime::wire::TasksUpdateParams;

/// The input of a task created by alice's call of the tool, by a client with `capabilities`.
fn task_input(server: &ElicitServer, capabilities: Value) -> TaskInput {
    let params = json!({"name": TOOL, "arguments": tool_args(), "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities
    }});
    let cx = server
        .context("tools/call", &params)
        .principal(ALICE)
        .build()
        .unwrap();
    TaskInput::for_call(&cx)
}

/// Waits until `tasks/get` shows the URL question; returns its params.
async fn outstanding_url(input: &TaskInput) -> Value {
    for _ in 0..500 {
        if let Some(now) = input.input_required() {
            let now = serde_json::to_value(now).unwrap();
            return now["inputRequests"][KEY]["params"].clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the worker never asked");
}

fn update(action: &str) -> TasksUpdateParams {
    serde_json::from_value(json!({
        "taskId": "t1",
        "inputResponses": {KEY: {"action": action}}
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_asks_a_url_question_and_goes_on_when_the_page_completed() {
    let server = server();
    let input = task_input(&server, json!({"elicitation": {"form": {}, "url": {}}}));
    let mut worker = input.clone();
    let asked = tokio::spawn(async move { bound().ask(&mut worker).await });
    let params = outstanding_url(&input).await;
    assert_eq!(params["mode"], "url");
    assert_eq!(params["message"], MESSAGE);
    assert!(
        params.get("elicitationId").is_none(),
        "task input has the 2026 shape: {params}"
    );
    let handle = handle_of(params["url"].as_str().unwrap());
    // Another user cannot answer alice's task (issue 32).
    assert!(input.update(Some("bob"), &update("accept")).is_err());
    assert_eq!(input.owner(), Some(ALICE));
    input.update(Some(ALICE), &update("accept")).unwrap();
    // The worker waits for the page; the browser user finishes it.
    let page = LandingPage::new(&server);
    let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    page.complete(&opened, Some(json!({"login": "octo"})))
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(10), asked)
        .await
        .expect("the worker went on")
        .unwrap()
        .unwrap();
    assert_eq!(answer, completed(Some(json!({"login": "octo"}))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_task_question_ends_declined() {
    let server = server();
    let input = task_input(&server, json!({"elicitation": {"url": {}}}));
    let mut worker = input.clone();
    let asked = tokio::spawn(async move { bound().ask(&mut worker).await });
    outstanding_url(&input).await;
    input.update(Some(ALICE), &update("decline")).unwrap();
    assert_eq!(asked.await.unwrap().unwrap(), UrlAnswer::Declined);
}

#[tokio::test]
async fn a_task_without_the_calls_binding_cannot_ask_url_questions() {
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"url": {}}})).unwrap();
    let mut input = TaskInput::new(caps);
    let e = bound().ask(&mut input).await.unwrap_err();
    assert_eq!(
        e.as_error().map(|e| e.message.as_str()),
        Some(
            "this input channel cannot ask URL-mode questions (it has no `UrlMode`): give a task the call's binding with `TaskInput::for_call`"
        )
    );
}

#[tokio::test]
async fn a_task_of_a_client_without_url_mode_is_refused_with_the_capability_error() {
    let server = server();
    let mut input = task_input(&server, json!({"elicitation": {"form": {}}}));
    let e = bound().ask(&mut input).await.unwrap_err();
    assert_eq!(e.as_error().map(|e| e.code), Some(-32021));
}
