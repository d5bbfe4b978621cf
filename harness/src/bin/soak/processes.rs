//! The processes under test: the demo-server replicas (spawned here, on ephemeral loopback
//! ports, sharing one key ring and one Redis) and the Redis restart (through
//! `scripts/redis-server`, on the same port).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// One running demo-server replica.
pub(crate) struct Replica {
    pub child: Child,
    pub pid: u32,
    /// `http://127.0.0.1:PORT` (MCP at `/mcp`, landing page at `/connect`).
    pub origin: String,
}

impl Replica {
    /// Starts `demo-server --http 0 --redis REDIS` with `ELICIT_KEYS=keys`; waits for the line
    /// that names its address.
    pub(crate) async fn start(server: &Path, keys: &str, redis: &str) -> Result<Replica, String> {
        let mut child = Command::new(server)
            .args(["--http", "0", "--redis", redis])
            .env("ELICIT_KEYS", keys)
            .env_remove("ELICIT_PUBLIC_ORIGIN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", server.display()))?;
        let pid = child.id().ok_or("the replica exited at once")?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let mut lines = BufReader::new(stderr).lines();
        let first = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .map_err(|_| "the replica printed nothing within 10 s".to_owned())?
            .map_err(|e| e.to_string())?
            .ok_or("the replica exited before it listened")?;
        // "elicit demo: MCP at http://127.0.0.1:PORT/mcp; …"
        let origin = first
            .split_once("MCP at ")
            .and_then(|(_, rest)| rest.split_once("/mcp"))
            .map(|(origin, _)| origin.to_owned())
            .ok_or_else(|| format!("unexpected first line: {first}"))?;
        // Anything it says later (it should say nothing) goes to our stderr.
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("soak: replica {pid}: {line}");
            }
        });
        Ok(Replica { child, pid, origin })
    }
}

/// Stops and starts Redis with `scripts/redis-server` on the port of `url` (keeping data as
/// the inherited `REDIS_AOF` says).
#[derive(Clone)]
pub(crate) struct RedisControl {
    pub script: PathBuf,
    pub url: String,
}

impl RedisControl {
    fn port(&self) -> &str {
        self.url.rsplit(':').next().unwrap_or_default()
    }

    async fn run(&self, arg: &str) -> Result<String, String> {
        let out = Command::new(&self.script)
            .arg(arg)
            .env("PORT", self.port())
            .stdin(Stdio::null())
            .output()
            .await
            .map_err(|e| format!("{}: {e}", self.script.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} {arg} failed: {}",
                self.script.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// Stops Redis, then starts it again on the same port (it must come back at `url`).
    pub(crate) async fn restart(&self) -> Result<(), String> {
        self.run("stop").await?;
        let url = self.run("start").await?;
        if url != self.url {
            return Err(format!("Redis came back at {url}, not {}", self.url));
        }
        Ok(())
    }
}
