//! Forms on both eras: accept, decline and cancel with the exact schema sent, two questions
//! in one round, and the hand-written `call_tool` wiring.

use elicit_rmcp::Principal;
use rmcp::model::{ElicitRequestParams, ElicitationAction};
use serde_json::json;

use super::expect::*;
use super::harness::{ERAS, Era, From, User, call, connect, result, text_of};
use super::servers::{HandWired, Wired};

use ElicitationAction::{Accept, Cancel, Decline};

#[tokio::test]
async fn a_form_is_accepted_declined_or_cancelled_on_both_eras() {
    let cases = [
        (
            Accept,
            Some(json!({"confirm": true})),
            "accept: reservation R-7 cancelled",
        ),
        (
            Accept,
            Some(json!({"confirm": false})),
            "accept: reservation R-7 kept",
        ),
        (Decline, None, "decline: reservation R-7 kept"),
        (Cancel, None, "cancel: reservation R-7 left open"),
    ];
    for era in ERAS {
        for (action, content, text) in cases.clone() {
            let user = User::always(action.clone(), content.clone());
            let session = connect(Wired::new(Principal::anonymous()), era, user).await;
            let done = session
                .client
                .call_tool(call("cancel_args_first", json!({"reservation_id": "R-7"})))
                .await
                .unwrap_or_else(|e| panic!("{era:?} {action:?}: {e}"));
            assert_eq!(
                text_of(&done),
                json!({"isError": false, "text": [text]}),
                "{era:?}"
            );

            let (asked, answered) = asked(&session, era, "tools/call");
            let answer = serde_json::to_value(result(action.clone(), content.clone())).unwrap();
            match era {
                Era::Mrtr => {
                    assert_eq!(
                        asked,
                        [round(json!({"confirm": {
                            "method": "elicitation/create",
                            "params": confirm_request("R-7")
                        }}))]
                    );
                    assert_eq!(answered, [json!({"confirm": answer})]);
                    // The retry echoes the state byte for byte and repeats the call.
                    let rounds = session.wire.responses_to("tools/call");
                    let calls = session.wire.params_of(From::Client, "tools/call");
                    assert_eq!(calls.len(), 2);
                    assert_eq!(
                        calls[1]["requestState"],
                        rounds[0]["result"]["requestState"]
                    );
                    assert_eq!(calls[1]["arguments"], json!({"reservation_id": "R-7"}));
                    // And the server pushed nothing.
                    assert!(
                        session
                            .wire
                            .params_of(From::Server, "elicitation/create")
                            .is_empty()
                    );
                }
                Era::Legacy => {
                    assert_eq!(asked, [confirm_request("R-7")]);
                    assert_eq!(answered, [answer]);
                    assert_eq!(session.wire.params_of(From::Client, "tools/call").len(), 1);
                }
            }
        }
    }
}

#[tokio::test]
async fn the_hand_wired_call_tool_asks_the_same_way() {
    for era in ERAS {
        let user = User::always(Accept, Some(json!({"confirm": true})));
        let session = connect(HandWired::new(), era, user).await;
        let done = session
            .client
            .call_tool(call(
                "cancel_elicit_first",
                json!({"reservation_id": "R-9"}),
            ))
            .await
            .unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: reservation R-9 cancelled"]}),
            "{era:?}"
        );
        let (asked, _) = asked(&session, era, "tools/call");
        assert_eq!(asked.len(), 1, "{era:?}");
    }
}

#[tokio::test]
async fn two_questions_go_out_in_one_round() {
    let (dates, travelers) = (trip_dates_request(), travelers_request());
    for era in ERAS {
        let user = User::answering(|request| {
            let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
                panic!("not a form: {request:?}");
            };
            if message.starts_with("When") {
                result(Accept, Some(json!({"start": "2026-09-01", "nights": 4})))
            } else {
                result(Accept, Some(json!({"adults": 2})))
            }
        });
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let done = session
            .client
            .call_tool(call("plan_trip", json!({"destination": "Lisbon"})))
            .await
            .unwrap();
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: 4 nights in Lisbon from 2026-09-01 for 2 adults"]}),
            "{era:?}"
        );
        let (asked, answered) = asked(&session, era, "tools/call");
        match era {
            Era::Mrtr => {
                // One round, both keys; each form's fields in declaration order on the wire.
                let expected = round(json!({
                    "dates": {"method": "elicitation/create", "params": dates},
                    "travelers": {"method": "elicitation/create", "params": travelers}
                }));
                assert_eq!(asked, [expected]);
                let first = &session.wire.lines(From::Server)[1];
                assert!(first.contains("input_required"), "{first}");
                let (start_at, nights_at) = (
                    first.find("\"start\"").unwrap(),
                    first.find("\"nights\"").unwrap(),
                );
                assert!(start_at < nights_at, "{first}");
                assert_eq!(
                    answered,
                    [json!({
                        "dates": {"action": "accept", "content": {"start": "2026-09-01", "nights": 4}},
                        "travelers": {"action": "accept", "content": {"adults": 2}}
                    })]
                );
                assert_eq!(session.wire.params_of(From::Client, "tools/call").len(), 2);
            }
            Era::Legacy => {
                // One after the other over the peer, in the order asked.
                assert_eq!(asked, [dates.clone(), travelers.clone()]);
            }
        }
    }
}
