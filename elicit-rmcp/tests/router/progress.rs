//! While a request waits for the person on a URL-mode page (a held 2026-07-28 retry, a
//! 2025-11-25 call after the accept), a client whose request carried a `progressToken` is told
//! once a second that the server waits for the page and for how long at most; a client that
//! sent no token is told nothing. Tokio's clock is paused: the seconds are the runtime's.

use std::time::Duration;

use elicit_rmcp::Principal;
use elicit_rmcp::url::LandingPage;
use rmcp::model::{CallToolResponse, ElicitRequestParams, ElicitationAction};
use serde_json::{Value, json};

use super::expect::*;
use super::harness::{ERAS, Era, From, User, call, connect, result, text_of};
use super::servers::Wired;

/// The page records the account 3.5 s after `url` went out.
fn finish_later(page: &LandingPage, url: &str) {
    let (page, handle) = (page.clone(), handle_of(url));
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(3_500)).await;
        let (opened, _) = page.open_raw(&handle, "alice").await.unwrap();
        page.complete_raw(&opened, Some(json!({"account": "octocat"})))
            .await
            .unwrap();
    });
}

/// Whether the client's requests carry a progress token.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tokens {
    /// rmcp's client puts one on every request.
    Rmcp,
    /// The tap takes them out: no request carries one.
    None,
}

/// Runs `connect_account` with rmcp's client through one wait on the page (the page finishing
/// 3.5 s in): the token the waiting request carried, and the progress notifications the server
/// sent.
async fn progress_of_one_wait(era: Era, tokens: Tokens) -> (Value, Vec<Value>) {
    let elicit = super::servers::elicit_server();
    let url = elicit.url_settings().clone();
    let elicit = elicit.with_url(url.with_hold(Duration::from_secs(30)));
    let server = Wired::with_server(elicit, Principal::fixed("alice"));
    let page = LandingPage::new(server.elicit.server());
    let person = page.clone();
    let mut user = User::answering(move |request| {
        let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            panic!("not a URL request: {request:?}");
        };
        finish_later(&person, url);
        result(ElicitationAction::Accept, None)
    });
    if tokens == Tokens::None {
        user.without_progress_tokens();
    }
    let session = connect(server, era, user).await;
    let connect_call = || call("connect_account", json!({"service": "github"}));
    let waiting = match era {
        Era::Mrtr => {
            let Ok(CallToolResponse::InputRequired(round)) =
                session.client.call_tool_once(connect_call()).await
            else {
                panic!("the link first");
            };
            let link = &session.wire.responses_to("tools/call")[0]["result"]["inputRequests"];
            finish_later(&page, link["connect"]["params"]["url"].as_str().unwrap());
            connect_call()
                .with_input_responses(input_responses(json!({"connect": {"action": "accept"}})))
                .with_request_state(round.request_state.expect("a sealed state"))
        }
        Era::Legacy => connect_call(),
    };
    let Ok(CallToolResponse::Complete(done)) = session.client.call_tool_once(waiting).await else {
        panic!("{era:?}: the call completes");
    };
    assert_eq!(
        text_of(&done),
        json!({"isError": false, "text": ["accept: connected github as octocat"]}),
        "{era:?}"
    );
    // Every report went out before the answer.
    let lines = session.wire.messages(From::Server);
    let answered = lines
        .iter()
        .rposition(|m| m["result"]["content"].is_array())
        .unwrap();
    assert!(
        lines[answered..]
            .iter()
            .all(|m| m["method"] != "notifications/progress"),
        "{era:?}: {lines:#?}"
    );
    let calls = session.wire.params_of(From::Client, "tools/call");
    let token = calls.last().unwrap()["_meta"]["progressToken"].clone();
    // On 2026-07-28 the first call carried a token of its own, which no wait was for.
    let first = calls[0]["_meta"]["progressToken"].clone();
    assert_eq!(calls.len(), if era == Era::Mrtr { 2 } else { 1 }, "{era:?}");
    match tokens {
        Tokens::Rmcp => assert_eq!(first == token, era == Era::Legacy, "{era:?}: {calls:#?}"),
        Tokens::None => assert!(
            calls
                .iter()
                .all(|c| c["_meta"].get("progressToken").is_none()),
            "{era:?}: {calls:#?}"
        ),
    }
    (
        token,
        session
            .wire
            .notifications(From::Server, "notifications/progress"),
    )
}

#[tokio::test(start_paused = true)]
async fn a_request_waiting_on_the_page_reports_its_wait_to_a_client_that_asked() {
    for era in ERAS {
        let (token, reports) = progress_of_one_wait(era, Tokens::Rmcp).await;
        assert!(token.is_number(), "{era:?}: {token}");
        // A held retry waits at most the hold (30 s); a 2025-11-25 call until the link expires
        // (10 minutes, give or take a second: the link's expiry is in whole seconds).
        let (total, up_to) = match era {
            Era::Mrtr => (json!(30.0), "30 s"),
            Era::Legacy => (reports[0]["total"].clone(), "10 min"),
        };
        if era == Era::Legacy {
            assert!(
                [json!(599.0), json!(600.0), json!(601.0)].contains(&total),
                "{reports:#?}"
            );
        }
        let expected: Vec<Value> = (0..4)
            .map(|waited| {
                json!({
                    "progressToken": token,
                    "progress": f64::from(waited),
                    "total": total,
                    "message": format!("Waiting for you to finish on the page (up to {up_to})")
                })
            })
            .collect();
        assert_eq!(reports, expected, "{era:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_request_without_a_progress_token_gets_no_progress() {
    for era in ERAS {
        let (token, reports) = progress_of_one_wait(era, Tokens::None).await;
        assert_eq!(token, Value::Null, "{era:?}");
        assert_eq!(reports, Vec::<Value>::new(), "{era:?}");
    }
}
