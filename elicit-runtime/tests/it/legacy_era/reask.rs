//! On 2025-11-25 an accepted answer that fails the form's checks is asked again at once: a
//! second `elicitation/create` with what was wrong and what passed pre-filled.

use super::*;

/// How many guests, and a note?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "How many guests?")]
struct Party {
    #[elicit(title = "Number of guests", minimum = 1, maximum = 12)]
    count: u8,
    #[elicit(max_length = 20)]
    note: Option<String>,
}

async fn party(cx: &mut ElicitContext) -> Result<Answer<Party>, Interrupt> {
    Party::ask(cx).await
}

#[test]
fn a_second_elicitation_create_says_what_was_wrong_with_what_passed_pre_filled() {
    let peer = FakePeer::new([
        accept(json!({"count": 0, "note": "by the window"})),
        accept(json!({"count": 2})),
    ]);
    let answer = complete(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        party,
    ));
    assert_eq!(
        answer,
        Answer::Accepted(Party {
            count: 2,
            note: Some("by the window".into())
        })
    );
    let sent = peer.sent();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].0, "elicitation/create");
    assert_eq!(
        sent[1].1,
        json!({
            "mode": "form",
            "message": "How many guests?\n\nPlease correct and send again:\n- Number of guests must be at least 1",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "count": {"type": "integer", "title": "Number of guests", "minimum": 1, "maximum": 12},
                    "note": {"type": "string", "maxLength": 20, "default": "by the window"}
                },
                "required": ["count"]
            }
        })
    );
}

#[test]
fn after_the_last_re_ask_the_answer_is_invalid_params() {
    let bad = || accept(json!({"count": 0}));
    let peer = FakePeer::new([accept(json!({"date": "2026-02-03"})), bad(), bad(), bad()]);
    let e = error(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        book,
    ));
    assert_eq!(e.code, -32602);
    assert_eq!(
        e.data,
        Some(
            json!({"key": "guests", "errors": [{"field": "count", "reason": "must be at least 1"}]})
        )
    );
    // The day, then the guests three times: asked, and asked again twice.
    let sent = peer.sent();
    assert_eq!(
        sent.len(),
        2 + usize::from(elicit_runtime::form::DEFAULT_MAX_REASKS)
    );
    assert_eq!(
        sent[3].1["message"],
        "How many guests on 2026-02-03?\n\nPlease correct and send again:\n- count must be at least 1"
    );
}

#[test]
fn a_question_that_opts_out_is_invalid_params_at_once_and_a_decline_is_final() {
    let peer = FakePeer::new([accept(json!({"count": 0}))]);
    let once = async |cx: &mut ElicitContext| Party::question().reasks(0).ask(cx).await;
    let e = error(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        once,
    ));
    assert_eq!(e.code, -32602);
    assert_eq!(peer.sent().len(), 1);

    let peer = FakePeer::new([
        accept(json!({"count": 0})),
        Ok(json!({"action": "decline"})),
    ]);
    let answer = complete(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        party,
    ));
    assert_eq!(answer, Answer::Declined);
    assert_eq!(peer.sent().len(), 2);
}
