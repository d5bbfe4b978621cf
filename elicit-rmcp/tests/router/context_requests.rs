//! The context's own requests through `Elicit` (`sample`, `list_roots`, `retry_later`): they
//! fail with rmcp's error, so `?` works on them in a method, and the client gets exactly the
//! error an `ElicitContext` handler would give.

use rmcp::model::ElicitationAction;
use serde_json::json;

use super::expect::*;
use super::harness::{ERAS, Era, User, call, connect};
use super::servers::Wired;
use elicit_rmcp::Principal;

#[tokio::test]
async fn a_request_the_client_cannot_answer_fails_with_its_capability_error() {
    for era in ERAS {
        let user = User::always(ElicitationAction::Accept, None);
        let session = connect(Wired::new(Principal::anonymous()), era, user).await;
        let failed = session.client.call_tool(call("summarize", json!({}))).await;
        let expected = json!({
            "code": -32021,
            "message": "Server requires the roots capability for this request",
            "data": {"requiredCapabilities": {"roots": {}}}
        });
        assert_eq!(error_of(failed), expected, "{era:?}");
    }
}

#[tokio::test]
async fn retry_later_through_elicit_is_the_context_s_on_a_2025_connection() {
    let user = User::always(ElicitationAction::Accept, None);
    let session = connect(Wired::new(Principal::anonymous()), Era::Legacy, user).await;
    let failed = session.client.call_tool(call("poll_job", json!({}))).await;
    let expected = json!({
        "code": -32603,
        "message": "input required on a 2025-11-25 connection: questions go to the peer there",
        "data": null
    });
    assert_eq!(error_of(failed), expected);
}
