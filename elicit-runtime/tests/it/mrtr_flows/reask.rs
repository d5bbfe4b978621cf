//! An accepted answer that fails the form's checks is asked again: the same key in the next
//! round, the message saying what was wrong, the values that passed pre-filled; at most the
//! server's number of times, then `-32602`.

use std::sync::Arc;

use elicit_runtime::state::MemoryReplayGuard;

use super::*;

const REASKED: &str =
    "How many guests?\n\nPlease correct and send again:\n- count must be at most 12";

/// The guests question as re-asked after `{"count": 40, "note": "window"}`.
fn reasked_with_note() -> Value {
    form_request(
        REASKED,
        json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 1, "maximum": 12},
                "note": {"type": "string", "default": "window"}
            },
            "required": ["count"]
        }),
    )
}

fn accept(content: Value) -> Value {
    json!({"guests": {"action": "accept", "content": content}})
}

#[test]
fn an_invalid_answer_is_asked_again_saying_what_was_wrong_with_what_passed_pre_filled() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let bad = accept(json!({"count": 40, "note": "window"}));
    let r2 = asks(round(&server, &retry(&first, &r1, bad), ask_guests));
    let wire = serde_json::to_value(&r2).unwrap();
    assert_eq!(
        wire["inputRequests"],
        json!({"guests": reasked_with_note()})
    );
    assert_eq!(wire["resultType"], "input_required");
    assert!(wire["requestState"].is_string());
    // The user corrects the count and leaves the pre-filled note alone: the client may leave
    // it out, and the default stands for it.
    let good = accept(json!({"count": 4}));
    let done = completes(round(&server, &retry(&first, &r2, good), ask_guests));
    assert_eq!(
        done,
        Answer::Accepted(Guests {
            count: 4,
            note: Some("window".into())
        })
    );
}

#[test]
fn after_the_last_re_ask_the_call_fails_as_before_with_every_bad_field() {
    let server = server();
    let first = first_params(forms());
    let mut ask = asks(round(&server, &first, ask_guests));
    let bad = || accept(json!({"count": 40, "note": 5}));
    for _ in 0..elicit_runtime::form::DEFAULT_MAX_REASKS {
        ask = asks(round(&server, &retry(&first, &ask, bad()), ask_guests));
        assert_eq!(
            request(&ask, "guests")["params"]["message"],
            "How many guests?\n\nPlease correct and send again:\n\
             - count must be at most 12\n- note must be text"
        );
    }
    let error = fails(round(&server, &retry(&first, &ask, bad()), ask_guests));
    // Exactly the error of a server that asks nothing again (`validation.rs` pins its JSON).
    let at_once = fails(answer_once_on(
        &server.clone().with_max_reasks(0),
        json!({"action": "accept", "content": {"count": 40, "note": 5}}),
    ));
    assert_eq!(error, at_once);
    assert_eq!(
        error.message,
        "the answer to `guests` is invalid: invalid form content: `count` must be at most 12; `note` must be text"
    );
}

#[test]
fn a_question_that_opts_out_fails_at_once() {
    async fn once(cx: &mut ElicitContext) -> Result<Answer<Guests>, Interrupt> {
        Guests::question().reasks(0).ask(cx).await
    }
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, once));
    let error = fails(round(
        &server,
        &retry(&first, &r1, accept(json!({"count": 0}))),
        once,
    ));
    assert_eq!(
        error.data,
        Some(
            json!({"key": "guests", "errors": [{"field": "count", "reason": "must be at least 1"}]})
        )
    );
    // The server's limit, raised or turned off, applies to questions that do not say.
    let strict = server.clone().with_max_reasks(0);
    let r1 = asks(round(&strict, &first, ask_guests));
    let error = fails(round(
        &strict,
        &retry(&first, &r1, accept(json!({"count": 0}))),
        ask_guests,
    ));
    assert_eq!(error.code, -32602);
}

#[test]
fn answers_to_other_questions_are_kept_and_the_corrected_answer_is_carried_on() {
    async fn guests_then_day(
        cx: &mut ElicitContext,
    ) -> Result<(Answer<Guests>, Answer<Day>), Interrupt> {
        let guests = Guests::ask(cx).await?;
        Ok((guests, Day::ask(cx).await?))
    }
    async fn batched(cx: &mut ElicitContext) -> Result<(Answer<Day>, Answer<Guests>), Interrupt> {
        let a = Day::ask(cx).await;
        let b = Guests::ask(cx).await;
        Ok((a?, b?))
    }
    let server = server();
    let first = first_params(forms());
    // Both asked in one round, the guests answered badly: only they are asked again.
    let r1 = asks(round(&server, &first, batched));
    let both = json!({
        "day": {"action": "accept", "content": {"date": "2026-05-06"}},
        "guests": {"action": "accept", "content": {"count": 40, "note": "window"}}
    });
    let r2 = asks(round(&server, &retry(&first, &r1, both), batched));
    assert_eq!(keys(&r2), ["guests"]);
    assert_eq!(request(&r2, "guests"), reasked_with_note());
    let done = completes(round(
        &server,
        &retry(&first, &r2, accept(json!({"count": 2, "note": "door"}))),
        batched,
    ));
    assert_eq!(
        done,
        (
            Answer::Accepted(day("2026-05-06")),
            Answer::Accepted(Guests {
                count: 2,
                note: Some("door".into())
            })
        )
    );
    // The corrected answer travels on to later rounds like any other.
    let r1 = asks(round(&server, &first, guests_then_day));
    let r2 = asks(round(
        &server,
        &retry(&first, &r1, accept(json!({"count": 13}))),
        guests_then_day,
    ));
    let r3 = asks(round(
        &server,
        &retry(&first, &r2, accept(json!({"count": 3}))),
        guests_then_day,
    ));
    assert_eq!(keys(&r3), ["day"]);
    let day_answer = json!({"day": {"action": "accept", "content": {"date": "2026-01-02"}}});
    let done = completes(round(
        &server,
        &retry(&first, &r3, day_answer),
        guests_then_day,
    ));
    assert_eq!(
        done,
        (
            Answer::Accepted(guests(3)),
            Answer::Accepted(day("2026-01-02"))
        )
    );
}

#[test]
fn a_decline_or_cancel_of_the_re_asked_question_is_never_asked_again() {
    let server = server();
    let first = first_params(forms());
    for (action, expected) in [("decline", Answer::Declined), ("cancel", Answer::Cancelled)] {
        let r1 = asks(round(&server, &first, ask_guests));
        let r2 = asks(round(
            &server,
            &retry(&first, &r1, accept(json!({"count": 0}))),
            ask_guests,
        ));
        let refused = json!({"guests": {"action": action}});
        let done = completes(round(&server, &retry(&first, &r2, refused), ask_guests));
        assert_eq!(done, expected);
    }
}

#[test]
fn the_re_ask_count_is_sealed_a_tampered_or_replayed_state_is_refused() {
    let sealer = StateSealer::new(KeyRing::new(1, [0x42; 32]), "flow-server")
        .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    let server = ElicitServer::new(sealer);
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let r2 = asks(round(
        &server,
        &retry(&first, &r1, accept(json!({"count": 40}))),
        ask_guests,
    ));
    // A client that edits the state (to reset or raise the count) is refused.
    let mut tampered = retry(&first, &r2, accept(json!({"count": 40})));
    let mut token: Vec<char> = tampered["requestState"].as_str().unwrap().chars().collect();
    let middle = token.len() / 2;
    token[middle] = if token[middle] == 'A' { 'B' } else { 'A' };
    tampered["requestState"] = json!(token.into_iter().collect::<String>());
    let error = fails(round(&server, &tampered, ask_guests));
    assert_eq!(
        (error.code, error.message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    // Nor can it answer the first round's state again to start counting over.
    let replayed = retry(&first, &r1, accept(json!({"count": 40})));
    let error = fails(round(&server, &replayed, ask_guests));
    assert_eq!(
        (error.code, error.message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
}

#[test]
fn leaving_the_re_asked_question_unanswered_neither_resets_nor_spends_the_count() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let bad = || accept(json!({"count": 40, "note": "window"}));
    let r2 = asks(round(&server, &retry(&first, &r1, bad()), ask_guests));
    // A retry without the answer gets the same re-asked question again, count and all.
    let r3 = asks(round(&server, &retry(&first, &r2, json!({})), ask_guests));
    assert_eq!(request(&r3, "guests"), reasked_with_note());
    let r4 = asks(round(&server, &retry(&first, &r3, bad()), ask_guests));
    assert_eq!(request(&r4, "guests"), reasked_with_note());
    // The third invalid answer is past the default limit of 2 re-asks.
    let r5 = asks(round(&server, &retry(&first, &r4, json!({})), ask_guests));
    let error = fails(round(&server, &retry(&first, &r5, bad()), ask_guests));
    assert_eq!(
        error.data,
        Some(
            json!({"key": "guests", "errors": [{"field": "count", "reason": "must be at most 12"}]})
        )
    );
}
