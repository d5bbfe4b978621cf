//! The link fallback (`UrlSettings::with_link_fallback`): a client without URL mode gets the
//! link as the tool's text result, and the identical call made later by the same user goes on
//! with what the page recorded.

use super::*;
use elicit_runtime::url::UrlLink;

/// A server with the link fallback.
fn server() -> ElicitServer {
    linking(super::server())
}

/// `server` with the link fallback.
fn linking(server: ElicitServer) -> ElicitServer {
    tuned(&server, UrlSettings::with_link_fallback)
}

/// A 2026-07-28 caller declaring `capabilities` (form only, or nothing).
fn caller(server: &ElicitServer, principal: &str, capabilities: Value) -> Caller {
    Caller::with_capabilities(server, Some(principal), Some(capabilities))
}

#[track_caller]
fn link_of<R: std::fmt::Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> UrlLink {
    match outcome {
        Ok(Reply::Link(link)) => link,
        other => panic!("expected the call to end with a link, got {other:?}"),
    }
}

/// One plain call (no state, no answers), as a model repeating the tool call makes it.
fn call(caller: &Caller) -> Result<Reply<UrlAnswer<ConnectGithub>>, JsonRpcError> {
    block_on(caller.call(&caller.first(), connect))
}

#[test]
fn a_form_only_client_gets_the_link_as_text_and_the_same_call_later_completes() {
    let server = server();
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    let link = link_of(call(&alice));
    assert_eq!(link.message, MESSAGE);
    let handle = handle_of(&link.url);
    assert_eq!(
        link.to_string(),
        format!(
            "Connect your GitHub account to import issues: open {} in a browser, then ask me to \
             continue. The link is for this user only, works once, and expires in 10 minutes.",
            link.url
        )
    );
    // The page has not been used: the link again.
    let again = link_of(call(&alice));
    assert_eq!(again.message, MESSAGE);
    finish_page(&server, &handle, Some(json!({"login": "octo"})));
    assert_eq!(
        complete(call(&alice)),
        completed(Some(json!({"login": "octo"})))
    );
    // Single use: the completion answered one call; the next identical call starts over.
    let next = link_of(call(&alice));
    assert_ne!(handle_of(&next.url), handle, "a new flow, a new handle");
}

#[test]
fn a_client_that_declared_no_elicitation_at_all_gets_the_link_too() {
    let server = server();
    let alice = caller(&server, ALICE, json!({}));
    let link = link_of(call(&alice));
    finish_page(&server, &handle_of(&link.url), None);
    assert_eq!(complete(call(&alice)), completed(None));
}

#[test]
fn a_failed_page_ends_the_next_call_failed() {
    let server = server();
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    let handle = handle_of(&link_of(call(&alice)).url);
    let page = LandingPage::new(&server);
    let opened = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();
    block_on(page.fail(&opened, "access denied")).unwrap();
    assert_eq!(
        complete(call(&alice)),
        UrlAnswer::Failed {
            state: bound(),
            reason: "access denied".into()
        }
    );
}

#[test]
fn the_completion_is_bound_to_the_user_the_tool_and_the_arguments() {
    let server = server();
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    let handle = handle_of(&link_of(call(&alice)).url);
    // Another user cannot open alice's link.
    let page = LandingPage::new(&server);
    assert!(block_on(page.open::<ConnectGithub>(&handle, MALLORY)).is_err());
    finish_page(&server, &handle, None);
    // Mallory making the identical call gets a link of her own, not alice's completion.
    let mallory = caller(&server, MALLORY, json!({"elicitation": {}}));
    let theirs = link_of(call(&mallory));
    assert_ne!(handle_of(&theirs.url), handle);
    // The same user with other arguments: another flow.
    let mut other_args = alice.first();
    other_args["arguments"] = json!({"repo": "octo/other"});
    link_of(block_on(alice.call(&other_args, connect)));
    // Alice's own identical call still finds her completion.
    assert_eq!(complete(call(&alice)), completed(None));
}

#[test]
fn a_client_with_url_mode_gets_the_ordinary_url_round() {
    let server = server();
    let alice = Caller::new(&server, Some(ALICE));
    let ask = input_required(call(&alice));
    url_request(&ask);
}

#[test]
fn a_2025_client_without_url_mode_gets_the_link_too() {
    let server = server();
    let params = json!({"name": TOOL, "arguments": tool_args()});
    let legacy_call = || {
        let caps: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        let mut cx = server
            .context("tools/call", &params)
            .principal(ALICE)
            .legacy(caps, None)
            .build()
            .unwrap();
        let result = block_on(connect(&mut cx));
        block_on(cx.respond(result))
    };
    let link = link_of(legacy_call());
    finish_page(&server, &handle_of(&link.url), None);
    assert_eq!(complete(legacy_call()), completed(None));
}

#[test]
fn without_a_principal_the_link_is_refused_clearly() {
    let server = server();
    let anonymous = Caller::with_capabilities(&server, None, Some(json!({"elicitation": {}})));
    let e = error(block_on(anonymous.call(&anonymous.first(), connect)));
    assert_eq!(e.code, -32603);
    assert_eq!(
        e.message,
        "URL-mode elicitation needs an authenticated principal"
    );
}

#[test]
fn only_a_tool_call_can_end_with_a_link() {
    let server = server();
    let params = json!({"name": "summary", "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    }});
    let mut cx = server
        .context("prompts/get", &params)
        .principal(ALICE)
        .build()
        .unwrap();
    let result = block_on(connect(&mut cx));
    let e = error(block_on(cx.respond(result)));
    assert_eq!(
        e.code, -32021,
        "a prompt without URL mode is refused as without the fallback"
    );
}

#[test]
fn without_the_setting_a_form_only_client_is_refused() {
    let server = super::server();
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    assert_eq!(error(call(&alice)).code, -32021);
}

/// The flow id behind `link` (opened on the page as alice).
fn flow_of(server: &ElicitServer, link: &UrlLink) -> String {
    let page = LandingPage::new(server);
    let opened = block_on(page.open::<ConnectGithub>(&handle_of(&link.url), ALICE)).unwrap();
    opened.id().to_owned()
}

#[test]
fn a_flow_id_never_repeats_once_its_link_expired() {
    // Links live 1 s; flows are derived per 2 s window and looked up in the window before.
    let server = linking(server_with(sealer().with_ttl(Duration::from_secs(1))));
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    let first = link_of(call(&alice));
    let flow = flow_of(&server, &first);
    // Within its window the identical call sends the same flow again (a fresh handle).
    let again = link_of(call(&alice));
    assert_eq!(flow_of(&server, &again), flow);
    std::thread::sleep(Duration::from_millis(4_100));
    // Two windows later the expired flow is never used again: a page confirmed with what
    // the old one carried cannot answer the new link.
    let later = link_of(call(&alice));
    assert_ne!(
        flow_of(&server, &later),
        flow,
        "a new flow for a new window"
    );
    finish_page(&server, &handle_of(&later.url), None);
    assert_eq!(complete(call(&alice)), completed(None));
}

#[test]
fn a_call_completed_too_often_is_refused_until_its_window_ends() {
    let server = linking(server_with(sealer().with_ttl(Duration::from_secs(1))));
    let alice = caller(&server, ALICE, json!({"elicitation": {}}));
    // Complete the identical call again and again until it is refused (64 redeemed flows
    // in one window; a window boundary during the loop only starts the count again).
    let mut refused = None;
    for _ in 0..1_000 {
        match call(&alice) {
            Ok(Reply::Link(link)) => {
                finish_page(&server, &handle_of(&link.url), None);
                assert_eq!(complete(call(&alice)), completed(None));
            }
            Err(e) => {
                refused = Some(e);
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    let refused = refused.expect("refused after 64 completions in one window");
    assert_eq!(refused.code, -32603);
    assert_eq!(refused.data, Some(json!({"reason": "busy"})));
    // Calling again and again does not keep the refusal alive: within two windows it ends.
    let deadline = std::time::Instant::now() + Duration::from_secs(6);
    loop {
        match call(&alice) {
            Ok(Reply::Link(_)) => break,
            Err(e) => assert_eq!(e.data, Some(json!({"reason": "busy"}))),
            other => panic!("{other:?}"),
        }
        assert!(std::time::Instant::now() < deadline, "the refusal ended");
        std::thread::sleep(Duration::from_millis(100));
    }
}
