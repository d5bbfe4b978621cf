//! One round: accept, decline, cancel.

use super::*;

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
