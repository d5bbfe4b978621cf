//! The public scripted client (`testing::rmcp::ScriptedClient`) on these servers: prompts,
//! the hand-dispatched kind, and the rules it enforces (unscripted questions, endless rounds,
//! capabilities).

use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::testing::{Capabilities, ScriptedClient, Side, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Elicit, ElicitHandler, Principal};
use elicit_rmcp::{ElicitForm, ElicitServer};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::json;

use super::servers::{Confirm, HandWired, Tone, Wired};

#[tokio::test]
async fn a_prompt_and_a_hand_dispatched_tool() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: true })
            .get_prompt(
                Wired::new(Principal::anonymous()),
                "email",
                json!({"topic": "the offsite"}),
            )
            .await;
        let prompt = run.complete();
        assert_eq!(
            serde_json::to_value(&prompt.messages).unwrap(),
            json!([{"role": "user", "content": {"type": "text", "text": "Draft a formal email about the offsite"}}]),
            "{era:?}"
        );
        let run = ScriptedClient::new(era)
            .accept(&Confirm { confirm: true })
            .call_tool(
                HandWired::new(),
                "cancel_args_first",
                json!({"reservation_id": "R-1"}),
            )
            .await;
        assert_eq!(run.text(), "accept: reservation R-1 cancelled", "{era:?}");
    }
}

#[tokio::test]
async fn on_2026_an_unanswered_question_stops_at_its_round() {
    let run = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .reply::<Confirm>(UserReply::Unanswered)
        .call_tool(
            Wired::new(Principal::anonymous()),
            "cancel_args_first",
            json!({"reservation_id": "R-1"}),
        )
        .await;
    let round = run.input_required();
    assert_eq!(round.keys(), ["confirm"]);
    assert_eq!(round.message("confirm"), Some("Cancel reservation R-1?"));
    assert!(round.request_state().unwrap().starts_with("es1."));
    // No retry: the client had nothing to send.
    assert_eq!(run.transcript.requests(Side::Client, "tools/call").len(), 1);
}

#[tokio::test]
async fn on_2025_an_unanswered_question_ends_with_what_the_server_does() {
    let run = ScriptedClient::new(ProtocolEra::Legacy2025)
        .reply::<Confirm>(UserReply::Unanswered)
        .call_tool(
            Wired::new(Principal::anonymous()),
            "cancel_args_first",
            json!({"reservation_id": "R-1"}),
        )
        .await;
    // The client answers the pushed request with an error; the server's tool fails with it.
    let error = run.error();
    assert_eq!(
        (error.code.0, error.message.as_ref()),
        (-32603, "unanswered question confirm")
    );
    let answered: Vec<_> = run
        .transcript
        .from(Side::Client)
        .filter(|m| m.get("error").is_some())
        .collect();
    assert_eq!(answered.len(), 1);
}

#[tokio::test]
#[should_panic(expected = "unanswered question confirm: the script has no reply for it")]
async fn on_2026_an_unscripted_question_fails_the_test() {
    ScriptedClient::new(ProtocolEra::Mrtr2026)
        .call_tool(
            Wired::new(Principal::anonymous()),
            "cancel_args_first",
            json!({"reservation_id": "R-1"}),
        )
        .await;
}

#[tokio::test]
#[should_panic(expected = "unanswered question with properties [\"confirm\"]")]
async fn on_2025_an_unscripted_question_fails_the_test() {
    ScriptedClient::new(ProtocolEra::Legacy2025)
        .call_tool(
            Wired::new(Principal::anonymous()),
            "cancel_args_first",
            json!({"reservation_id": "R-1"}),
        )
        .await;
}

#[tokio::test]
async fn a_form_only_client_is_never_sent_url_mode() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .capabilities(Capabilities::Form)
            .call_tool(
                Wired::new(Principal::fixed("alice")),
                "connect_account",
                json!({"service": "github"}),
            )
            .await;
        let error = run.error();
        assert_eq!(
            (error.code.0, error.message.as_ref()),
            (
                -32021,
                "Server requires the elicitation capability (url mode) for this request"
            ),
            "{era:?}"
        );
        assert!(run.transcript.rounds("tools/call").is_empty(), "{era:?}");
        let pushed = run.transcript.requests(Side::Server, "elicitation/create");
        assert!(pushed.is_empty(), "{era:?}");
    }
}

/// A server that never stops asking: a new key each time.
#[derive(Clone)]
struct Nagging {
    elicit: ElicitHandler,
}

#[tool_router]
impl Nagging {
    #[tool(description = "Asks forever")]
    async fn nag(&self, mut cx: Elicit) -> Result<String, McpError> {
        let mut n = 0;
        loop {
            // Whatever the answer, it asks again under the next key.
            let _answer = Confirm::question()
                .key(format!("q{n}"))
                .ask(&mut cx)
                .await?;
            n += 1;
        }
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Nagging {}

async fn nag(era: ProtocolEra) {
    let sealer = StateSealer::new(KeyRing::generate(), "nagging");
    let server = Nagging {
        elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
    };
    let mut client = ScriptedClient::new(era);
    for n in 0..40 {
        client = client.reply_as::<Confirm>(
            &format!("q{n}"),
            UserReply::accept_form(&Confirm { confirm: true }),
        );
    }
    client.call_tool(server, "nag", json!({})).await;
}

#[tokio::test]
#[should_panic(
    expected = "no final result after 16 rounds: the server keeps asking (the last round asked [\"q15\"])"
)]
async fn on_2026_a_server_that_keeps_asking_fails_at_the_round_limit() {
    nag(ProtocolEra::Mrtr2026).await;
}

#[tokio::test]
#[should_panic(expected = "no final result after 16 pushed questions: the server keeps asking")]
async fn on_2025_a_server_that_keeps_asking_fails_at_the_round_limit() {
    nag(ProtocolEra::Legacy2025).await;
}
