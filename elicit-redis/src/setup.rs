//! What a Redis must promise before it may remember spent states: read from the server on
//! every new connection and again while connected (`connection`), and refused (a clear error,
//! the connection not used) when the configuration could forget a spent state while keeping
//! the namespace's epoch marker, the one kind of loss the marker cannot see. (Eviction is also
//! checked by every redemption's script, `epoch`.)
//!
//! | Risk | Refused | Kept |
//! |---|---|---|
//! | eviction | `maxmemory` > 0 with any `maxmemory-policy` but `noeviction` | `noeviction` (a full Redis fails writes: the guard fails closed), or `maxmemory 0` |
//! | a crash or restart restoring an older copy | RDB snapshots (`save` set); AOF with `appendfsync` `everysec` or `no` | AOF with `appendfsync always`; no persistence at all (a restart loses everything, marker included: noticed) |
//! | connected to a replica | `role` not `master` | a primary |
//! | failover to a replica that lags | — | replicas connected: each redemption waits (`WAIT`) until all of them have it |

use std::collections::HashMap;

/// What the check found out that the guard needs later.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Setup {
    /// Replicas connected to the primary: a redemption is confirmed by all of them.
    pub replicas: u64,
}

/// The commands whose answers [`judge`] reads: `INFO memory`, `INFO persistence`,
/// `INFO replication`, `CONFIG GET save`, `CONFIG GET appendfsync`.
pub(crate) fn commands() -> [redis::Cmd; 5] {
    let info = |section: &str| {
        let mut cmd = redis::cmd("INFO");
        cmd.arg(section);
        cmd
    };
    let config = |name: &str| {
        let mut cmd = redis::cmd("CONFIG");
        cmd.arg("GET").arg(name);
        cmd
    };
    [
        info("memory"),
        info("persistence"),
        info("replication"),
        config("save"),
        config("appendfsync"),
    ]
}

/// The `field:value` lines of an `INFO` answer.
fn fields(info: &str) -> HashMap<&str, &str> {
    info.lines()
        .filter_map(|line| line.trim_end().split_once(':'))
        .collect()
}

/// The value of a `CONFIG GET name` answer (`[name, value]`).
fn config_value(answer: &[String]) -> Option<&str> {
    answer.get(1).map(String::as_str)
}

const FIX: &str = "see elicit-redis's docs, \"What Redis must promise\" \
     (`trusting_setup()` skips this check if you keep the promise some other way)";

/// Judges the answers to [`commands`] as Redis gave them, in order (see [`judge`]).
pub(crate) fn judge_answers(answers: Vec<redis::Value>) -> Result<Setup, String> {
    let unreadable = |e: redis::ParsingError| {
        format!("cannot read what this Redis promises for spent states ({e}); {FIX}")
    };
    let Ok([memory, persistence, replication, save, fsync]) =
        <[redis::Value; 5]>::try_from(answers)
    else {
        return Err("this Redis did not answer every check".to_owned());
    };
    let text = |v| redis::from_redis_value::<String>(v).map_err(unreadable);
    let list = |v| redis::from_redis_value::<Vec<String>>(v).map_err(unreadable);
    judge(
        &text(memory)?,
        &text(persistence)?,
        &text(replication)?,
        &list(save)?,
        &list(fsync)?,
    )
}

/// The replicas connected to a primary, from its `INFO replication`.
pub(crate) fn connected_replicas(replication: &str) -> u64 {
    connected_replicas_in(&fields(replication))
}

fn connected_replicas_in(replication: &HashMap<&str, &str>) -> u64 {
    replication
        .get("connected_slaves")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Judges the answers to [`commands`], in order: the setup, or why a spent state could run
/// again on this Redis.
pub(crate) fn judge(
    memory: &str,
    persistence: &str,
    replication: &str,
    save: &[String],
    appendfsync: &[String],
) -> Result<Setup, String> {
    let memory = fields(memory);
    let persistence = fields(persistence);
    let replication = fields(replication);
    let refuse = |why: String| {
        Err(format!(
            "this Redis could forget a spent requestState and let it run again: {why}; {FIX}"
        ))
    };
    let maxmemory: u64 = memory
        .get("maxmemory")
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    let policy = memory.get("maxmemory_policy").copied().unwrap_or("unknown");
    if maxmemory > 0 && policy != "noeviction" {
        return refuse(format!(
            "`maxmemory` is {maxmemory} bytes with `maxmemory-policy {policy}`, so Redis may evict \
             the keys that remember spent states (set `maxmemory-policy noeviction`, or `maxmemory 0`)"
        ));
    }
    let role = replication.get("role").copied().unwrap_or("unknown");
    if role != "master" {
        return refuse(format!(
            "the connection reaches a `{role}`, not the primary (connect to the primary)"
        ));
    }
    let aof = persistence.get("aof_enabled").copied() == Some("1");
    let Some(fsync) = config_value(appendfsync) else {
        return refuse("`CONFIG GET appendfsync` gave no answer".to_owned());
    };
    let Some(save) = config_value(save) else {
        return refuse("`CONFIG GET save` gave no answer".to_owned());
    };
    if aof && fsync != "always" {
        return refuse(format!(
            "the append-only file is fsynced `{fsync}`, so a crash loses the last writes and keeps \
             the rest (set `appendfsync always`)"
        ));
    }
    if !aof && !save.trim().is_empty() {
        return refuse(format!(
            "RDB snapshots (`save {save}`) without the append-only file restore an older copy after \
             a restart (use `appendonly yes` with `appendfsync always`, or no persistence at all)"
        ));
    }
    Ok(Setup {
        replicas: connected_replicas_in(&replication),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge_with(memory: &str, aof: bool, save: &str, fsync: &str) -> Result<Setup, String> {
        let persistence = format!("# Persistence\r\naof_enabled:{}\r\n", u8::from(aof));
        judge(
            memory,
            &persistence,
            "# Replication\r\nrole:master\r\nconnected_slaves:0\r\n",
            &["save".into(), save.into()],
            &["appendfsync".into(), fsync.into()],
        )
    }

    const UNLIMITED: &str = "# Memory\r\nmaxmemory:0\r\nmaxmemory_policy:volatile-lru\r\n";
    const FULL_NOEVICT: &str = "# Memory\r\nmaxmemory:1048576\r\nmaxmemory_policy:noeviction\r\n";

    #[test]
    fn no_persistence_and_no_eviction_keeps_the_promise() {
        assert_eq!(
            judge_with(UNLIMITED, false, "", "everysec"),
            Ok(Setup { replicas: 0 })
        );
        assert!(judge_with(FULL_NOEVICT, true, "", "always").is_ok());
    }

    #[test]
    fn every_eviction_policy_with_a_memory_limit_is_refused() {
        for policy in [
            "volatile-lru",
            "allkeys-lru",
            "volatile-lfu",
            "allkeys-lfu",
            "volatile-random",
            "allkeys-random",
            "volatile-ttl",
        ] {
            let memory = format!("maxmemory:1048576\r\nmaxmemory_policy:{policy}\r\n");
            let err = judge_with(&memory, false, "", "everysec").unwrap_err();
            assert!(
                err.contains(&format!("`maxmemory-policy {policy}`")),
                "{policy}: {err}"
            );
        }
    }

    #[test]
    fn persistence_that_restores_an_older_copy_is_refused() {
        let everysec = judge_with(UNLIMITED, true, "", "everysec").unwrap_err();
        assert!(everysec.contains("fsynced `everysec`"), "{everysec}");
        let rdb = judge_with(UNLIMITED, false, "3600 1 300 100", "everysec").unwrap_err();
        assert!(
            rdb.contains("RDB snapshots (`save 3600 1 300 100`)"),
            "{rdb}"
        );
        // AOF fsynced on every write may also snapshot: the AOF is what a restart loads.
        assert!(judge_with(UNLIMITED, true, "3600 1", "always").is_ok());
    }

    #[test]
    fn a_replica_is_refused_and_replicas_of_the_primary_are_counted() {
        let on = |replication: &str| {
            judge(
                UNLIMITED,
                "aof_enabled:0\r\n",
                replication,
                &["save".into(), String::new()],
                &["appendfsync".into(), "everysec".into()],
            )
        };
        let err = on("role:slave\r\n").unwrap_err();
        assert!(err.contains("reaches a `slave`"), "{err}");
        assert_eq!(
            on("role:master\r\nconnected_slaves:2\r\n"),
            Ok(Setup { replicas: 2 })
        );
    }

    #[test]
    fn a_node_whose_answers_cannot_be_read_is_refused() {
        use redis::Value;
        let text = |t: &str| Value::BulkString(t.as_bytes().to_vec());
        let pair = |n: &str, v: &str| Value::Array(vec![text(n), text(v)]);
        let answers = |save: Value| {
            vec![
                text(UNLIMITED),
                text("aof_enabled:0\r\n"),
                text("role:master\r\nconnected_slaves:1\r\n"),
                save,
                pair("appendfsync", "everysec"),
            ]
        };
        assert_eq!(
            judge_answers(answers(pair("save", ""))),
            Ok(Setup { replicas: 1 })
        );
        // A node that does not answer `CONFIG GET` (forbidden there): no reading, no trust.
        for unanswered in [Value::Nil, text("not a list")] {
            let err = judge_answers(answers(unanswered)).unwrap_err();
            assert!(err.contains("`trusting_setup()` skips this check"), "{err}");
        }
        let err = judge_answers(vec![
            Value::Nil,
            text(""),
            text(""),
            pair("save", ""),
            pair("appendfsync", "always"),
        ])
        .unwrap_err();
        assert!(
            err.starts_with("cannot read what this Redis promises for spent states ("),
            "{err}"
        );
        let err = judge_answers(answers(pair("save", ""))[..4].to_vec()).unwrap_err();
        assert_eq!(err, "this Redis did not answer every check");
    }

    #[test]
    fn unreadable_answers_fail_closed() {
        let err = judge("", "", "", &[], &[]).unwrap_err();
        assert!(err.contains("`maxmemory-policy unknown`"), "{err}");
    }
}
