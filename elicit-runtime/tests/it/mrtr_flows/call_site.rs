//! Call-site message and defaults; reworded questions.

use super::*;

async fn ask_with_call_site(cx: &mut ElicitContext) -> Result<Answer<Guests>, Interrupt> {
    Guests::question()
        .message("How many guests at Chez Rust?")
        .defaults(GuestsDefaults {
            count: Some(4),
            note: None,
        })
        .ask(cx)
        .await
}

#[test]
fn call_site_message_and_defaults_are_sent() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_with_call_site));
    assert_eq!(
        request(&r1, "guests"),
        form_request(
            "How many guests at Chez Rust?",
            json!({
                "type": "object",
                "properties": {
                    "count": {"type": "integer", "minimum": 1, "maximum": 12, "default": 4},
                    "note": {"type": "string"}
                }
            })
        )
    );
    // An answer that leaves the defaulted field out decodes to the default.
    let done = round(
        &server,
        &retry(
            &first,
            &r1,
            json!({"guests": {"action": "accept", "content": {}}}),
        ),
        ask_with_call_site,
    );
    assert_eq!(completes(done), Answer::Accepted(guests(4)));
}

#[test]
fn a_call_site_default_breaking_the_form_is_an_internal_error() {
    let handler = async |cx: &mut ElicitContext| {
        Guests::question()
            .defaults(GuestsDefaults {
                count: Some(40),
                note: None,
            })
            .ask(cx)
            .await
    };
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("`guests`"), "{}", error.message);
}

#[test]
fn a_reworded_question_is_asked_again_rather_than_answered_by_the_stale_reply() {
    let calls = AtomicUsize::new(0);
    let handler = async |cx: &mut ElicitContext| {
        let message = if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            "Guests for lunch?"
        } else {
            "Guests for dinner?"
        };
        Guests::question().message(message).ask(cx).await
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(
        request(&r1, "guests")["params"]["message"],
        "Guests for lunch?"
    );

    // The reply to "lunch" does not answer "dinner": the new wording is asked.
    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&guests(2)).into_value(),
        ),
        handler,
    ));
    assert_eq!(keys(&r2), ["guests"]);
    assert_eq!(
        request(&r2, "guests"),
        form_request("Guests for dinner?", guests_schema())
    );

    let done = round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new().accept(&guests(6)).into_value(),
        ),
        handler,
    );
    assert_eq!(completes(done), Answer::Accepted(guests(6)));
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[test]
fn changed_defaults_make_a_new_question() {
    let calls = AtomicUsize::new(0);
    let handler = async |cx: &mut ElicitContext| {
        let count = if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            2
        } else {
            3
        };
        Guests::question()
            .defaults(GuestsDefaults {
                count: Some(count),
                note: None,
            })
            .ask(cx)
            .await
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&guests(9)).into_value(),
        ),
        handler,
    ));
    assert_eq!(
        request(&r2, "guests")["params"]["requestedSchema"]["properties"]["count"]["default"],
        3
    );
}

#[test]
fn a_carried_answer_is_not_reused_for_a_reworded_question() {
    // Round 2 answers `day` (carried from then on); in round 3 the handler rewords `day`.
    let calls = AtomicUsize::new(0);
    let handler = async |cx: &mut ElicitContext| {
        let message = if calls.fetch_add(1, Ordering::SeqCst) < 2 {
            "Which day?"
        } else {
            "Which day, really?"
        };
        let a = Day::question().message(message).ask(cx).await?;
        let b = Guests::ask(cx).await?;
        Ok::<_, Interrupt>((a, b))
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&day("2026-02-02")).into_value(),
        ),
        handler,
    ));
    assert_eq!(keys(&r2), ["guests"]);
    let r3 = asks(round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new().accept(&guests(2)).into_value(),
        ),
        handler,
    ));
    assert_eq!(keys(&r3), ["day"]);
    assert_eq!(
        request(&r3, "day")["params"]["message"],
        "Which day, really?"
    );
}

#[test]
fn the_same_form_twice_under_another_key() {
    let handler = async |cx: &mut ElicitContext| {
        let lunch = Guests::question().message("Lunch guests?").ask(cx).await;
        let dinner = Guests::question()
            .key("dinner_guests")
            .message("Dinner guests?")
            .ask(cx)
            .await;
        Ok::<_, Interrupt>((lunch?, dinner?))
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(keys(&r1), ["dinner_guests", "guests"]);
    let responses = json!({
        "guests": {"action": "accept", "content": {"count": 2}},
        "dinner_guests": {"action": "accept", "content": {"count": 8}}
    });
    let done = completes(round(&server, &retry(&first, &r1, responses), handler));
    assert_eq!(
        done,
        (Answer::Accepted(guests(2)), Answer::Accepted(guests(8)))
    );
}

#[test]
fn two_different_questions_under_one_key_in_one_request_is_an_internal_error() {
    // Asked one after the other: the conflict shows once the first one has an answer.
    let handler = async |cx: &mut ElicitContext| {
        let a = Guests::question().message("one").ask(cx).await?;
        let b = Guests::question().message("two").ask(cx).await?;
        Ok::<_, Interrupt>((a, b))
    };
    let mut params = first_params(forms());
    params["inputResponses"] = json!({"guests": {"action": "accept", "content": {"count": 1}}});
    let error = fails(round(&server(), &params, handler));
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("`guests`"), "{}", error.message);
}

#[test]
fn a_key_conflict_in_a_batch_is_an_internal_error() {
    let handler = async |cx: &mut ElicitContext| {
        let a = Guests::question().message("one").ask(cx).await;
        let b = Guests::question().message("two").ask(cx).await;
        Ok::<_, Interrupt>((a?, b?))
    };
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(error.code, -32603);
}

#[test]
fn a_missing_capability_in_a_batch_fails_the_first_round() {
    let handler = async |cx: &mut ElicitContext| {
        let a = Guests::ask(cx).await;
        let b = cx.sample(SAMPLING, sampling_params()).await;
        Ok::<_, Interrupt>((a?, b?))
    };
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"sampling": {}}}))
    );
}
