//! A pushed form question is bounded like a wait on a URL-mode page: within its user's share
//! of the wait pool, for at most the state lifetime, and ended by the client's cancellation.

use super::*;
use elicit_runtime::url::UrlSettings;
use std::time::Duration;

/// A 2025-11-25 client that never answers.
struct Silent;

impl LegacyPeer for Silent {
    fn request<'a>(&'a self, _: &'a InputRequest) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        Box::pin(std::future::pending())
    }
}

fn silent_call(
    server: &ElicitServer,
    principal: &str,
) -> impl Future<Output = Result<Reply<String>, JsonRpcError>> + use<> {
    let params = params();
    let mut cx = server
        .context("tools/call", &params)
        .principal(principal)
        .legacy(caps(json!({"elicitation": {}})), Some(Arc::new(Silent)))
        .build()
        .unwrap();
    async move {
        let result = book(&mut cx).await;
        cx.respond(result).await
    }
}

#[tokio::test]
async fn a_question_nobody_answers_ends_after_the_state_lifetime() {
    let server = ElicitServer::new(
        StateSealer::new(KeyRing::new(1, [3; 32]), "legacy-server")
            .with_ttl(Duration::from_secs(1)),
    );
    let e = error(silent_call(&server, "alice").await);
    assert_eq!(e.code, -32603);
    assert_eq!(
        e.message,
        "the client did not answer the elicitation within 1 s"
    );
    assert_eq!(e.data, Some(json!({"reason": "timeout"})));
}

#[tokio::test]
async fn one_user_waiting_on_many_questions_is_busy_past_their_share_not_everyone() {
    let server = server().with_url(
        UrlSettings::default()
            .with_max_waits(16)
            .with_max_waits_per_user(2),
    );
    let held: Vec<_> = (0..2)
        .map(|_| tokio::spawn(silent_call(&server, "alice")))
        .collect();
    tokio::task::yield_now().await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let e = error(silent_call(&server, "alice").await);
    assert_eq!(e.code, -32603);
    assert_eq!(e.data, Some(json!({"reason": "busy"})));
    // Bob's question still goes out (and waits: his client is silent too).
    let bob = tokio::spawn(silent_call(&server, "bob"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!bob.is_finished(), "bob's question is waiting, not refused");
    // A wait ends with its call: alice's share comes back.
    for call in held {
        call.abort();
        let _ = call.await;
    }
    let again = tokio::spawn(silent_call(&server, "alice"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!again.is_finished(), "alice may wait again");
    again.abort();
    bob.abort();
}

#[tokio::test]
async fn a_full_pool_lets_a_new_user_in_by_ending_the_busiest_users_oldest_wait() {
    // Mallory's silent clients fill the whole pool (as 32 accounts x 8 waits filled 256).
    let server = server().with_url(
        UrlSettings::default()
            .with_max_waits(4)
            .with_max_waits_per_user(4),
    );
    let mut mallory = Vec::new();
    for _ in 0..4 {
        mallory.push(tokio::spawn(silent_call(&server, "mallory")));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Alice is not refused for a whole state lifetime: she takes mallory's oldest wait.
    let alice = tokio::spawn(silent_call(&server, "alice"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!alice.is_finished(), "alice's question is out and waiting");
    let oldest = mallory.remove(0).await.unwrap();
    let e = error(oldest);
    assert_eq!(e.code, -32603);
    assert_eq!(e.data, Some(json!({"reason": "busy"})));
    assert!(
        mallory.iter().all(|call| !call.is_finished()),
        "only the oldest ended"
    );
    for call in mallory {
        call.abort();
    }
    alice.abort();
}
