//! URL mode completed on the landing page, the state-only rounds while it has not, and the
//! refusal without a principal.

use elicit_rmcp::Principal;
use elicit_rmcp::url::{LandingPage, PageError};
use rmcp::model::{ElicitRequestParams, ElicitationAction};
use serde_json::json;

use super::expect::*;
use super::harness::{ERAS, Era, From, User, call, connect, result, text_of};
use super::servers::Wired;

use ElicitationAction::Accept;

#[tokio::test]
async fn a_url_flow_completes_on_the_landing_page() {
    for era in ERAS {
        let server = Wired::new(Principal::fixed("alice"));
        let page = LandingPage::new(server.elicit.server());
        let opened_ids = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = opened_ids.clone();
        // The user opens the link, signs in as alice, the page records the account; then
        // the client accepts.
        let user = User::answering_async(move |request| {
            let page = page.clone();
            let seen = seen.clone();
            async move {
                let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
                    panic!("not a URL request: {request:?}");
                };
                let handle = handle_of(&url);
                let refused = page.open_raw(&handle, "mallory").await;
                assert_eq!(refused.err(), Some(PageError::WrongSubject));
                let (opened, state) = page.open_raw(&handle, "alice").await.unwrap();
                assert_eq!(opened.key(), "connect");
                assert_eq!(state, json!({"service": "github"}));
                seen.lock().unwrap().push(opened.id().to_owned());
                page.complete_raw(&opened, Some(json!({"account": "octocat"})))
                    .await
                    .unwrap();
                result(Accept, None)
            }
        });
        let session = connect(server, era, user).await;
        let done = session
            .client
            .call_tool(call("connect_account", json!({"service": "github"})))
            .await
            .unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: connected github as octocat"]}),
            "{era:?}"
        );
        let ids = opened_ids.lock().unwrap().clone();
        assert_eq!(ids.len(), 1, "{era:?}");
        let (asked, answered) = asked(&session, era, "tools/call");
        assert_eq!(asked.len(), 1, "{era:?}");
        match era {
            Era::Mrtr => {
                let params = &asked[0]["inputRequests"]["connect"]["params"];
                let url = params["url"].as_str().unwrap();
                handle_of(url);
                assert_eq!(
                    asked[0],
                    round(
                        json!({"connect": {"method": "elicitation/create", "params": {
                            "mode": "url",
                            "message": "Connect your account in the browser to continue",
                            "url": url
                        }}})
                    )
                );
                // On the raw wire: no `elicitationId` at all (rmcp writes `""`;
                // `WireFix` removes it).
                let round = session
                    .wire
                    .lines(From::Server)
                    .into_iter()
                    .find(|l| l.contains("input_required"))
                    .unwrap();
                assert!(!round.contains("elicitationId"), "{round}");
                assert_eq!(answered, [json!({"connect": {"action": "accept"}})]);
            }
            Era::Legacy => {
                let url = asked[0]["url"].as_str().unwrap();
                handle_of(url);
                assert_eq!(
                    asked[0],
                    json!({
                        "mode": "url",
                        "message": "Connect your account in the browser to continue",
                        "url": url,
                        "elicitationId": ids[0]
                    })
                );
                assert_eq!(
                    session
                        .wire
                        .notifications(From::Server, "notifications/elicitation/complete"),
                    [json!({"elicitationId": ids[0]})]
                );
            }
        }
    }
}

#[tokio::test]
async fn url_mode_without_a_principal_fails_clearly() {
    for era in ERAS {
        let user = User::always(Accept, None);
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let failed = session
            .client
            .call_tool(call("connect_account", json!({"service": "github"})))
            .await;
        assert_eq!(
            error_of(failed),
            json!({
                "code": -32603,
                "message": "URL-mode elicitation needs an authenticated principal",
                "data": null
            }),
            "{era:?}"
        );
        assert!(
            session
                .wire
                .params_of(From::Server, "elicitation/create")
                .is_empty()
        );
    }
}

#[tokio::test]
async fn an_accept_before_the_page_finished_is_held_until_the_page_records() {
    for era in ERAS {
        let server = Wired::new(Principal::fixed("alice"));
        let page = LandingPage::new(server.elicit.server());
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = asked.clone();
        // The user agrees at once; the page finishes a little later.
        let user = User::answering_async(move |request| {
            let page = page.clone();
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async move {
                let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
                    panic!("not a URL request: {request:?}");
                };
                let handle = handle_of(&url);
                tokio::spawn(async move {
                    tokio::time::sleep(std::time::Duration::from_millis(120)).await;
                    let (opened, _) = page.open_raw(&handle, "alice").await.unwrap();
                    page.complete_raw(&opened, Some(json!({"account": "octocat"})))
                        .await
                        .unwrap();
                });
                result(Accept, None)
            }
        });
        let session = connect(server, era, user).await;
        let done = session
            .client
            .call_tool(call("connect_account", json!({"service": "github"})))
            .await
            .unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: connected github as octocat"]}),
            "{era:?}"
        );
        assert_eq!(
            asked.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "{era:?}: asked once"
        );
        if era == Era::Mrtr {
            // The retry carrying the accept is held until the page records: the link, then
            // the result, with no round in between.
            let rounds = session.wire.responses_to("tools/call");
            let calls = session.wire.params_of(From::Client, "tools/call");
            assert_eq!(rounds.len(), 2, "link, then result: {rounds:#?}");
            assert_eq!(
                calls[1]["inputResponses"],
                json!({"connect": {"action": "accept"}})
            );
            assert_eq!(rounds[1]["result"]["resultType"], "complete", "{rounds:#?}");
        }
    }
}

/// A client that gives up on a call while it waits on the page (rmcp's client sends
/// `notifications/cancelled` when the call's future is dropped) frees the wait at once: with a
/// share of one wait and a 30 s hold, the same user's next call is held and connects instead
/// of being refused `busy`. On 2026-07-28 the cancelled call is the held retry; on 2025-11-25
/// the call waiting after the accept.
#[tokio::test]
async fn a_cancelled_call_frees_its_wait_on_the_page() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    for era in ERAS {
        let elicit = super::servers::elicit_server();
        let url = elicit.url_settings().clone();
        let elicit = elicit.with_url(
            url.with_hold(Duration::from_secs(30))
                .with_max_waits_per_user(1),
        );
        let server = Wired::with_server(elicit, Principal::fixed("alice"));
        let page = LandingPage::new(server.elicit.server());
        // The person comes to the page only for the second call.
        let comes = Arc::new(AtomicBool::new(false));
        let person = comes.clone();
        let user = User::answering_async(move |request| {
            let (page, comes) = (page.clone(), person.load(Ordering::SeqCst));
            async move {
                let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
                    panic!("not a URL request: {request:?}");
                };
                if comes {
                    let handle = handle_of(&url);
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        let (opened, _) = page.open_raw(&handle, "alice").await.unwrap();
                        page.complete_raw(&opened, Some(json!({"account": "octocat"})))
                            .await
                            .unwrap();
                    });
                }
                result(Accept, None)
            }
        });
        let session = connect(server, era, user).await;
        let waiting = match era {
            Era::Mrtr => {
                let Ok(rmcp::model::CallToolResponse::InputRequired(round)) = session
                    .client
                    .call_tool_once(call("connect_account", json!({"service": "github"})))
                    .await
                else {
                    panic!("{era:?}: the link first");
                };
                call("connect_account", json!({"service": "github"}))
                    .with_input_responses(input_responses(json!({"connect": {"action": "accept"}})))
                    .with_request_state(round.request_state.expect("a sealed state"))
            }
            Era::Legacy => call("connect_account", json!({"service": "github"})),
        };
        let gave_up = tokio::time::timeout(
            Duration::from_millis(300),
            session.client.call_tool_once(waiting),
        )
        .await;
        assert!(
            gave_up.is_err(),
            "{era:?}: the call was waiting: {gave_up:?}"
        );
        comes.store(true, Ordering::SeqCst);
        let done = tokio::time::timeout(
            Duration::from_secs(20),
            session
                .client
                .call_tool(call("connect_account", json!({"service": "github"}))),
        )
        .await
        .expect("held well within the hold")
        .unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: connected github as octocat"]}),
            "{era:?}"
        );
    }
}

/// The link fallback (`UrlSettings::with_link_fallback`) with rmcp's client declaring form mode only (as Claude Code does), on both
/// eras: the call ends with the link as its text result and asks the client nothing; the
/// same call after the page finished connects; the one after that needs a new link.
#[tokio::test]
async fn a_form_only_client_connects_through_the_link_in_the_tool_result() {
    for era in ERAS {
        let elicit = super::servers::elicit_server();
        let url = elicit.url_settings().clone().with_link_fallback();
        let server = Wired::with_server(elicit.with_url(url), Principal::fixed("alice"));
        let page = LandingPage::new(server.elicit.server());
        let mut user = User::always(ElicitationAction::Decline, None);
        user.form_only();
        let session = connect(server, era, user).await;
        let connect_call = || call("connect_or_link", json!({"service": "github"}));
        let first = session.client.call_tool(connect_call()).await.unwrap();
        let text = text_of(&first);
        let text = text["text"][0].as_str().unwrap().to_owned();
        assert_eq!(first.is_error, Some(false), "{era:?}");
        let url = text
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1/connect?"))
            .unwrap_or_else(|| panic!("a link in {text}"));
        assert_eq!(
            text,
            format!(
                "Connect your account in the browser to continue: open {url} in a browser, \
                 then ask me to continue. The link is for this user only, works once, and \
                 expires in 10 minutes."
            ),
            "{era:?}"
        );
        let (opened, _) = page.open_raw(&handle_of(url), "alice").await.unwrap();
        page.complete_raw(&opened, Some(json!({"account": "octocat"})))
            .await
            .unwrap();
        let done = session.client.call_tool(connect_call()).await.unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["connected github as octocat"]}),
            "{era:?}"
        );
        let again = session.client.call_tool(connect_call()).await.unwrap();
        let again = text_of(&again)["text"][0].as_str().unwrap().to_owned();
        assert!(
            again.starts_with("Connect your account"),
            "{era:?}: {again}"
        );
        assert!(!again.contains(url), "a new link after single use: {again}");
        // Nothing was ever asked of the client.
        let (asked, _) = asked(&session, era, "tools/call");
        assert!(asked.is_empty(), "{era:?}: {asked:?}");
    }
}
