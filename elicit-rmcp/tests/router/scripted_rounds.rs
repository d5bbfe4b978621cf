//! The scripted client on partial rounds (a question left unanswered, a page never opened),
//! on handlers that panic, and hand-made retries through a session.

use elicit_rmcp::testing::{Ending, Responses, Run, ScriptedClient, Side, ToolCall, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, Principal};
use rmcp::model::CallToolResult;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::json;

use super::servers::{Confirm, ConnectAccount, Travelers, TripDates, Wired, elicit_server};

fn trip() -> serde_json::Value {
    json!({"destination": "Lisbon"})
}

#[tokio::test]
async fn on_2026_one_question_of_two_answered_stops_at_the_round_asking_the_other() {
    let session = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .reply::<TripDates>(UserReply::Accept(
            json!({"start": "2026-09-01", "nights": 4}),
        ))
        .reply::<Travelers>(UserReply::Unanswered)
        .connect(Wired::new(Principal::anonymous()))
        .await;
    let run = session.call_tool("plan_trip", trip()).await;

    // Round 1 asked both; the retry carried the dates only; round 2 asks only the travelers.
    let rounds = run.transcript.rounds("tools/call");
    let asked: Vec<Vec<&String>> = rounds
        .iter()
        .map(|r| r["inputRequests"].as_object().unwrap().keys().collect())
        .collect();
    assert_eq!(asked, [vec!["dates", "travelers"], vec!["travelers"]]);
    assert_eq!(
        run.transcript.input_responses("tools/call"),
        [&json!({"dates": {"action": "accept", "content": {"start": "2026-09-01", "nights": 4}}})]
    );
    let round = run.input_required();
    assert_eq!(round.keys(), ["travelers"]);
    assert_eq!(round.message("travelers"), Some("Who travels?"));
    assert_eq!(
        round.requested_schema("travelers").unwrap()["properties"]["adults"],
        json!({"type": "integer", "title": "Adults", "minimum": 1, "maximum": 9})
    );
    assert_eq!(round.result, *rounds[1]);

    // Continuing from it: the travelers' answer with the round's state completes the call.
    let last = session
        .send(&round.retry(Responses::new().accept(&Travelers { adults: 2 })))
        .await;
    assert_eq!(
        last.text(),
        "accept: 4 nights in Lisbon from 2026-09-01 for 2 adults"
    );
    session.close().await;
}

/// Alice accepts connecting her account and never opens the page.
async fn connect_unopened(era: ProtocolEra) -> Run<CallToolResult> {
    ScriptedClient::new(era)
        .reply_url::<ConnectAccount>(UserReply::AcceptUrl)
        .call_tool(
            // A short hold: the page is never opened, so the hold passes.
            Wired::with_server(
                {
                    let elicit = elicit_server();
                    let url = elicit.url_settings().clone();
                    elicit.with_url(url.with_hold(std::time::Duration::from_millis(200)))
                },
                Principal::fixed("alice"),
            ),
            "connect_account",
            json!({"service": "github"}),
        )
        .await
}

#[tokio::test]
async fn on_2026_a_page_never_opened_stops_at_the_round_after_the_accept() {
    let run = connect_unopened(ProtocolEra::Mrtr2026).await;
    // The accept went out once; the retry was held, the hold passed with nothing recorded,
    // and the round asks the same URL question again (never an empty round).
    assert_eq!(
        run.transcript.input_responses("tools/call"),
        [&json!({"connect": {"action": "accept"}})]
    );
    let round = run.input_required();
    assert_eq!(round.keys(), ["connect"]);
    assert_eq!(
        round.message("connect"),
        run.transcript.rounds("tools/call")[0]["inputRequests"]["connect"]["params"]["message"]
            .as_str()
    );
    assert!(round.request_state().is_some());
    assert_eq!(run.transcript.requests(Side::Client, "tools/call").len(), 2);
}

#[tokio::test]
async fn on_2025_a_page_never_opened_cancels_the_call_after_the_accept() {
    let run = connect_unopened(ProtocolEra::Legacy2025).await;
    assert!(matches!(run.ending, Ending::Cancelled), "{:?}", run.ending);
    let answered = run.transcript.client_responses_to("elicitation/create");
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0]["result"], json!({"action": "accept"}));
    let call_id = &run
        .transcript
        .from(Side::Client)
        .find(|m| m["method"] == "tools/call")
        .unwrap()["id"];
    let cancelled = run
        .transcript
        .notifications(Side::Client, "notifications/cancelled");
    assert_eq!(
        cancelled,
        [&json!({"requestId": call_id, "reason": "request abandoned by the caller"})]
    );
    assert!(run.transcript.responses_to("tools/call").is_empty());
}

/// A tool that panics after the user answered.
#[derive(Clone)]
struct Panicky {
    elicit: ElicitHandler,
}

#[tool_router]
impl Panicky {
    #[tool(description = "Panics once answered")]
    async fn explode(&self, mut cx: Elicit) -> Result<String, McpError> {
        let answer = Confirm::ask(&mut cx).await?;
        let confirmed = matches!(answer, Answer::Accepted(Confirm { confirm: true }));
        panic!("exploded (confirmed: {confirmed})");
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Panicky {}

async fn explode(era: ProtocolEra) {
    let server = Panicky {
        elicit: ElicitHandler::new(elicit_server(), Principal::anonymous()),
    };
    ScriptedClient::new(era)
        .accept(&Confirm { confirm: true })
        .call_tool(server, "explode", json!({}))
        .await;
}

#[tokio::test]
#[should_panic(
    expected = "the server panicked while handling `tools/call`: exploded (confirmed: true)"
)]
async fn on_2026_a_handler_that_panics_fails_the_test_with_its_message() {
    explode(ProtocolEra::Mrtr2026).await;
}

#[tokio::test]
#[should_panic(
    expected = "the server panicked while handling `tools/call`: exploded (confirmed: true)"
)]
async fn on_2025_a_handler_that_panics_fails_the_test_with_its_message() {
    explode(ProtocolEra::Legacy2025).await;
}

#[tokio::test]
async fn hand_made_retries_replayed_changed_or_as_another_principal_are_refused() {
    let server = elicit_server();
    let alice = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .accept(&Confirm { confirm: true })
        .connect(Wired::with_server(
            server.clone(),
            Principal::fixed("alice"),
        ))
        .await;
    let bob = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .connect(Wired::with_server(server, Principal::fixed("bob")))
        .await;
    let args = json!({"reservation_id": "R-1"});

    // A scripted call, then its recorded retry replayed as it was: the state was used.
    let run = alice.call_tool("cancel_args_first", args.clone()).await;
    assert_eq!(run.text(), "accept: reservation R-1 cancelled");
    let recorded = &run.transcript.tool_calls()[1];
    assert_eq!(recorded.name, "cancel_args_first");
    assert_eq!(recorded.arguments, args);
    assert_eq!(
        recorded.input_responses,
        Some(json!({"confirm": {"action": "accept", "content": {"confirm": true}}}))
    );
    let refused = |run: &Run<CallToolResult>| {
        let e = run.error();
        (e.code.0, e.message.to_string(), e.data.clone())
    };
    let invalid_state = (
        -32602,
        "Invalid or expired requestState".to_owned(),
        Some(json!({"reason": "invalid_request_state"})),
    );
    assert_eq!(refused(&alice.send(recorded).await), invalid_state);

    // A fresh round, and the retry a client would send for it.
    let first = alice
        .send(&ToolCall::new("cancel_args_first", args.clone()))
        .await;
    let retry = first
        .input_required()
        .retry(Responses::new().accept(&Confirm { confirm: true }));

    // Other arguments, another tool, a tampered state, another principal: all refused.
    let other_args = retry
        .clone()
        .with_arguments(json!({"reservation_id": "R-2"}));
    assert_eq!(refused(&alice.send(&other_args).await), invalid_state);
    let other_tool = retry.clone().with_name("cancel_elicit_first");
    assert_eq!(refused(&alice.send(&other_tool).await), invalid_state);
    assert_eq!(
        refused(&alice.send(&retry.clone().with_tampered_state()).await),
        invalid_state
    );
    assert_eq!(refused(&bob.send(&retry).await), invalid_state);

    // The genuine retry still completes: none of the refusals used the state up.
    assert_eq!(
        alice.send(&retry).await.text(),
        "accept: reservation R-1 cancelled"
    );
    alice.close().await;
    bob.close().await;
}

#[tokio::test]
async fn the_answers_a_client_gave_read_the_same_on_both_eras() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .reply::<TripDates>(UserReply::Accept(
                json!({"start": "2026-09-01", "nights": 4}),
            ))
            .accept(&Travelers { adults: 2 })
            .call_tool(Wired::new(Principal::anonymous()), "plan_trip", trip())
            .await;
        assert_eq!(
            run.transcript.answers(),
            [
                &json!({"action": "accept", "content": {"start": "2026-09-01", "nights": 4}}),
                &json!({"action": "accept", "content": {"adults": 2}}),
            ],
            "{era:?}"
        );
        let pushed = run.transcript.client_responses_to("elicitation/create");
        assert_eq!(
            pushed.len(),
            if era == ProtocolEra::Legacy2025 { 2 } else { 0 }
        );
    }
}

#[tokio::test]
async fn a_redacted_transcript_numbers_each_state_and_keeps_the_echo_visible() {
    let run = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .reply::<TripDates>(UserReply::Accept(
            json!({"start": "2026-09-01", "nights": 4}),
        ))
        .accept(&Travelers { adults: 2 })
        .call_tool(Wired::new(Principal::anonymous()), "plan_trip", trip())
        .await;
    let redacted = run.transcript.redacted();
    let states: Vec<(Side, &serde_json::Value)> = redacted
        .messages()
        .iter()
        .filter_map(|m| {
            let state = m
                .json
                .get("result")
                .unwrap_or(&m.json["params"])
                .get("requestState")?;
            Some((m.from, state))
        })
        .collect();
    assert_eq!(
        states,
        [
            (Side::Server, &json!("[requestState 1]")),
            (Side::Client, &json!("[requestState 1]"))
        ]
    );
    // Redacting twice changes nothing more; the original keeps its values.
    assert_eq!(redacted.redacted(), redacted);
    assert!(
        run.transcript.rounds("tools/call")[0]["requestState"]
            .as_str()
            .unwrap()
            .starts_with("es1.")
    );
}

#[tokio::test]
async fn a_hand_made_call_on_2025_gives_up_an_unopened_page_too_and_the_session_goes_on() {
    let session = ScriptedClient::new(ProtocolEra::Legacy2025)
        .reply_url::<ConnectAccount>(UserReply::AcceptUrl)
        .connect(Wired::new(Principal::fixed("alice")))
        .await;
    let connect = ToolCall::new("connect_account", json!({"service": "github"}));
    let run = session.send(&connect).await;
    assert!(matches!(run.ending, Ending::Cancelled), "{:?}", run.ending);
    let echo = ToolCall::new("echo", json!({"text": "hi", "times": 2}));
    assert_eq!(session.send(&echo).await.text(), "hihi");
    session.close().await;
}

/// `replies` scripts a user who mistypes, then corrects: the first answer is re-asked (the
/// message names the bad field, the good value pre-filled), the second completes the call,
/// on both eras.
#[tokio::test]
async fn a_scripted_mistake_then_its_correction_completes_on_both_eras() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .replies::<TripDates>([
                UserReply::Accept(json!({"start": "soon", "nights": 4})),
                UserReply::Accept(json!({"start": "2026-09-01"})),
            ])
            .accept(&Travelers { adults: 2 })
            .call_tool(Wired::new(Principal::anonymous()), "plan_trip", trip())
            .await;
        assert_eq!(
            run.text(),
            "accept: 4 nights in Lisbon from 2026-09-01 for 2 adults",
            "{era:?}"
        );
        let answers = run.transcript.answers();
        let dates: Vec<_> = answers
            .iter()
            .filter(|answer| answer["content"].get("start").is_some())
            .collect();
        assert_eq!(
            dates,
            [
                &&json!({"action": "accept", "content": {"start": "soon", "nights": 4}}),
                &&json!({"action": "accept", "content": {"start": "2026-09-01"}}),
            ],
            "{era:?}"
        );
    }
}
