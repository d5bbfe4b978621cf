//! Several rounds.

use super::*;

#[test]
fn two_rounds_the_first_answer_comes_back_from_sealed_state() {
    let server = server();
    let first = first_params(forms());

    let r1 = asks(round(&server, &first, day_then_guests));
    assert_eq!(keys(&r1), ["day"]);
    assert_eq!(
        request(&r1, "day"),
        form_request("Which day?", day_schema())
    );

    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&day("2026-12-24")).into_value(),
        ),
        day_then_guests,
    ));
    assert_eq!(keys(&r2), ["guests"], "only the new question is asked");
    assert_eq!(
        request(&r2, "guests"),
        form_request("How many guests?", guests_schema())
    );
    assert_ne!(r1.request_state(), r2.request_state());

    // Round 3 carries only the guests; the day comes from r2's requestState.
    let responses = Responses::new().accept(&guests(4)).into_value();
    assert_eq!(responses.as_object().unwrap().len(), 1);
    let done = completes(round(
        &server,
        &retry(&first, &r2, responses),
        day_then_guests,
    ));
    assert_eq!(done, (day("2026-12-24"), Answer::Accepted(guests(4))));
}

/// Undeclared keys in an accepted answer are ignored by the decoder, and not carried either:
/// the next round's state holds only the form's declared fields.
#[test]
fn undeclared_answer_content_is_not_resealed() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, day_then_guests));
    let junk = "x".repeat(30_000);
    let answer =
        json!({"day": {"action": "accept", "content": {"date": "2026-12-24", "junk": junk}}});
    let r2 = asks(round(&server, &retry(&first, &r1, answer), day_then_guests));
    assert_eq!(keys(&r2), ["guests"]);
    let state = r2.request_state().unwrap();
    assert!(
        state.len() < 2_000,
        "the next state is {} characters",
        state.len()
    );
    // The day still comes back from it.
    let done = completes(round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new().accept(&guests(4)).into_value(),
        ),
        day_then_guests,
    ));
    assert_eq!(done, (day("2026-12-24"), Answer::Accepted(guests(4))));
}

/// An answer too large or too deeply nested to carry is the client's error, named by key.
#[test]
fn oversized_and_overnested_answers_are_refused() {
    let mut nested = json!("deep");
    for _ in 0..40 {
        nested = json!([nested]);
    }
    for content in [
        json!({"date": "2026-12-24", "junk": "x".repeat(70_000)}),
        json!({"date": "2026-12-24", "junk": nested}),
    ] {
        let mut params = first_params(forms());
        params["inputResponses"] = json!({"day": {"action": "accept", "content": content}});
        let error = fails(round(&server(), &params, day_then_guests));
        assert_eq!(error.code, -32602);
        assert_eq!(
            error.message,
            "inputResponses.day is too large (at most 65536 bytes of JSON, nested at most 32 deep)"
        );
        assert_eq!(error.data, Some(json!({"key": "day"})));
    }
}

async fn three_questions(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let Answer::Accepted(day) = Day::ask(cx).await? else {
        return Ok("no day".into());
    };
    let Answer::Accepted(guests) = Guests::ask(cx).await? else {
        return Ok("no guests".into());
    };
    Ok(match Confirm::ask(cx).await? {
        Answer::Accepted(Confirm { confirm: true }) => format!("{} for {}", day.date, guests.count),
        _ => "not confirmed".into(),
    })
}

#[test]
fn three_rounds() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, three_questions));
    assert_eq!(keys(&r1), ["day"]);
    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&day("2026-01-02")).into_value(),
        ),
        three_questions,
    ));
    assert_eq!(keys(&r2), ["guests"]);
    let r3 = asks(round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new().accept(&guests(2)).into_value(),
        ),
        three_questions,
    ));
    assert_eq!(keys(&r3), ["confirm"]);
    assert_eq!(
        request(&r3, "confirm"),
        form_request(
            "Confirm the booking?",
            json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]})
        )
    );
    let done = round(
        &server,
        &retry(
            &first,
            &r3,
            Responses::new()
                .accept(&Confirm { confirm: true })
                .into_value(),
        ),
        three_questions,
    );
    assert_eq!(completes(done), "2026-01-02 for 2");
}

#[test]
fn three_rounds_through_the_test_client() {
    let client = TestClient::new(server());
    let run = block_on(client.call_tool(
        "book_table",
        json!({}),
        |key, _| match key {
            "day" => UserReply::Accept(json!({"date": "2026-03-04"})),
            "guests" => UserReply::Accept(json!({"count": 7})),
            _ => UserReply::Accept(json!({"confirm": true})),
        },
        three_questions,
    ))
    .unwrap();
    assert_eq!(run.result, "2026-03-04 for 7");
    assert_eq!(
        run.rounds
            .iter()
            .map(|r| keys(r).join(","))
            .collect::<Vec<_>>(),
        ["day", "guests", "confirm"]
    );
}
