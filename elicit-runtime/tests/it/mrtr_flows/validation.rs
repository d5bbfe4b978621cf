//! Validation of accepted content, with re-asking off (`reask.rs` covers the default, which
//! asks again first): the error lists every field.

use super::*;

/// [`answer_once`] on a server that asks nothing again.
fn answer_once_strictly(response: Value) -> Result<Reply<Answer<Guests>>, JsonRpcError> {
    answer_once_on(&server().with_max_reasks(0), response)
}

#[test]
fn accepted_content_breaking_the_form_is_an_error_listing_every_field() {
    let error = fails(answer_once_strictly(
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
    let error = fails(answer_once_strictly(json!({"action": "accept"})));
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(json!({"key": "guests", "errors": [{"field": "count", "reason": "is required"}]}))
    );
}

#[test]
fn accepted_content_of_the_wrong_format_is_an_error() {
    let server = server().with_max_reasks(0);
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
