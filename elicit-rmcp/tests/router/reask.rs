//! An accepted answer that fails the form's checks is asked again through rmcp, on both eras:
//! the next `input_required` round on 2026-07-28, a second pushed `elicitation/create` on
//! 2025-11-25, each with the same exact re-asked form.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_rmcp::Principal;
use rmcp::model::{CallToolResult, ElicitRequestParams, ElicitResult, ElicitationAction};
use rmcp::service::ServiceError;
use serde_json::{Value, json};

use super::expect::*;
use super::harness::{ERAS, Era, Session, User, call, connect, result, text_of};
use super::servers::Wired;

/// The dates form asked again after `{"start": "soon", "nights": 4}`: the bad day named by
/// its title, the good nights pre-filled.
fn dates_again() -> Value {
    let mut again = trip_dates_request();
    again["message"] = json!(
        "When do you travel to Lisbon?\n\nPlease correct and send again:\n\
         - First day must be a valid date like 2024-01-31"
    );
    again["requestedSchema"]["properties"]["nights"]["default"] = json!(4);
    again
}

/// Calls `plan_trip` to Lisbon on `era` with `user` answering.
async fn plan_trip(era: Era, user: User) -> (Session, Result<CallToolResult, ServiceError>) {
    let session = connect(Wired::new(Principal::anonymous()), era, user).await;
    let outcome = session
        .client
        .call_tool(call("plan_trip", json!({"destination": "Lisbon"})))
        .await;
    (session, outcome)
}

/// Gives `dates(n)` as the answer to the `n`-th dates question (from 0); the travelers at once.
fn user(dates: impl Fn(usize) -> ElicitResult + Send + Sync + 'static) -> User {
    let dates_asked = Arc::new(AtomicUsize::new(0));
    User::answering(move |request| {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            panic!("not a form: {request:?}");
        };
        if !message.starts_with("When") {
            return result(ElicitationAction::Accept, Some(json!({"adults": 2})));
        }
        dates(dates_asked.fetch_add(1, Ordering::SeqCst))
    })
}

fn accept(content: Value) -> ElicitResult {
    result(ElicitationAction::Accept, Some(content))
}

/// Answers the dates badly once, then with the day only; the travelers at once.
fn mistyping_user() -> User {
    user(|n| match n {
        0 => accept(json!({"start": "soon", "nights": 4})),
        _ => accept(json!({"start": "2026-09-01"})),
    })
}

#[tokio::test]
async fn an_invalid_answer_is_asked_again_then_the_call_completes_on_both_eras() {
    for era in ERAS {
        let (session, outcome) = plan_trip(era, mistyping_user()).await;
        let done = outcome.unwrap_or_else(|e| panic!("{era:?}: {e}"));
        // The nights come from the pre-filled default: the corrected answer left them out.
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: 4 nights in Lisbon from 2026-09-01 for 2 adults"]}),
            "{era:?}"
        );
        let (asked, answered) = asked(&session, era, "tools/call");
        let travelers = json!({"action": "accept", "content": {"adults": 2}});
        match era {
            Era::Mrtr => {
                assert_eq!(asked.len(), 2);
                // Round 2 asks the dates alone: the travelers' answer is kept.
                assert_eq!(
                    asked[1],
                    round(
                        json!({"dates": {"method": "elicitation/create", "params": dates_again()}})
                    )
                );
                assert_eq!(
                    answered,
                    [
                        json!({
                            "dates": {"action": "accept", "content": {"start": "soon", "nights": 4}},
                            "travelers": travelers
                        }),
                        json!({"dates": {"action": "accept", "content": {"start": "2026-09-01"}}})
                    ]
                );
            }
            Era::Legacy => {
                assert_eq!(
                    asked,
                    [trip_dates_request(), dates_again(), travelers_request()]
                );
                assert_eq!(answered[2], travelers);
            }
        }
    }
}

#[tokio::test]
async fn after_the_last_re_ask_the_call_fails_with_every_bad_field_on_both_eras() {
    for era in ERAS {
        let stubborn = user(|_| accept(json!({"start": "soon", "nights": 40})));
        let (session, outcome) = plan_trip(era, stubborn).await;
        assert_eq!(
            error_of(outcome),
            json!({
                "code": -32602,
                "message": "the answer to `dates` is invalid: invalid form content: \
                            `start` must be a valid date like 2024-01-31; `nights` must be at most 30",
                "data": {"key": "dates", "errors": [
                    {"field": "start", "reason": "must be a valid date like 2024-01-31"},
                    {"field": "nights", "reason": "must be at most 30"}
                ]}
            }),
            "{era:?}"
        );
        // Asked once and again twice, each time the same re-asked form (nothing passed).
        let (asked, _) = asked(&session, era, "tools/call");
        let again = json!({
            "mode": "form",
            "message": "When do you travel to Lisbon?\n\nPlease correct and send again:\n\
                        - First day must be a valid date like 2024-01-31\n\
                        - Nights must be at most 30",
            "requestedSchema": trip_dates_request()["requestedSchema"]
        });
        let dates_asked: Vec<&Value> = match era {
            Era::Mrtr => asked
                .iter()
                .map(|round| &round["inputRequests"]["dates"]["params"])
                .collect(),
            Era::Legacy => asked
                .iter()
                .filter(|form| form["message"].as_str().unwrap().starts_with("When"))
                .collect(),
        };
        assert_eq!(
            dates_asked,
            [&trip_dates_request(), &again, &again],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_decline_of_the_re_asked_question_is_the_answer_on_both_eras() {
    for era in ERAS {
        let declines = user(|n| match n {
            0 => accept(json!({"start": "soon"})),
            _ => result(ElicitationAction::Decline, None),
        });
        let (session, outcome) = plan_trip(era, declines).await;
        let done = outcome.unwrap_or_else(|e| panic!("{era:?}: {e}"));
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["not planned: dates Declined, travelers Accepted(Travelers { adults: 2 })"]}),
            "{era:?}"
        );
        let (asked, _) = asked(&session, era, "tools/call");
        let dates_asked = match era {
            Era::Mrtr => asked.len(),
            Era::Legacy => asked.len() - 1,
        };
        assert_eq!(dates_asked, 2, "{era:?}");
    }
}
