//! What Redis must promise: the guard refuses, at connect, a Redis that could forget a spent
//! state while keeping the epoch marker (eviction, persistence that restores an older copy, a
//! replica), and keeps its promise on the configurations it accepts. Each test runs its own
//! `redis-server` with the configuration under test; the hazards are shown happening with the
//! check switched off (`trusting_setup`).

use super::*;

/// A `redis-server` with `config`, on its own port and directory, restartable in place.
struct Configured {
    port: u16,
    url: String,
    dir: std::path::PathBuf,
    config: Vec<String>,
    child: Child,
}

impl Configured {
    fn start(config: &[&str]) -> Configured {
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("elicit-redis-setup-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config: Vec<String> = config.iter().map(|s| (*s).to_owned()).collect();
        let child = Self::spawn(port, &dir, &config);
        Configured {
            port,
            url: format!("redis://127.0.0.1:{port}"),
            dir,
            config,
            child,
        }
    }

    fn spawn(port: u16, dir: &std::path::Path, config: &[String]) -> Child {
        let dir = dir.to_string_lossy().into_owned();
        let all: Vec<&str> = ["--dir", dir.as_str()]
            .into_iter()
            .chain(config.iter().map(String::as_str))
            .collect();
        spawn_redis_with(port, &all)
            .expect("`redis-server` on PATH (scripts/redis-server installs it)")
    }

    /// Kills the server (SIGKILL: no clean shutdown, nothing written on the way out) and starts
    /// it again on the same port and directory, loading whatever it had on disk.
    fn crash_and_restart(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.child = Self::spawn(self.port, &self.dir, &self.config);
    }

    async fn command(&self, args: &[&str]) -> redis::RedisResult<redis::Value> {
        let client = redis::Client::open(self.url.as_str()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        let mut cmd = redis::cmd(args[0]);
        for arg in &args[1..] {
            cmd.arg(*arg);
        }
        cmd.query_async(&mut raw).await
    }
}

impl Drop for Configured {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const NO_PERSISTENCE: [&str; 4] = ["--save", "", "--appendonly", "no"];

/// A `redis-server` without persistence, with `maxmemory 4mb` and `policy`.
fn limited_to_4mb(policy: &str) -> Configured {
    Configured::start(
        &[
            &NO_PERSISTENCE[..],
            &["--maxmemory", "4mb", "--maxmemory-policy", policy],
        ]
        .concat(),
    )
}

/// Fills a Redis that evicts keys with expiring values until eviction took every spent state of
/// namespace `ns` (the epoch marker, which never expires, stays).
async fn evict_spent_states(redis: &Configured, ns: &str) {
    let replay_keys = format!("{{{ns}}}:elicit:replay:*");
    let filler = "x".repeat(64 * 1024);
    for n in 0..2_000 {
        redis
            .command(&["SET", &format!("{ns}:filler:{n}"), &filler, "EX", "86400"])
            .await
            .unwrap();
        if redis.command(&["KEYS", &replay_keys]).await.unwrap() == redis::Value::Array(vec![]) {
            break;
        }
    }
    assert_eq!(
        redis.command(&["KEYS", &replay_keys]).await.unwrap(),
        redis::Value::Array(vec![]),
        "eviction took the spent state's key"
    );
}

fn spent(id: u8) -> Redemption {
    let now = SystemTime::now();
    Redemption::new([id; 16], now, now + Duration::from_secs(600), now)
}

/// The key that remembers `state` as spent in namespace `ns`.
fn replay_key(ns: &str, state: &Redemption) -> String {
    let hex: String = state.id.iter().map(|b| format!("{b:02x}")).collect();
    format!("{{{ns}}}:elicit:replay:{hex}")
}

async fn refused(url: &str, ns: &str) -> String {
    let guard = RedisReplayGuard::connect(url, ns)
        .await
        .unwrap_err()
        .to_string();
    let store = RedisCompletionStore::connect(url, ns)
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(guard, store, "the store and the guard refuse alike");
    guard
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_redis_that_may_evict_is_refused_and_eviction_lets_a_spent_state_run_again() {
    let redis = limited_to_4mb("volatile-lru");
    let ns = namespace("evict");
    let why = refused(&redis.url, &ns).await;
    assert!(
        why.contains(
            "`maxmemory` is 4194304 bytes with `maxmemory-policy volatile-lru`, so Redis may evict"
        ),
        "{why}"
    );
    assert!(why.contains("`trusting_setup()` skips this check"), "{why}");

    // Why: with the check off, forced eviction removes the spent state's key and keeps the
    // marker, and the same state is redeemed a second time.
    let guard = RedisReplayGuard::connect(&redis.url, &ns).await;
    assert!(guard.is_err());
    let guard = RedisReplayGuard::new(&redis.url, &ns)
        .unwrap()
        .trusting_setup();
    let state = spent(1);
    guard.redeem(state).await.unwrap();
    evict_spent_states(&redis, &ns).await;
    assert!(
        guard.redeem(state).await.is_ok(),
        "the spent state ran again"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_full_redis_that_never_evicts_fails_closed() {
    let redis = limited_to_4mb("noeviction");
    let ns = namespace("full");
    let guard = RedisReplayGuard::connect(&redis.url, &ns)
        .await
        .expect("accepted");
    let state = spent(2);
    guard.redeem(state).await.unwrap();
    let filler = "x".repeat(64 * 1024);
    let mut full = false;
    for n in 0..2_000 {
        if redis
            .command(&["SET", &format!("{ns}:filler:{n}"), &filler])
            .await
            .is_err()
        {
            full = true;
            break;
        }
    }
    assert!(full, "Redis refused writes once full");
    // Nothing is evicted: the spent state is still remembered.
    assert_eq!(guard.redeem(state).await, Err(StateError::Replayed));
    // A new state is recorded (Redis lets a script's small write through) or refused, never
    // let through twice.
    let fresh = spent(3);
    let first = guard.redeem(fresh).await;
    let second = guard.redeem(fresh).await;
    assert!(
        matches!(
            (&first, &second),
            (Ok(()), Err(StateError::Replayed))
                | (Err(StateError::ReplayGuardUnavailable(_)), Err(_))
        ),
        "{first:?} then {second:?}"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn persistence_that_can_lose_the_last_writes_is_refused() {
    for (config, says) in [
        (
            vec![
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
            ],
            "fsynced `everysec`",
        ),
        (
            vec!["--appendonly", "yes", "--appendfsync", "no", "--save", ""],
            "fsynced `no`",
        ),
        (
            vec!["--appendonly", "no", "--save", "3600 1"],
            "RDB snapshots (`save 3600 1`)",
        ),
    ] {
        let redis = Configured::start(&config);
        let why = refused(&redis.url, &namespace("persist")).await;
        assert!(why.contains(says), "{config:?}: {why}");
    }
}

/// A lost write, simulated: a snapshot taken before the state was spent is what the Redis
/// comes back with. With the check off the spent state runs again; on the configuration the
/// check accepts for persistence (append-only file fsynced on every write), a crash right
/// after the redemption loses nothing and the state stays spent.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_crash_loses_no_spent_state_on_an_accepted_redis() {
    // The hazard: RDB snapshots (refused by the check), an older snapshot loaded after a crash.
    let mut snapshots = Configured::start(&["--appendonly", "no", "--save", "3600 1"]);
    let ns = namespace("snapshot");
    let guard = RedisReplayGuard::new(&snapshots.url, &ns)
        .unwrap()
        .trusting_setup();
    let warm = spent(4);
    guard.redeem(warm).await.unwrap();
    snapshots.command(&["SAVE"]).await.unwrap();
    let state = spent(5);
    guard.redeem(state).await.unwrap();
    snapshots.crash_and_restart();
    let after = RedisReplayGuard::new(&snapshots.url, &ns)
        .unwrap()
        .trusting_setup();
    assert_eq!(
        after.redeem(warm).await,
        Err(StateError::Replayed),
        "in the snapshot"
    );
    assert!(
        after.redeem(state).await.is_ok(),
        "lost with the last writes: it ran again"
    );

    // Accepted: every write fsynced before Redis answers.
    let mut always = Configured::start(&[
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
    ]);
    let ns = namespace("always");
    let guard = RedisReplayGuard::connect(&always.url, &ns)
        .await
        .expect("accepted");
    let state = spent(6);
    guard.redeem(state).await.unwrap();
    always.crash_and_restart();
    let after = RedisReplayGuard::connect(&always.url, &ns).await.unwrap();
    assert_eq!(
        after.redeem(state).await,
        Err(StateError::Replayed),
        "still spent after the crash"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_replica_is_refused_and_a_primary_waits_for_its_replicas() {
    let primary =
        Configured::start(&[&NO_PERSISTENCE[..], &["--repl-diskless-sync-delay", "0"]].concat());
    let replica = Configured::start(
        &[
            &NO_PERSISTENCE[..],
            &["--replicaof", "127.0.0.1", &primary.port.to_string()],
        ]
        .concat(),
    );
    let ns = namespace("replication");
    let why = refused(&replica.url, &ns).await;
    assert!(why.contains("reaches a `slave`, not the primary"), "{why}");
    // Wait until the replica streams (a write on the primary is acknowledged: a replica just
    // online acknowledges first up to a second later), then spend on the primary: the
    // redemption waits for the replica, which then holds the spent state too.
    let client = redis::Client::open(primary.url.as_str()).unwrap();
    let mut probe = client.get_multiplexed_async_connection().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let _: () = redis::cmd("SET")
            .arg("probe")
            .arg(1)
            .query_async(&mut probe)
            .await
            .unwrap();
        let acked: u64 = redis::cmd("WAIT")
            .arg(1)
            .arg(100)
            .query_async(&mut probe)
            .await
            .unwrap();
        if acked == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "the replica streams");
    }
    let guard = RedisReplayGuard::connect(&primary.url, &ns)
        .await
        .expect("the primary is accepted");
    let state = spent(7);
    guard.redeem(state).await.unwrap();
    let on_replica = replica
        .command(&["EXISTS", &replay_key(&ns, &state)])
        .await
        .unwrap();
    assert_eq!(
        on_replica,
        redis::Value::Int(1),
        "on the replica when the redemption returned"
    );
    // With the replica gone, a redemption cannot be confirmed: it fails closed.
    drop(replica);
    let verdict = guard.redeem(spent(8)).await;
    assert!(
        matches!(verdict, Err(StateError::ReplayGuardUnavailable(_))),
        "{verdict:?}"
    );
}

/// The hazard above, set live: Redis is accepted (a `maxmemory` with `noeviction`), then an
/// administrator switches it to `volatile-lru` while the servers are connected. From that
/// command on nothing is redeemed; once eviction took a spent state's key, the epoch ends, so
/// that state stays refused after the policy is set back, on this replica and on one connecting
/// afterwards. A state sealed after the new epoch's line works as always.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn an_eviction_policy_set_while_connected_fails_closed_and_what_it_evicted_stays_spent() {
    let redis = limited_to_4mb("noeviction");
    let ns = namespace("live-evict");
    let guard = RedisReplayGuard::connect(&redis.url, &ns)
        .await
        .expect("accepted");
    let state = spent(9);
    guard.redeem(state).await.unwrap();

    redis
        .command(&["CONFIG", "SET", "maxmemory-policy", "volatile-lru"])
        .await
        .unwrap();
    // The very next redemption, on the connection already open: refused, nothing recorded.
    let fresh = spent(10);
    match guard.redeem(fresh).await {
        Err(StateError::ReplayGuardUnavailable(why)) => assert_eq!(
            why,
            "this Redis may now evict the keys that remember spent states (a `maxmemory` is set \
             and `maxmemory-policy` is no longer `noeviction`): no requestState is redeemed \
             until it is set back; see elicit-redis's docs, \"What Redis must promise\""
        ),
        other => panic!("redeemed while Redis may evict: {other:?}"),
    }
    assert_eq!(
        redis
            .command(&["EXISTS", &replay_key(&ns, &fresh)])
            .await
            .unwrap(),
        redis::Value::Int(0),
        "nothing recorded"
    );

    // Eviction takes the spent state's key (and keeps the marker).
    evict_spent_states(&redis, &ns).await;
    assert_eq!(
        redis
            .command(&["EXISTS", &format!("{{{ns}}}:elicit:epoch")])
            .await
            .unwrap(),
        redis::Value::Int(1),
        "the marker is kept"
    );

    // Set back (with room to write): the evicted spent state is still refused, here and on a
    // replica connecting now.
    redis
        .command(&["CONFIG", "SET", "maxmemory-policy", "noeviction"])
        .await
        .unwrap();
    redis
        .command(&["CONFIG", "SET", "maxmemory", "256mb"])
        .await
        .unwrap();
    assert_eq!(guard.redeem(state).await, Err(StateError::ReplayMemoryLost));
    assert_eq!(guard.redeem(fresh).await, Err(StateError::ReplayMemoryLost));
    let other = RedisReplayGuard::connect(&redis.url, &ns).await.unwrap();
    assert_eq!(other.redeem(state).await, Err(StateError::ReplayMemoryLost));

    // A state sealed after the new epoch's line is redeemed once, as always.
    let later = SystemTime::now() + elicit_runtime::state::MAX_CLOCK_SKEW + Duration::from_secs(5);
    let after = Redemption::new([11; 16], later, later + Duration::from_secs(600), later);
    assert_eq!(guard.redeem(after).await, Ok(()));
    assert_eq!(other.redeem(after).await, Err(StateError::Replayed));
}

/// Persistence changed while connected: with the promises read again before every command
/// (`with_setup_recheck(Duration::ZERO)`), the store and the guard refuse from the first command
/// after `CONFIG SET appendfsync everysec`, and work again once it is set back.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn persistence_changed_while_connected_fails_closed_until_set_back() {
    let redis = Configured::start(&[
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
    ]);
    let ns = namespace("live-persist");
    let store = RedisCompletionStore::connect(&redis.url, &ns)
        .await
        .expect("accepted")
        .with_setup_recheck(Duration::ZERO);
    let guard = store.replay_guard();
    guard.redeem(spent(12)).await.unwrap();
    assert_eq!(store.lookup("flow").await.unwrap(), None);

    redis
        .command(&["CONFIG", "SET", "appendfsync", "everysec"])
        .await
        .unwrap();
    let verdict = guard.redeem(spent(13)).await;
    let Err(StateError::ReplayGuardUnavailable(why)) = &verdict else {
        panic!("redeemed on a Redis that may lose its last writes: {verdict:?}");
    };
    assert!(
        why.contains("the append-only file is fsynced `everysec`"),
        "{why}"
    );
    let why = store.lookup("flow").await.unwrap_err().to_string();
    assert!(why.contains("fsynced `everysec`"), "{why}");

    redis
        .command(&["CONFIG", "SET", "appendfsync", "always"])
        .await
        .unwrap();
    assert_eq!(guard.redeem(spent(13)).await, Ok(()));
    assert_eq!(guard.redeem(spent(13)).await, Err(StateError::Replayed));
}

/// A subscription that breaks rings every bell it handed out, with nothing recorded: records
/// published while it was down may be lost, so each held retry looks at the store again at
/// once (and polls until the subscription is back) instead of at its next periodic look.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_broken_subscription_rings_every_bell() {
    use elicit_runtime::url::CompletionStore;
    let redis = Configured::start(&NO_PERSISTENCE);
    let store = RedisCompletionStore::new(&redis.url, &namespace("broken-subscription"))
        .unwrap()
        .trusting_setup();
    assert!(store.listen().await, "subscribed");
    let bells = [store.watch("flow-1"), store.watch("flow-2")];
    let killed = redis
        .command(&["CLIENT", "KILL", "TYPE", "pubsub"])
        .await
        .unwrap();
    assert_eq!(killed, redis::Value::Int(1), "the store's one subscriber");
    for bell in bells {
        let bell = bell.expect("a bell once subscribed");
        tokio::time::timeout(Duration::from_secs(5), bell)
            .await
            .expect("rung when the subscription broke");
    }
}
