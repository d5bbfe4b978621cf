//! The 2026-07-28 multi round-trip flow seen from a handler: what the first
//! `InputRequiredResult` looks like on the wire, how answers come back (fresh in
//! `inputResponses`, or carried in the sealed `requestState`), how several questions share one
//! round, and how capabilities, malformed answers and reworded questions are handled.

use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::testing::{Responses, TestClient};
use elicit_runtime::wire::{InputRequiredResult, JsonRpcError};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use pollster::block_on;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    note: Option<String>,
}

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

/// Confirm the booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Confirm {
    confirm: bool,
}

fn guests(count: u8) -> Guests {
    Guests { count, note: None }
}

fn day(date: &str) -> Day {
    Day {
        date: date.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

fn server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(KeyRing::new(1, [0x42; 32]), "flow-server"))
}

/// The first `tools/call` params of a 2026-07-28 client declaring `capabilities`.
fn first_params(capabilities: Value) -> Value {
    json!({
        "name": "book_table",
        "arguments": {"restaurant": "Chez Rust"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "flow-test", "version": "1"}
        }
    })
}

fn forms() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// The retry of `first` answering `ask` with `responses` and echoing its state.
fn retry(first: &Value, ask: &InputRequiredResult, responses: Value) -> Value {
    let mut params = first.clone();
    params["inputResponses"] = responses;
    params["requestState"] = Value::from(ask.request_state().expect("the round carries state"));
    params
}

/// One request: build the context, run the handler, finish.
fn round<R>(
    server: &ElicitServer,
    params: &Value,
    mut handler: impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    block_on(TestClient::new(server.clone()).round("tools/call", params, &mut handler))
}

#[track_caller]
fn asks<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> InputRequiredResult {
    match outcome {
        Ok(Reply::InputRequired(ask)) => ask,
        other => panic!("expected input_required, got {other:?}"),
    }
}

#[track_caller]
fn completes<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> R {
    match outcome {
        Ok(Reply::Result(result)) => result,
        other => panic!("expected a complete result, got {other:?}"),
    }
}

#[track_caller]
fn fails<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> JsonRpcError {
    match outcome {
        Err(error) => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

fn keys(ask: &InputRequiredResult) -> Vec<&str> {
    ask.input_requests()
        .map(|r| r.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The JSON of `inputRequests[key]`.
fn request(ask: &InputRequiredResult, key: &str) -> Value {
    let value = serde_json::to_value(ask).unwrap();
    value["inputRequests"][key].clone()
}

fn form_request(message: &str, schema: Value) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": schema}
    })
}

fn guests_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 1, "maximum": 12},
            "note": {"type": "string"}
        },
        "required": ["count"]
    })
}

fn day_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"date": {"type": "string", "format": "date"}},
        "required": ["date"]
    })
}

async fn ask_guests(cx: &mut ElicitContext) -> Result<Answer<Guests>, Interrupt> {
    Guests::ask(cx).await
}

// ---------------------------------------------------------------------------------------------
// The first round on the wire
// ---------------------------------------------------------------------------------------------

#[test]
fn first_round_is_exactly_the_spec_shape() {
    let server = server().with_server_info("flow-server", "1.2.3");
    let ask = asks(round(&server, &first_params(forms()), ask_guests));
    let value = serde_json::to_value(&ask).unwrap();
    let state = value["requestState"]
        .as_str()
        .expect("requestState is a string")
        .to_owned();
    assert!(state.starts_with("es1."), "{state}");
    assert_eq!(
        value,
        json!({
            "resultType": "input_required",
            "inputRequests": {"guests": form_request("How many guests?", guests_schema())},
            "requestState": state,
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "flow-server", "version": "1.2.3"}}
        })
    );
    // The schema sent is exactly the form's own.
    assert_eq!(
        value["inputRequests"]["guests"]["params"]["requestedSchema"],
        serde_json::to_value(Guests::requested_schema()).unwrap()
    );
}

/// The keys of a JSON object's text, in the order written (a `Value` would sort them).
fn top_level_keys(json: &str) -> Vec<String> {
    struct Keys;
    impl<'de> serde::de::Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }
    serde::Deserializer::deserialize_map(&mut serde_json::Deserializer::from_str(json), Keys)
        .unwrap()
}

#[test]
fn first_round_without_server_info_has_no_meta() {
    let ask = asks(round(&server(), &first_params(forms()), ask_guests));
    let text = serde_json::to_string(&ask).unwrap();
    assert_eq!(
        top_level_keys(&text),
        ["resultType", "inputRequests", "requestState"]
    );
    assert_eq!(ask.meta(), None);
}

// ---------------------------------------------------------------------------------------------
// One round: accept, decline, cancel
// ---------------------------------------------------------------------------------------------

fn answer_once(response: Value) -> Result<Reply<Answer<Guests>>, JsonRpcError> {
    let server = server();
    let first = first_params(forms());
    let ask = asks(round(&server, &first, ask_guests));
    round(
        &server,
        &retry(&first, &ask, json!({"guests": response})),
        ask_guests,
    )
}

#[test]
fn one_round_accept() {
    let got = completes(answer_once(
        json!({"action": "accept", "content": {"count": 3, "note": "window"}}),
    ));
    assert_eq!(
        got,
        Answer::Accepted(Guests {
            count: 3,
            note: Some("window".into())
        })
    );
}

#[test]
fn one_round_decline() {
    assert_eq!(
        completes(answer_once(json!({"action": "decline"}))),
        Answer::Declined
    );
}

#[test]
fn one_round_cancel() {
    assert_eq!(
        completes(answer_once(json!({"action": "cancel"}))),
        Answer::Cancelled
    );
}

#[test]
fn decline_and_cancel_ignore_stray_content() {
    let got = completes(answer_once(
        json!({"action": "decline", "content": {"count": 99}}),
    ));
    assert_eq!(got, Answer::Declined);
}

// ---------------------------------------------------------------------------------------------
// Several rounds
// ---------------------------------------------------------------------------------------------

/// Asks the day, then (once it is known) the guests.
async fn day_then_guests(cx: &mut ElicitContext) -> Result<(Day, Answer<Guests>), Interrupt> {
    let Answer::Accepted(day) = Day::ask(cx).await? else {
        return Err(JsonRpcError::invalid_params("no day", None).into());
    };
    let guests = Guests::ask(cx).await?;
    Ok((day, guests))
}

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
    let client = elicit_runtime::testing::TestClient::new(server());
    let run = block_on(client.call_tool(
        "book_table",
        json!({}),
        |key, _| match key {
            "day" => json!({"action": "accept", "content": {"date": "2026-03-04"}}),
            "guests" => json!({"action": "accept", "content": {"count": 7}}),
            _ => json!({"action": "accept", "content": {"confirm": true}}),
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

// ---------------------------------------------------------------------------------------------
// Batching and partial answers
// ---------------------------------------------------------------------------------------------

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
        .decline::<Guests>()
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
            Responses::new().cancel::<Guests>().into_value(),
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

// ---------------------------------------------------------------------------------------------
// Validation of accepted content
// ---------------------------------------------------------------------------------------------

#[test]
fn accepted_content_breaking_the_form_is_an_error_listing_every_field() {
    let error = fails(answer_once(
        json!({"action": "accept", "content": {"count": 40, "note": 5}}),
    ));
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(json!({
            "key": "guests",
            "errors": [
                {"field": "count", "reason": "must be at most 12"},
                {"field": "note", "reason": "must be text"}
            ]
        }))
    );
    // The reasons are those of the form's own decoder.
    let decoded = Guests::from_content(&json!({"count": 40, "note": 5})).unwrap_err();
    let from_decoder: Vec<Value> = decoded
        .errors()
        .iter()
        .map(|e| json!({"field": e.field, "reason": e.reason}))
        .collect();
    assert_eq!(error.data.unwrap()["errors"], Value::Array(from_decoder));
}

#[test]
fn accept_without_content_is_an_error_not_a_decline() {
    let error = fails(answer_once(json!({"action": "accept"})));
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(json!({"key": "guests", "errors": [{"field": "count", "reason": "is required"}]}))
    );
}

#[test]
fn accepted_content_of_the_wrong_format_is_an_error() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, day_then_guests));
    let bad = json!({"day": {"action": "accept", "content": {"date": "soon"}}});
    let error = fails(round(&server, &retry(&first, &r1, bad), day_then_guests));
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(
            json!({"key": "day", "errors": [{"field": "date", "reason": "must be a valid date like 2024-01-31"}]})
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Call-site message and defaults; reworded questions
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Client capabilities
// ---------------------------------------------------------------------------------------------

#[test]
fn a_client_without_elicitation_gets_32021() {
    let error = fails(round(&server(), &first_params(json!({})), ask_guests));
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!({
            "code": -32021,
            "message": "Server requires the elicitation capability (form mode) for this request",
            "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
        })
    );
}

#[test]
fn ask_if_supported_gives_none_without_elicitation() {
    let handler = async |cx: &mut ElicitContext| Guests::ask_if_supported(cx).await;
    assert_eq!(
        completes(round(&server(), &first_params(json!({})), handler)),
        None
    );
    let url_only = first_params(json!({"elicitation": {"url": {}}}));
    assert_eq!(completes(round(&server(), &url_only, handler)), None);
    // With forms it asks.
    let ask = asks(round(&server(), &first_params(forms()), handler));
    assert_eq!(keys(&ask), ["guests"]);
}

#[test]
fn a_bare_elicitation_object_means_forms() {
    let ask = asks(round(
        &server(),
        &first_params(json!({"elicitation": {}})),
        ask_guests,
    ));
    assert_eq!(keys(&ask), ["guests"]);
    // Unknown members inside `form` are fine.
    let ask = asks(round(
        &server(),
        &first_params(json!({"elicitation": {"form": {"applyDefaults": true}}})),
        ask_guests,
    ));
    assert_eq!(keys(&ask), ["guests"]);
}

#[test]
fn a_url_only_client_cannot_get_a_form() {
    let error = fails(round(
        &server(),
        &first_params(json!({"elicitation": {"url": {}}})),
        ask_guests,
    ));
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"form": {}}}}))
    );
}

#[test]
fn capabilities_are_read_again_on_every_retry() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let mut without = retry(&first, &r1, json!({}));
    without["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({});
    assert_eq!(fails(round(&server, &without, ask_guests)).code, -32021);
}

const SAMPLING: &str = "summary";

fn sampling_params() -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise the menu"}}],
        "maxTokens": 100
    })
}

#[test]
fn sampling_needs_its_capability() {
    let handler = async |cx: &mut ElicitContext| cx.sample(SAMPLING, sampling_params()).await;
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(
        serde_json::to_value(&error).unwrap()["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    assert_eq!(error.code, -32021);
}

#[test]
fn sampling_travels_as_sampling_create_message() {
    let handler = async |cx: &mut ElicitContext| cx.sample(SAMPLING, sampling_params()).await;
    let server = server();
    let first = first_params(json!({"sampling": {}}));
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(
        request(&r1, SAMPLING),
        json!({"method": "sampling/createMessage", "params": sampling_params()})
    );
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "Soup."}, "model": "m", "stopReason": "endTurn"});
    let done = completes(round(
        &server,
        &retry(&first, &r1, json!({SAMPLING: reply.clone()})),
        handler,
    ));
    assert_eq!(done, reply);
}

#[test]
fn roots_need_their_capability() {
    let handler = async |cx: &mut ElicitContext| cx.list_roots("roots").await;
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"roots": {}}}))
    );
}

#[test]
fn roots_travel_as_roots_list() {
    let handler = async |cx: &mut ElicitContext| cx.list_roots("where").await;
    let server = server();
    let first = first_params(json!({"roots": {"listChanged": true}}));
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(request(&r1, "where"), json!({"method": "roots/list"}));
    let reply = json!({"roots": [{"uri": "file:///menu", "name": "menu"}]});
    assert_eq!(
        completes(round(
            &server,
            &retry(&first, &r1, json!({"where": reply.clone()})),
            handler
        )),
        reply
    );
}

#[test]
fn forms_sampling_and_roots_batch_into_one_round() {
    let handler = async |cx: &mut ElicitContext| {
        let a = Guests::ask(cx).await;
        let b = cx.sample(SAMPLING, sampling_params()).await;
        let c = cx.list_roots("where").await;
        Ok::<_, Interrupt>((a?, b?, c?))
    };
    let server = server();
    let first = first_params(json!({"elicitation": {}, "sampling": {}, "roots": {}}));
    let r1 = asks(round(&server, &first, handler));
    let value = serde_json::to_value(&r1).unwrap();
    assert_eq!(
        value["inputRequests"],
        json!({
            "guests": form_request("How many guests?", guests_schema()),
            SAMPLING: {"method": "sampling/createMessage", "params": sampling_params()},
            "where": {"method": "roots/list"}
        })
    );
    let responses = json!({
        "guests": {"action": "accept", "content": {"count": 1}},
        SAMPLING: {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"},
        "where": {"roots": []}
    });
    let (g, s, r) = completes(round(&server, &retry(&first, &r1, responses), handler));
    assert_eq!(g, Answer::Accepted(guests(1)));
    assert_eq!(s["model"], "m");
    assert_eq!(r, json!({"roots": []}));
}

// ---------------------------------------------------------------------------------------------
// Other round shapes
// ---------------------------------------------------------------------------------------------

#[test]
fn retry_later_is_a_state_only_round() {
    let calls = AtomicUsize::new(0);
    let handler = async |cx: &mut ElicitContext| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            return Err(cx.retry_later());
        }
        Ok("ready")
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    let state = r1.request_state().unwrap().to_owned();
    assert_eq!(
        serde_json::to_value(&r1).unwrap(),
        json!({"resultType": "input_required", "requestState": state})
    );
    let mut again = first.clone();
    again["requestState"] = Value::from(state);
    assert_eq!(completes(round(&server, &again, handler)), "ready");
}

#[test]
fn only_tools_prompts_and_resources_may_ask() {
    let params = first_params(forms());
    let mut cx = server()
        .context("completion/complete", &params)
        .build()
        .unwrap();
    let result = block_on(Guests::ask(&mut cx));
    let error = cx.finish(result).unwrap_err();
    assert_eq!(error.code, -32603);

    for method in ["prompts/get", "resources/read"] {
        let mut params = first_params(forms());
        params["uri"] = json!("file:///menu");
        let mut cx = server().context(method, &params).build().unwrap();
        let result = block_on(Guests::ask(&mut cx));
        assert!(
            matches!(cx.finish(result), Ok(Reply::InputRequired(_))),
            "{method}"
        );
    }
}

#[test]
fn a_request_without_meta_and_without_a_session_is_invalid_params() {
    let params = json!({"name": "book_table", "arguments": {}});
    let error = server()
        .context("tools/call", &params)
        .build()
        .unwrap_err()
        .error;
    assert_eq!(error.code, -32602);
}

#[test]
fn an_unknown_protocol_version_is_invalid_params() {
    let mut params = first_params(forms());
    params["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2019-01-01");
    let error = server()
        .context("tools/call", &params)
        .build()
        .unwrap_err()
        .error;
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(json!({"supported": ["2025-11-25", "2026-07-28"]}))
    );
}

// ---------------------------------------------------------------------------------------------
// Carrying answers in the state
// ---------------------------------------------------------------------------------------------

/// Asks the guests, then the day: the guests' answer must be carried to the next round.
async fn guests_then_day(
    cx: &mut ElicitContext,
) -> Result<(Answer<Guests>, Answer<Day>), Interrupt> {
    let g = Guests::ask(cx).await?;
    let d = Day::ask(cx).await?;
    Ok((g, d))
}

#[test]
fn a_carried_answer_keeps_its_content() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, guests_then_day));
    let note = "by the window, please".repeat(50);
    let answer = json!({"guests": {"action": "accept", "content": {"count": 2, "note": note}}});
    let r2 = asks(round(&server, &retry(&first, &r1, answer), guests_then_day));
    assert_eq!(keys(&r2), ["day"]);
    let r3 = round(
        &server,
        &retry(
            &first,
            &r2,
            Responses::new().accept(&day("2026-09-09")).into_value(),
        ),
        guests_then_day,
    );
    assert_eq!(
        completes(r3),
        (
            Answer::Accepted(Guests {
                count: 2,
                note: Some(note)
            }),
            Answer::Accepted(day("2026-09-09"))
        )
    );
}

#[test]
fn a_long_valid_answer_can_be_carried() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, guests_then_day));
    // `note` has no maxLength: 60 000 characters are a valid answer.
    let long = json!({"guests": {"action": "accept", "content": {"count": 2, "note": "x".repeat(60_000)}}});
    let r2 = asks(round(&server, &retry(&first, &r1, long), guests_then_day));
    assert_eq!(keys(&r2), ["day"]);
}

#[test]
fn a_declined_answer_is_carried_without_stray_content() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, guests_then_day));
    let junk = json!({"guests": {"action": "decline", "content": {"junk": "y".repeat(60_000)}, "_meta": {"k": 1}}});
    let r2 = asks(round(&server, &retry(&first, &r1, junk), guests_then_day));
    assert_eq!(keys(&r2), ["day"]);
    // Only `{"action":"decline"}` is carried: the 60 000 junk characters are not in the state.
    assert!(r2.request_state().unwrap().len() < 4_096);
}

/// Handlers run on multi-threaded runtimes: the generated `ask` must be `Send`.
#[test]
fn ask_futures_are_send() {
    fn assert_send<F: std::future::Future + Send>(_: F) {}
    let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
        elicit_runtime::state::KeyRing::generate(),
        "send",
    ));
    let params = serde_json::json!({"name": "t", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}});
    let mut cx = server.context("tools/call", &params).build().unwrap();
    assert_send(async move {
        let _ = Guests::ask(&mut cx).await;
        let _ = Guests::question().message("m").ask(&mut cx).await;
    });
}
