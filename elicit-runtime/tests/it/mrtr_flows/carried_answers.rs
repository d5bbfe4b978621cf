//! Carrying answers in the state.

use super::*;

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
    fn assert_send<F: Future + Send>(_: F) {}
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "send"));
    let params = serde_json::json!({"name": "t", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}});
    let mut cx = server.context("tools/call", &params).build().unwrap();
    assert_send(async move {
        let _ = Guests::ask(&mut cx).await;
        let _ = Guests::question().message("m").ask(&mut cx).await;
    });
}
