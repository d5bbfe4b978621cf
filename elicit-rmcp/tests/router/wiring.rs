//! Missing wiring, and tools that never ask: exactly what plain rmcp answers.

use elicit_rmcp::Principal;
use rmcp::model::ElicitationAction;
use serde_json::{Value, json};

use super::expect::*;
use super::harness::{ERAS, Era, From, Session, User, call, connect};
use super::servers::{HandWired, Plain, Wired};

use ElicitationAction::{Accept, Cancel};

/// What plain `#[tool_handler]` says to a tool that takes `Elicit`.
const MISSING_WIRING: &str = "this tool or prompt takes `elicit_rmcp::Elicit`, but the call did \
     not run through elicit: annotate the `ServerHandler` impl with \
     `#[elicit_rmcp::handler]` (`#[elicit_rmcp::handler(prompts)]` with prompts), or have \
     `call_tool` return `self.elicit.call_tool(&Self::tool_router(), self, request, context).await` \
     (for prompts, `get_prompt` returns `self.elicit.get_prompt(&Self::prompt_router(), self, \
     request, context).await`)";

#[tokio::test]
async fn a_tool_taking_elicit_without_the_wiring_fails_naming_the_fix() {
    for era in ERAS {
        for tool in ["cancel_args_first", "cancel_elicit_first", "inspect"] {
            let user = User::always(Accept, Some(json!({"confirm": true})));
            let session = connect(Plain, era, user).await;
            let failed = session
                .client
                .call_tool(call(tool, json!({"reservation_id": "R-7"})))
                .await;
            let error = error_of(failed);
            assert_eq!(
                error,
                json!({"code": -32603, "message": MISSING_WIRING, "data": null}),
                "{era:?} {tool}"
            );
            assert!(
                error["message"]
                    .as_str()
                    .unwrap()
                    .contains("#[elicit_rmcp::handler]")
            );
            // Nothing was asked.
            assert!(
                session
                    .wire
                    .params_of(From::Server, "elicitation/create")
                    .is_empty()
            );
        }
    }
}

/// The server's raw response lines to `calls`, in order, with the request ids as sent.
async fn responses(session: &Session, calls: &[(&'static str, Value)]) -> Vec<String> {
    for (tool, arguments) in calls {
        let _ = session
            .client
            .call_tool(call(tool, arguments.clone()))
            .await;
    }
    let ids: Vec<Value> = session
        .wire
        .messages(From::Client)
        .iter()
        .filter(|m| m["method"] == "tools/call")
        .map(|m| m["id"].clone())
        .collect();
    session
        .wire
        .lines(From::Server)
        .into_iter()
        .filter(|line| {
            let message: Value = serde_json::from_str(line).unwrap();
            message.get("method").is_none() && ids.contains(&message["id"])
        })
        .collect()
}

#[tokio::test]
async fn tools_that_never_ask_answer_exactly_as_with_plain_rmcp() {
    let calls = [
        ("echo", json!({"text": "hi", "times": 3})),
        // Arguments that fail to deserialize: rmcp's own tool error result.
        ("echo", json!({"text": "hi", "times": "three"})),
        ("echo", json!({})),
        // A tool's own error.
        ("refuse", json!({"text": "hi", "times": 1})),
        // No such tool.
        ("nope", json!({})),
        // Arguments that fail to deserialize for tools that take `Elicit`, in either order.
        ("cancel_args_first", json!({"reservation_id": 7})),
    ];
    for era in ERAS {
        let user = || User::always(Cancel, None);
        let plain = connect(Plain, era, user()).await;
        let wired = connect(Wired::new(Principal::anonymous()), era, user()).await;
        let by_hand = connect(HandWired::new(), era, user()).await;
        let expected = responses(&plain, &calls).await;
        assert_eq!(expected.len(), calls.len(), "{era:?}: {expected:#?}");
        assert_eq!(responses(&wired, &calls).await, expected, "{era:?}");
        assert_eq!(responses(&by_hand, &calls).await, expected, "{era:?}");

        let results: Vec<Value> = expected
            .iter()
            .map(|l| {
                let mut m: Value = serde_json::from_str(l).unwrap();
                m.as_object_mut().unwrap().remove("id");
                m
            })
            .collect();
        let complete = |mut v: Value| {
            if era == Era::Mrtr {
                v["resultType"] = json!("complete");
            }
            json!({"jsonrpc": "2.0", "result": v})
        };
        assert_eq!(
            results[0],
            complete(json!({"content": [{"type": "text", "text": "hihihi"}], "isError": false}))
        );
        assert_eq!(results[1]["result"]["isError"], true, "{}", results[1]);
        assert_eq!(results[2]["result"]["isError"], true, "{}", results[2]);
        assert_eq!(
            results[3],
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "will not echo hi", "data": {"times": 1}}})
        );
        assert_eq!(
            results[4],
            json!({"jsonrpc": "2.0", "error": {"code": -32602, "message": "tool not found"}})
        );
        assert_eq!(results[5]["result"]["isError"], true, "{}", results[5]);
    }
    // Elicit first, then arguments that fail: the extractor ran, the answer is still rmcp's.
    for era in ERAS {
        let bad = [("cancel_elicit_first", json!({"reservation_id": 7}))];
        let wired = connect(
            Wired::new(Principal::anonymous()),
            era,
            User::always(Cancel, None),
        )
        .await;
        let lines = responses(&wired, &bad).await;
        let plain_args_first = connect(
            Wired::new(Principal::anonymous()),
            era,
            User::always(Cancel, None),
        )
        .await;
        let reference = responses(
            &plain_args_first,
            &[("cancel_args_first", json!({"reservation_id": 7}))],
        )
        .await;
        assert_eq!(lines, reference, "{era:?}");
    }
}

#[tokio::test]
async fn tools_that_take_elicit_but_never_ask_answer_as_plain_rmcp_does_without_it() {
    let calls = |with_elicit: bool| {
        let (echo, refuse) = if with_elicit {
            ("echo_with_elicit", "refuse_with_elicit")
        } else {
            ("echo", "refuse")
        };
        [
            (echo, json!({"text": "hi", "times": 2})),
            (refuse, json!({"text": "hi", "times": 1})),
            (echo, json!({"text": "hi"})),
            (refuse, json!({"times": 1})),
        ]
    };
    for era in ERAS {
        let plain = connect(Plain, era, User::always(Cancel, None)).await;
        let wired = connect(
            Wired::new(Principal::anonymous()),
            era,
            User::always(Cancel, None),
        )
        .await;
        let expected = responses(&plain, &calls(false)).await;
        assert_eq!(expected.len(), 4, "{era:?}");
        assert_eq!(responses(&wired, &calls(true)).await, expected, "{era:?}");
        assert!(
            wired
                .wire
                .params_of(From::Server, "elicitation/create")
                .is_empty()
        );
    }
}

#[tokio::test]
async fn a_client_without_elicitation_is_told_what_is_missing() {
    for era in ERAS {
        let mut user = User::always(Accept, Some(json!({"confirm": true})));
        user.without_elicitation();
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let failed = session
            .client
            .call_tool(call("cancel_args_first", json!({"reservation_id": "R-7"})))
            .await;
        assert_eq!(
            error_of(failed),
            json!({
                "code": -32021,
                "message": "Server requires the elicitation capability (form mode) for this request",
                "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
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
