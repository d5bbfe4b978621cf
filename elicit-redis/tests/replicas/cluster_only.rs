//! What only a Redis Cluster can do to the stores: a primary other than the namespace's that
//! cannot keep the promises, the replica of the namespace's primary falling behind, a flush
//! of the namespace's shard, and a primary failing over to its replica while replicas redeem
//! and record concurrently. Each takes the cluster alone (it changes it).

use std::collections::HashMap;

use super::*;

/// One node of the cluster, as `CLUSTER NODES` lists it.
#[derive(Debug, Clone)]
struct Node {
    id: String,
    url: String,
    primary: Option<String>,
    slots: Vec<(u16, u16)>,
}

/// The raw answer of `args` from the node at `url`.
async fn on(url: &str, args: &[&str]) -> redis::RedisResult<redis::Value> {
    let client = redis::Client::open(url).unwrap();
    let mut raw = client.get_multiplexed_async_connection().await?;
    let mut cmd = redis::cmd(args[0]);
    for arg in &args[1..] {
        cmd.arg(*arg);
    }
    cmd.query_async(&mut raw).await
}

/// The text answer of `args` from `url`.
async fn text(url: &str, args: &[&str]) -> String {
    redis::from_redis_value(on(url, args).await.unwrap()).unwrap()
}

/// The cluster's nodes, as `url` sees them.
async fn nodes(url: &str) -> Vec<Node> {
    text(url, &["CLUSTER", "NODES"])
        .await
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let address = fields[1].split('@').next().unwrap();
            Node {
                id: fields[0].to_owned(),
                url: format!("redis://{address}"),
                primary: fields[2].contains("slave").then(|| fields[3].to_owned()),
                slots: fields[8..]
                    .iter()
                    .filter(|range| !range.starts_with('['))
                    .map(|range| match range.split_once('-') {
                        Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                        None => (range.parse().unwrap(), range.parse().unwrap()),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The primary holding `ns`'s slot and its replica, and the other primaries.
async fn shard_of(redis: &Redis, ns: &str) -> (Node, Node, Vec<Node>) {
    let slot: u16 = redis::from_redis_value(
        on(
            &redis.url,
            &["CLUSTER", "KEYSLOT", &format!("{{{ns}}}:elicit:epoch")],
        )
        .await
        .unwrap(),
    )
    .unwrap();
    let all = nodes(&redis.url).await;
    let holds = |node: &Node| node.slots.iter().any(|(a, b)| (*a..=*b).contains(&slot));
    let primary = all
        .iter()
        .find(|n| holds(n))
        .expect("a primary holds the slot")
        .clone();
    let replica = all
        .iter()
        .find(|n| n.primary.as_deref() == Some(primary.id.as_str()))
        .expect("the primary has a replica")
        .clone();
    let others = all
        .iter()
        .filter(|n| n.primary.is_none() && n.id != primary.id)
        .cloned()
        .collect();
    (primary, replica, others)
}

/// Waits until every node says the cluster is whole and every primary has its replica back.
async fn until_whole(redis: &Redis) {
    let urls = redis.cluster.clone().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    'again: loop {
        assert!(Instant::now() < deadline, "the cluster did not heal");
        tokio::time::sleep(Duration::from_millis(100)).await;
        for url in &urls {
            let Ok(info) = on(url, &["CLUSTER", "INFO"]).await else {
                continue 'again;
            };
            let info: String = redis::from_redis_value(info).unwrap();
            if !info.contains("cluster_state:ok") {
                continue 'again;
            }
            let replication = text(url, &["INFO", "replication"]).await;
            let linked = replication.contains("role:master\r\nconnected_slaves:1")
                || replication.contains("master_link_status:up");
            if !linked {
                continue 'again;
            }
        }
        return;
    }
}

/// The setup check reads every primary, not only the one holding the namespace: the slot may
/// move to any of them. A primary elsewhere in the cluster that snapshots (and could restore an
/// older copy) refuses the connection, naming that primary.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn every_primary_of_a_cluster_must_keep_the_promises() {
    let redis = Redis::cluster_alone();
    let ns = namespace("cluster-setup");
    let (_, _, others) = shard_of(&redis, &ns).await;
    let elsewhere = &others[0];
    on(&elsewhere.url, &["CONFIG", "SET", "save", "3600 1"])
        .await
        .unwrap();
    let refused =
        RedisReplayGuard::connect_cluster(&refs(redis.cluster.as_ref().unwrap()), &ns).await;
    on(&elsewhere.url, &["CONFIG", "SET", "save", ""])
        .await
        .unwrap();
    let why = refused.unwrap_err().to_string();
    let address = elsewhere.url.trim_start_matches("redis://");
    assert!(
        why.contains(&format!(
            "the cluster's primary {address}: this Redis could forget"
        )),
        "{why}"
    );
    assert!(why.contains("RDB snapshots (`save 3600 1`)"), "{why}");
    // Set back, the same cluster is accepted.
    let guard = RedisReplayGuard::connect_cluster(&refs(redis.cluster.as_ref().unwrap()), &ns)
        .await
        .expect("accepted once every primary keeps the promises");
    let now = SystemTime::now();
    let state = Redemption::new([3; 16], now, now + Duration::from_secs(60), now);
    assert_eq!(guard.redeem(state).await, Ok(()));
}

/// Each redemption waits until the replica of the namespace's primary has the spent state; a
/// replica that does not confirm (its process stopped) fails the redemption closed, and once it
/// runs again redemptions go through.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_redemption_on_a_cluster_waits_for_the_replica_of_its_primary() {
    let redis = Redis::cluster_alone();
    until_whole(&redis).await;
    let ns = namespace("cluster-wait");
    let (_, replica, _) = shard_of(&redis, &ns).await;
    let guard = redis.guard(&ns);
    let now = SystemTime::now();
    let state = |n: u8| Redemption::new([n; 16], now, now + Duration::from_secs(60), now);
    assert_eq!(guard.redeem(state(1)).await, Ok(()));

    let server = text(&replica.url, &["INFO", "server"]).await;
    let pid = server
        .lines()
        .find_map(|line| line.strip_prefix("process_id:"))
        .unwrap()
        .trim()
        .to_owned();
    let signal = |sig: &str| {
        assert!(
            Command::new("kill")
                .args([sig, &pid])
                .status()
                .unwrap()
                .success()
        );
    };
    signal("-STOP");
    let behind = guard.redeem(state(2)).await;
    signal("-CONT");
    assert_eq!(
        behind,
        Err(StateError::ReplayGuardUnavailable(
            "0 of 1 Redis replicas confirmed the spent state within 375ms".to_owned()
        ))
    );
    until_whole(&redis).await;
    // Recorded on the primary all the same: never redeemed twice.
    assert_eq!(guard.redeem(state(2)).await, Err(StateError::Replayed));
    assert_eq!(guard.redeem(state(3)).await, Ok(()));
}

/// The epoch marker on a cluster: a flush of the shard holding the namespace (its primary, and
/// so its replica) is noticed, and a state spent before it is refused after it.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_state_spent_before_the_namespace_shard_is_flushed_is_refused_after_it() {
    let redis = Redis::cluster_alone();
    let ns = namespace("cluster-flush");
    let (primary, _, _) = shard_of(&redis, &ns).await;
    let guard = redis.guard(&ns);
    let now = SystemTime::now();
    let state = Redemption::new([4; 16], now, now + Duration::from_secs(60), now);
    assert_eq!(guard.redeem(state).await, Ok(()));
    on(&primary.url, &["FLUSHALL"]).await.unwrap();
    assert_eq!(guard.redeem(state).await, Err(StateError::ReplayMemoryLost));
}

/// A soak across a failover: four replicas (each its own connections) race in pairs to redeem
/// 400 states and record 400 completions while the namespace's primary fails over to its
/// replica (`CLUSTER FAILOVER`). See [`soak`].
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn nothing_is_lost_or_redeemed_twice_across_a_primary_failover() {
    let redis = Redis::cluster_alone();
    until_whole(&redis).await;
    let ns = namespace("cluster-failover");
    let (primary, replica, _) = shard_of(&redis, &ns).await;
    soak(&redis, &ns, async || {
        assert_eq!(
            text(&replica.url, &["CLUSTER", "FAILOVER"]).await,
            "OK",
            "failover from {}",
            primary.url
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        while !text(&replica.url, &["INFO", "replication"])
            .await
            .contains("role:master")
        {
            assert!(Instant::now() < deadline, "the replica did not take over");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

/// The same soak while the namespace's slot moves to another primary, its keys migrated a few
/// at a time (`CLUSTER SETSLOT … IMPORTING/MIGRATING`, `MIGRATE`, `CLUSTER SETSLOT … NODE`), as
/// `redis-cli --cluster reshard` does.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn nothing_is_lost_or_redeemed_twice_across_a_slot_migration() {
    let redis = Redis::cluster_alone();
    until_whole(&redis).await;
    let ns = namespace("cluster-migration");
    let (from, _, others) = shard_of(&redis, &ns).await;
    let to = others[0].clone();
    let slot: String = match on(
        &redis.url,
        &["CLUSTER", "KEYSLOT", &format!("{{{ns}}}:elicit:epoch")],
    )
    .await
    .unwrap()
    {
        redis::Value::Int(slot) => slot.to_string(),
        other => panic!("{other:?}"),
    };
    soak(&redis, &ns, async || {
        let (host, port) = to.url["redis://".len()..].split_once(':').unwrap();
        text(
            &to.url,
            &["CLUSTER", "SETSLOT", &slot, "IMPORTING", &from.id],
        )
        .await;
        text(
            &from.url,
            &["CLUSTER", "SETSLOT", &slot, "MIGRATING", &to.id],
        )
        .await;
        loop {
            let keys: Vec<String> = redis::from_redis_value(
                on(&from.url, &["CLUSTER", "GETKEYSINSLOT", &slot, "10"])
                    .await
                    .unwrap(),
            )
            .unwrap();
            if keys.is_empty() {
                break;
            }
            let mut migrate = vec!["MIGRATE", host, port, "", "0", "5000", "KEYS"];
            migrate.extend(keys.iter().map(String::as_str));
            on(&from.url, &migrate).await.unwrap();
            // Redemptions go on between the batches.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        for node in [&to, &from] {
            text(&node.url, &["CLUSTER", "SETSLOT", &slot, "NODE", &to.id]).await;
        }
    })
    .await;
}

/// Four replicas (each its own connections) race in pairs to redeem 400 states and record 400
/// completions; a quarter of the way in, `disrupt` runs while they go on, and the second half
/// waits until it is done. Redemptions that cannot be confirmed fail closed and are tried again.
/// Afterwards no state was redeemed twice (at most one success each, and every one is refused
/// as spent by a replica that saw none of it), and no recorded completion was lost.
async fn soak(redis: &Redis, ns: &str, disrupt: impl AsyncFnOnce()) {
    const STATES: usize = 400;
    const WORKERS: usize = 8;
    let guards: Vec<Arc<RedisReplayGuard>> = (0..4).map(|_| Arc::new(redis.guard(ns))).collect();
    let store = Arc::new(redis.connect_store(ns).await);
    let now = SystemTime::now();
    let expires = now + Duration::from_secs(300);
    let state = move |i: usize| {
        let mut id = [0u8; 16];
        id[..8].copy_from_slice(&(i as u64).to_be_bytes());
        Redemption::new(id, now, expires, now)
    };
    let done = Arc::new(AtomicUsize::new(0));
    let failed_over = Arc::new(AtomicBool::new(false));

    // Redeems `state` on `guard` until it is redeemed or refused as spent.
    async fn settle(guard: &RedisReplayGuard, state: Redemption) -> Result<(), StateError> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match guard.redeem(state).await {
                Err(StateError::ReplayGuardUnavailable(why)) => {
                    assert!(Instant::now() < deadline, "still unavailable: {why}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                settled => return settled,
            }
        }
    }

    let mut workers = Vec::new();
    for w in 0..WORKERS {
        let (a, b) = (Arc::clone(&guards[w % 4]), Arc::clone(&guards[(w + 1) % 4]));
        let store = Arc::clone(&store);
        let done = Arc::clone(&done);
        let failed_over = Arc::clone(&failed_over);
        workers.push(tokio::spawn(async move {
            let mut outcomes = Vec::new();
            for i in (w..STATES).step_by(WORKERS) {
                // The second half runs on the new primary.
                while i >= STATES / 2 && !failed_over.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                // Two replicas race for the same state, as a replayed request would.
                let (first, second) = tokio::join!(settle(&a, state(i)), settle(&b, state(i)));
                let flow = format!("flow-{i}");
                let completion = Completion::Completed {
                    result: Some(json!(i)),
                };
                let deadline = Instant::now() + Duration::from_secs(30);
                let recorded = loop {
                    match store.record(&flow, completion.clone(), expires).await {
                        Ok(recorded) => break recorded,
                        Err(e) => assert!(Instant::now() < deadline, "cannot record: {e}"),
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                };
                outcomes.push((i, [first, second], recorded));
                done.fetch_add(1, Ordering::SeqCst);
            }
            outcomes
        }));
    }
    while done.load(Ordering::SeqCst) < STATES / 4 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    disrupt().await;
    let before = done.load(Ordering::SeqCst);
    failed_over.store(true, Ordering::SeqCst);
    let mut outcomes = Vec::new();
    for worker in workers {
        outcomes.extend(worker.await.unwrap());
    }
    assert_eq!(outcomes.len(), STATES);
    assert!(
        before <= STATES / 2,
        "{before} states settled before the disruption ended"
    );
    until_whole(redis).await;

    let mut redeemed = 0;
    let mut twice = Vec::new();
    let mut tally: HashMap<&'static str, usize> = HashMap::new();
    for (i, results, _) in &outcomes {
        let successes = results.iter().filter(|r| r.is_ok()).count();
        for result in results {
            *tally
                .entry(match result {
                    Ok(()) => "redeemed",
                    Err(StateError::Replayed) => "refused as spent",
                    Err(_) => "other",
                })
                .or_default() += 1;
        }
        redeemed += successes;
        if successes > 1 {
            twice.push(*i);
        }
    }
    // On the new primary, through a replica that saw none of it, every state is spent.
    let after = redis.guard(ns);
    for i in 0..STATES {
        match after.redeem(state(i)).await {
            Err(StateError::Replayed) => {}
            other => twice.push(i + 1_000_000 * usize::from(other.is_ok())),
        }
    }
    let mut lost = Vec::new();
    for (i, _, _) in &outcomes {
        let found = store.lookup(&format!("flow-{i}")).await.unwrap();
        if found
            != Some(Completion::Completed {
                result: Some(json!(i)),
            })
        {
            lost.push(*i);
        }
    }
    eprintln!("soak: {tally:?}, {redeemed} of {STATES} states redeemed once");
    assert_eq!(tally.get("other"), None, "{tally:?}");
    assert!(
        twice.is_empty(),
        "redeemed twice (or not spent after): {twice:?}"
    );
    assert!(lost.is_empty(), "completions lost: {lost:?}");
    // Every race has one winner unless a redemption was recorded but not confirmed (it then
    // failed closed, and its retry found it spent).
    assert!(
        redeemed >= STATES * 9 / 10,
        "{redeemed} of {STATES} states redeemed"
    );
}
