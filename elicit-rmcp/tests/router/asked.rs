//! `#[elicit_rmcp::asks]`: questions as parameters, asked before the body runs, on both eras,
//! driven by the scripted client like any question.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use elicit_rmcp::form::{Resolve, Resolved};
use elicit_rmcp::testing::{ScriptedClient, Side, Transcript, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{
    Accepted, Answer, Asked, Elicit, ElicitContext, ElicitForm, ElicitHandler, Filled,
};
use elicit_rmcp::{Interrupt, Principal};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{PromptMessage, Role};
use rmcp::{
    ErrorData as McpError, ServerHandler, prompt, prompt_router, schemars, tool, tool_router,
};
use serde_json::{Value, json};

use super::servers::elicit_server;

const ERAS: [ProtocolEra; 2] = [ProtocolEra::Mrtr2026, ProtocolEra::Legacy2025];

/// Please confirm
#[derive(Debug, ElicitForm)]
struct Confirm {
    #[elicit(title = "Yes")]
    confirm: bool,
}

/// Tell them why?
#[derive(Debug, ElicitForm)]
struct Reason {
    reason: Option<String>,
}

/// Which tone?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Tone {
    formal: bool,
}

/// Book a table
#[derive(Debug, ElicitForm)]
struct Booking {
    /// The restaurant
    restaurant: String,
    /// How many guests
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
}

/// Pay the invoice
#[derive(Debug, ElicitForm)]
struct Payment {
    /// The invoice
    invoice: String,
    /// The amount, in cents: the user's to decide, whatever the model says
    #[elicit(minimum = 1, user_decides)]
    cents: u32,
    /// A note for the payee
    #[elicit(user_decides)]
    memo: Option<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CancelArgs {
    reservation_id: String,
}

/// Each user's saved tone; asked for when there is none, and kept once accepted.
#[derive(Default)]
struct SavedTone(Mutex<HashMap<String, Tone>>);

impl Resolve<Tone> for SavedTone {
    async fn resolve(&self, cx: &ElicitContext) -> Result<Resolved<Tone>, Interrupt> {
        let saved = cx
            .principal()
            .and_then(|user| self.0.lock().unwrap().get(user).cloned());
        Ok(match saved {
            Some(tone) => Resolved::Known(tone),
            None => Resolved::Ask(Tone::question().message("Which tone, this once?")),
        })
    }

    async fn remember(&self, cx: &ElicitContext, tone: &Tone) -> Result<(), Interrupt> {
        if let Some(user) = cx.principal() {
            self.0.lock().unwrap().insert(user.to_owned(), tone.clone());
        }
        Ok(())
    }
}

#[derive(Clone)]
struct Desk {
    elicit: ElicitHandler,
    tones: Arc<SavedTone>,
}

#[tool_router]
impl Desk {
    #[elicit_rmcp::asks]
    #[tool(description = "Cancel a reservation")]
    async fn cancel(
        &self,
        Parameters(args): Parameters<CancelArgs>,
        #[ask(message = format!("Cancel reservation {}?", args.reservation_id), otherwise = "kept")]
        Confirm { confirm }: Accepted<Confirm>,
        reason: Asked<Reason>,
    ) -> Result<String, McpError> {
        let why = match reason {
            Answer::Accepted(Reason { reason: Some(why) }) => why,
            Answer::Accepted(_) => "no reason".into(),
            Answer::Declined | Answer::Cancelled => "not told".into(),
        };
        Ok(format!("{}: {confirm} ({why})", args.reservation_id))
    }

    /// A question asked before, then one the body asks through its own `Elicit`.
    #[elicit_rmcp::asks(otherwise = "stopped")]
    #[tool(description = "Two steps")]
    async fn two_steps(
        &self,
        _first: Accepted<Confirm>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let reason = Reason::ask(&mut cx).await?;
        Ok(format!("then {:?}", reason.accepted().map(|r| r.reason)))
    }

    #[elicit_rmcp::asks(otherwise = "not booked")]
    #[tool(description = "Book a table")]
    async fn book(&self, booking: Filled<Booking>) -> Result<String, McpError> {
        Ok(format!("{} for {}", booking.restaurant, booking.guests))
    }

    #[elicit_rmcp::asks(otherwise = "not paid")]
    #[tool(description = "Pay an invoice")]
    async fn pay(&self, payment: Filled<Payment>) -> Result<String, McpError> {
        let memo = payment.memo.map(|m| format!(" ({m})")).unwrap_or_default();
        Ok(format!(
            "paid {} cents on {}{memo}",
            payment.cents, payment.invoice
        ))
    }

    #[elicit_rmcp::asks]
    #[tool(description = "Write a note in the user's tone")]
    async fn note(
        &self,
        #[ask(resolve = self.tones)] tone: Asked<Tone>,
    ) -> Result<String, McpError> {
        Ok(format!("{tone:?}"))
    }
}

#[prompt_router]
impl Desk {
    #[elicit_rmcp::asks(otherwise = Vec::new())]
    #[prompt(description = "Draft an email")]
    async fn email(&self, Tone { formal }: Accepted<Tone>) -> Result<Vec<PromptMessage>, McpError> {
        Ok(vec![PromptMessage::new_text(
            Role::User,
            format!("formal: {formal}"),
        )])
    }
}

#[elicit_rmcp::handler(prompts)]
impl ServerHandler for Desk {}

fn desk(user: &str) -> Desk {
    Desk {
        elicit: ElicitHandler::new(elicit_server(), Principal::fixed(user)),
        tones: Arc::new(SavedTone::default()),
    }
}

fn cancel_args(id: &str) -> Value {
    json!({"reservation_id": id})
}

/// The keys of each question asked: per `input_required` round on 2026-07-28, per pushed
/// `elicitation/create` on 2025-11-25.
fn asked(
    run: &elicit_rmcp::testing::Run<impl std::fmt::Debug>,
    era: ProtocolEra,
) -> Vec<Vec<String>> {
    match era {
        ProtocolEra::Mrtr2026 => run
            .transcript
            .rounds("tools/call")
            .iter()
            .chain(run.transcript.rounds("prompts/get").iter())
            .map(|r| {
                r["inputRequests"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect()
            })
            .collect(),
        _ => run
            .transcript
            .requests(Side::Server, "elicitation/create")
            .iter()
            .map(|r| vec![r["message"].as_str().unwrap().to_owned()])
            .collect(),
    }
}

#[tokio::test]
async fn asked_parameters_go_out_in_one_round_before_the_body() {
    for era in ERAS {
        let run = ScriptedClient::new(era)
            .accept(&Confirm { confirm: true })
            .accept(&Reason {
                reason: Some("plans changed".into()),
            })
            .call_tool(desk("alice"), "cancel", cancel_args("R-7"))
            .await;
        assert_eq!(run.text(), "R-7: true (plans changed)", "{era:?}");
        let expected: Vec<Vec<String>> = match era {
            ProtocolEra::Mrtr2026 => vec![vec!["confirm".into(), "reason".into()]],
            _ => vec![
                vec!["Cancel reservation R-7?".into()],
                vec!["Tell them why?".into()],
            ],
        };
        assert_eq!(asked(&run, era), expected, "{era:?}");
        if era == ProtocolEra::Mrtr2026 {
            let round = &run.transcript.rounds("tools/call")[0];
            assert_eq!(
                round["inputRequests"]["confirm"]["params"]["message"],
                "Cancel reservation R-7?"
            );
        }
    }
}

#[tokio::test]
async fn a_declined_accepted_parameter_returns_otherwise_without_the_body() {
    for era in ERAS {
        for reply in [UserReply::Decline, UserReply::Cancel] {
            let run = ScriptedClient::new(era)
                .reply::<Confirm>(reply.clone())
                .reply::<Reason>(UserReply::Decline)
                .call_tool(desk("alice"), "cancel", cancel_args("R-7"))
                .await;
            assert_eq!(run.text(), "kept", "{era:?} {reply:?}");
        }
        // An `Asked` parameter gives the body the decline to match on.
        let run = ScriptedClient::new(era)
            .accept(&Confirm { confirm: true })
            .reply::<Reason>(UserReply::Decline)
            .call_tool(desk("alice"), "cancel", cancel_args("R-8"))
            .await;
        assert_eq!(run.text(), "R-8: true (not told)", "{era:?}");
    }
}

#[tokio::test]
async fn the_answer_is_sealed_to_the_arguments() {
    // The round asked for R-7; a retry with its answers but R-8's arguments confirms nothing.
    let session = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .reply::<Confirm>(UserReply::Unanswered)
        .reply::<Reason>(UserReply::Unanswered)
        .connect(desk("alice"))
        .await;
    let run = session.call_tool("cancel", cancel_args("R-7")).await;
    let round = run.input_required();
    let responses = elicit_rmcp::testing::Responses::new()
        .accept(&Confirm { confirm: true })
        .accept(&Reason { reason: None });
    let swapped = round.retry(responses).with_arguments(cancel_args("R-8"));
    let replayed = session.send(&swapped).await;
    assert_eq!(replayed.error().code.0, -32602, "{:?}", replayed.error());
    session.close().await;
}

#[tokio::test]
async fn the_body_asks_more_through_its_own_elicit_afterwards() {
    for era in ERAS {
        let run = ScriptedClient::new(era)
            .accept(&Confirm { confirm: true })
            .accept(&Reason {
                reason: Some("r".into()),
            })
            .call_tool(desk("alice"), "two_steps", json!({}))
            .await;
        assert_eq!(run.text(), "then Some(Some(\"r\"))", "{era:?}");
        assert_eq!(
            asked(&run, era).len(),
            2,
            "{era:?}: one question, then the next"
        );
        let run = ScriptedClient::new(era)
            .reply::<Confirm>(UserReply::Cancel)
            .call_tool(desk("alice"), "two_steps", json!({}))
            .await;
        assert_eq!(run.text(), "stopped", "{era:?}");
    }
}

#[tokio::test]
async fn a_resolver_answers_from_what_the_server_knows_or_asks() {
    for era in ERAS {
        let server = desk("alice");
        server
            .tones
            .0
            .lock()
            .unwrap()
            .insert("alice".into(), Tone { formal: true });
        // Known: nobody is asked.
        let run = ScriptedClient::new(era)
            .call_tool(server.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: true })", "{era:?}");
        assert!(asked(&run, era).is_empty(), "{era:?}");
        // Not known for bob: the resolver's own question.
        let mut bob = server.clone();
        bob.elicit = ElicitHandler::new(elicit_server(), Principal::fixed("bob"));
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: false })
            .call_tool(bob, "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: false })", "{era:?}");
        let message = match era {
            ProtocolEra::Mrtr2026 => {
                run.transcript.rounds("tools/call")[0]["inputRequests"]["tone"]["params"]["message"]
                    .clone()
            }
            _ => run.transcript.requests(Side::Server, "elicitation/create")[0]["message"].clone(),
        };
        assert_eq!(message, "Which tone, this once?", "{era:?}");
    }
}

#[tokio::test]
async fn a_resolver_remembers_what_the_user_accepted_for_that_user_only() {
    for era in ERAS {
        let ada = desk("ada");
        let mut bob = ada.clone();
        bob.elicit = ElicitHandler::new(elicit_server(), Principal::fixed("bob"));
        // First call: asked, and the answer kept for ada.
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: true })
            .call_tool(ada.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: true })", "{era:?}");
        assert_eq!(asked(&run, era).len(), 1, "{era:?}: asked once");
        let kept: Vec<_> = ada.tones.0.lock().unwrap().clone().into_iter().collect();
        assert_eq!(kept, [("ada".to_owned(), Tone { formal: true })], "{era:?}");
        // Second call by ada: nobody is asked.
        let run = ScriptedClient::new(era)
            .call_tool(ada.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: true })", "{era:?}");
        assert!(asked(&run, era).is_empty(), "{era:?}");
        // Bob has said nothing yet: he is asked, and ada's answer stays hers.
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: false })
            .call_tool(bob, "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: false })", "{era:?}");
        assert_eq!(asked(&run, era).len(), 1, "{era:?}: asked once");
        let tones = ada.tones.0.lock().unwrap().clone();
        assert_eq!(tones["ada"], Tone { formal: true }, "{era:?}");
        assert_eq!(tones["bob"], Tone { formal: false }, "{era:?}");
        // A decline is not kept: asked again next time.
        let carol = desk("carol");
        let run = ScriptedClient::new(era)
            .reply::<Tone>(UserReply::Decline)
            .call_tool(carol.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Declined", "{era:?}");
        assert!(carol.tones.0.lock().unwrap().is_empty(), "{era:?}");
    }
}

/// Issue 46: a stdio server's one user is `Principal::local()`, so a resolver keyed on the
/// principal remembers under `ElicitHandler::local` (it kept nothing under the anonymous
/// principal `local` used to give, and the user was asked on every call).
#[tokio::test]
async fn a_resolver_remembers_on_a_local_server() {
    for era in ERAS {
        let desk = Desk {
            elicit: ElicitHandler::local("desk"),
            tones: Arc::new(SavedTone::default()),
        };
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: true })
            .call_tool(desk.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: true })", "{era:?}");
        let kept: Vec<_> = desk.tones.0.lock().unwrap().clone().into_iter().collect();
        assert_eq!(
            kept,
            [("local".to_owned(), Tone { formal: true })],
            "{era:?}"
        );
        // The next call asks nothing (an unscripted question would fail the run).
        let run = ScriptedClient::new(era)
            .call_tool(desk.clone(), "note", json!({}))
            .await;
        assert_eq!(run.text(), "Accepted(Tone { formal: true })", "{era:?}");
        assert!(asked(&run, era).is_empty(), "{era:?}");
    }
}

#[tokio::test]
async fn prompts_take_asked_parameters_too() {
    for era in ERAS {
        let run = ScriptedClient::new(era)
            .accept(&Tone { formal: true })
            .get_prompt(desk("alice"), "email", json!({}))
            .await;
        let messages = serde_json::to_value(&run.complete().messages).unwrap();
        assert_eq!(messages[0]["content"]["text"], "formal: true", "{era:?}");
        let run = ScriptedClient::new(era)
            .reply::<Tone>(UserReply::Decline)
            .get_prompt(desk("alice"), "email", json!({}))
            .await;
        assert!(run.complete().messages.is_empty(), "{era:?}");
    }
}

#[tokio::test]
async fn filled_arguments_ask_only_for_what_the_model_left_out_or_got_wrong() {
    for era in ERAS {
        // Everything there: nobody is asked.
        let run = ScriptedClient::new(era)
            .call_tool(
                desk("alice"),
                "book",
                json!({"restaurant": "Chez Rust", "guests": 4}),
            )
            .await;
        assert_eq!(run.text(), "Chez Rust for 4", "{era:?}");
        assert!(asked(&run, era).is_empty(), "{era:?}");

        // The guests left out, then given out of range: a form of just the guests.
        for arguments in [
            json!({"restaurant": "Chez Rust"}),
            json!({"restaurant": "Chez Rust", "guests": 40}),
        ] {
            let run = ScriptedClient::new(era)
                .reply_as::<Booking>("booking", UserReply::Accept(json!({"guests": 3})))
                .call_tool(desk("alice"), "book", arguments.clone())
                .await;
            assert_eq!(run.text(), "Chez Rust for 3", "{era:?} {arguments}");
            let params = match era {
                ProtocolEra::Mrtr2026 => {
                    run.transcript.rounds("tools/call")[0]["inputRequests"]["booking"]["params"]
                        .clone()
                }
                _ => run.transcript.requests(Side::Server, "elicitation/create")[0].clone(),
            };
            assert_eq!(
                params["message"], "Book a table (kept: restaurant = \"Chez Rust\")",
                "{era:?}"
            );
            assert_eq!(
                params["requestedSchema"],
                json!({
                    "type": "object",
                    "properties": {"guests": {"type": "integer", "description": "How many guests", "minimum": 1, "maximum": 12}},
                    "required": ["guests"]
                }),
                "{era:?}"
            );
        }

        // An answer that also names a kept field changes nothing of it.
        let run = ScriptedClient::new(era)
            .reply_as::<Booking>(
                "booking",
                UserReply::Accept(json!({"guests": 3, "restaurant": "Elsewhere"})),
            )
            .call_tool(desk("alice"), "book", json!({"restaurant": "Chez Rust"}))
            .await;
        assert_eq!(run.text(), "Chez Rust for 3", "{era:?}");

        // Declined: the body does not run.
        let run = ScriptedClient::new(era)
            .reply_as::<Booking>("booking", UserReply::Decline)
            .call_tool(desk("alice"), "book", json!({}))
            .await;
        assert_eq!(run.text(), "not booked", "{era:?}");
    }
}

/// The request's params of the `n`-th ask of `key` on `era`.
fn asked_params(run_transcript: &Transcript, era: ProtocolEra, key: &str) -> Vec<Value> {
    match era {
        ProtocolEra::Mrtr2026 => run_transcript
            .rounds("tools/call")
            .iter()
            .filter_map(|round| round["inputRequests"].get(key))
            .map(|request| request["params"].clone())
            .collect(),
        _ => run_transcript
            .requests(Side::Server, "elicitation/create")
            .into_iter()
            .cloned()
            .collect(),
    }
}

/// The model's values for fields the user decides are suggestions only: both fields are
/// asked, the required amount stays in `required` (its `default` and description carry the
/// model's 99999), and the optional memo gets no `default` (leaving it out must not take the
/// model's text), on both eras.
#[tokio::test]
async fn a_field_the_user_decides_stays_required_and_the_models_value_is_only_suggested() {
    for era in ERAS {
        let run = ScriptedClient::new(era)
            .reply_as::<Payment>("payment", UserReply::Accept(json!({"cents": 1200})))
            .call_tool(
                desk("alice"),
                "pay",
                json!({"invoice": "INV-1", "cents": 99999, "memo": "from the model"}),
            )
            .await;
        assert_eq!(run.text(), "paid 1200 cents on INV-1", "{era:?}");
        let params = asked_params(&run.transcript, era, "payment");
        assert_eq!(params.len(), 1, "{era:?}");
        assert_eq!(
            params[0]["message"], "Pay the invoice (kept: invoice = \"INV-1\")",
            "{era:?}"
        );
        assert_eq!(
            params[0]["requestedSchema"],
            json!({
                "type": "object",
                "properties": {
                    "cents": {
                        "type": "integer",
                        "description": "The amount, in cents: the user's to decide, whatever the model says (suggested: 99999)",
                        "minimum": 1,
                        "maximum": 4294967295_u64,
                        "default": 99999
                    },
                    "memo": {
                        "type": "string",
                        "description": "A note for the payee (suggested: \"from the model\")"
                    }
                },
                "required": ["cents"]
            }),
            "{era:?}"
        );
    }
}

/// A client may ignore defaults and accept without the amount: the answer fails the form's
/// checks, is asked again (the amount still required) and, after the last re-ask, the call
/// fails. The model's 99999 is never paid, on both eras.
#[tokio::test]
async fn an_answer_without_a_field_the_user_decides_is_asked_again_never_paid_with_the_models_value()
 {
    for era in ERAS {
        let run = ScriptedClient::new(era)
            .reply_as::<Payment>("payment", UserReply::Accept(json!({})))
            .call_tool(
                desk("alice"),
                "pay",
                json!({"invoice": "INV-1", "cents": 99999}),
            )
            .await;
        let error = run.error();
        assert_eq!(error.code.0, -32602, "{era:?}");
        assert_eq!(
            error.message,
            "the answer to `payment` is invalid: invalid form content: `cents` is required",
            "{era:?}"
        );
        let params = asked_params(&run.transcript, era, "payment");
        assert_eq!(params.len(), 3, "asked once and again twice ({era:?})");
        for asked in &params[1..] {
            assert_eq!(
                asked["message"],
                "Pay the invoice (kept: invoice = \"INV-1\")\n\nPlease correct and send again:\n- cents is required",
                "{era:?}"
            );
        }
        for asked in &params {
            assert_eq!(
                asked["requestedSchema"]["required"],
                json!(["cents"]),
                "{era:?}"
            );
            assert_eq!(
                asked["requestedSchema"]["properties"]["cents"]["default"], 99999,
                "{era:?}"
            );
        }
    }
}

/// Generated answers (`testing::answers`) to the filled-in form: every valid one books with
/// the kept restaurant, on both eras.
#[test]
fn every_generated_answer_to_a_filled_in_form_keeps_the_models_values() {
    use elicit_rmcp::testing::answers;
    use elicit_rmcp::testing::proptest::prelude::*;
    use elicit_rmcp::testing::proptest::test_runner::{Config, TestRunner};

    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = desk("alice");
    for era in ERAS {
        let mut runner = TestRunner::new(Config::with_cases(64));
        runner
            .run(&answers::valid::<Booking>(), |content| {
                // `1.0` is an integer too: the form reads it as 1.
                let guests = content["guests"].as_f64().unwrap() as u8;
                let run = rt.block_on(
                    ScriptedClient::new(era)
                        .reply_as::<Booking>("booking", UserReply::Accept(content.into()))
                        .call_tool(server.clone(), "book", json!({"restaurant": "Chez Rust"})),
                );
                prop_assert_eq!(run.text(), format!("Chez Rust for {guests}"));
                Ok(())
            })
            .unwrap();
    }
}
