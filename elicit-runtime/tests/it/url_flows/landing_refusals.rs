//! What the landing page refuses (other users' handles, tampered or foreign ones, a second
//! recording), and malformed or foreign retries.

use super::*;

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
    for bad in [
        json!({ KEY: "yes" }),
        json!({ KEY: {"action": "maybe"} }),
        json!({ KEY: {} }),
    ] {
        // Each state is single use: a fresh call for each answer.
        let (_, state) = start(&caller);
        let e = error(block_on(
            caller.call(&caller.retry(&state, Some(bad.clone())), connect),
        ));
        assert_eq!(e.code, -32602, "{bad}: {e:?}");
        assert_ne!(e, JsonRpcError::invalid_request_state(), "{bad}: {e:?}");
    }
    // Unknown keys are ignored: the link is sent again rather than failing.
    let (_, state) = start(&caller);
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
