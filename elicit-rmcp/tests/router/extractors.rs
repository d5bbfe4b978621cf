//! `Elicit` before and after `Parameters<T>` and after rmcp's `_meta` extractor: the sealed
//! state binds the full call, and the request is seen as it came.

use elicit_rmcp::Principal;
use rmcp::model::{CallToolResponse, ElicitationAction, InputRequiredResult, RequestMetaObject};
use rmcp::service::ServiceError;
use serde_json::{Value, json};

use super::expect::*;
use super::harness::{ERAS, Era, Session, User, call, connect, text_of};
use super::servers::{self, Wired};

use ElicitationAction::{Accept, Decline};

/// Round 1 of `tool` with `arguments`, sent once without the client's retry loop.
async fn first_round(
    session: &Session,
    tool: &'static str,
    arguments: Value,
) -> InputRequiredResult {
    match session
        .client
        .call_tool_once(call(tool, arguments))
        .await
        .unwrap()
    {
        CallToolResponse::InputRequired(round) => round,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// A retry of `tool` with `arguments`, `state` and an accepting answer.
async fn retry(
    session: &Session,
    tool: &'static str,
    arguments: Value,
    state: &str,
) -> Result<CallToolResponse, ServiceError> {
    let answers =
        input_responses(json!({"confirm": {"action": "accept", "content": {"confirm": true}}}));
    let mut params = call(tool, arguments).with_input_responses(answers);
    params.request_state = Some(state.to_owned());
    session.client.call_tool_once(params).await
}

#[tokio::test]
async fn the_sealed_state_binds_the_full_arguments_in_either_extractor_order() {
    for tool in ["cancel_args_first", "cancel_elicit_first"] {
        let user = User::always(Accept, Some(json!({"confirm": true})));
        let session = connect(Wired::new(Principal::anonymous()), Era::Mrtr, user).await;
        // `note` is not a field of `CancelArgs`: `Parameters<T>` never sees it, the state does.
        let args = json!({"reservation_id": "R-7", "note": "a"});
        let round = first_round(&session, tool, args.clone()).await;
        let state = round.request_state.clone().expect("a sealed state");

        let other_reservation = json!({"reservation_id": "R-8", "note": "a"});
        let other_note = json!({"reservation_id": "R-7", "note": "b"});
        let no_note = json!({"reservation_id": "R-7"});
        for arguments in [other_reservation, other_note, no_note] {
            let refused = retry(&session, tool, arguments.clone(), &state).await;
            assert_eq!(error_of(refused), invalid_state(), "{tool} {arguments}");
        }
        // Another tool of the same server with the same arguments: refused too.
        let other_tool = if tool == "cancel_args_first" {
            "cancel_elicit_first"
        } else {
            "cancel_args_first"
        };
        let refused = retry(&session, other_tool, args.clone(), &state).await;
        assert_eq!(error_of(refused), invalid_state(), "{tool} as {other_tool}");

        let CallToolResponse::Complete(done) = retry(&session, tool, args, &state).await.unwrap()
        else {
            panic!("{tool}: the genuine retry completes");
        };
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": ["accept: reservation R-7 cancelled"]}),
            "{tool}"
        );
    }
}

#[tokio::test]
async fn both_extractor_orders_ask_on_both_eras() {
    for era in ERAS {
        for tool in ["cancel_args_first", "cancel_elicit_first"] {
            let user = User::always(Decline, None);
            let session = connect(Wired::new(Principal::anonymous()), era, user).await;
            let done = session
                .client
                .call_tool(call(tool, json!({"reservation_id": "R-1"})))
                .await
                .unwrap();
            assert_eq!(
                text_of(&done),
                json!({"isError": false, "text": ["decline: reservation R-1 kept"]}),
                "{era:?} {tool}"
            );
            let (asked, _) = asked(&session, era, "tools/call");
            let expected = match era {
                Era::Mrtr => round(json!({
                    "confirm": {"method": "elicitation/create", "params": confirm_request("R-1")}
                })),
                Era::Legacy => confirm_request("R-1"),
            };
            assert_eq!(asked, [expected], "{era:?} {tool}");
        }
    }
}

/// `rmcp`'s `RequestMetaObject` extractor takes `_meta` out of the request context; the
/// context `Elicit` builds still has the era and capabilities of the request's `_meta`, and
/// `Principal::from_request` still sees the request as it came.
#[tokio::test]
async fn meta_is_kept_when_rmcps_meta_extractor_takes_it_first() {
    let caps = r#"{"elicitation":{"form":{},"url":{}}}"#;
    for era in ERAS {
        let user = User::always(Accept, Some(json!({"confirm": true})));
        let session = connect(Wired::new(servers::user_from_meta()), era, user).await;
        let mut meta = RequestMetaObject::new();
        meta.insert("example.com/trace".to_owned(), json!("t-1"));
        meta.insert("example.com/user".to_owned(), json!("alice"));
        let mut params = call("inspect", json!({}));
        params.meta = Some(meta);
        let done = session.client.call_tool(params).await.unwrap();
        let era_name = match era {
            Era::Mrtr => "Mrtr2026",
            Era::Legacy => "Legacy2025",
        };
        assert_eq!(
            text_of(&done),
            json!({"isError": false, "text": [
                format!("{era_name} {caps} principal Some(\"alice\"); trace \"t-1\"; Accepted(Confirm {{ confirm: true }})")
            ]}),
            "{era:?}"
        );
    }
}
