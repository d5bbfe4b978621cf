//! URL-mode elicitations end to end, with the in-memory completion store: the 2026-07-28
//! rounds, the landing page's refusals, single-use completions, capability and principal
//! errors, and the 2025-11-25 back channel (`elicitation/create`, the completion notification,
//! `URLElicitationRequiredError`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::common_url::*;
use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
use elicit_runtime::state::{KeyRing, StateError, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, PageError, StoreError,
};
use elicit_runtime::wire::{ClientCapabilities, InputRequest, JsonRpcError, ProtocolEra};
use elicit_runtime::{
    Answer, ElicitContext, ElicitForm, ElicitServer, ElicitUrl, Interrupt, Reply, UrlAnswer,
};
use pollster::block_on;
use serde_json::{Value, json};

fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
}

fn server_with(sealer: StateSealer) -> ElicitServer {
    ElicitServer::new(sealer).with_completion_store(Arc::new(MemoryCompletionStore::new()))
}

fn server() -> ElicitServer {
    server_with(sealer())
}

/// Round 1 as alice: the link's handle and the state to retry with.
fn start(caller: &Caller) -> (String, String) {
    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    (handle_of(&url_request(&ask)), state_of(&ask))
}

/// The page opens `handle` for alice and records a completion with `result`.
fn finish_page(server: &ElicitServer, handle: &str, result: Option<Value>) {
    let page = LandingPage::new(server);
    let opened = block_on(page.open::<ConnectGithub>(handle, ALICE)).unwrap();
    block_on(page.complete(&opened, result)).unwrap();
}

fn completed(result: Option<Value>) -> UrlAnswer<ConnectGithub> {
    UrlAnswer::Completed {
        state: bound(),
        result,
    }
}

// --- 2026-07-28 ----------------------------------------------------------------------------

#[test]
fn the_2026_flow_completes_with_the_bound_state_and_the_pages_result() {
    let server = server().with_server_info("issues-server", "1.0.0");
    let caller = Caller::new(&server, Some(ALICE));

    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    let url = url_request(&ask);
    let state = state_of(&ask);
    assert_eq!(
        ask.meta().unwrap()["io.modelcontextprotocol/serverInfo"],
        json!({"name": "issues-server", "version": "1.0.0"})
    );
    // Nothing about the user or the bound state is readable in the link.
    for clear in [ALICE, "octo/hello", "github\""] {
        assert!(!url.contains(clear), "{clear} leaks into {url}");
    }

    // The "browser": alice opens the link; the page sees the bound state.
    let handle = handle_of(&url);
    let page = LandingPage::new(&server);
    let opened = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();
    assert_eq!(opened.state, bound());
    assert!(opened.expires_at() > SystemTime::now());
    let account = json!({"account": "octocat", "installation": 42});
    block_on(page.complete(&opened, Some(account.clone()))).unwrap();

    let params = caller.retry(&state, Some(answer("accept")));
    let outcome = complete(block_on(caller.call(&params, connect)));
    assert_eq!(outcome, completed(Some(account)));
}

#[test]
fn an_accept_before_the_page_finished_is_a_state_only_round_until_it_does() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);

    // The user agreed but has not finished on the page: no new link, just state to retry with.
    let params = caller.retry(&state, Some(answer("accept")));
    let ask = input_required(block_on(caller.call(&params, connect)));
    assert_state_only(&ask);
    // Polling again (state only, as the spec says the client may) changes nothing.
    let ask = input_required(block_on(
        caller.call(&caller.retry(&state_of(&ask), None), connect),
    ));
    assert_state_only(&ask);

    // The page still opens: nothing was recorded by the polling.
    finish_page(&server, &handle, None);

    let params = caller.retry(&state_of(&ask), None);
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(None)
    );
}

#[test]
fn a_failure_recorded_by_the_page_is_failed() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let page = LandingPage::new(&server);
    let opened = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();
    block_on(page.fail(&opened, "the user denied access on github.com")).unwrap();

    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        UrlAnswer::Failed {
            state: bound(),
            reason: "the user denied access on github.com".into()
        }
    );
}

#[test]
fn decline_and_cancel_need_no_page() {
    for (action, expected) in [
        ("decline", UrlAnswer::Declined),
        ("cancel", UrlAnswer::Cancelled),
    ] {
        let server = server();
        let caller = Caller::new(&server, Some(ALICE));
        let (handle, state) = start(&caller);
        let params = caller.retry(&state, Some(answer(action)));
        assert_eq!(complete(block_on(caller.call(&params, connect))), expected);
        // Declining records nothing: the page itself still opens (the link is still alive),
        // and finishing it afterwards does not turn the decline into an authorization.
        finish_page(&server, &handle, None);
        assert_eq!(complete(block_on(caller.call(&params, connect))), expected);
    }
}

#[test]
fn an_accept_whose_link_expired_is_expired_and_then_the_state_is_refused() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(1)));
    let caller = Caller::new(&server, Some(ALICE));
    let page = LandingPage::new(&server);

    // Flow A: the page never finishes. Flow B: it finished at once.
    let (handle_a, state_a) = start(&caller);
    let expires_at = block_on(page.open::<ConnectGithub>(&handle_a, ALICE))
        .unwrap()
        .expires_at();
    let (handle_b, state_b) = start(&caller);
    finish_page(&server, &handle_b, Some(json!("ok")));

    std::thread::sleep(
        expires_at
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(150),
    );
    // The page refuses an expired link.
    assert_eq!(
        block_on(page.open::<ConnectGithub>(&handle_a, ALICE)).unwrap_err(),
        PageError::Expired
    );
    // The round-1 states were sealed in the same second as their links and expire with them:
    // the retry is the uniform state refusal (a state that outlives its link gives
    // `UrlAnswer::Expired`, see the next test).
    for state in [&state_a, &state_b] {
        let retry = block_on(caller.call(&caller.retry(state, Some(answer("accept"))), connect));
        assert_invalid_state(&error(retry));
    }

    std::thread::sleep(
        (expires_at + Duration::from_millis(2100))
            .duration_since(SystemTime::now())
            .unwrap_or_default(),
    );
    let late = block_on(caller.call(&caller.retry(&state_a, Some(answer("accept"))), connect));
    assert_invalid_state(&error(late));
    // A fresh call starts a fresh flow.
    let (handle, state) = start(&caller);
    finish_page(&server, &handle, None);
    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(None)
    );
}

#[test]
fn a_state_that_outlives_its_link_gives_expired() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(2)));
    let caller = Caller::new(&server, Some(ALICE));
    let page = LandingPage::new(&server);

    // Flow A: the page never finishes. Flow B: it finishes, but its retry comes too late.
    let (handle_a, state_a) = start(&caller);
    let (handle_b, state_b) = start(&caller);
    let expires_at = block_on(page.open::<ConnectGithub>(&handle_a, ALICE))
        .unwrap()
        .expires_at();
    // Poll two whole seconds later (still before the links expire): the state-only rounds are
    // sealed later than the links, so their requestState outlives them by about two seconds.
    let next_second = SystemTime::UNIX_EPOCH
        + Duration::from_secs(
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_secs()
                + 2,
        )
        + Duration::from_millis(20);
    std::thread::sleep(
        next_second
            .duration_since(SystemTime::now())
            .unwrap_or_default(),
    );
    let poll = |state: &str| {
        let ask = input_required(block_on(
            caller.call(&caller.retry(state, Some(answer("accept"))), connect),
        ));
        assert!(
            ask.input_requests().is_none(),
            "a pending page is polled, never reopened"
        );
        state_of(&ask)
    };
    let (polled_a, polled_b) = (poll(&state_a), poll(&state_b));
    finish_page(&server, &handle_b, Some(json!("ok")));

    std::thread::sleep(
        expires_at
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(150),
    );
    // A completion lives as long as its link: flow B expired with it, like flow A.
    for state in [&polled_a, &polled_b] {
        let retry = block_on(caller.call(&caller.retry(state, None), connect));
        assert_eq!(complete(retry), UrlAnswer::Expired);
    }
}
#[test]
fn require_url_on_2026_is_ask_url_and_never_minus_32042() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), require)));
    let handle = handle_of(&url_request(&ask));
    // Before the page finished: a state-only round, not an error.
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let pending = input_required(block_on(caller.call(&params, require)));
    assert_state_only(&pending);
    finish_page(&server, &handle, Some(json!({"account": "octocat"})));
    let params = caller.retry(&state_of(&pending), None);
    assert_eq!(
        complete(block_on(caller.call(&params, require))),
        completed(Some(json!({"account": "octocat"})))
    );
}

#[test]
fn with_url_origin_moves_the_link_to_the_dev_origin() {
    let server = server().with_url_origin("http://127.0.0.1:8931/").unwrap();
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    let params = serde_json::to_value(ask.input_requests().unwrap()).unwrap();
    let url = params[KEY]["params"]["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:8931/github?elicitation=eu1."),
        "{url}"
    );
    assert_eq!(
        server
            .clone()
            .with_url_origin("http://example.com")
            .err()
            .as_deref(),
        Some("the origin must be https (http only on localhost, 127.0.0.1 or [::1])")
    );
    assert_eq!(
        server
            .with_url_origin("https://a.example/path")
            .err()
            .as_deref(),
        Some("an origin is `scheme://host[:port]`, without path, query or user info")
    );
}

// --- the landing page's refusals ---------------------------------------------------------------

/// A second URL elicitation, to check the page tells kinds apart.
#[derive(Debug, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(message = "Pay the invoice", url = "https://pay.example.com/checkout")]
struct PayInvoice {
    invoice: u64,
}

#[test]
fn the_page_refuses_other_users_tampered_and_foreign_handles() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let page = LandingPage::new(&server);

    // Another authenticated user (the phishing case).
    assert_eq!(
        block_on(page.open::<ConnectGithub>(&handle, MALLORY)).unwrap_err(),
        PageError::WrongSubject
    );
    // Nobody: an empty browser subject.
    assert_eq!(
        block_on(page.open::<ConnectGithub>(&handle, "")).unwrap_err(),
        PageError::WrongSubject
    );
    // One changed character; truncated; garbage; a requestState instead of a handle.
    for bad in [
        tamper(&handle),
        handle[..handle.len() - 4].to_owned(),
        "eu1.AAAA".to_owned(),
        String::new(),
        state.clone(),
    ] {
        assert!(
            matches!(
                block_on(page.open::<ConnectGithub>(&bad, ALICE)),
                Err(PageError::Invalid(_))
            ),
            "{bad:?} must be refused as invalid"
        );
    }
    // What the browser may be shown is the same for every handle that is not ours (and for
    // one that expired); the precise reason is only in `reason()`, for logs.
    let shown: std::collections::BTreeSet<String> =
        [tamper(&handle), "eu1.AAAA".to_owned(), state.clone()]
            .iter()
            .map(|bad| block_on(page.open::<ConnectGithub>(bad, ALICE)).unwrap_err())
            .chain([
                PageError::Invalid(StateError::UnknownKey { kid: 7 }),
                PageError::Expired,
            ])
            .map(|refused| {
                assert!(
                    refused.reason().starts_with("invalid") || refused.reason().contains("expired")
                );
                refused.to_string()
            })
            .collect();
    assert_eq!(
        shown.into_iter().collect::<Vec<_>>(),
        ["this link is invalid or has expired"]
    );
    // A handle never opens as requestState either.
    let e = error(block_on(
        caller.call(&caller.retry(&handle, Some(answer("accept"))), connect),
    ));
    assert_invalid_state(&e);

    // A server with other keys, or the same keys for another audience.
    let other_keys = server_with(StateSealer::new(KeyRing::new(1, [8; 32]), "issues-server"));
    let refused = block_on(LandingPage::new(&other_keys).open::<ConnectGithub>(&handle, ALICE));
    assert!(matches!(refused, Err(PageError::Invalid(_))), "{refused:?}");
    let other_audience = server_with(StateSealer::new(KeyRing::new(1, [7; 32]), "other-server"));
    let refused = block_on(LandingPage::new(&other_audience).open::<ConnectGithub>(&handle, ALICE));
    assert!(
        matches!(
            refused,
            Err(PageError::Invalid(StateError::AudienceMismatch))
        ),
        "{refused:?}"
    );
    // Another kind of elicitation.
    assert_eq!(
        block_on(page.open::<PayInvoice>(&handle, ALICE)).unwrap_err(),
        PageError::WrongKind
    );
    assert_eq!(PayInvoice::KEY, "pay_invoice");
    let _ = PayInvoice { invoice: 1 }.invoice;
    // A server without a completion store cannot serve the page.
    let no_store = ElicitServer::new(sealer());
    assert_eq!(
        block_on(LandingPage::new(&no_store).open::<ConnectGithub>(&handle, ALICE)).unwrap_err(),
        PageError::NoStore
    );

    // None of the refusals recorded anything: alice still finishes the flow.
    finish_page(&server, &handle, None);
    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(None)
    );
}

#[test]
fn a_flow_is_recorded_once() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let page = LandingPage::new(&server);
    let opened = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();
    // Two tabs opened the same link before either finished.
    let second_tab = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();
    assert_eq!(opened.id(), second_tab.id());

    block_on(page.complete(&opened, Some(json!("first")))).unwrap();
    assert_eq!(
        block_on(page.complete(&opened, Some(json!("again")))).unwrap_err(),
        PageError::AlreadyRecorded
    );
    assert_eq!(
        block_on(page.fail(&second_tab, "late failure")).unwrap_err(),
        PageError::AlreadyRecorded
    );
    assert_eq!(
        block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap_err(),
        PageError::AlreadyRecorded
    );
    // The raw route says the same.
    assert_eq!(
        block_on(page.open_raw(&handle, ALICE)).unwrap_err(),
        PageError::AlreadyRecorded
    );

    // The first record wins.
    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(Some(json!("first")))
    );
}

#[test]
fn open_raw_routes_by_key() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let page = LandingPage::new(&server);
    let (opened, raw_state) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    assert_eq!(opened.key(), KEY);
    assert_eq!(
        raw_state,
        json!({"provider": "github", "repo": "octo/hello"})
    );
    block_on(page.fail_raw(&opened, "routed failure")).unwrap();
    let params = caller.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        UrlAnswer::Failed {
            state: bound(),
            reason: "routed failure".into()
        }
    );
}

#[test]
fn an_accept_without_request_state_never_authorizes() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    // Some flow of alice's did complete...
    let (handle, _) = start(&caller);
    finish_page(&server, &handle, None);
    // ...but an accept sent without the state that ties it to a link only gets a new link.
    let mut params = caller.first();
    params["inputResponses"] = answer("accept");
    let ask = input_required(block_on(caller.call(&params, connect)));
    let fresh = handle_of(&url_request(&ask));
    assert_ne!(fresh, handle);
    // A new flow, not the completed one: the page still opens it.
    let opened = block_on(LandingPage::new(&server).open::<ConnectGithub>(&fresh, ALICE)).unwrap();
    assert_eq!(opened.state, bound());
}

#[test]
fn a_malformed_answer_is_a_clean_invalid_params_error() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (_, state) = start(&caller);
    for bad in [
        json!({ KEY: "yes" }),
        json!({ KEY: {"action": "maybe"} }),
        json!({ KEY: {} }),
    ] {
        let e = error(block_on(
            caller.call(&caller.retry(&state, Some(bad.clone())), connect),
        ));
        assert_eq!(e.code, -32602, "{bad}: {e:?}");
    }
    // Unknown keys are ignored: the link is sent again rather than failing.
    let params = caller.retry(&state, Some(json!({"other": {"action": "accept"}})));
    let ask = input_required(block_on(caller.call(&params, connect)));
    url_request(&ask);
}

#[test]
fn another_user_cannot_retry_with_alices_state() {
    let server = server();
    let alice = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&alice);
    finish_page(&server, &handle, Some(json!("alice's account")));
    let mallory = Caller::new(&server, Some(MALLORY));
    let e = error(block_on(
        mallory.call(&mallory.retry(&state, Some(answer("accept"))), connect),
    ));
    assert_invalid_state(&e);
}

// --- single-use completions --------------------------------------------------------------------

#[test]
fn a_single_use_completion_is_redeemed_once_and_a_fresh_call_still_works() {
    let server = server().with_single_use_completions();
    assert!(server.single_use_completions());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);

    // Polling before the page finished redeems nothing.
    let params = caller.retry(&state, Some(answer("accept")));
    assert_state_only(&input_required(block_on(caller.call(&params, connect))));

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
        complete(connect_then_label_flow(
            &server().with_single_use_completions()
        )),
        "\"octocat\" labelled imported"
    );
}

/// The replay the security review found: after a single-use completion was redeemed, a later
/// round's state carries how the flow ended. Replaying that state (with its answers) must not
/// run the handler's side effect again.
#[test]
fn a_later_rounds_state_cannot_replay_a_single_use_completion() {
    let server = server().with_single_use_completions();
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

// --- capabilities and configuration ------------------------------------------------------------

#[test]
fn a_client_without_url_mode_gets_minus_32021_naming_url() {
    let server = server();
    for capabilities in [
        json!({"elicitation": {"form": {}}}),
        json!({"elicitation": {}}),
        json!({}),
    ] {
        let caller = Caller::with_capabilities(&server, Some(ALICE), Some(capabilities.clone()));
        let e = error(block_on(caller.call(&caller.first(), connect)));
        assert_eq!(e.code, -32021, "{capabilities}: {e:?}");
        assert_eq!(
            e.data,
            Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}})),
            "{capabilities}"
        );

        // The handler that can do without the page goes on.
        let outcome = complete(block_on(
            caller.call(&caller.first(), async |cx: &mut ElicitContext| {
                bound().ask_if_supported(cx).await
            }),
        ));
        assert_eq!(outcome, None, "{capabilities}");
        let outcome = complete(block_on(
            caller.call(&caller.first(), async |cx: &mut ElicitContext| {
                bound().ask_if_supported(cx).await
            }),
        ));
        assert_eq!(outcome, None, "{capabilities}");
    }
    // With URL mode declared, `ask_url_if_supported` asks.
    let caller = Caller::with_capabilities(
        &server,
        Some(ALICE),
        Some(json!({"elicitation": {"url": {}}})),
    );
    let ask = input_required(block_on(
        caller.call(&caller.first(), async |cx: &mut ElicitContext| {
            bound().ask_if_supported(cx).await
        }),
    ));
    url_request(&ask);
}

#[test]
fn a_missing_principal_or_store_is_a_clear_internal_error() {
    let caller = Caller::new(&server(), None);
    let e = error(block_on(caller.call(&caller.first(), connect)));
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(e.message.contains("principal"), "{e:?}");

    let caller = Caller::new(&ElicitServer::new(sealer()), Some(ALICE));
    let e = error(block_on(caller.call(&caller.first(), connect)));
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(
        e.message.contains("with_completion_store"),
        "names the fix: {e:?}"
    );
}

// --- 2025-11-25 ------------------------------------------------------------------------------

/// What the scripted page does once the link went out.
#[derive(Clone)]
enum PageAction {
    Complete(Option<Value>),
    Fail(&'static str),
}

/// A scripted 2025-11-25 client: records requests and notifications, replies with `reply`
/// and, if scripted, has the "browser" finish the page ~100 ms later in a spawned task.
struct UrlPeer {
    reply: Result<Value, JsonRpcError>,
    page: Option<(LandingPage, PageAction)>,
    requests: Mutex<Vec<(String, Value)>>,
    notifications: Mutex<Vec<(String, Value)>>,
    page_task: Mutex<Option<tokio::task::JoinHandle<Result<String, PageError>>>>,
}

impl UrlPeer {
    fn new(reply: Value, page: Option<(&ElicitServer, PageAction)>) -> Arc<Self> {
        Arc::new(UrlPeer {
            reply: Ok(reply),
            page: page.map(|(server, action)| (LandingPage::new(server), action)),
            requests: Mutex::default(),
            notifications: Mutex::default(),
            page_task: Mutex::default(),
        })
    }

    fn requests(&self) -> Vec<(String, Value)> {
        self.requests.lock().unwrap().clone()
    }

    fn notifications(&self) -> Vec<(String, Value)> {
        self.notifications.lock().unwrap().clone()
    }

    /// The id of the handle the page opened, once its task finished.
    async fn page_result(&self) -> Result<String, PageError> {
        let task = self.page_task.lock().unwrap().take().expect("the page ran");
        task.await.expect("the page task panicked")
    }
}

impl LegacyPeer for UrlPeer {
    fn request<'a>(
        &'a self,
        request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        Box::pin(async move {
            let params = serde_json::to_value(request).unwrap()["params"].take();
            self.requests
                .lock()
                .unwrap()
                .push((request.method().to_owned(), params.clone()));
            if let Some((page, action)) = self.page.clone() {
                let handle = handle_of(params["url"].as_str().unwrap_or_default());
                let task = tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    let opened = page.open::<ConnectGithub>(&handle, ALICE).await?;
                    match action {
                        PageAction::Complete(result) => page.complete(&opened, result).await?,
                        PageAction::Fail(reason) => page.fail(&opened, reason).await?,
                    }
                    Ok(opened.id().to_owned())
                });
                *self.page_task.lock().unwrap() = Some(task);
            }
            self.reply.clone()
        })
    }

    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> BoxFuture<'a, Result<(), JsonRpcError>> {
        Box::pin(async move {
            self.notifications
                .lock()
                .unwrap()
                .push((method.to_owned(), params));
            Ok(())
        })
    }
}

/// `tools/call` params as a 2025-11-25 client sends them.
fn legacy_params() -> Value {
    json!({"name": TOOL, "arguments": tool_args()})
}

/// Runs `handler` for `principal` on a 2025-11-25 session declaring `capabilities`.
async fn run_legacy<R>(
    server: &ElicitServer,
    capabilities: Value,
    principal: Option<&str>,
    peer: Option<Arc<UrlPeer>>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    let params = legacy_params();
    let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
    let mut cx = server
        .context("tools/call", &params)
        .principal(principal)
        .legacy(capabilities, peer.map(|p| p as Arc<dyn LegacyPeer>))
        .build()
        .map_err(|e| e.error)?;
    assert_eq!(cx.era(), ProtocolEra::Legacy2025);
    let result = tokio::time::timeout(Duration::from_secs(20), handler(&mut cx))
        .await
        .expect("the handler never finished");
    cx.finish(result)
}

fn url_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}})
}

/// Checks the 2025 `elicitation/create` params; returns its `elicitationId`.
#[track_caller]
fn legacy_url_request(sent: &[(String, Value)]) -> String {
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (method, params) = &sent[0];
    assert_eq!(method, "elicitation/create");
    assert_eq!(params["mode"], "url");
    assert_eq!(params["message"], MESSAGE);
    let url = params["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://connect.example.com/github?elicitation=eu1."),
        "{url}"
    );
    let id = params["elicitationId"].as_str().expect("2025 needs an id");
    assert!(
        !id.is_empty() && !url.contains(id),
        "the id is not the handle"
    );
    id.to_owned()
}

#[tokio::test]
async fn legacy_accept_waits_for_the_page_then_notifies_completion() {
    let server = server();
    let account = json!({"account": "octocat"});
    let peer = UrlPeer::new(
        json!({"action": "accept"}),
        Some((&server, PageAction::Complete(Some(account.clone())))),
    );
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(complete(outcome), completed(Some(account)));

    let id = legacy_url_request(&peer.requests());
    assert_eq!(
        peer.page_result().await.unwrap(),
        id,
        "elicitationId = handle id"
    );
    assert_eq!(
        peer.notifications(),
        [(
            "notifications/elicitation/complete".to_owned(),
            json!({"elicitationId": id})
        )]
    );
}

#[tokio::test]
async fn legacy_failure_is_failed_and_also_notified() {
    let server = server();
    let peer = UrlPeer::new(
        json!({"action": "accept"}),
        Some((&server, PageAction::Fail("denied"))),
    );
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(
        complete(outcome),
        UrlAnswer::Failed {
            state: bound(),
            reason: "denied".into()
        }
    );
    let id = legacy_url_request(&peer.requests());
    assert_eq!(peer.page_result().await.unwrap(), id);
    assert_eq!(peer.notifications().len(), 1);
    assert_eq!(peer.notifications()[0].1, json!({"elicitationId": id}));
}

#[tokio::test]
async fn legacy_decline_and_cancel_send_no_notification() {
    for (action, expected) in [
        ("decline", UrlAnswer::Declined),
        ("cancel", UrlAnswer::Cancelled),
    ] {
        let server = server();
        let peer = UrlPeer::new(json!({"action": action}), None);
        let outcome = run_legacy(
            &server,
            url_caps(),
            Some(ALICE),
            Some(peer.clone()),
            connect,
        )
        .await;
        assert_eq!(complete(outcome), expected);
        legacy_url_request(&peer.requests());
        assert!(peer.notifications().is_empty(), "{action}");
    }
}

#[tokio::test]
async fn legacy_accept_without_completion_expires_with_the_handle() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(1)));
    let peer = UrlPeer::new(json!({"action": "accept"}), None);
    let started = std::time::Instant::now();
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(complete(outcome), UrlAnswer::Expired);
    // A 1 s link (rounded up to the next second) polled every 200 ms: over within 1–5 s.
    assert!((Duration::from_secs(1)..Duration::from_secs(5)).contains(&started.elapsed()));
    legacy_url_request(&peer.requests());
    assert!(peer.notifications().is_empty());
}

/// Issue 9 item 10: each 2025-11-25 wait holds a request open for up to the handle's life, so
/// the number of waits is bounded; past it, asking fails at once, before any link is sent.
#[tokio::test]
async fn legacy_waits_are_bounded_and_refused_before_a_link_goes_out() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(1))).with_max_url_waits(1);
    let waiting = UrlPeer::new(json!({"action": "accept"}), None);
    let first = tokio::spawn({
        let (server, peer) = (server.clone(), waiting.clone());
        async move { run_legacy(&server, url_caps(), Some(ALICE), Some(peer), connect).await }
    });
    while waiting.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let turned_away = UrlPeer::new(json!({"action": "accept"}), None);
    let refused = error(
        run_legacy(
            &server,
            url_caps(),
            Some(ALICE),
            Some(turned_away.clone()),
            connect,
        )
        .await,
    );
    assert_eq!(
        serde_json::to_value(&refused).unwrap(),
        json!({
            "code": -32603,
            "message": "too many URL-mode elicitations are waiting on their pages; try again later",
            "data": {"reason": "busy"}
        })
    );
    assert!(turned_away.requests().is_empty(), "no link was sent");
    assert_eq!(complete(first.await.unwrap()), UrlAnswer::Expired);
    // The finished wait gave its permit back.
    let later = UrlPeer::new(json!({"action": "decline"}), None);
    assert_eq!(
        complete(run_legacy(&server, url_caps(), Some(ALICE), Some(later), connect).await),
        UrlAnswer::Declined
    );
}

/// A store that counts how often a waiting handler looks.
#[derive(Default)]
struct CountingStore {
    inner: MemoryCompletionStore,
    lookups: std::sync::atomic::AtomicUsize,
}

impl CompletionStore for CountingStore {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.inner.record(id, completion, expires_at)
    }
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.lookups
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.lookup(id)
    }
    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.inner.redeem(id, expires_at)
    }
}

/// A store that is down, with an error naming where it lives.
struct DownStore;

impl CompletionStore for DownStore {
    fn record<'a>(
        &'a self,
        _: &'a str,
        _: Completion,
        _: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
    fn lookup<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
    fn redeem<'a>(
        &'a self,
        _: &'a str,
        _: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
}

fn down() -> StoreError {
    StoreError("connection refused by redis://10.0.0.7:6379 (auth as elicit-prod)".into())
}

/// A store failure reaches the client as a retryable internal error without the store's own
/// words (found by the soak: Redis error text went onto the wire).
#[test]
fn a_failing_store_is_a_retryable_error_that_names_nothing_inside() {
    for single_use in [false, true] {
        let mut server = ElicitServer::new(sealer()).with_completion_store(Arc::new(DownStore));
        if single_use {
            server = server.with_single_use_completions();
        }
        let caller = Caller::new(&server, Some(ALICE));
        let ask = input_required(block_on(caller.call(&caller.first(), connect)));
        let params = caller.retry(&state_of(&ask), Some(answer("accept")));
        let error = block_on(caller.call(&params, connect)).unwrap_err();
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            json!({
                "code": -32603,
                "message": "the URL-mode completion store is unavailable; retry the request",
                "data": {"reason": "completion_store_unavailable"}
            }),
            "single use: {single_use}"
        );
    }
}

/// Issue 9 item 10: a handler waiting on an abandoned page backs off instead of asking the
/// store every 200 ms for the handle's whole life (a 2 s link: 10 or 11 looks before).
#[tokio::test]
async fn legacy_waits_back_off() {
    let store = Arc::new(CountingStore::default());
    let server = ElicitServer::new(sealer().with_ttl(Duration::from_secs(2)))
        .with_completion_store(store.clone());
    let peer = UrlPeer::new(json!({"action": "accept"}), None);
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), Some(peer), connect).await;
    assert_eq!(complete(outcome), UrlAnswer::Expired);
    let looks = store.lookups.load(std::sync::atomic::Ordering::Relaxed);
    assert!((2..=6).contains(&looks), "{looks} looks at the store");
}

#[tokio::test]
async fn legacy_refusals_happen_before_anything_is_sent() {
    let server = server();
    // No URL mode declared.
    let peer = UrlPeer::new(json!({"action": "accept"}), None);
    let e = error(
        run_legacy(
            &server,
            json!({"elicitation": {"form": {}}}),
            Some(ALICE),
            Some(peer.clone()),
            connect,
        )
        .await,
    );
    assert_eq!(e.code, -32021);
    assert_eq!(
        e.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}}))
    );
    let none = run_legacy(
        &server,
        json!({"elicitation": {}}),
        Some(ALICE),
        Some(peer.clone()),
        async |cx: &mut ElicitContext| bound().ask_if_supported(cx).await,
    )
    .await;
    assert_eq!(complete(none), None);
    // No principal.
    let e = error(run_legacy(&server, url_caps(), None, Some(peer.clone()), connect).await);
    assert_eq!(e.code, -32603);
    assert!(e.message.contains("principal"), "{e:?}");
    // No back channel.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    assert_eq!(e.code, -32603);
    assert!(e.message.contains("back channel"), "{e:?}");
    assert!(peer.requests().is_empty(), "nothing was sent");
    assert!(peer.notifications().is_empty());
}

/// The `-32042` error's single URL elicitation: `(url, elicitationId)`.
#[track_caller]
fn url_required(e: &JsonRpcError) -> (String, String) {
    assert_eq!(e.code, -32042, "{e:?}");
    let data = e.data.as_ref().unwrap();
    let entries = data["elicitations"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["mode"], "url");
    assert_eq!(entry["message"], MESSAGE);
    let url = entry["url"].as_str().unwrap().to_owned();
    let id = entry["elicitationId"].as_str().unwrap().to_owned();
    // The typed reader agrees.
    let parsed = e.url_elicitations().unwrap();
    assert_eq!(parsed[0].url, url);
    assert_eq!(parsed[0].elicitation_id.as_deref(), Some(id.as_str()));
    (url, id)
}

#[tokio::test]
async fn legacy_require_url_fails_with_the_link_then_completes_on_the_call_after() {
    let server = server();
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    let (url, id) = url_required(&e);
    let handle = handle_of(&url);

    // Calling again before the page finished: the same flow, again -32042.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    assert_eq!(url_required(&e).1, id);
    // Another user calling the same tool gets a flow of their own.
    let e = error(run_legacy(&server, url_caps(), Some(MALLORY), None, require).await);
    assert_ne!(url_required(&e).1, id);

    let page = LandingPage::new(&server);
    assert_eq!(
        page.open::<ConnectGithub>(&handle, MALLORY)
            .await
            .unwrap_err(),
        PageError::WrongSubject
    );
    let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    assert_eq!(opened.id(), id);
    page.complete(&opened, Some(json!({"account": "octocat"})))
        .await
        .unwrap();

    // A new request (new context), same principal, tool and arguments: completed.
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, require).await;
    assert_eq!(
        complete(outcome),
        completed(Some(json!({"account": "octocat"})))
    );
    // Mallory's call is not completed by alice's page.
    let e = error(run_legacy(&server, url_caps(), Some(MALLORY), None, require).await);
    url_required(&e);
    // Nor is a call with other arguments.
    let other = json!({"name": TOOL, "arguments": {"repo": "octo/other"}});
    let capabilities: ClientCapabilities = serde_json::from_value(url_caps()).unwrap();
    let mut cx = server
        .context("tools/call", &other)
        .principal(ALICE)
        .legacy(capabilities, None)
        .build()
        .unwrap();
    let result = require(&mut cx).await;
    url_required(&error(cx.finish(result)));
}

#[tokio::test]
async fn legacy_require_url_single_use_redeems_once() {
    let server = server().with_single_use_completions();
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    let (url, id) = url_required(&e);
    let page = LandingPage::new(&server);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();

    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, require).await;
    assert_eq!(complete(outcome), completed(None));
    // The same call again cannot reuse the completion: it starts a new flow (a new id).
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    let (_, next_id) = url_required(&e);
    assert_ne!(next_id, id);
}

#[tokio::test]
async fn legacy_require_url_single_use_a_later_call_starts_a_new_flow() {
    let server = server().with_single_use_completions();
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    let (url, _) = url_required(&e);
    let page = LandingPage::new(&server);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, require).await;
    assert_eq!(complete(outcome), completed(None));

    // The user runs the tool again later: a new link, which the page can finish.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, require).await);
    let (url, _) = url_required(&e);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, require).await;
    assert_eq!(complete(outcome), completed(None));
}

/// An empty principal is a server bug (it would bind state to "nobody"): refused before
/// anything is sealed, with an internal error and a reason for the log.
#[test]
fn an_empty_principal_is_refused() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let refused = server
        .context("tools/call", &caller.first())
        .principal("")
        .build()
        .unwrap_err();
    assert_eq!(
        serde_json::to_value(&refused.error).unwrap(),
        json!({"code": -32603, "message": "the request's principal is empty"})
    );
    assert!(refused.reason.contains("pass `None`"), "{}", refused.reason);
}
