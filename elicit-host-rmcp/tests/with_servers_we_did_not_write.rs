//! The host against servers no one here wrote, started over stdio as a host starts them: the
//! Python SDK's own example servers (its `stories` and `snippets`, from the `mcp` 2.3.0
//! source distribution) and the TypeScript SDK's reference server
//! (`@modelcontextprotocol/server-everything`), on the eras each serves. `#[ignore]`d: they
//! need Python and Node with those packages; `scripts/host-interop` installs them and runs
//! these (it is a step of `./scripts/test`).

mod common;

use common::{Era, FormPlan, PagePlan, Person, connect_child, text};
use elicit_host_rmcp::{Answerer, CallError, Consent, Outcome};
use elicit_wire::ElicitResult;
use serde_json::{Value, json};
use tokio::process::Command;

/// `python -m MODULE` (or `python -c CODE`) in the Python SDK's examples folder.
fn python(args: &[&str], folder: &str) -> Command {
    let python = std::env::var("ELICIT_PEER_PYTHON")
        .expect("ELICIT_PEER_PYTHON: a Python with `mcp` 2.3.0 (scripts/host-interop sets it)");
    let examples = std::env::var("ELICIT_PEER_PY_EXAMPLES")
        .expect("ELICIT_PEER_PY_EXAMPLES: the `examples` folder of the `mcp` 2.3.0 sources");
    let mut command = Command::new(python);
    command
        .args(args)
        .current_dir(format!("{examples}/{folder}"));
    command
}

/// `@modelcontextprotocol/server-everything` over stdio.
fn everything() -> Command {
    let node = std::env::var("ELICIT_PEER_NODE").expect("ELICIT_PEER_NODE: Node >= 22");
    let server = std::env::var("ELICIT_PEER_EVERYTHING")
        .expect("ELICIT_PEER_EVERYTHING: server-everything's dist/index.js");
    let mut command = Command::new(node);
    command.arg(server).arg("stdio");
    command
}

/// The outcomes the host was told of since the last look (every elicitation of both eras:
/// a 2025-11-25 server's requests are not part of a call's own list).
fn outcomes(person: &Person) -> Vec<Outcome> {
    std::mem::take(&mut person.seen().outcomes)
}

/// The `result` of each of the client's answers to the server's requests.
fn answers(wire: &common::Wire) -> Vec<Value> {
    wire.client_answers()
        .into_iter()
        .map(|m| m.get("result").cloned().unwrap_or(m))
        .collect()
}

#[tokio::test]
#[ignore = "needs the Python SDK's examples: scripts/host-interop"]
async fn python_legacy_story_a_form_with_a_titled_schema_and_a_page_it_completes() {
    let person = Person::new(
        FormPlan::Type(vec![("username", "alice"), ("plan", "pro")]),
        PagePlan::Say(Consent::Opened),
    );
    let server = python(&["-m", "stories.legacy_elicitation.server"], ".");
    let (client, wire, _server) =
        connect_child(server, Era::Legacy, Answerer::new(person.clone())).await;

    // Python sends every pydantic form with a root `title` ("Registration").
    let registered = common::drive(&client, "register_user", json!({})).await;
    assert_eq!(
        text(&registered.result.unwrap()),
        "registered alice (plan: pro)"
    );
    assert_eq!(outcomes(&person), [Outcome::Accepted]);

    // The page is consented to; the server reports it complete by notification.
    let linked = common::drive(&client, "link_account", json!({"provider": "github"})).await;
    assert_eq!(text(&linked.result.unwrap()), "linked github");
    assert_eq!(outcomes(&person), [Outcome::Opened, Outcome::Completed]);
    assert_eq!(
        answers(&wire),
        [
            json!({"action": "accept", "content": {"username": "alice", "plan": "pro"}}),
            json!({"action": "accept"}),
        ]
    );
    let seen = person.seen();
    assert_eq!(seen.forms, ["Please provide your registration details:"]);
    assert_eq!(seen.pages, ["https://example.com/oauth/github/authorize"]);
    assert_eq!(seen.askers, ["legacy-elicitation-example"; 2]);
}

#[tokio::test]
#[ignore = "needs the Python SDK's examples: scripts/host-interop"]
async fn python_mrtr_story_a_round_answered_with_its_sealed_state_echoed() {
    for (plan, said) in [
        (FormPlan::Type(vec![("confirm", "yes")]), "deployed to prod"),
        (
            FormPlan::Send(ElicitResult::decline()),
            "deployment to prod cancelled",
        ),
    ] {
        let person = Person::new(plan, PagePlan::Say(Consent::Cancelled));
        let server = python(&["-m", "stories.mrtr.server"], ".");
        let (client, wire, _server) =
            connect_child(server, Era::Mrtr, Answerer::new(person.clone())).await;
        let deployed = common::drive(&client, "deploy", json!({"env": "prod"})).await;
        assert_eq!(text(&deployed.result.unwrap()), said);

        let rounds = wire.rounds();
        let calls = wire.client_params("tools/call");
        assert_eq!(rounds.len(), 1);
        assert_eq!(calls.len(), 2);
        // The server's sealed token, echoed byte for byte, under a new request id.
        assert!(rounds[0]["requestState"].as_str().unwrap().len() > 20);
        assert_eq!(calls[1]["requestState"], rounds[0]["requestState"]);
        let ids = wire.client_ids("tools/call");
        assert_ne!(ids[0], ids[1]);
        assert_eq!(person.seen().forms, ["Deploy to prod?"]);
    }
}

#[tokio::test]
#[ignore = "needs the Python SDK's examples: scripts/host-interop"]
async fn python_refund_desk_resolvers_ask_two_questions_in_turn_on_both_eras() {
    for era in common::ERAS {
        let person = Person::new(
            FormPlan::Fields(vec![("full", "yes"), ("restock", "yes")]),
            PagePlan::Say(Consent::Cancelled),
        );
        let server = python(&["-m", "stories.refund_desk.server"], ".");
        let (client, wire, _server) =
            connect_child(server, era, Answerer::new(person.clone())).await;

        let refund = common::drive(
            &client,
            "refund_order",
            json!({"order_id": "ORD-7002", "reason": "arrived broken"}),
        )
        .await;
        let result = refund.result.unwrap();
        assert_eq!(
            result.structured_content,
            Some(json!({
                "order_id": "ORD-7002", "refunded_cents": 4800, "restocked": true,
                "reason": "arrived broken"
            })),
            "{era:?}"
        );
        assert_eq!(outcomes(&person), [Outcome::Accepted, Outcome::Accepted]);
        assert_eq!(
            person.seen().forms,
            [
                "ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the \
                 whole order, or one SKU?",
                "The refund includes physical items (enamel-mug, canvas-tote). Return them to \
                 stock?",
            ]
        );
        if era == Era::Mrtr {
            // One question a round (the second depends on the first), each state echoed.
            let (rounds, calls) = (wire.rounds(), wire.client_params("tools/call"));
            assert_eq!((rounds.len(), calls.len()), (2, 3));
            assert_eq!(calls[1]["requestState"], rounds[0]["requestState"]);
            assert_eq!(calls[2]["requestState"], rounds[1]["requestState"]);
        } else {
            assert_eq!(wire.client_answers().len(), 2);
        }

        // An order of one e-book asks nothing.
        let quiet = common::drive(
            &client,
            "refund_order",
            json!({"order_id": "ORD-7001", "reason": "duplicate"}),
        )
        .await;
        assert_eq!(
            quiet.result.unwrap().structured_content.unwrap()["refunded_cents"],
            1500
        );
        assert!(quiet.elicitations.is_empty());
    }
}

#[tokio::test]
#[ignore = "needs the Python SDK's examples: scripts/host-interop"]
async fn python_elicitation_snippet_a_default_kept_a_payment_page_and_a_32042() {
    let mut person = Person::new(
        FormPlan::Fields(vec![("checkAlternative", "yes")]),
        PagePlan::Say(Consent::Opened),
    );
    // Not waiting on the -32042 page once it has been opened.
    person.patience = 0;
    let server = python(
        &["-c", "from servers.elicitation import mcp; mcp.run()"],
        "snippets",
    );
    let (client, wire, _server) =
        connect_child(server, Era::Legacy, Answerer::new(person.clone())).await;

    // The alternative date is the server's default, pre-filled and sent as it was.
    let booked = common::drive(
        &client,
        "book_table",
        json!({"date": "2024-12-25", "time": "19:00", "party_size": 4}),
    )
    .await;
    assert_eq!(
        text(&booked.result.unwrap()),
        "[SUCCESS] Booked for 2024-12-26"
    );
    assert_eq!(outcomes(&person), [Outcome::Accepted]);
    assert_eq!(
        answers(&wire)[0],
        json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2024-12-26"}})
    );

    let paid = common::drive(&client, "secure_payment", json!({"amount": 12.5})).await;
    assert_eq!(
        text(&paid.result.unwrap()),
        "Payment of $12.50 initiated - check your browser to complete"
    );
    assert_eq!(outcomes(&person), [Outcome::Opened]);

    // Its -32042 names a new page on every call: the host shows it once, and ends the call
    // with the server's error when the person stops waiting.
    let connected = common::drive(
        &client,
        "connect_service",
        json!({"service_name": "stripe"}),
    )
    .await;
    let Err(CallError::UrlNotCompleted { error }) = connected.result else {
        panic!("{:?}", connected.result)
    };
    assert_eq!(error.code.0, -32042);
    assert_eq!(outcomes(&person), [Outcome::Opened, Outcome::Unfinished]);

    let seen = person.seen();
    assert_eq!(seen.pages.len(), 2);
    assert!(seen.pages[0].starts_with("https://payments.example.com/confirm?amount=12.5&id="));
    assert!(seen.pages[1].starts_with("https://stripe.example.com/oauth/authorize?elicit="));
    assert_eq!(seen.waits, 1);
}

#[tokio::test]
#[ignore = "needs server-everything: scripts/host-interop"]
async fn everything_server_every_field_kind_reviewed_and_sent_as_typed() {
    let person = Person::new(
        FormPlan::Fields(vec![
            ("name", "Ada Lovelace"),
            ("check", "yes"),
            ("email", "ada@example.com"),
            ("homepage", "https://ada.example"),
            ("birthdate", "1815-12-10"),
            ("integer", "7"),
            ("number", "2.5"),
            ("untitledSingleSelectEnum", "Joey"),
            ("untitledMultipleSelectEnum", "Piano, Violin"),
            ("titledSingleSelectEnum", "Wonder Woman"),
            ("titledMultipleSelectEnum", "Salmon"),
            ("legacyTitledEnum", "Dogs"),
        ]),
        PagePlan::Say(Consent::Cancelled),
    );
    let (client, wire, _server) =
        connect_child(everything(), Era::Legacy, Answerer::new(person.clone())).await;
    let asked = common::drive(&client, "trigger-elicitation-request", json!({})).await;
    let result = asked.result.unwrap();
    assert_eq!(outcomes(&person), [Outcome::Accepted]);
    let sent = json!({"action": "accept", "content": {
        "name": "Ada Lovelace",
        "check": true,
        "firstLine": "It was a dark and stormy night.",
        "email": "ada@example.com",
        "homepage": "https://ada.example",
        "birthdate": "1815-12-10",
        "integer": 7,
        "number": 2.5,
        "untitledSingleSelectEnum": "Joey",
        "untitledMultipleSelectEnum": ["Piano", "Violin"],
        "titledSingleSelectEnum": "hero-3",
        "titledMultipleSelectEnum": ["fish-2"],
        "legacyTitledEnum": "pet-2",
    }});
    assert_eq!(answers(&wire), std::slice::from_ref(&sent));
    // What the server received, as it reports it.
    let raw = result.content[2].as_text().unwrap().text.clone();
    let raw: Value = serde_json::from_str(raw.split_once("Raw result: ").unwrap().1).unwrap();
    assert_eq!(raw, sent);
}

#[tokio::test]
#[ignore = "needs server-everything: scripts/host-interop"]
async fn everything_server_a_page_asked_and_a_32042_prerequisite_then_the_retry() {
    let mut person = Person::new(FormPlan::Never, PagePlan::Say(Consent::Opened));
    person.patience = 1;
    let (client, _wire, _server) =
        connect_child(everything(), Era::Legacy, Answerer::new(person.clone())).await;

    let opened = common::drive(
        &client,
        "trigger-url-elicitation",
        json!({"url": "https://example.com/sign-in", "elicitationId": "sign-in-1"}),
    )
    .await;
    assert!(
        text(&opened.result.unwrap()).starts_with("✅ User completed the URL elicitation flow.")
    );
    assert_eq!(outcomes(&person), [Outcome::Opened]);

    // The error path: the prerequisite page opened, no completion reported; after a while
    // the call is retried and the server asks its page the ordinary way.
    let required = common::drive(
        &client,
        "trigger-url-elicitation",
        json!({"url": "https://example.com/sign-in", "elicitationId": "sign-in-2", "errorPath": true}),
    )
    .await;
    assert!(
        text(&required.result.unwrap()).starts_with("✅ User completed the URL elicitation flow.")
    );
    assert_eq!(outcomes(&person), [Outcome::Opened, Outcome::Opened]);
    assert_eq!(
        person.seen().pages,
        [
            "https://example.com/sign-in",
            "https://modelcontextprotocol.io",
            "https://example.com/sign-in",
        ]
    );
}
