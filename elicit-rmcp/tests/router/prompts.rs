//! A prompt that asks, through `ElicitHandler::get_prompt`.

use elicit_rmcp::Principal;
use rmcp::model::{ElicitationAction, GetPromptRequestParams, GetPromptResponse};
use serde_json::json;

use super::expect::*;
use super::harness::{ERAS, Era, User, connect, object};
use super::servers::Wired;

use ElicitationAction::Accept;

#[tokio::test]
async fn a_prompt_asks_through_get_prompt() {
    for era in ERAS {
        let user = User::always(Accept, Some(json!({"formal": true})));
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let params = GetPromptRequestParams::new("email")
            .with_arguments(object(json!({"topic": "the offsite"})));
        let prompt = session.client.get_prompt(params).await.unwrap();
        assert_eq!(
            serde_json::to_value(&prompt.messages).unwrap(),
            json!([{"role": "user", "content": {"type": "text", "text": "Draft a formal email about the offsite"}}]),
            "{era:?}"
        );
        let tone = json!({
            "mode": "form",
            "message": "Which tone?",
            "requestedSchema": {
                "type": "object",
                "properties": {"formal": {"type": "boolean", "title": "Formal"}},
                "required": ["formal"]
            }
        });
        let (asked, answered) = asked(&session, era, "prompts/get");
        match era {
            Era::Mrtr => {
                assert_eq!(
                    asked,
                    [round(
                        json!({"tone": {"method": "elicitation/create", "params": tone}})
                    )]
                );
                assert_eq!(
                    answered,
                    [json!({"tone": {"action": "accept", "content": {"formal": true}}})]
                );
            }
            Era::Legacy => assert_eq!(asked, [tone]),
        }
    }
    // The state binds the prompt's arguments too.
    let user = User::always(Accept, Some(json!({"formal": true})));
    let session = connect(Wired::new(Principal::anonymous()), Era::Mrtr, user).await;
    let params = |topic: &str| {
        GetPromptRequestParams::new("email").with_arguments(object(json!({"topic": topic})))
    };
    let GetPromptResponse::InputRequired(round) = session
        .client
        .get_prompt_once(params("the offsite"))
        .await
        .unwrap()
    else {
        panic!("the prompt asks first");
    };
    let mut replay = params("the budget").with_input_responses(input_responses(
        json!({"tone": {"action": "accept", "content": {"formal": true}}}),
    ));
    replay.request_state = round.request_state;
    assert_eq!(
        error_of(session.client.get_prompt_once(replay).await),
        invalid_state()
    );
}

/// A prompt taking `Filled<T>`: its arguments are the form's fields, and what the model left out
/// is asked before the body runs.
#[tokio::test]
async fn a_filled_prompt_asks_what_the_model_left_out() {
    for era in ERAS {
        let user = User::always(Accept, Some(json!({"audience": "board"})));
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let params =
            GetPromptRequestParams::new("memo").with_arguments(object(json!({"topic": "Q3"})));
        let prompt = session.client.get_prompt(params).await.unwrap();
        assert_eq!(
            serde_json::to_value(&prompt.messages).unwrap(),
            json!([{"role": "user", "content": {"type": "text", "text": "Draft a memo about Q3 for the Board"}}]),
            "{era:?}"
        );
        // Only the field the model left out, `topic` kept and said so.
        let audience = json!({
            "mode": "form",
            "message": "The memo (kept: topic = \"Q3\")",
            "requestedSchema": {
                "type": "object",
                "properties": {"audience": {
                    "type": "string", "description": "Who reads it", "enum": ["team", "board"]
                }},
                "required": ["audience"]
            }
        });
        let (asked, _) = asked(&session, era, "prompts/get");
        match era {
            Era::Mrtr => assert_eq!(
                asked,
                [round(
                    json!({"memo": {"method": "elicitation/create", "params": audience}})
                )]
            ),
            Era::Legacy => assert_eq!(asked, [audience]),
        }
    }
}

/// `#[elicit_rmcp::handler(prompts)]` lists the prompts as rmcp's `#[prompt_handler]` does
/// (cache hints on 2026-07-28), and `get_info` announces them.
#[tokio::test]
async fn the_handler_lists_prompts_as_rmcps_prompt_handler_does() {
    for era in ERAS {
        let session = connect(
            Wired::new(Principal::anonymous()),
            era,
            User::always(Accept, None),
        )
        .await;
        session.client.list_prompts(None).await.unwrap();
        let [listed] = session
            .wire
            .responses_to("prompts/list")
            .try_into()
            .unwrap();
        let email = json!({
            "name": "email",
            "description": "Draft an email in the tone the user picks",
            "arguments": [{"name": "topic", "description": "What the email is about", "required": true}]
        });
        // A `Filled` prompt's arguments are its form's fields; only `model_required` ones are
        // required.
        let memo = json!({
            "name": "memo",
            "description": "Draft a memo",
            "arguments": [
                {"name": "topic", "description": "What the memo is about", "required": true},
                {"name": "audience", "description": "Who reads it", "required": false}
            ]
        });
        let expected = match era {
            Era::Mrtr => json!({
                "resultType": "complete", "prompts": [email, memo], "ttlMs": 0, "cacheScope": "public"
            }),
            Era::Legacy => json!({"prompts": [email, memo]}),
        };
        assert_eq!(listed["result"], expected, "{era:?}");
    }
}
