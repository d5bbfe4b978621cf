//! The demo MCP server: stdio by default, streamable HTTP with `--http PORT`.
//!
//! ```text
//! demo-server [--http PORT] [--redis URL] [--public-origin URL]
//! ```
//!
//! Alone it needs no configuration: a fresh key ring, completions in memory, links to its own
//! landing page. Replicas behind one address share:
//!
//! * `ELICIT_KEYS`: the key ring (`kid:base64key` entries, primary first; see
//!   `KeyRing::from_env`). Unset, each process generates its own, and no other replica opens its
//!   `requestState`.
//! * `--redis URL` (or `ELICIT_REDIS_URL`): URL-mode completions and spent states in Redis, so
//!   the landing page, the client's retry and a replayed `requestState` may each reach another
//!   replica. Each state is then spent once and each completion read once; Redis is connected
//!   at startup, every command is bounded by a timeout, and a Redis that cannot answer fails
//!   the request (closed) instead of letting it through.
//! * `--public-origin URL` (or `ELICIT_PUBLIC_ORIGIN`): the origin the links point at (a load
//!   balancer in front of the replicas' `/connect`); unset, each replica links to itself.
//!
//! Pace of URL mode (the interop tests shorten both): `--url-hold SECS` (or
//! `ELICIT_URL_HOLD_SECS`), how long a 2026-07-28 retry waits for the page before asking again
//! (default 30 s); `--state-ttl SECS` (or `ELICIT_STATE_TTL_SECS`), how long a link and a
//! `requestState` live (default 10 minutes).

use elicit_examples::demo::config::{DemoConfig, KEYS_ENV};
use elicit_examples::demo::run;

const USAGE: &str = "\
usage: demo-server [--http PORT] [--redis URL] [--public-origin URL] [--url-hold SECS] [--state-ttl SECS]

  (no flags)          MCP on stdio; the landing page on an ephemeral loopback port
  --http PORT         MCP over streamable HTTP at http://127.0.0.1:PORT/mcp, landing page at /connect
  --redis URL         URL-mode completions and spent requestStates in Redis (shared by replicas);
                      also ELICIT_REDIS_URL
  --public-origin URL the origin links point at (e.g. a load balancer); also ELICIT_PUBLIC_ORIGIN
  --url-hold SECS     how long a 2026-07-28 retry waits for the page (default 30); also
                      ELICIT_URL_HOLD_SECS
  --state-ttl SECS    how long links and requestState live (default 600); also ELICIT_STATE_TTL_SECS

environment:
  ELICIT_KEYS         the sealing key ring, `kid:base64key` entries, primary first; replicas must
                      share it (unset: a fresh ring per process)";

/// What the command line asks for.
struct Args {
    http: Option<u16>,
    redis: Option<String>,
    public_origin: Option<String>,
    url_hold: Option<std::time::Duration>,
    state_ttl: Option<std::time::Duration>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        http: None,
        redis: None,
        public_origin: None,
        url_hold: None,
        state_ttl: None,
    };
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--http" => {
                let port = value()?;
                parsed.http = Some(port.parse().map_err(|_| format!("bad port {port:?}"))?);
            }
            "--redis" => parsed.redis = Some(value()?),
            "--public-origin" => parsed.public_origin = Some(value()?),
            "--url-hold" => parsed.url_hold = Some(seconds(&flag, &value()?)?),
            "--state-ttl" => parsed.state_ttl = Some(seconds(&flag, &value()?)?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(parsed))
}

/// A number of seconds (fractions allowed), not negative.
fn seconds(flag: &str, text: &str) -> Result<std::time::Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| format!("{flag} needs seconds, got {text:?}"))
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return Ok(());
        }
        Err(problem) => {
            eprintln!("demo-server: {problem}\n{USAGE}");
            std::process::exit(2);
        }
    };
    // stdio serves one client, whose requests arrive one line at a time: one thread runs them
    // without handing each message from the reader to a worker and back. Streamable HTTP serves
    // many clients at once: a worker per core.
    let mut runtime = match args.http {
        Some(_) => tokio::runtime::Builder::new_multi_thread(),
        None => tokio::runtime::Builder::new_current_thread(),
    };
    runtime.enable_all().build()?.block_on(serve(args))
}

async fn serve(args: Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut config = DemoConfig::from_env().map_err(|e| format!("{KEYS_ENV}: {e}"))?;
    if args.redis.is_some() {
        config.redis = args.redis;
    }
    if args.public_origin.is_some() {
        config.public_origin = args.public_origin;
    }
    if args.url_hold.is_some() {
        config.url_hold = args.url_hold;
    }
    if args.state_ttl.is_some() {
        config.state_ttl = args.state_ttl;
    }
    match args.http {
        None => run::serve_stdio(&config).await,
        Some(port) => run::serve_http(port, &config).await,
    }
}
