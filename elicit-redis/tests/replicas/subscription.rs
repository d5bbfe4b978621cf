//! Held retries and the completion subscription: while it is live a held retry costs Redis
//! nothing (it does not look until its bell rings), and when it breaks no wake-up is lost.
//!
//! Runs a `redis-server` of its own: the test kills every subscriber on it, which would break
//! the other tests' subscriptions on a shared one.

use super::*;

/// `calls` of every command Redis ran, by name, but the ones a quiet subscriber and this
/// count itself send.
async fn looks(raw: &mut redis::aio::MultiplexedConnection) -> Vec<(String, u64)> {
    let mut counts = command_calls(raw).await;
    counts.retain(|(name, _)| !matches!(name.as_str(), "info" | "ping" | "client|kill"));
    counts
}

/// A retry held on replica A sends Redis no command while A's subscription is live (waiting
/// longer than the ten seconds between the looks held retries took before); then the
/// subscription is killed and the page records on replica B while A is not subscribed: the
/// retry is woken all the same (A rings every bell when the subscription breaks, and its
/// waiters poll until it is back), in the same call, long before its 60 s hold.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_held_retry_costs_redis_nothing_and_is_woken_across_a_broken_subscription() {
    let port = free_port();
    let child =
        spawn_redis(port).expect("`redis-server` on PATH (scripts/redis-server installs it)");
    let redis = Redis {
        url: format!("redis://127.0.0.1:{port}"),
        child: Some(child),
        cluster: None,
        _turn: None,
    };
    let ns = namespace("subscription");
    let a = tuned(&replica(&redis, &ns, Options::default()).await, |url| {
        url.with_hold(Duration::from_secs(60))
    });
    let b = replica(&redis, &ns, Options::default()).await;
    let mut raw = redis::Client::open(redis.url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let on_a = Caller::new(&a, Some(ALICE));
    let (handle, state) = start(&on_a).await;
    let params = on_a.retry(&state, Some(answer("accept")));
    let account = json!({"account": "octocat"});
    let person = async {
        while a.url_waits_held() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let before = looks(&mut raw).await;
        tokio::time::sleep(Duration::from_secs(11)).await;
        assert_eq!(
            looks(&mut raw).await,
            before,
            "a held retry looked at Redis while its subscription was live"
        );
        assert_eq!(a.url_waits_held(), 1, "still held");
        let killed: i64 = redis::cmd("CLIENT")
            .arg("KILL")
            .arg("TYPE")
            .arg("pubsub")
            .query_async(&mut raw)
            .await
            .unwrap();
        assert_eq!(killed, 2, "A's and B's subscribers");
        page_completes(&b, &handle, account.clone()).await;
    };
    let held = async {
        tokio::time::timeout(Duration::from_secs(40), on_a.call(&params, connect))
            .await
            .expect("woken by the page, not by the 60 s hold running out")
    };
    let (held, ()) = tokio::join!(held, person);
    assert_eq!(complete(held), completed(Some(account)));
}
