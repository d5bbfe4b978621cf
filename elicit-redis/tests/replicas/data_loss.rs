//! A Redis that loses its data (flushed, or restarted without persistence) must not reopen the
//! states it had seen spent: the namespace's epoch marker goes with the data, the replicas
//! notice, and every state sealed before the loss is refused.
//!
//! Each test runs its own `redis-server` (a flush or a restart would disturb the other tests'
//! namespaces on a shared one).

use super::*;
use elicit_runtime::state::MAX_CLOCK_SKEW;
use elicit_runtime::wire::InputRequiredResult;

/// A `redis-server` of this test's own, without persistence, that can be restarted on its port.
struct OwnRedis {
    port: u16,
    url: String,
    child: Child,
}

impl OwnRedis {
    fn start() -> OwnRedis {
        let port = free_port();
        OwnRedis {
            port,
            url: format!("redis://127.0.0.1:{port}"),
            child: Self::spawn(port),
        }
    }

    fn spawn(port: u16) -> Child {
        spawn_redis(port).expect("`redis-server` on PATH (scripts/redis-server installs it)")
    }

    /// Stops the server and starts a new one on the same port: it remembers nothing.
    fn restart(&mut self) {
        self.child.kill().expect("stop redis-server");
        self.child.wait().expect("redis-server stopped");
        self.child = Self::spawn(self.port);
    }

    async fn command(&self, args: &[&str]) -> redis::Value {
        let client = redis::Client::open(self.url.as_str()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        let mut cmd = redis::cmd(args[0]);
        for arg in &args[1..] {
            cmd.arg(*arg);
        }
        cmd.query_async(&mut raw).await.unwrap()
    }

    async fn marker(&self, ns: &str) -> String {
        match self
            .command(&["GET", &format!("{{{ns}}}:elicit:epoch")])
            .await
        {
            redis::Value::BulkString(bytes) => String::from_utf8(bytes).unwrap(),
            other => panic!("no epoch marker: {other:?}"),
        }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Alice's client on each of two replicas with the Redis replay guard on `redis`.
async fn alice_on_two_replicas(redis: &OwnRedis, ns: &str) -> (Caller, Caller) {
    let shared = Redis {
        url: redis.url.clone(),
        child: None,
        cluster: None,
        _turn: None,
    };
    let options = Options {
        replay_guard: true,
        ..Options::default()
    };
    let a = replica(&shared, ns, options).await;
    let b = replica(&shared, ns, options).await;
    (Caller::new(&a, Some(ALICE)), Caller::new(&b, Some(ALICE)))
}

/// A first round on `on_a`, its state used there (the accept) and refused on `on_b`: the
/// spent retry, and the round it led to.
async fn spend_once(on_a: &Caller, on_b: &Caller) -> (serde_json::Value, InputRequiredResult) {
    let (_, state) = start(on_a).await;
    let spent = on_a.retry(&state, Some(answer("accept")));
    let pending = input_required(on_a.call(&spent, connect).await);
    assert_invalid_state(&error(on_b.call(&spent, connect).await));
    (spent, pending)
}

/// Whole seconds since the Unix epoch of a marker's creation (`id:created_ms:lost`).
fn created_secs(marker: &str) -> u64 {
    let ms: u64 = marker.split(':').nth(1).unwrap().parse().unwrap();
    ms / 1000
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_state_spent_before_a_flushall_is_refused_after_it() {
    let redis = OwnRedis::start();
    let ns = namespace("flushall");
    let (on_a, on_b) = alice_on_two_replicas(&redis, &ns).await;

    let (spent, pending) = spend_once(&on_a, &on_b).await;
    let unspent = on_b.retry(&state_of(&pending), None);
    let before = redis.marker(&ns).await;
    assert!(before.ends_with(":0"), "a new namespace: {before}");

    // Redis forgets everything; the replicas keep running.
    assert_eq!(
        redis.command(&["FLUSHALL"]).await,
        redis::Value::Okay,
        "flushed"
    );

    // The state spent before the flush stays spent, on either replica; the unspent one from
    // before the flush is refused too (nothing can tell it from a spent one).
    assert_invalid_state(&error(on_b.call(&spent, connect).await));
    assert_invalid_state(&error(on_a.call(&spent, connect).await));
    assert_invalid_state(&error(on_a.call(&unspent, connect).await));
    let after = redis.marker(&ns).await;
    assert_ne!(after, before, "a new epoch");
    assert!(
        after.ends_with(":1"),
        "marked as written after a loss: {after}"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_state_spent_before_a_restart_without_persistence_is_refused_after_it() {
    let mut redis = OwnRedis::start();
    let ns = namespace("restart");
    let guard = RedisReplayGuard::connect(&redis.url, &ns)
        .await
        .expect("a guard");
    let now = SystemTime::now();
    let spent = Redemption::new([5; 16], now, now + Duration::from_secs(600), now);
    assert_eq!(guard.redeem(spent).await, Ok(()));
    assert_eq!(guard.redeem(spent).await, Err(StateError::Replayed));
    let before = redis.marker(&ns).await;

    redis.restart();

    // The guard's connection broke with the restart: the first redemption may only learn that
    // (and fail closed); the next one connects, reads the epoch and refuses.
    let mut verdict = guard.redeem(spent).await;
    if matches!(verdict, Err(StateError::ReplayGuardUnavailable(_))) {
        verdict = guard.redeem(spent).await;
    }
    assert_eq!(verdict, Err(StateError::ReplayMemoryLost));
    assert_eq!(
        verdict.unwrap_err().to_jsonrpc_error(),
        json!({
            "code": -32602,
            "message": "Invalid or expired requestState",
            "data": {"reason": "invalid_request_state"}
        })
    );
    let after = redis.marker(&ns).await;
    assert_ne!(after, before);
    assert!(
        after.ends_with(":1"),
        "marked as written after a loss: {after}"
    );
}

/// After a loss, states sealed before the new epoch (and within the clock skew after it, by a
/// replica whose clock may run ahead of Redis's) are refused by every replica alike, whether
/// it noticed the loss or started after it; states sealed later redeem once, as always.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn every_replica_draws_the_same_line_after_a_loss() {
    let redis = OwnRedis::start();
    let ns = namespace("line");
    let noticing = RedisReplayGuard::connect(&redis.url, &ns).await.unwrap();
    redis.command(&["FLUSHALL"]).await;
    let now = SystemTime::now();
    let probe = Redemption::new([1; 16], now, now + Duration::from_secs(600), now);
    assert_eq!(
        noticing.redeem(probe).await,
        Err(StateError::ReplayMemoryLost)
    );
    let marker = redis.marker(&ns).await;
    assert!(marker.ends_with(":1"), "{marker}");
    // A replica started after the loss reads the same marker.
    let newcomer = RedisReplayGuard::connect(&redis.url, &ns).await.unwrap();

    let line = UNIX_EPOCH + Duration::from_secs(created_secs(&marker)) + MAX_CLOCK_SKEW;
    let expires = now + Duration::from_secs(600);
    let sealed = |id: u8, at: SystemTime| Redemption::new([id; 16], at, expires, now);
    for guard in [&noticing, &newcomer] {
        assert_eq!(
            guard.redeem(sealed(2, line - Duration::from_secs(1))).await,
            Err(StateError::ReplayMemoryLost)
        );
    }
    assert_eq!(noticing.redeem(sealed(3, line)).await, Ok(()));
    assert_eq!(
        newcomer.redeem(sealed(3, line)).await,
        Err(StateError::Replayed)
    );
    assert_eq!(newcomer.redeem(sealed(4, line)).await, Ok(()));
}

/// A namespace seen for the first time is new, not lost: only states sealed before its marker
/// are refused, so a server's first minutes work.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_new_namespace_admits_states_sealed_after_its_marker() {
    let redis = OwnRedis::start();
    let ns = namespace("new");
    let (on_a, on_b) = alice_on_two_replicas(&redis, &ns).await;
    let (_, pending) = spend_once(&on_a, &on_b).await;
    assert_asked_again(&pending);

    let guard = RedisReplayGuard::connect(&redis.url, &ns).await.unwrap();
    let created = UNIX_EPOCH + Duration::from_secs(created_secs(&redis.marker(&ns).await));
    let expires = SystemTime::now() + Duration::from_secs(600);
    let before = Redemption::new([6; 16], created - Duration::from_secs(1), expires, created);
    assert_eq!(
        guard.redeem(before).await,
        Err(StateError::ReplayMemoryLost)
    );
    let at = Redemption::new([7; 16], created, expires, created);
    assert_eq!(guard.redeem(at).await, Ok(()));
}
