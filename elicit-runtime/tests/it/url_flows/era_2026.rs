//! The 2026-07-28 rounds of a URL-mode elicitation: completion, expiry, failure, and the
//! link's origin.

use super::*;

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

/// Outside a tokio runtime nothing can be held: an accept before the page finished gets the
/// same URL question again at once (never an empty round a client burns its retries on).
#[test]
fn an_accept_before_the_page_finished_asks_the_same_question_again() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let page = LandingPage::new(&server);
    let first = block_on(page.open::<ConnectGithub>(&handle, ALICE)).unwrap();

    let params = caller.retry(&state, Some(answer("accept")));
    let ask = input_required(block_on(caller.call(&params, connect)));
    let again = assert_asked_again(&ask);
    // The same flow, the same expiry: asking again never extends a link.
    let reopened = block_on(page.open::<ConnectGithub>(&again, ALICE)).unwrap();
    assert_eq!(reopened.id(), first.id());
    assert_eq!(reopened.expires_at(), first.expires_at());
    // A retry without an answer to it is asked again too; nothing was recorded.
    let ask = input_required(block_on(
        caller.call(&caller.retry(&state_of(&ask), None), connect),
    ));
    assert_asked_again(&ask);

    finish_page(&server, &handle, None);
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(None)
    );
}

/// A person takes longer than the hold: the held retry ends by asking the same question
/// again; the next accept is held again, and the page recording wakes it.
#[tokio::test]
async fn a_held_retry_asks_again_when_the_hold_passes_and_wakes_when_the_page_records() {
    let server = tuned(&server(), |url| url.with_hold(Duration::from_millis(300)));
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(caller.call(&caller.first(), connect).await);
    let handle = handle_of(&url_request(&ask));

    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let ask = input_required(caller.call(&params, connect).await);
    assert_asked_again(&ask);

    // Held now with a hold far longer than the person takes: the page's record ends it.
    let server = tuned(&server, |url| url.with_hold(Duration::from_secs(60)));
    let caller = Caller::new(&server, Some(ALICE));
    let page = {
        let server = server.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let page = LandingPage::new(&server);
            let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
            page.complete(&opened, Some(json!("ok"))).await.unwrap();
        })
    };
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let outcome = tokio::time::timeout(Duration::from_secs(20), caller.call(&params, connect))
        .await
        .expect("the record woke the held retry, not the 60 s hold");
    assert_eq!(complete(outcome), completed(Some(json!("ok"))));
    page.await.unwrap();
}

/// A link that expires while its retry is held ends `Expired`, at the expiry.
#[tokio::test]
async fn a_held_retry_ends_expired_when_the_link_expires_first() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(1)));
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(caller.call(&caller.first(), connect).await);
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let outcome = tokio::time::timeout(Duration::from_secs(20), caller.call(&params, connect))
        .await
        .expect("held no longer than the link lives");
    assert_eq!(complete(outcome), UrlAnswer::Expired);
}

/// The retry that accepts the link `caller`'s first round sends.
async fn accept_after_first(caller: &Caller) -> Value {
    let ask = input_required(caller.call(&caller.first(), connect).await);
    caller.retry(&state_of(&ask), Some(answer("accept")))
}

/// Held retries take waits from the pool, within each user's share: past it, the retry is
/// refused with `busy` at once; another user's is held; a finished hold gives its wait back.
#[tokio::test]
async fn held_retries_are_bounded_per_user() {
    let server = tuned(&server(), |url| {
        url.with_hold(Duration::from_millis(600))
            .with_max_waits_per_user(1)
    });
    let alice = Caller::new(&server, Some(ALICE));
    let bob = Caller::new(&server, Some("bob"));
    let (a1, a2, b1) = (
        accept_after_first(&alice).await,
        accept_after_first(&alice).await,
        accept_after_first(&bob).await,
    );
    let held = alice.call(&a1, connect);
    let refused = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        alice.call(&a2, connect).await
    };
    let other = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        bob.call(&b1, connect).await
    };
    let (held, refused, other) = tokio::join!(held, refused, other);
    assert_asked_again(&input_required(held));
    assert_asked_again(&input_required(other));
    let refused = error(refused);
    assert_eq!(refused.code, -32603, "{refused:?}");
    assert_eq!(refused.data, Some(json!({"reason": "busy"})));
    // The share is back: alice's next held retry is held, not refused.
    let a3 = accept_after_first(&alice).await;
    assert_asked_again(&input_required(alice.call(&a3, connect).await));
}

/// A full pool lets a newcomer in by ending another user's held retry early: that retry asks
/// the same question again (the same flow), and the person's page, finished meanwhile, is read
/// by the next retry. Nothing of the flow is lost.
#[tokio::test]
async fn a_held_retry_whose_wait_goes_to_a_newcomer_is_asked_again_and_its_flow_goes_on() {
    let server = tuned(&server(), |url| {
        url.with_hold(Duration::from_secs(60))
            .with_max_waits(2)
            .with_max_waits_per_user(2)
    });
    let alice = Caller::new(&server, Some(ALICE));
    let bob = Caller::new(&server, Some("bob"));
    let ask = input_required(alice.call(&alice.first(), connect).await);
    let handle = handle_of(&url_request(&ask));
    let first = alice.retry(&state_of(&ask), Some(answer("accept")));
    let ask = input_required(alice.call(&alice.first(), connect).await);
    let second_handle = handle_of(&url_request(&ask));
    let second = alice.retry(&state_of(&ask), Some(answer("accept")));
    let ask = input_required(bob.call(&bob.first(), connect).await);
    let bobs_handle = handle_of(&url_request(&ask));
    let bobs = bob.retry(&state_of(&ask), Some(answer("accept")));

    let page = LandingPage::new(&server);
    let finish = |handle: String, user: &'static str, result: Value| {
        let page = &page;
        async move {
            let opened = page.open::<ConnectGithub>(&handle, user).await.unwrap();
            page.complete(&opened, Some(result)).await.unwrap();
        }
    };
    let ended_early = async {
        // Alice's two retries fill the pool; bob's takes the older one's wait.
        let ask = input_required(alice.call(&first, connect).await);
        let again = assert_asked_again(&ask);
        let reopened = page.open::<ConnectGithub>(&again, ALICE).await.unwrap();
        let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
        assert_eq!(reopened.id(), opened.id(), "the same flow, asked again");
        // The person finishes the page; the client's next retry reads it, with no wait.
        finish(handle.clone(), ALICE, json!("first")).await;
        let retry = alice.retry(&state_of(&ask), Some(answer("accept")));
        let outcome = complete(alice.call(&retry, connect).await);
        assert_eq!(outcome, completed(Some(json!("first"))));
        // The two still held are woken by their pages.
        finish(second_handle.clone(), ALICE, json!("second")).await;
        finish(bobs_handle.clone(), "bob", json!("bob's")).await;
    };
    let still_held = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        alice.call(&second, connect).await
    };
    let newcomer = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        bob.call(&bobs, connect).await
    };
    let all = async { tokio::join!(ended_early, still_held, newcomer) };
    let ((), second, bobs) = tokio::time::timeout(Duration::from_secs(20), all)
        .await
        .expect("the newcomer ended alice's oldest held retry, not the 60 s hold");
    assert_eq!(complete(second), completed(Some(json!("second"))));
    assert_eq!(complete(bobs), completed(Some(json!("bob's"))));
}

/// A held retry whose request the SDK cancels (the client sent `notifications/cancelled` or
/// went away) ends at once, and its wait is back in the user's share.
#[tokio::test]
async fn a_cancelled_held_retry_frees_its_wait() {
    let server = tuned(&server(), |url| {
        url.with_hold(Duration::from_secs(30))
            .with_max_waits_per_user(1)
    });
    let alice = Caller::new(&server, Some(ALICE));
    let (a1, a2) = (
        accept_after_first(&alice).await,
        accept_after_first(&alice).await,
    );
    let (cancel, cancelled) = tokio::sync::watch::channel(false);
    let mut cx = server
        .context("tools/call", &a1)
        .principal(ALICE)
        .cancelled_by(move || {
            let mut cancelled = cancelled.clone();
            async move {
                let _ = cancelled.wait_for(|gone| *gone).await;
            }
        })
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let held = async {
        let result = connect(&mut cx).await;
        cx.respond(result).await
    };
    let client_leaves = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.send(true).unwrap();
    };
    let (held, ()) = tokio::join!(held, client_leaves);
    let stopped = error(held);
    assert_eq!(stopped.code, -32603, "{stopped:?}");
    assert_eq!(stopped.data, Some(json!({"reason": "cancelled"})));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "held past the cancellation"
    );
    // alice's one wait is free again: her next retry is held (the short hold below passes
    // with no page), not refused `busy`.
    let server = tuned(&server, |url| url.with_hold(Duration::from_millis(200)));
    let alice = Caller::new(&server, Some(ALICE));
    assert_asked_again(&input_required(alice.call(&a2, connect).await));
}

/// Two retries of one flow held at once (the same retry sent twice, without the replay
/// guard that would refuse the second state): one outcome, once.
#[tokio::test]
async fn two_held_retries_of_one_flow_get_one_outcome() {
    let server = tuned(&server_with(sealer().without_replay_guard()), |url| {
        url.with_hold(Duration::from_secs(30))
    });
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(caller.call(&caller.first(), connect).await);
    let handle = handle_of(&url_request(&ask));
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let page = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let page = LandingPage::new(&server);
        let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
        page.complete(&opened, None).await.unwrap();
    };
    let (one, two, ()) = tokio::join!(
        caller.call(&params, connect),
        caller.call(&params, connect),
        page
    );
    let (mut completions, mut refusals) = (0, 0);
    for outcome in [one, two] {
        match outcome {
            Ok(Reply::Result(answer)) => {
                assert_eq!(answer, completed(None));
                completions += 1;
            }
            Err(e) => {
                assert_already_redeemed(&e);
                refusals += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((completions, refusals), (1, 1));
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
        // Without the replay guard, which would refuse the second call before the flow is
        // looked at: this is about the flow.
        let replayable = server_with(sealer().without_replay_guard());
        let caller = Caller::new(&replayable, Some(ALICE));
        let (handle, state) = start(&caller);
        let params = caller.retry(&state, Some(answer(action)));
        assert_eq!(complete(block_on(caller.call(&params, connect))), expected);
        // Declining records nothing: the page itself still opens (the link is still alive),
        // and finishing it afterwards does not turn the decline into an authorization.
        finish_page(&replayable, &handle, None);
        assert_eq!(complete(block_on(caller.call(&params, connect))), expected);
        // With the default guard, the same retry a second time is refused outright.
        let guarded = server();
        let caller = Caller::new(&guarded, Some(ALICE));
        let (_, state) = start(&caller);
        let params = caller.retry(&state, Some(answer(action)));
        assert_eq!(complete(block_on(caller.call(&params, connect))), expected);
        assert_invalid_state(&error(block_on(caller.call(&params, connect))));
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
    // Retry two whole seconds later (still before the links expire): the rounds asking again
    // are sealed later than the links, so their requestState outlives them by about two
    // seconds.
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
        assert_asked_again(&ask);
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
    // A completion lives as long as its link: flow B expired with it, like flow A; and a
    // flow whose link expired is not asked again, answered or not.
    for state in [&polled_a, &polled_b] {
        for responses in [Some(answer("accept")), None] {
            let retry = block_on(caller.call(&caller.retry(state, responses), connect));
            assert_eq!(complete(retry), UrlAnswer::Expired);
        }
    }
}
#[test]
fn url_elicitation_required_on_2026_is_the_round_and_never_minus_32042() {
    let server = tuned(&server(), UrlSettings::with_url_elicitation_required);
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    let handle = handle_of(&url_request(&ask));
    // Before the page finished: the question again, not an error.
    let params = caller.retry(&state_of(&ask), Some(answer("accept")));
    let pending = input_required(block_on(caller.call(&params, connect)));
    assert_asked_again(&pending);
    finish_page(&server, &handle, Some(json!({"account": "octocat"})));
    let params = caller.retry(&state_of(&pending), Some(answer("accept")));
    assert_eq!(
        complete(block_on(caller.call(&params, connect))),
        completed(Some(json!({"account": "octocat"})))
    );
}

#[test]
fn the_origin_setting_moves_the_link_to_the_dev_origin() {
    let server = tuned(&server(), |url| {
        url.with_origin("http://127.0.0.1:8931/").unwrap()
    });
    let caller = Caller::new(&server, Some(ALICE));
    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    let params = serde_json::to_value(ask.input_requests().unwrap()).unwrap();
    let url = params[KEY]["params"]["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:8931/github?elicitation=eu1."),
        "{url}"
    );
    assert_eq!(
        UrlSettings::default()
            .with_origin("http://example.com")
            .err()
            .map(|e| e.to_string())
            .as_deref(),
        Some("the origin must be https (http only on localhost, 127.0.0.1 or [::1])")
    );
    assert_eq!(
        UrlSettings::default()
            .with_origin("https://a.example/path")
            .err()
            .map(|e| e.to_string())
            .as_deref(),
        Some("an origin is `scheme://host[:port]`, without path, query or user info")
    );
}

/// Issue 21 item 7: a URL accept means "the user agreed to open the link" and defines no
/// content. Content sent with it anyway was carried in every later state (a 372-byte state
/// grew to 80 kB); only the action is kept now, so the state is the size of a bare accept's,
/// round after round.
#[test]
fn a_url_accept_carries_its_action_only() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let junk = json!({"junk": "x".repeat(60_000), "more": {"nested": vec!["y"; 100]}});
    let stuffed =
        json!({ KEY: {"action": "accept", "content": junk, "_meta": {"k": "z".repeat(1000)}} });
    let mut sizes = Vec::new();
    for responses in [answer("accept"), stuffed] {
        let (_, state) = start(&caller);
        let ask = input_required(block_on(
            caller.call(&caller.retry(&state, Some(responses)), connect),
        ));
        assert_asked_again(&ask);
        // A retry without an answer after it carries the same again.
        let again = input_required(block_on(
            caller.call(&caller.retry(&state_of(&ask), None), connect),
        ));
        sizes.push((state_of(&ask).len(), state_of(&again).len()));
    }
    assert_eq!(sizes[0], sizes[1], "bare accept vs accept with content");
    assert!(sizes[1].0 < 1_024 && sizes[1].1 < 1_024, "{sizes:?}");
}
