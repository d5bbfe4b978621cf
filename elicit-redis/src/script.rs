//! Running our Lua scripts by hash: `EVALSHA` sends 40 bytes where `EVAL` sends the whole text
//! (the redemption script is about 1 KB) and Redis skips looking the text up. A node that does
//! not know the script (a restart, `SCRIPT FLUSH`, a new primary after a failover or a slot
//! migration: each node of a cluster has its own script cache) answers `NOSCRIPT`, having run
//! nothing; the same call then sends `EVAL` with the text, which runs it and caches it on that
//! node. `EVAL` goes where `EVALSHA` went (the keys' slot), so no other node needs to be
//! reachable, unlike `SCRIPT LOAD` (sent to every node of a cluster).

use redis::aio::ConnectionLike;
use redis::{Cmd, ErrorKind, FromRedisValue, RedisResult, ServerErrorKind};

/// A Lua script with its SHA1, as Redis names it.
pub(crate) struct Script {
    text: &'static str,
    hash: String,
}

impl Script {
    pub(crate) fn new(text: &'static str) -> Self {
        Script {
            text,
            hash: redis::Script::new(text).get_hash().to_owned(),
        }
    }

    /// Runs the script with `keys` and `args`: `EVALSHA`, then `EVAL` if Redis does not know it.
    pub(crate) async fn run<T: FromRedisValue>(
        &self,
        connection: &mut impl ConnectionLike,
        keys: &[&str],
        args: &[&str],
    ) -> RedisResult<T> {
        match call("EVALSHA", &self.hash, keys, args)
            .query_async(connection)
            .await
        {
            Err(e) if e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => {
                call("EVAL", self.text, keys, args)
                    .query_async(connection)
                    .await
            }
            answer => answer,
        }
    }
}

/// `EVAL script …` or `EVALSHA sha1 …`.
fn call(name: &str, script: &str, keys: &[&str], args: &[&str]) -> Cmd {
    let mut cmd = redis::cmd(name);
    cmd.arg(script).arg(keys.len()).arg(keys).arg(args);
    cmd
}

#[cfg(test)]
mod tests {
    use super::{Script, call};

    #[test]
    fn evalsha_names_the_script_by_its_sha1_and_eval_sends_its_text() {
        let script = Script::new("return 1");
        // `redis-cli SCRIPT LOAD "return 1"`
        let sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db";
        let packed = |cmd: redis::Cmd| String::from_utf8(cmd.get_packed_command()).unwrap();
        assert_eq!(
            packed(call("EVALSHA", &script.hash, &["k"], &["a", "b"])),
            format!(
                "*6\r\n$7\r\nEVALSHA\r\n$40\r\n{sha}\r\n$1\r\n1\r\n$1\r\nk\r\n$1\r\na\r\n$1\r\nb\r\n"
            )
        );
        assert_eq!(
            packed(call("EVAL", script.text, &[], &[])),
            "*3\r\n$4\r\nEVAL\r\n$8\r\nreturn 1\r\n$1\r\n0\r\n"
        );
    }
}
