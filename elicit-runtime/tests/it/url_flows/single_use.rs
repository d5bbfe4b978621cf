//! Single-use completions: redeemed once, never replayed by a later round's state.

use super::*;

#[test]
fn a_single_use_completion_is_redeemed_once_and_a_fresh_call_still_works() {
    // The completion's own single use (the default, no setting), without the replay guard in
    // front of it (which would refuse the repeated retries before the completion is looked at).
    let server = server_with(sealer().without_replay_guard());
    assert!(server.url_settings().single_use());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);

    // A retry before the page finished redeems nothing.
    let params = caller.retry(&state, Some(answer("accept")));
    assert_asked_again(&input_required(block_on(caller.call(&params, connect))));

    finish_page(&server, &handle, Some(json!({"account": "octocat"})));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(Some(json!({"account": "octocat"})))
    );
    // The same retry again (same requestState and inputResponses): refused, no panic.
    let replay = error(block_on(caller.call(&params, connect)));
    assert_already_redeemed(&replay);
    assert!(replay.message.contains("already redeemed"), "{replay:?}");
    // The redeemed flow cannot be finished again either.
    assert_eq!(
        block_on(LandingPage::new(&server).open::<ConnectGithub>(&handle, ALICE)).unwrap_err(),
        PageError::AlreadyRecorded
    );

    // Nothing else is lost: a fresh call gets a fresh link and completes.
    let (handle, state) = start(&caller);
    finish_page(&server, &handle, Some(json!({"account": "octocat-2"})));
    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(Some(json!({"account": "octocat-2"})))
    );
}

/// Which label should the imported issues get?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Label {
    name: String,
}

/// Connects, then asks a form question in a later round.
async fn connect_then_label(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let account = match bound().ask(cx).await? {
        UrlAnswer::Completed { result, .. } => result.unwrap_or_default(),
        other => return Ok(format!("not connected: {other:?}")),
    };
    Ok(match Label::ask(cx).await? {
        Answer::Accepted(label) => format!("{} labelled {}", account, label.name),
        Answer::Declined | Answer::Cancelled => format!("{account} unlabelled"),
    })
}

/// Drives `connect_then_label` through its rounds on `server`.
fn connect_then_label_flow(server: &ElicitServer) -> Result<Reply<String>, JsonRpcError> {
    let caller = Caller::new(server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), connect_then_label)));
    let handle = handle_of(&url_request(&ask));
    finish_page(server, &handle, Some(json!("octocat")));
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let ask = input_required(block_on(caller.call(&params, connect_then_label)));
    assert_eq!(
        ask.input_requests().unwrap().keys().collect::<Vec<_>>(),
        ["label"]
    );
    let params = caller.retry(
        &state_of(&ask),
        Some(json!({"label": {"action": "accept", "content": {"name": "imported"}}})),
    );
    block_on(caller.call(&params, connect_then_label))
}

#[test]
fn a_question_after_a_completed_url_elicitation_gets_its_own_round() {
    assert_eq!(
        complete(connect_then_label_flow(&server())),
        "\"octocat\" labelled imported"
    );
}

#[test]
fn a_question_after_a_single_use_url_elicitation_gets_its_own_round() {
    assert_eq!(
        complete(connect_then_label_flow(&server())),
        "\"octocat\" labelled imported"
    );
}

/// The replay the security review found: after a single-use completion was redeemed, a later
/// round's state carries how the flow ended. Replaying that state (with its answers) must not
/// run the handler's side effect again.
#[test]
fn a_later_rounds_state_cannot_replay_a_single_use_completion() {
    // Without the replay guard in front (see above); with it, the replay is refused sooner.
    let server = server_with(sealer().without_replay_guard());
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), connect_then_label)));
    finish_page(
        &server,
        &handle_of(&url_request(&ask)),
        Some(json!("octocat")),
    );
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let ask = input_required(block_on(caller.call(&params, connect_then_label)));
    let last = caller.retry(
        &state_of(&ask),
        Some(json!({"label": {"action": "accept", "content": {"name": "imported"}}})),
    );
    assert_eq!(
        complete(block_on(caller.call(&last, connect_then_label))),
        "\"octocat\" labelled imported"
    );
    for _ in 0..3 {
        let replayed = error(block_on(caller.call(&last, connect_then_label)));
        assert_eq!(
            serde_json::to_value(&replayed).unwrap(),
            json!({
                "code": -32602,
                "message": "this URL elicitation was already redeemed",
                "data": {"reason": "already_redeemed"}
            })
        );
    }
}
