//! Batching and partial answers.

use super::*;

async fn batched(cx: &mut ElicitContext) -> Result<(Answer<Day>, Answer<Guests>), Interrupt> {
    let a = Day::ask(cx).await;
    let b = Guests::ask(cx).await;
    let (a, b) = (a?, b?);
    Ok((a, b))
}

#[test]
fn questions_asked_before_the_first_question_mark_share_one_round() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, batched));
    let value = serde_json::to_value(&r1).unwrap();
    assert_eq!(
        value["inputRequests"],
        json!({
            "day": form_request("Which day?", day_schema()),
            "guests": form_request("How many guests?", guests_schema())
        })
    );
    let both = Responses::new()
        .accept(&day("2026-05-06"))
        .reply::<Guests>(UserReply::Decline)
        .into_value();
    let done = completes(round(&server, &retry(&first, &r1, both), batched));
    assert_eq!(
        done,
        (Answer::Accepted(day("2026-05-06")), Answer::Declined)
    );
}

#[test]
fn partial_answers_ask_only_the_missing_question_and_carry_the_other() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, batched));
    assert_eq!(keys(&r1), ["day", "guests"]);

    let r2 = asks(round(
        &server,
        &retry(
            &first,
            &r1,
            Responses::new().accept(&day("2026-07-08")).into_value(),
        ),
        batched,
    ));
    assert_eq!(
        keys(&r2),
        ["guests"],
        "the answered question is not asked again"
    );
    assert_eq!(
        request(&r2, "guests"),
        form_request("How many guests?", guests_schema())
    );

    let r3 = round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new()
                .reply::<Guests>(UserReply::Cancel)
                .into_value(),
        ),
        batched,
    );
    assert_eq!(
        completes(r3),
        (Answer::Accepted(day("2026-07-08")), Answer::Cancelled)
    );
}

#[test]
fn missing_input_responses_ask_again() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));

    // An empty map.
    let r2 = asks(round(&server, &retry(&first, &r1, json!({})), ask_guests));
    assert_eq!(keys(&r2), ["guests"]);
    assert_eq!(request(&r2, "guests"), request(&r1, "guests"));

    // No `inputResponses` at all, only the state.
    let mut state_only = first.clone();
    state_only["requestState"] = Value::from(r2.request_state().unwrap());
    let r3 = asks(round(&server, &state_only, ask_guests));
    assert_eq!(keys(&r3), ["guests"]);

    // Answers under other keys only.
    let r4 = asks(round(
        &server,
        &retry(
            &first,
            &r3,
            json!({"day": {"action": "accept", "content": {"date": "2026-01-01"}}}),
        ),
        ask_guests,
    ));
    assert_eq!(keys(&r4), ["guests"]);
}

#[test]
fn unknown_keys_in_input_responses_are_ignored() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let responses = json!({
        "guests": {"action": "accept", "content": {"count": 5}},
        "unknown": {"action": "accept", "content": {"anything": true}},
        "junk": 12345,
        "broken": {"action": "maybe"}
    });
    assert_eq!(
        completes(round(&server, &retry(&first, &r1, responses), ask_guests)),
        Answer::Accepted(guests(5))
    );
}

#[test]
fn a_one_shot_call_with_input_responses_and_no_state_is_accepted() {
    // Conformance "ignore-extra-params": answers sent up front, no requestState.
    let mut params = first_params(forms());
    params["inputResponses"] = json!({"guests": {"action": "accept", "content": {"count": 2}}});
    assert_eq!(
        completes(round(&server(), &params, ask_guests)),
        Answer::Accepted(guests(2))
    );
}

/// Strict provenance, server-wide: the same one-shot answer is ignored (nothing sealed shows
/// the question was asked), the question goes out, and the answer to it counts.
#[test]
fn strict_provenance_ignores_unasked_answers_and_takes_asked_ones() {
    let strict = server().with_strict_provenance();
    let mut params = first_params(forms());
    let unasked = json!({"guests": {"action": "accept", "content": {"count": 2}}});
    params["inputResponses"] = unasked.clone();
    let ask = asks(round(&strict, &params, ask_guests));
    assert_eq!(keys(&ask), ["guests"]);
    // Sent again with the state of the round that asked: now it counts.
    let answered = retry(&first_params(forms()), &ask, unasked);
    assert_eq!(
        completes(round(&strict, &answered, ask_guests)),
        Answer::Accepted(guests(2))
    );
}

/// Strict provenance per question: only the strict question ignores its unasked answer.
#[test]
fn strict_provenance_per_question() {
    let mut params = first_params(forms());
    params["inputResponses"] = json!({
        "guests": {"action": "accept", "content": {"count": 2}},
        "day": {"action": "accept", "content": {"date": "2026-12-24"}}
    });
    let both = async |cx: &mut ElicitContext| {
        let day = Day::ask(cx).await;
        let guests = Guests::question().strict_provenance().ask(cx).await;
        Ok::<_, Interrupt>((day?, guests?))
    };
    let ask = asks(round(&server(), &params, both));
    assert_eq!(keys(&ask), ["guests"], "only the strict question is asked");
}

#[test]
fn null_input_responses_ask_again() {
    let mut params = first_params(forms());
    params["inputResponses"] = Value::Null;
    let ask = asks(round(&server(), &params, ask_guests));
    assert_eq!(keys(&ask), ["guests"]);

    // Also with a state.
    let mut retried = first_params(forms());
    retried["inputResponses"] = Value::Null;
    retried["requestState"] = Value::from(ask.request_state().unwrap());
    assert_eq!(
        keys(&asks(round(&server(), &retried, ask_guests))),
        ["guests"]
    );
}

#[test]
fn a_non_object_response_is_invalid_params() {
    let mut params = first_params(forms());
    params["inputResponses"] = json!({"guests": 12345});
    let error = fails(round(&server(), &params, ask_guests));
    assert_eq!(error.code, -32602);
    assert_eq!(error.data, Some(json!({"key": "guests"})));
    assert!(
        error.message.contains("inputResponses.guests"),
        "{}",
        error.message
    );

    // The same on a retry with state.
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let error = fails(round(
        &server,
        &retry(&first, &r1, json!({"guests": 12345})),
        ask_guests,
    ));
    assert_eq!(
        (error.code, error.data),
        (-32602, Some(json!({"key": "guests"})))
    );
}

#[test]
fn responses_that_are_not_elicitation_results_are_invalid_params() {
    for bad in [
        json!({"action": "maybe"}),
        json!({"action": 1}),
        json!({"action": "accept", "content": "text"}),
        json!({"content": {"count": 2}}),
        json!({}),
        json!([]),
        json!("accept"),
        json!(null),
    ] {
        let mut params = first_params(forms());
        params["inputResponses"] = json!({"guests": bad.clone()});
        let error = fails(round(&server(), &params, ask_guests));
        assert_eq!(error.code, -32602, "{bad}: {error:?}");
        assert_eq!(
            error.data.as_ref().map(|d| d["key"].clone()),
            Some(json!("guests")),
            "{bad}: {error:?}"
        );
    }
}

#[test]
fn an_input_responses_that_is_not_an_object_is_invalid_params() {
    for bad in [
        json!(12345),
        json!("x"),
        json!([{"action": "accept"}]),
        json!(true),
    ] {
        let mut params = first_params(forms());
        params["inputResponses"] = bad.clone();
        let error = fails(round(&server(), &params, ask_guests));
        assert_eq!(error.code, -32602, "{bad}");
        assert_eq!(
            error.data,
            Some(json!({"field": "inputResponses"})),
            "{bad}"
        );
    }
}
