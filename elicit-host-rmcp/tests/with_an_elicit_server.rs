//! A real rmcp client with an `ElicitingClient` against a real rmcp server built with elicit,
//! on both revisions: forms typed, refused and timed out; a page opened and finished by the
//! person later than the server holds a retry.

mod common;

use std::time::Duration;

use elicit_host_rmcp::{Answerer, Consent, Limits, Outcome};
use elicit_wire::ElicitResult;
use serde_json::json;

use common::{Desk, ERAS, Era, FormPlan, PagePlan, Person, connect, drive, text};

const HOLD: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_form_is_typed_over_its_defaults_and_sent_as_the_server_accepts_it() {
    for era in ERAS {
        let person = Person::new(
            FormPlan::Type(vec![
                ("environment", "Production"),
                ("notify", "email, chat"),
            ]),
            PagePlan::Say(Consent::Cancelled),
        );
        let (client, wire) = connect(Desk::new(HOLD), era, Answerer::new(person.clone())).await;
        let call = drive(&client, "deploy", json!({})).await;
        assert_eq!(
            text(&call.result.expect("a result")),
            "deployed to Production with 2 replicas, notifying [Email, Chat]",
            "{era:?}"
        );
        let seen = person.seen();
        assert_eq!(seen.askers, ["Release desk"], "{era:?}");
        assert_eq!(seen.forms, ["Where to deploy"], "{era:?}");
        assert_eq!(seen.outcomes, [Outcome::Accepted], "{era:?}");
        match era {
            Era::Mrtr => {
                assert_eq!(call.elicitations.len(), 1);
                assert_eq!(call.elicitations[0].key.as_deref(), Some("deploy"));
                // The retry: a new id, the answer under the round's key, the state as sent.
                let rounds = wire.rounds();
                let sent = wire.client_params("tools/call");
                let ids = wire.client_ids("tools/call");
                assert_eq!(rounds.len(), 1);
                assert_eq!(sent.len(), 2);
                assert_ne!(ids[0], ids[1]);
                assert_eq!(sent[1]["requestState"], rounds[0]["requestState"]);
                assert_eq!(
                    sent[1]["inputResponses"],
                    json!({"deploy": {"action": "accept", "content": {
                        "environment": "Production", "replicas": 2, "notify": ["Email", "Chat"]
                    }}})
                );
                assert!(sent[0].get("requestState").is_none());
            }
            Era::Legacy => {
                assert!(
                    call.elicitations.is_empty(),
                    "pushed requests reach Host::outcome"
                );
                assert_eq!(
                    wire.client_answers()[0]["result"],
                    json!({"action": "accept", "content": {
                        "environment": "Production", "replicas": 2, "notify": ["Email", "Chat"]
                    }})
                );
            }
        }
    }
}

#[tokio::test]
async fn decline_cancel_and_an_answer_the_schema_refuses_are_told_apart() {
    let invalid = ElicitResult::accept(
        json!({"environment": "Production", "replicas": 40, "notify": []})
            .as_object()
            .unwrap()
            .clone(),
    );
    let cases = [
        (ElicitResult::decline(), "declined", Outcome::Declined),
        (ElicitResult::cancel(), "cancelled", Outcome::Cancelled),
    ];
    for era in ERAS {
        for (reply, told, outcome) in cases.clone() {
            let person = Person::new(FormPlan::Send(reply), PagePlan::Say(Consent::Cancelled));
            let (client, _) = connect(Desk::new(HOLD), era, Answerer::new(person.clone())).await;
            let call = drive(&client, "deploy", json!({})).await;
            assert_eq!(text(&call.result.unwrap()), told, "{era:?}");
            assert_eq!(person.seen().outcomes, [outcome], "{era:?}");
        }
        // Content that breaks the form's own rules never leaves the host: `cancel` goes.
        let person = Person::new(
            FormPlan::Send(invalid.clone()),
            PagePlan::Say(Consent::Cancelled),
        );
        let (client, wire) = connect(Desk::new(HOLD), era, Answerer::new(person.clone())).await;
        let call = drive(&client, "deploy", json!({})).await;
        assert_eq!(text(&call.result.unwrap()), "cancelled", "{era:?}");
        let outcomes = &person.seen().outcomes;
        let [Outcome::InvalidReply(error)] = outcomes.as_slice() else {
            panic!("{outcomes:?}")
        };
        assert_eq!(
            error.to_string(),
            "invalid form content: `replicas` must be at most 10"
        );
        let sent = match era {
            Era::Mrtr => wire.client_params("tools/call")[1]["inputResponses"]["deploy"].clone(),
            Era::Legacy => wire.client_answers()[0]["result"].clone(),
        };
        assert_eq!(sent, json!({"action": "cancel"}), "{era:?}");
    }
}

#[tokio::test]
async fn a_person_who_does_not_answer_in_time_is_a_cancel_named_timed_out() {
    for era in ERAS {
        let person = Person::new(FormPlan::Never, PagePlan::Say(Consent::Cancelled));
        let limits = Limits::default().with_answer_timeout(Duration::from_millis(200));
        let answerer = Answerer::new(person.clone()).with_limits(limits);
        let (client, _) = connect(Desk::new(HOLD), era, answerer).await;
        let call = drive(&client, "deploy", json!({})).await;
        assert_eq!(text(&call.result.unwrap()), "cancelled", "{era:?}");
        assert_eq!(person.seen().outcomes, [Outcome::TimedOut], "{era:?}");
    }
}

/// The person consents at once and signs in two seconds later, while the server holds each
/// retry only 300 ms: the page is shown once, the server's repeated link is answered without
/// showing it again, and the call ends with the page's result.
#[tokio::test]
async fn a_page_finished_later_than_the_server_holds_is_waited_for_not_shown_again() {
    for era in ERAS {
        let desk = Desk::new(Duration::from_millis(300));
        let page = PagePlan::OpenAndFinish {
            page: desk.page(),
            after: Duration::from_secs(2),
        };
        let person = Person::new(FormPlan::Never, page);
        let (client, wire) = connect(desk, era, Answerer::new(person.clone())).await;
        let call = drive(&client, "connect", json!({"service": "github"})).await;
        assert_eq!(
            text(&call.result.expect("a result")),
            "connected github as octocat",
            "{era:?}"
        );
        let seen = person.seen();
        assert_eq!(seen.pages.len(), 1, "shown once: {era:?}");
        assert!(seen.pages[0].starts_with("http://127.0.0.1/connect?elicitation=eu1."));
        match era {
            Era::Mrtr => {
                assert!(seen.waits >= 3, "asked again while held: {}", seen.waits);
                assert_eq!(seen.outcomes, [Outcome::Opened]);
                assert_eq!(call.elicitations[0].outcome, Outcome::Opened);
                assert!(wire.rounds().len() >= 4, "{}", wire.rounds().len());
            }
            Era::Legacy => {
                // The server kept the request open until the page finished, then told.
                assert_eq!(seen.outcomes, [Outcome::Opened, Outcome::Completed]);
            }
        }
    }
}

/// A person who stops waiting: `cancel` under the link's key, the page's outcome unknown.
#[tokio::test]
async fn a_person_who_stops_waiting_cancels_and_the_page_is_unfinished() {
    let desk = Desk::new(Duration::from_millis(100));
    let mut person = Person::new(FormPlan::Never, PagePlan::OpenOnly);
    person.patience = 2;
    let (client, wire) = connect(desk, Era::Mrtr, Answerer::new(person.clone())).await;
    let call = drive(&client, "connect", json!({"service": "github"})).await;
    assert_eq!(text(&call.result.unwrap()), "not connected: Cancelled");
    assert_eq!(
        person.seen().outcomes,
        [Outcome::Opened, Outcome::Unfinished]
    );
    assert_eq!(call.elicitations[0].outcome, Outcome::Unfinished);
    let last = wire.client_params("tools/call").pop().unwrap();
    assert_eq!(
        last["inputResponses"]["connect"],
        json!({"action": "cancel"})
    );
}

/// A server that never finishes is bounded by the wait, not by a count of quick rounds.
#[tokio::test]
async fn an_open_page_is_waited_for_at_most_the_max_wait() {
    let desk = Desk::new(Duration::from_millis(100));
    let person = Person::new(FormPlan::Never, PagePlan::OpenOnly);
    let limits = Limits::default().with_max_wait(Duration::from_millis(1500));
    let answerer = Answerer::new(person.clone()).with_limits(limits);
    let (client, wire) = connect(desk, Era::Mrtr, answerer).await;
    let started = std::time::Instant::now();
    let call = drive(&client, "connect", json!({"service": "github"})).await;
    let error = call.result.unwrap_err();
    assert!(
        matches!(error, elicit_host_rmcp::CallError::WaitedOut { .. }),
        "{error}"
    );
    assert!(started.elapsed() >= Duration::from_millis(1500));
    assert_eq!(call.elicitations[0].outcome, Outcome::Unfinished);
    // Several rounds of the same link, the page shown once.
    assert!(wire.rounds().len() >= 4, "{}", wire.rounds().len());
    assert_eq!(person.seen().pages.len(), 1);
}

#[tokio::test]
async fn a_declined_page_is_a_decline() {
    for era in ERAS {
        let person = Person::new(FormPlan::Never, PagePlan::Say(Consent::Declined));
        let (client, _) = connect(Desk::new(HOLD), era, Answerer::new(person.clone())).await;
        let call = drive(&client, "connect", json!({"service": "github"})).await;
        assert_eq!(
            text(&call.result.unwrap()),
            "not connected: Declined",
            "{era:?}"
        );
        assert_eq!(person.seen().outcomes, [Outcome::Declined], "{era:?}");
    }
}

/// 2025-11-25 `-32042` (a server that cannot keep the request open): the link shown once,
/// the call retried while the person is on the page, and finished once the page is.
#[tokio::test]
async fn a_url_elicitation_required_error_is_opened_waited_for_and_retried() {
    let url = elicit_rmcp::url::UrlSettings::new(std::sync::Arc::new(
        elicit_rmcp::url::MemoryCompletionStore::new(),
    ))
    .with_url_elicitation_required();
    let desk = Desk::with_url(url);
    let page = PagePlan::OpenAndFinish {
        page: desk.page(),
        after: Duration::from_secs(3),
    };
    let person = Person::new(FormPlan::Never, page);
    let (client, wire) = connect(desk, Era::Legacy, Answerer::new(person.clone())).await;
    let call = drive(&client, "connect", json!({"service": "github"})).await;
    assert_eq!(
        text(&call.result.expect("a result")),
        "connected github as octocat"
    );
    assert_eq!(person.seen().pages.len(), 1, "shown once");
    assert_eq!(call.elicitations.len(), 1);
    assert_eq!(call.elicitations[0].outcome, Outcome::Opened);
    assert!(person.seen().waits >= 1);
    // The first call and at least one retry while the page was open.
    assert!(
        wire.client_params("tools/call").len() >= 3,
        "{}",
        wire.client_params("tools/call").len()
    );
}
