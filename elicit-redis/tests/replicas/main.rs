//! URL mode across server replicas: two independent `ElicitServer`s sharing
//! one key ring and one Redis, so the landing page, the client's retry and a replayed
//! `requestState` may each reach a different replica.
//!
//! Uses the Redis at `ELICIT_REDIS_URL` (e.g. `ELICIT_REDIS_URL=$(scripts/redis-server)`);
//! without it each test starts its own `redis-server` on a free loopback port and kills it at
//! the end. Every test works in a namespace of its own. They are ignored by a plain
//! `cargo test` (a machine without Redis stays green); `./scripts/test` runs them against a
//! real `redis-server` it installs.
//!
//! The promises the stores make are tested twice (`single::…` and `cluster::…`): on one Redis
//! and on a Redis Cluster of three primaries, each with a replica, at
//! `ELICIT_REDIS_CLUSTER_URLS` (comma-separated; `scripts/redis-cluster` starts one and prints
//! them; without it the first cluster test runs that script).

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[path = "../../../elicit-runtime/tests/it/common_url/mod.rs"]
mod common_url;

use common_url::*;
use elicit_redis::{RedisCompletionStore, RedisReplayGuard};
use elicit_runtime::state::{KeyRing, Redemption, ReplayGuard, StateError, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, PageError, UrlSettings,
};
use elicit_runtime::wire::JsonRpcError;
use elicit_runtime::{ElicitServer, ElicitUrl, Interrupt};
use serde_json::json;

/// A Redis for one test: the one in `ELICIT_REDIS_URL`, or a `redis-server` of its own; or
/// a Redis Cluster ([`Redis::cluster`]).
struct Redis {
    url: String,
    child: Option<Child>,
    /// The cluster's nodes, when this is one.
    cluster: Option<Vec<String>>,
    /// Held while the test runs: shared by the tests that leave the cluster as it is, alone by
    /// those that change it (fail a primary over, change a setting).
    _turn: Option<Turn>,
}

#[allow(dead_code, reason = "held for its drop")]
enum Turn {
    Shared(std::sync::RwLockReadGuard<'static, ()>),
    Alone(std::sync::RwLockWriteGuard<'static, ()>),
}

/// Tests that change the cluster wait for the others to finish, and the others for them.
static CLUSTER_TURNS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Runs each named test body (`async fn name(redis: Redis)`) on one Redis (`single::name`) and
/// on a Redis Cluster (`cluster::name`).
macro_rules! on_one_redis_and_a_cluster {
    ($($name:ident),+ $(,)?) => {
        mod single {
            $(
                #[tokio::test]
                #[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
                async fn $name() {
                    super::$name(super::Redis::start()).await
                }
            )+
        }
        mod cluster {
            $(
                #[tokio::test]
                #[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
                async fn $name() {
                    super::$name(super::Redis::cluster()).await
                }
            )+
        }
    };
}

on_one_redis_and_a_cluster!(
    the_page_on_one_replica_completes_the_retry_on_the_other,
    a_retry_held_on_one_replica_is_woken_by_the_page_on_the_other,
    a_record_on_another_replica_rings_the_bell_here,
    the_link_for_a_form_only_client_completes_across_replicas_once,
    a_single_use_completion_is_redeemed_once_across_replicas,
    a_request_state_used_on_one_replica_is_refused_on_the_other,
    entries_expire_in_redis,
    the_other_replica_refuses_tampered_foreign_and_other_users_handles,
    keys_outlive_their_token_by_the_clock_skew_margin,
    scripts_a_redis_forgot_run_again_from_their_text,
);

impl Redis {
    /// The Redis Cluster at `ELICIT_REDIS_CLUSTER_URLS`, or the one `scripts/redis-cluster`
    /// starts (and leaves running for the next test), shared with the other tests.
    fn cluster() -> Redis {
        Self::cluster_turn(Turn::Shared(
            CLUSTER_TURNS
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        ))
    }

    /// The cluster, with no other test using it until this one ends.
    fn cluster_alone() -> Redis {
        Self::cluster_turn(Turn::Alone(
            CLUSTER_TURNS
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        ))
    }

    fn cluster_turn(turn: Turn) -> Redis {
        static URLS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let urls = URLS.get_or_init(|| {
            let listed = match std::env::var("ELICIT_REDIS_CLUSTER_URLS") {
                Ok(urls) if !urls.trim().is_empty() => urls,
                _ => {
                    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/redis-cluster");
                    let out = Command::new(script)
                        .stderr(Stdio::inherit())
                        .output()
                        .expect("run scripts/redis-cluster");
                    assert!(out.status.success(), "scripts/redis-cluster failed");
                    String::from_utf8(out.stdout).unwrap()
                }
            };
            listed.trim().split(',').map(str::to_owned).collect()
        });
        Redis {
            url: urls[0].clone(),
            child: None,
            cluster: Some(urls.clone()),
            _turn: Some(turn),
        }
    }

    /// A store in `ns` that connects on first use.
    fn store(&self, ns: &str) -> RedisCompletionStore {
        match &self.cluster {
            Some(urls) => RedisCompletionStore::new_cluster(&refs(urls), ns),
            None => RedisCompletionStore::new(&self.url, ns),
        }
        .expect("a store")
    }

    /// A store in `ns`, connected and subscribed.
    async fn connect_store(&self, ns: &str) -> RedisCompletionStore {
        match &self.cluster {
            Some(urls) => RedisCompletionStore::connect_cluster(&refs(urls), ns).await,
            None => RedisCompletionStore::connect(&self.url, ns).await,
        }
        .expect("connect to Redis")
    }

    /// A replay guard in `ns` (its own connection, as another process has).
    fn guard(&self, ns: &str) -> RedisReplayGuard {
        match &self.cluster {
            Some(urls) => RedisReplayGuard::new_cluster(&refs(urls), ns),
            None => RedisReplayGuard::new(&self.url, ns),
        }
        .expect("a replay guard")
    }

    /// A raw connection to each primary (one Redis: to it).
    async fn primaries(&self) -> Vec<(String, redis::aio::MultiplexedConnection)> {
        let nodes = match &self.cluster {
            Some(urls) => urls.clone(),
            None => vec![self.url.clone()],
        };
        let mut primaries = Vec::new();
        for node in nodes {
            let client = redis::Client::open(node.as_str()).unwrap();
            let mut raw = client.get_multiplexed_async_connection().await.unwrap();
            let role: Vec<redis::Value> = redis::cmd("ROLE").query_async(&mut raw).await.unwrap();
            if role.first() == Some(&redis::Value::BulkString(b"master".to_vec())) {
                primaries.push((node, raw));
            }
        }
        primaries
    }

    /// Every key of `ns` with its `PTTL`, sorted (on a cluster, from every primary).
    async fn keys_with_ttl(&self, ns: &str) -> Vec<(String, i64)> {
        let pattern = format!("{{{ns}}}:*");
        let mut found = Vec::new();
        for (_, mut raw) in self.primaries().await {
            let keys: Vec<String> = redis::cmd("KEYS")
                .arg(&pattern)
                .query_async(&mut raw)
                .await
                .unwrap();
            for key in keys {
                let ttl: i64 = redis::cmd("PTTL")
                    .arg(&key)
                    .query_async(&mut raw)
                    .await
                    .unwrap();
                found.push((key, ttl));
            }
        }
        found.sort();
        found
    }

    fn start() -> Redis {
        if let Ok(url) = std::env::var("ELICIT_REDIS_URL")
            && !url.trim().is_empty()
        {
            return Redis {
                url: url.trim().to_owned(),
                child: None,
                cluster: None,
                _turn: None,
            };
        }
        let port = free_port();
        let child = spawn_redis(port).unwrap_or_else(|e| {
            panic!(
                "ELICIT_REDIS_URL is not set and `redis-server` cannot be started ({e}). \
                 Install it (`scripts/redis-server` does) or run \
                 `ELICIT_REDIS_URL=$(scripts/redis-server) cargo test -p elicit-redis`"
            )
        });
        Redis {
            url: format!("redis://127.0.0.1:{port}"),
            child: Some(child),
            cluster: None,
            _turn: None,
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The URLs as `&str`s.
fn refs(urls: &[String]) -> Vec<&str> {
    urls.iter().map(String::as_str).collect()
}

/// A free loopback port.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A `redis-server` on `port` that keeps nothing on disk, answering `PING` when this returns.
fn spawn_redis(port: u16) -> std::io::Result<Child> {
    spawn_redis_with(port, &["--save", "", "--appendonly", "no"])
}

/// A `redis-server` on `port` with `config` (command-line options), answering `PING` when
/// this returns.
fn spawn_redis_with<S: AsRef<std::ffi::OsStr>>(port: u16, config: &[S]) -> std::io::Result<Child> {
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ping(port) {
        assert!(
            Instant::now() < deadline,
            "redis-server on port {port} did not answer PING"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(child)
}

/// Whether a Redis on `port` answers `PING`.
fn ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}

/// A namespace no other test (or earlier run) uses.
fn namespace(test: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "elicit-test:{test}:{}:{nanos}:{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// How a replica is configured.
#[derive(Clone, Copy, Default)]
struct Options {
    single_use: bool,
    replay_guard: bool,
}

/// One replica: its own sealer (the shared key ring, built again), its own Redis connections.
async fn replica(redis: &Redis, ns: &str, options: Options) -> ElicitServer {
    let store = redis.connect_store(ns).await;
    let mut sealer = StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server");
    if options.replay_guard {
        // On the store's connection.
        sealer = sealer.with_replay_guard(Arc::new(store.replay_guard()));
    } else {
        // Without the default in-process guard, so the layers behind it (single-use
        // completions) are what refuses a replay.
        sealer = sealer.without_replay_guard();
    }
    // A short hold: these flows' pages finish after the retry, or never.
    let mut url = UrlSettings::new(Arc::new(store)).with_hold(Duration::from_millis(300));
    if !options.single_use {
        url = url.with_reusable_completions();
    }
    ElicitServer::new(sealer).with_url(url)
}

/// Round 1 on `server` as alice: the handle and the state to retry with.
async fn start(caller: &Caller) -> (String, String) {
    let ask = input_required(caller.call(&caller.first(), connect).await);
    (handle_of(&url_request(&ask)), state_of(&ask))
}

/// Alice finishes on `server`'s landing page for `handle`, with `result`.
async fn page_completes(server: &ElicitServer, handle: &str, result: serde_json::Value) {
    let page = LandingPage::new(server);
    let opened = page.open::<ConnectGithub>(handle, ALICE).await.unwrap();
    page.complete(&opened, Some(result)).await.unwrap();
}

fn completed(result: Option<serde_json::Value>) -> elicit_runtime::UrlAnswer<ConnectGithub> {
    elicit_runtime::UrlAnswer::Completed {
        state: bound(),
        result,
    }
}

async fn the_page_on_one_replica_completes_the_retry_on_the_other(redis: Redis) {
    let ns = namespace("cross");
    let a = replica(&redis, &ns, Options::default()).await;
    let b = replica(&redis, &ns, Options::default()).await;
    let on_a = Caller::new(&a, Some(ALICE));
    let on_b = Caller::new(&b, Some(ALICE));

    let (handle, state) = start(&on_a).await;
    // Accepted, page not finished yet: held, then the question again, on either replica.
    let params = on_a.retry(&state, Some(answer("accept")));
    let pending = input_required(on_a.call(&params, connect).await);
    assert_asked_again(&pending);

    let page_b = LandingPage::new(&b);
    let opened = page_b.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    assert_eq!(opened.state, bound());
    let account = json!({"account": "octocat"});
    page_b
        .complete(&opened, Some(account.clone()))
        .await
        .unwrap();

    let params = on_a.retry(&state_of(&pending), Some(answer("accept")));
    assert_eq!(
        complete(on_a.call(&params, connect).await),
        completed(Some(account.clone()))
    );
    // Without single use, the other replica reads the same completion.
    assert_eq!(
        complete(on_b.call(&params, connect).await),
        completed(Some(account))
    );
}

/// A retry held on replica A is answered when the page records on replica B: B publishes the
/// record, A's subscriber wakes it (well before A's 30 s hold), and the flow completes in the
/// same call, not after another round.
async fn a_retry_held_on_one_replica_is_woken_by_the_page_on_the_other(redis: Redis) {
    let ns = namespace("held");
    let a = tuned(&replica(&redis, &ns, Options::default()).await, |url| {
        url.with_hold(Duration::from_secs(30))
    });
    let b = replica(&redis, &ns, Options::default()).await;
    let on_a = Caller::new(&a, Some(ALICE));
    let (handle, state) = start(&on_a).await;
    let params = on_a.retry(&state, Some(answer("accept")));
    let account = json!({"account": "octocat"});
    let person = async {
        // The person finishes on the page a little after the retry is held.
        tokio::time::sleep(Duration::from_millis(300)).await;
        page_completes(&b, &handle, account.clone()).await;
    };
    let started = Instant::now();
    let (held, ()) = tokio::join!(on_a.call(&params, connect), person);
    assert_eq!(complete(held), completed(Some(account.clone())));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "answered by the hold running out, not by the page"
    );
}

/// The store's bells ring across replicas: a record made through another store (its own
/// connections, as another process has) wakes a bell handed out here. Bells are handed out
/// only once subscribed; a store outside any runtime hands out none and its waiters poll.
async fn a_record_on_another_replica_rings_the_bell_here(redis: Redis) {
    use elicit_runtime::url::{Completion, CompletionStore};
    let ns = namespace("bells");
    let here = redis.store(&ns);
    assert!(here.listen().await, "subscribed");
    let there = redis.connect_store(&ns).await;
    let bell = here.watch("flow-1").expect("a bell once subscribed");
    let other = here.watch("flow-2").expect("a bell once subscribed");
    let until = SystemTime::now() + Duration::from_secs(60);
    assert!(
        there
            .record(
                "flow-1",
                Completion::Failed {
                    reason: "no".into()
                },
                until
            )
            .await
            .unwrap()
    );
    tokio::time::timeout(Duration::from_secs(5), bell)
        .await
        .expect("flow-1's bell rang");
    // Another flow's bell is not rung by it.
    assert!(
        tokio::time::timeout(Duration::from_millis(200), other)
            .await
            .is_err()
    );
}

/// The link fallback across replicas: replica A gives a form-only client the link, the page on
/// replica B records the completion, and the identical call on replica C (or A) finds it once.
async fn the_link_for_a_form_only_client_completes_across_replicas_once(redis: Redis) {
    let ns = namespace("or-link");
    let linking = |server: ElicitServer| tuned(&server, UrlSettings::with_link_fallback);
    let [a, b, c] = [
        linking(replica(&redis, &ns, Options::default()).await),
        linking(replica(&redis, &ns, Options::default()).await),
        linking(replica(&redis, &ns, Options::default()).await),
    ];
    let forms_only = |server: &ElicitServer| {
        Caller::with_capabilities(server, Some(ALICE), Some(json!({"elicitation": {}})))
    };
    let or_link = async |cx: &mut elicit_runtime::ElicitContext| bound().ask(cx).await;
    let link = match forms_only(&a).call(&forms_only(&a).first(), or_link).await {
        Ok(elicit_runtime::Reply::Link(link)) => link,
        other => panic!("expected the link, got {other:?}"),
    };
    let page_b = LandingPage::new(&b);
    let opened = page_b
        .open::<ConnectGithub>(&handle_of(&link.url), ALICE)
        .await
        .unwrap();
    page_b.complete(&opened, None).await.unwrap();
    let on_c = forms_only(&c);
    assert_eq!(
        complete(on_c.call(&on_c.first(), or_link).await),
        completed(None)
    );
    // Single use across replicas: replica A now hands out a new link.
    let on_a = forms_only(&a);
    match on_a.call(&on_a.first(), or_link).await {
        Ok(elicit_runtime::Reply::Link(again)) => assert_ne!(again.url, link.url),
        other => panic!("expected a new link, got {other:?}"),
    }
}

async fn a_single_use_completion_is_redeemed_once_across_replicas(redis: Redis) {
    let ns = namespace("single-use");
    let options = Options {
        single_use: true,
        ..Options::default()
    };
    let a = replica(&redis, &ns, options).await;
    let b = replica(&redis, &ns, options).await;
    let on_a = Caller::new(&a, Some(ALICE));
    let on_b = Caller::new(&b, Some(ALICE));

    let (handle, state) = start(&on_a).await;
    let page_b = LandingPage::new(&b);
    let opened = page_b.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    page_b.complete(&opened, None).await.unwrap();

    let params = on_a.retry(&state, Some(answer("accept")));
    assert_eq!(complete(on_a.call(&params, connect).await), completed(None));
    // The same retry reaching replica B: refused.
    let replay = error(on_b.call(&params, connect).await);
    assert_already_redeemed(&replay);
    // And on A again.
    assert_already_redeemed(&error(on_a.call(&params, connect).await));
    assert_eq!(
        page_b
            .open::<ConnectGithub>(&handle, ALICE)
            .await
            .unwrap_err(),
        PageError::AlreadyRecorded
    );

    // A fresh call (started on B, finished by A's page) still works.
    let (handle, state) = start(&on_b).await;
    let page_a = LandingPage::new(&a);
    let opened = page_a.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    page_a.complete(&opened, Some(json!(2))).await.unwrap();
    let params = on_b.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(on_b.call(&params, connect).await),
        completed(Some(json!(2)))
    );
}

async fn a_request_state_used_on_one_replica_is_refused_on_the_other(redis: Redis) {
    let ns = namespace("replay");
    let options = Options {
        replay_guard: true,
        ..Options::default()
    };
    let a = replica(&redis, &ns, options).await;
    let b = replica(&redis, &ns, options).await;
    let on_a = Caller::new(&a, Some(ALICE));
    let on_b = Caller::new(&b, Some(ALICE));

    let (handle, state) = start(&on_a).await;
    let params = on_a.retry(&state, Some(answer("accept")));
    let pending = input_required(on_a.call(&params, connect).await);
    assert_asked_again(&pending);
    // The same requestState again, on the other replica: the uniform refusal.
    assert_invalid_state(&error(on_b.call(&params, connect).await));

    let page_b = LandingPage::new(&b);
    let opened = page_b.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    page_b.complete(&opened, None).await.unwrap();
    // The fresh state from the last round is good once, wherever it lands.
    let params = on_b.retry(&state_of(&pending), Some(answer("accept")));
    assert_eq!(complete(on_b.call(&params, connect).await), completed(None));
    assert_invalid_state(&error(on_a.call(&params, connect).await));
}

async fn entries_expire_in_redis(redis: Redis) {
    let ns = namespace("expiry");
    let store = redis.connect_store(&ns).await;
    let guard = redis.guard(&ns);
    let now = SystemTime::now();
    // Keys live twice the clock skew past the token's expiry (see
    // `keys_outlive_their_token_by_the_clock_skew_margin`): a token that expired that long ago,
    // less one second, leaves keys that Redis drops in a second.
    let margin = 2 * elicit_runtime::state::MAX_CLOCK_SKEW;
    let soon = now + Duration::from_secs(1) - margin;
    let done = Completion::Completed {
        result: Some(json!({"account": "octocat"})),
    };

    assert!(store.record("flow-1", done.clone(), soon).await.unwrap());
    // The first record wins.
    let failed = Completion::Failed {
        reason: "late".into(),
    };
    assert!(!store.record("flow-1", failed, soon).await.unwrap());
    assert_eq!(store.lookup("flow-1").await.unwrap(), Some(done.clone()));
    // Redeeming an unknown flow creates nothing.
    assert_eq!(store.redeem("flow-2", soon).await.unwrap(), None);
    assert_eq!(store.lookup("flow-2").await.unwrap(), None);
    // The guard: once, then replayed.
    let state = Redemption::new([9; 16], now, soon, now);
    assert_eq!(guard.redeem(state).await, Ok(()));
    assert_eq!(guard.redeem(state).await, Err(StateError::Replayed));

    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(store.lookup("flow-1").await.unwrap(), None);
    assert_eq!(store.redeem("flow-1", soon).await.unwrap(), None);
    assert!(
        store
            .record("flow-1", done, SystemTime::now() + Duration::from_secs(60))
            .await
            .unwrap()
    );
    assert_eq!(
        guard
            .redeem(Redemption::new(
                [9; 16],
                now,
                SystemTime::now() + Duration::from_secs(1),
                SystemTime::now()
            ))
            .await,
        Ok(())
    );
}

async fn the_other_replica_refuses_tampered_foreign_and_other_users_handles(redis: Redis) {
    let ns = namespace("refusals");
    let a = replica(&redis, &ns, Options::default()).await;
    let b = replica(&redis, &ns, Options::default()).await;
    let on_a = Caller::new(&a, Some(ALICE));
    let (handle, state) = start(&on_a).await;
    let page_b = LandingPage::new(&b);

    assert!(matches!(
        page_b.open::<ConnectGithub>(&tamper(&handle), ALICE).await,
        Err(PageError::Invalid(_))
    ));
    assert_eq!(
        page_b
            .open::<ConnectGithub>(&handle, MALLORY)
            .await
            .unwrap_err(),
        PageError::WrongSubject
    );
    // A server with other keys on the same Redis and namespace.
    let store = redis.connect_store(&ns).await;
    let foreign = ElicitServer::new(StateSealer::new(KeyRing::new(1, [8; 32]), "issues-server"))
        .with_url(UrlSettings::new(Arc::new(store)));
    assert!(matches!(
        LandingPage::new(&foreign)
            .open::<ConnectGithub>(&handle, ALICE)
            .await,
        Err(PageError::Invalid(_))
    ));

    // Two tabs on two replicas: the first record wins, the second is refused.
    let opened_b = page_b.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    let page_a = LandingPage::new(&a);
    let opened_a = page_a.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    page_a
        .complete(&opened_a, Some(json!("from a")))
        .await
        .unwrap();
    assert_eq!(
        page_b.fail(&opened_b, "from b").await.unwrap_err(),
        PageError::AlreadyRecorded
    );
    assert_eq!(
        page_b
            .open::<ConnectGithub>(&handle, ALICE)
            .await
            .unwrap_err(),
        PageError::AlreadyRecorded
    );
    let on_b = Caller::new(&b, Some(ALICE));
    let params = on_b.retry(&state, Some(answer("accept")));
    assert_eq!(
        complete(on_b.call(&params, connect).await),
        completed(Some(json!("from a")))
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn an_unreachable_redis_is_a_clear_error_and_fails_closed() {
    // Nothing listens on a port we just released.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let url = format!("redis://127.0.0.1:{port}");
    let e = RedisCompletionStore::connect(&url, "down")
        .await
        .unwrap_err();
    assert!(e.to_string().starts_with("completion store:"), "{e}");

    // A replay guard that cannot reach Redis lets no requestState through (fails closed),
    // telling the client to retry rather than that its state was bad.
    let redis = Redis::start();
    let ns = namespace("down");
    let store = RedisCompletionStore::connect(&redis.url, &ns)
        .await
        .unwrap();
    let guard = RedisReplayGuard::new(&url, &ns).unwrap();
    assert!(matches!(
        guard
            .redeem(Redemption::new(
                [1; 16],
                SystemTime::now(),
                SystemTime::now() + Duration::from_secs(5),
                SystemTime::now()
            ))
            .await,
        Err(StateError::ReplayGuardUnavailable(_))
    ));
    let server = ElicitServer::new(
        StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
            .with_replay_guard(Arc::new(guard)),
    )
    .with_url(UrlSettings::new(Arc::new(store)));
    let caller = Caller::new(&server, Some(ALICE));
    let (_, state) = start(&caller).await;
    let params = caller.retry(&state, Some(answer("accept")));
    assert_store_unavailable(&error(caller.call(&params, connect).await));
}

/// Redis expires keys by its own clock, tokens expire by each replica's, and a replica accepts
/// a token up to `MAX_CLOCK_SKEW` off: completion, redemption and replay keys must outlive the
/// token by at least that, or a skewed Redis reopens a window for replays.
async fn keys_outlive_their_token_by_the_clock_skew_margin(redis: Redis) {
    let ns = namespace("skew");
    let store = redis.connect_store(&ns).await;
    let expires_at = SystemTime::now() + Duration::from_secs(1);
    let done = Completion::Completed { result: None };
    assert!(
        store
            .record("recorded", done.clone(), expires_at)
            .await
            .unwrap()
    );
    assert!(
        store
            .record("redeemed", done.clone(), expires_at)
            .await
            .unwrap()
    );
    // Redeeming rewrites the entry as a tombstone, with its own expiry.
    assert_eq!(
        store.redeem("redeemed", expires_at).await.unwrap(),
        Some(done)
    );
    let guard = redis.guard(&ns);
    guard
        .redeem(Redemption::new(
            [9; 16],
            SystemTime::now(),
            expires_at,
            SystemTime::now(),
        ))
        .await
        .expect("a first redemption");

    let mut keys = redis.keys_with_ttl(&ns).await;
    // The epoch marker never expires: its loss is how a lost Redis is noticed. Nor does the
    // evicted-keys count the epoch began with, which lives as long as the marker. Every key
    // carries the namespace as its hash tag (on a cluster: one slot).
    let epoch = format!("{{{ns}}}:elicit:epoch");
    let evictions = format!("{{{ns}}}:elicit:evictions");
    for key in [&epoch, &evictions] {
        assert!(
            keys.contains(&(key.clone(), -1)),
            "{key} has no expiry: {keys:?}"
        );
    }
    keys.retain(|(key, _)| *key != epoch && *key != evictions);
    assert_eq!(
        keys.len(),
        3,
        "recorded, redeemed and the replay key: {keys:?}"
    );
    let skew = elicit_runtime::state::MAX_CLOCK_SKEW.as_millis() as i64;
    for (key, ttl) in keys {
        assert!(
            ttl > skew,
            "{key} expires in {ttl} ms, within the clock skew of a token expiring in 1 s"
        );
    }
}

/// The scripts run by hash (`EVALSHA`); a Redis that forgot them (`SCRIPT FLUSH`, a restart,
/// a new primary after a failover: each node has its own cache) is sent their text once more,
/// and every promise holds: a state is redeemed once, the first record wins, and its one
/// message wakes the retry held on the other replica.
async fn scripts_a_redis_forgot_run_again_from_their_text(redis: Redis) {
    use elicit_runtime::url::{Completion, CompletionStore};
    let ns = namespace("scripts");
    let here = redis.store(&ns);
    assert!(here.listen().await, "subscribed");
    let there = redis.connect_store(&ns).await;
    let guard = there.replay_guard();
    let state = |id: u8| {
        let now = SystemTime::now();
        Redemption::new([id; 16], now, now + Duration::from_secs(600), now)
    };
    let until = SystemTime::now() + Duration::from_secs(60);
    let failed = || Completion::Failed {
        reason: "no".into(),
    };
    // Both scripts known to Redis now.
    guard.redeem(state(1)).await.unwrap();
    assert!(there.record("flow-0", failed(), until).await.unwrap());

    let nodes = match &redis.cluster {
        Some(urls) => urls.clone(),
        None => vec![redis.url.clone()],
    };
    for node in &nodes {
        let client = redis::Client::open(node.as_str()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        let flushed: String = redis::cmd("SCRIPT")
            .arg("FLUSH")
            .query_async(&mut raw)
            .await
            .unwrap();
        assert_eq!(flushed, "OK");
    }

    guard.redeem(state(2)).await.unwrap();
    assert!(matches!(
        guard.redeem(state(2)).await,
        Err(StateError::Replayed)
    ));
    let bell = here.watch("flow-1").expect("a bell once subscribed");
    assert!(there.record("flow-1", failed(), until).await.unwrap());
    tokio::time::timeout(Duration::from_secs(5), bell)
        .await
        .expect("flow-1's bell rang");
    assert!(
        !there
            .record("flow-1", Completion::Completed { result: None }, until)
            .await
            .unwrap()
    );
    assert_eq!(here.lookup("flow-1").await.unwrap(), Some(failed()));
}

/// What a client gets while the replay guard's Redis does not answer: not the refusal of its
/// state (the state passed every check) but an error that says to retry.
#[track_caller]
fn assert_store_unavailable(e: &JsonRpcError) {
    assert_eq!(
        serde_json::to_value(e).unwrap(),
        json!({
            "code": -32603,
            "message": "The requestState could not be checked right now; retry the request",
            "data": {"reason": "state_store_unavailable"}
        })
    );
}

/// A burst on one connection: 1,000 lookups at once all answer (at most 128 are in flight; the
/// others wait their turn), and when the setup reading falls due during it, one command reads
/// it again (two `CONFIG GET`s), not each command in flight.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_burst_on_one_connection_all_answers_and_reads_the_setup_once() {
    let redis = Redis::start();
    let ns = namespace("burst");
    let store = redis
        .connect_store(&ns)
        .await
        .with_setup_recheck(Duration::from_millis(20));
    assert_eq!(store.lookup("warm-up").await.unwrap(), None);
    let before = config_calls(&redis.url).await;
    tokio::time::sleep(Duration::from_millis(30)).await;
    let lookups = (0..1000).map(|n| {
        let store = &store;
        async move { store.lookup(&format!("flow-{n}")).await }
    });
    let answers = futures_util::future::join_all(lookups).await;
    assert!(answers.iter().all(|a| matches!(a, Ok(None))), "{answers:?}");
    // Other tests share this Redis and connect meanwhile (two each): far fewer than the 2,000
    // that every lookup reading the setup again would send.
    let read_again = config_calls(&redis.url).await - before;
    assert!(
        read_again < 200,
        "{read_again} CONFIG calls during the burst"
    );
}

/// How many `CONFIG` commands the Redis at `url` has run.
async fn config_calls(url: &str) -> u64 {
    let client = redis::Client::open(url).unwrap();
    let mut raw = client.get_multiplexed_async_connection().await.unwrap();
    command_calls(&mut raw)
        .await
        .into_iter()
        .filter(|(name, _)| name.starts_with("config"))
        .map(|(_, calls)| calls)
        .sum()
}

/// `calls` of every command Redis ran, by name (`INFO commandstats`; a subcommand as
/// `config|get`), in name order.
async fn command_calls(raw: &mut redis::aio::MultiplexedConnection) -> Vec<(String, u64)> {
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(raw)
        .await
        .unwrap();
    let mut counts: Vec<(String, u64)> = info
        .lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .strip_prefix("calls=")?
                .split(',')
                .next()?
                .parse()
                .ok()?;
            Some((name.to_owned(), calls))
        })
        .collect();
    counts.sort();
    counts
}

mod cluster_only;
mod data_loss;
mod setup;
mod subscription;
mod unresponsive;
