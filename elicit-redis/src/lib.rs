//! Redis-backed stores for [elicit](https://crates.io/crates/elicit-runtime) servers with
//! several replicas: the browser's visit to a URL-mode landing page, the client's retry and a
//! replayed `requestState` may each reach a different process, and all of them must agree.
//!
//! * [`RedisCompletionStore`] is the core's [`CompletionStore`]: where landing pages record how
//!   a URL-mode flow ended. The first record wins (`SET … NX`), redemption is atomic
//!   (`SET … XX GET`), entries expire with their handle (`PXAT`).
//! * [`RedisReplayGuard`] is the core's [`ReplayGuard`]: a sealed state is spent once across
//!   every replica sharing the Redis (its id recorded with `SET … NX PXAT`).
//!
//! A record is also published on `"{<namespace>}:elicit:completed"`; each store subscribes once
//! (at `connect`, or on its first wait) and wakes the retries held on that flow in its own
//! process, so a page on one replica answers a retry held on another at once. While the
//! subscription is live a held retry does not look at Redis at all; when it breaks, every held
//! retry looks once, then polls Redis (50 ms, backing off to 200 ms) until it is back.
//!
//! Both are built on the core's public traits only, so a store on another database is written
//! the same way.
//!
//! # Bounded waits, failing closed
//!
//! Every Redis operation is async, over one multiplexed connection opened on first use (or at
//! start-up with `connect`), and bounded: [`REDIS_CONNECT_TIMEOUT`] to connect and
//! [`REDIS_RESPONSE_TIMEOUT`] per command unless `with_timeouts` says otherwise. A Redis that is
//! down, slow or half-open fails the one operation that needed it within those bounds, with an
//! error saying which wait ran out; the replay guard then refuses the state
//! ([`StateError::ReplayGuardUnavailable`], which the client reads as "retry"). After a timeout
//! or a broken connection, the next operation connects again. A connection has at most 128
//! commands in flight; another waits at most the response timeout for its turn, then at most
//! the response timeout for its answer. A burst (thousands of held retries asking at once) then
//! costs the client's buffers for 128 commands, not for all of them.
//!
//! # What Redis must promise
//!
//! A spent state must stay spent for as long as it could be replayed. On every new
//! connection, and again while connected (below), the store and the guard read what the server
//! promises (`INFO` and `CONFIG GET`) and refuse, with an error naming the setting, a Redis
//! that could forget a spent state while keeping the namespace's epoch marker (below), the one
//! kind of loss the marker cannot see:
//!
//! | Risk | Refused at connect | Accepted |
//! |---|---|---|
//! | eviction | `maxmemory` > 0 with any `maxmemory-policy` but `noeviction` (the `volatile-*` policies evict exactly the spent-state keys, which expire, and never the marker) | `maxmemory 0`, or `noeviction`: a full Redis fails the write and the guard fails closed |
//! | a crash or restart that restores an older copy | RDB snapshots (`save` set); AOF with `appendfsync everysec` or `no` | AOF with `appendfsync always`; no persistence at all (a restart loses the marker too, which is noticed) |
//! | the connection reaches a replica | `role` other than `master` | the primary |
//! | a failover to a replica that lags | — | each redemption waits (`WAIT`, within three quarters of the response timeout) until every replica connected to the primary has it, and fails closed when fewer confirm |
//!
//! Replicas are counted at each reading (a replica attached later is waited for from the next
//! one on), and a replica that may be promoted must keep the same promises itself. On a Redis
//! Cluster every primary is read (see [below](#keys-and-redis-cluster)).
//!
//! A provider that renames or forbids `CONFIG` (or `INFO`) cannot be checked: `connect` fails
//! with "cannot read what this Redis promises for spent states (…)" and every command fails
//! closed. Keep the settings above through the provider's own settings, and say so with
//! `trusting_setup()` ([`RedisReplayGuard::trusting_setup`],
//! [`RedisCompletionStore::trusting_setup`]): that turns off every check in the table and the
//! eviction check in redemptions (below), so the promise is then the provider's and yours.
//!
//! ## Settings changed while connected
//!
//! A `CONFIG SET` does not wait for a new connection, so the promises are kept watching:
//!
//! * **Eviction, in every redemption, with no window.** The script that records a spent
//!   state first reads `INFO memory` and `INFO stats` (a script may run `INFO`, not `CONFIG`).
//!   While a `maxmemory` is set with a policy other than `noeviction`, it records nothing and
//!   the redemption fails closed ([`StateError::ReplayGuardUnavailable`]). Beside the epoch
//!   marker, `"{<namespace>}:elicit:evictions"` keeps Redis's `evicted_keys` count from when the
//!   marker was written; once that count has moved, any spent state may have been evicted, so
//!   the epoch ends as after a flush (below): every state sealed before it is refused
//!   ([`StateError::ReplayMemoryLost`]), also after the policy is set back. A spent state
//!   therefore never runs again because of eviction, however briefly the policy was changed.
//!   The count is the whole server's: evicting any key of that Redis ends the epoch, and so
//!   does a `CONFIG RESETSTAT`, a restart of a Redis that had evicted keys before, or a
//!   namespace without the count (written by an earlier version of this crate): each refuses
//!   the states under way once, then all works as always.
//! * **Persistence and the role, every [`REDIS_SETUP_RECHECK`].** Only `CONFIG` tells them, so
//!   they are read again on the open connection before the first command after the interval
//!   (`with_setup_recheck` sets another; zero reads them before every command). While a
//!   setting is wrong every command fails (redemptions with
//!   [`StateError::ReplayGuardUnavailable`]) and the connection is dropped; once it is set
//!   back, the next connection works again. The window is honest about what it cannot see: a
//!   change made and undone within one interval, and a crash inside the interval after a live
//!   change (to `appendfsync everysec`, say) that loses the last writes while keeping the
//!   marker. Keep the interval short, and keep `CONFIG SET` from the servers' Redis user (an ACL
//!   such as `-config|set`, leaving `+config|get` for this check).
//!
//! Two losses no setting prevents are yours to handle: a `FLUSHALL`/`FLUSHDB` (noticed, as
//! below) and **restoring a backup** (an older copy with the marker in it): after restoring
//! one, delete `"{<namespace>}:elicit:epoch"` before the servers reconnect, so every state
//! sealed before the restore is refused (on a cluster, on the primary holding the namespace).
//!
//! # Keys and Redis Cluster
//!
//! Every key of a namespace begins with the namespace in braces, `"{<namespace>}:elicit:…"`
//! (`{myapp}:elicit:epoch`, `{myapp}:elicit:replay:…`, `{myapp}:elicit:completion:…`; the
//! channel `{myapp}:elicit:completed` too). The braces are a Redis Cluster hash tag: all of a
//! namespace's keys hash to **one slot**, so each command and each script (the redemption
//! reads the marker and records the spent state at once) runs on the one node holding it. A
//! namespace that is empty or holds a `{` or `}` is refused by `new`: its keys would hash apart.
//!
//! What is supported, each tested against a real `redis-server` (7.0, from Debian):
//!
//! * **One Redis**: [`RedisCompletionStore::new`] / [`connect`](RedisCompletionStore::connect)
//!   (and the same on [`RedisReplayGuard`]), with the URL of the primary.
//! * **One primary with replicas** (Sentinel or a provider's primary endpoint): the same, on
//!   the primary; each redemption `WAIT`s for the replicas as above.
//! * **Redis Cluster**: [`RedisCompletionStore::new_cluster`] /
//!   [`connect_cluster`](RedisCompletionStore::connect_cluster) (and on [`RedisReplayGuard`])
//!   with the URLs of one or more nodes. The client routes by slot and follows the namespace's
//!   slot when it moves (`MOVED`, `ASK`) or its primary fails over; tested on three primaries
//!   each with a replica, including a `CLUSTER FAILOVER` of the namespace's primary, and a
//!   migration of its slot to another primary, each during 400 racing redemptions and 400
//!   records (none redeemed twice, no completion lost). The setup check reads
//!   **every primary** (the slot may move to any of them) and refuses the cluster naming the
//!   primary that breaks a promise; `WAIT` goes to the primary holding the namespace and waits
//!   for its replicas. One namespace is one slot, so one shard carries all of its traffic and
//!   memory: shard by namespace (one per server or tenant) if one shard is not enough.
//!   Completions are published with classic `PUBLISH` (in the script that records them, so
//!   the record and its wake-up are one round trip), which a cluster forwards to every node,
//!   and each store subscribes on one of the given nodes at a time, moving to the next after a
//!   failure (sharded `SPUBLISH` is not used). The scripts run by their hash (`EVALSHA`);
//!   each node caches scripts on its own, so a node that does not know one (a new primary
//!   after a failover, a restart, `SCRIPT FLUSH`) is sent its text once (`EVAL`), in the same
//!   call. While the namespace's slot moves, a redemption
//!   may be answered `TRYAGAIN` until the move completes: it fails closed and the retry works.
//!   The `evicted_keys` count is each node's own: when the slot moves to a primary whose count
//!   differs from the one the epoch began with, the epoch ends once, as above.
//! * **Valkey** speaks the same protocol but is **not tested** (Debian 12, where the tests run,
//!   has no Valkey package).
//!
//! TLS (`rediss://`) is not built in (the `redis` crate's TLS features are off).
//!
//! **Upgrading from a build that wrote `"<namespace>:elicit:…"`** (no braces): the new keys
//! are a new namespace to Redis. Stop every replica of the old build before starting the new
//! one (a state spent through the old keys is not seen by the new ones); on its first
//! connection the new build writes a new epoch marker, so every state sealed before it is
//! refused once (clients start those flows again) and nothing is half-read. The old keys
//! expire, except `"<namespace>:elicit:epoch"` and `"<namespace>:elicit:evictions"`: delete
//! them.
//!
//! # A Redis that loses its data
//!
//! Each namespace holds an epoch marker, `"{<namespace>}:elicit:epoch"`, written once and never
//! expiring; each new connection reads it, and every redemption checks it in the same Lua
//! script that records the state id. It notices the whole namespace going (a restart without
//! persistence, a flush, a deleted marker): the replica logs an `error` (target `elicit`) and
//! every replica, reading the same marker, refuses each state sealed before the new marker,
//! and within [`MAX_CLOCK_SKEW`] after it, with [`StateError::ReplayMemoryLost`] (the client
//! gets the uniform invalid-state error). States sealed later work as always. A namespace
//! seen for the first time counts as new: only states sealed before its marker are refused,
//! so `connect` at start-up means none are. The marker cannot see part of the data going,
//! which is why the settings above are checked.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use elicit_redis::RedisCompletionStore;
//! use elicit_runtime::ElicitServer;
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_runtime::url::UrlSettings;
//!
//! let store = RedisCompletionStore::connect("redis://127.0.0.1:6379", "myapp").await?;
//! let sealer = StateSealer::new(KeyRing::from_env("ELICIT_KEYS")?, "myapp")
//!     .with_replay_guard(Arc::new(store.replay_guard()));
//! let server = ElicitServer::new(sealer).with_url(UrlSettings::new(Arc::new(store)));
//! # let _ = server; Ok(()) }
//! ```
//!
//! A server on rmcp gets this crate through `elicit-rmcp`'s `redis` feature, as
//! `elicit_rmcp::redis`.
//!
//! [`CompletionStore`]: elicit_state::CompletionStore
//! [`ReplayGuard`]: elicit_state::ReplayGuard
//! [`StateError::ReplayGuardUnavailable`]: elicit_state::StateError::ReplayGuardUnavailable
//! [`StateError::ReplayMemoryLost`]: elicit_state::StateError::ReplayMemoryLost
//! [`MAX_CLOCK_SKEW`]: elicit_state::MAX_CLOCK_SKEW

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod connection;
mod epoch;
mod guard;
mod notify;
mod script;
mod setup;
mod store;
mod target;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_state::MAX_CLOCK_SKEW;

pub use connection::{REDIS_CONNECT_TIMEOUT, REDIS_RESPONSE_TIMEOUT, REDIS_SETUP_RECHECK};
pub use guard::RedisReplayGuard;
pub use store::RedisCompletionStore;

/// What every key (and the channel) of `namespace` begins with: the namespace in braces, a
/// Redis Cluster hash tag, so that all of them hash to one slot and each script touches one
/// node. An empty namespace, or one with a brace, would hash key by key: refused.
fn keyspace(namespace: &str) -> Result<String, String> {
    if namespace.is_empty() || namespace.contains(['{', '}']) {
        return Err(format!(
            "the namespace {namespace:?} must be non-empty and hold no `{{` or `}}` (its keys are \
             `{{<namespace>}}:elicit:…`, one Redis Cluster hash tag)"
        ));
    }
    Ok(format!("{{{namespace}}}"))
}

/// Unix milliseconds of `at` (at least 1: `PXAT 0` is an error).
fn millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
        .max(1)
}

/// How long past a token's expiry its Redis keys live: Redis expires keys by its own clock,
/// tokens expire by the replica's, and replicas accept a token up to [`MAX_CLOCK_SKEW`] off;
/// twice that covers a Redis clock as far off the other way.
const SKEW_MARGIN: Duration = Duration::from_secs(2 * MAX_CLOCK_SKEW.as_secs());

/// `PXAT` for a key that must outlive a token expiring at `at` on any replica's clock.
fn keep_until(at: SystemTime) -> u64 {
    millis(at.checked_add(SKEW_MARGIN).unwrap_or(at))
}

#[cfg(test)]
mod tests {
    use super::keyspace;

    #[test]
    fn every_key_of_a_namespace_carries_one_hash_tag() {
        assert_eq!(keyspace("myapp").as_deref(), Ok("{myapp}"));
        assert_eq!(keyspace("a:b").as_deref(), Ok("{a:b}"));
        for refused in ["", "}app", "my{app}", "a}"] {
            assert!(keyspace(refused).is_err(), "{refused:?}");
        }
    }
}
