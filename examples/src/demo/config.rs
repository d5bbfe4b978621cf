//! What the demo server is configured with: its sealing keys, where URL-mode completions and
//! spent states live, and the origin its links point at. The defaults are the local demo (a
//! fresh key ring, in-memory stores, links to this process); with `ELICIT_KEYS` and a Redis
//! URL several replicas serve one deployment, and a flow may cross them on every round.

use std::sync::Arc;
use std::time::Duration;

use elicit_redis::RedisCompletionStore;
use elicit_rmcp::ElicitServer;
use elicit_rmcp::state::{KeyRing, KeyRingError, StateSealer};
use elicit_rmcp::url::UrlSettings;

/// The environment variable holding the key ring (`kid:base64key` entries, primary first).
pub const KEYS_ENV: &str = "ELICIT_KEYS";

/// The environment variable naming the shared Redis (`--redis` wins over it).
pub const REDIS_ENV: &str = "ELICIT_REDIS_URL";

/// The environment variable naming the origin links point at (`--public-origin` wins over it).
pub const PUBLIC_ORIGIN_ENV: &str = "ELICIT_PUBLIC_ORIGIN";

/// The environment variable setting how long a 2026-07-28 retry is held for the page, in
/// seconds (`--url-hold` wins over it; unset: `DEFAULT_URL_HOLD`).
pub const URL_HOLD_ENV: &str = "ELICIT_URL_HOLD_SECS";

/// The environment variable setting how long a link and a `requestState` live, in seconds
/// (`--state-ttl` wins over it; unset: the sealer's default, 10 minutes).
pub const STATE_TTL_ENV: &str = "ELICIT_STATE_TTL_SECS";

/// The audience every replica seals for and accepts: one deployment, one audience.
pub const AUDIENCE: &str = "elicit-demo";

/// The Redis key namespace of the demo's completions and spent states.
pub const REDIS_NAMESPACE: &str = "elicit-demo";

/// How the demo server is set up.
///
/// ```
/// use elicit_examples::demo::config::DemoConfig;
///
/// // The local demo: a fresh key ring, in-memory stores, links to this process.
/// let config = DemoConfig::local();
/// assert!(config.redis.is_none() && config.public_origin.is_none());
/// ```
#[derive(Clone)]
pub struct DemoConfig {
    /// Seals and opens `requestState` and URL handles; replicas must share it.
    pub keys: KeyRing,
    /// Where completions and spent states live (`None`: in memory, this process only).
    pub redis: Option<String>,
    /// The origin links point at (`None`: this process's own landing page).
    pub public_origin: Option<String>,
    /// How long a 2026-07-28 retry is held for the page (`None`: `DEFAULT_URL_HOLD`).
    pub url_hold: Option<Duration>,
    /// How long links and `requestState` live (`None`: the sealer's default).
    pub state_ttl: Option<Duration>,
}

impl std::fmt::Debug for DemoConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoConfig")
            .field("keys", &self.keys)
            .field("redis", &self.redis.as_ref().map(|_| "<set>"))
            .field("public_origin", &self.public_origin)
            .field("url_hold", &self.url_hold)
            .field("state_ttl", &self.state_ttl)
            .finish()
    }
}

impl DemoConfig {
    /// The local demo: a generated key ring, in-memory stores, links to this process.
    #[must_use]
    pub fn local() -> Self {
        DemoConfig {
            keys: KeyRing::generate(),
            redis: None,
            public_origin: None,
            url_hold: None,
            state_ttl: None,
        }
    }

    /// The keys from [`KEYS_ENV`] (a generated ring if it is not set), the Redis URL from
    /// [`REDIS_ENV`] and the public origin from [`PUBLIC_ORIGIN_ENV`] (each unset or empty:
    /// none).
    ///
    /// # Errors
    ///
    /// The [`KeyRingError`] of a set but unusable [`KEYS_ENV`] (it names no key material).
    ///
    /// ```
    /// use elicit_examples::demo::config::{DemoConfig, KEYS_ENV};
    ///
    /// # if std::env::var_os(KEYS_ENV).is_none() {
    /// let config = DemoConfig::from_env()?;
    /// // Without ELICIT_KEYS each process generates its own ring: fine alone, not for replicas.
    /// assert_eq!(config.keys.old_kids().count(), 0);
    /// # }
    /// # Ok::<(), elicit_rmcp::state::KeyRingError>(())
    /// ```
    pub fn from_env() -> Result<Self, KeyRingError> {
        let keys = match KeyRing::from_env(KEYS_ENV) {
            Ok(keys) => keys,
            Err(KeyRingError::EnvNotSet { .. }) => KeyRing::generate(),
            Err(other) => return Err(other),
        };
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let secs = |name: &str| {
            var(name)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(Duration::from_secs_f64)
        };
        Ok(DemoConfig {
            keys,
            redis: var(REDIS_ENV),
            public_origin: var(PUBLIC_ORIGIN_ENV),
            url_hold: secs(URL_HOLD_ENV),
            state_ttl: secs(STATE_TTL_ENV),
        })
    }

    /// The elicitation server these settings describe, its own landing page at
    /// `landing_origin` (used when no public origin is set). With Redis it connects now
    /// (within the store's connect timeout), so a wrong URL or a Redis that is down shows at
    /// startup; every later command is bounded by the store's timeouts and fails closed.
    ///
    /// # Errors
    ///
    /// A text saying what is wrong: Redis unreachable or not a Redis URL, or an origin that is
    /// neither `https` nor loopback `http`.
    pub async fn elicit_server(&self, landing_origin: &str) -> Result<ElicitServer, String> {
        let mut sealer = StateSealer::new(self.keys.clone(), AUDIENCE);
        if let Some(ttl) = self.state_ttl {
            sealer = sealer.with_ttl(ttl);
        }
        let store = match &self.redis {
            None => None,
            Some(url) => {
                let store = RedisCompletionStore::connect(url, REDIS_NAMESPACE)
                    .await
                    .map_err(|e| format!("Redis: {e}"))?;
                sealer = sealer.with_replay_guard(Arc::new(store.replay_guard()));
                Some(store)
            }
        };
        let server =
            ElicitServer::new(sealer).with_server_info("elicit-demo", env!("CARGO_PKG_VERSION"));
        let mut url = match store {
            // Shared by the replicas: a state is spent once, a completion read once, whichever
            // replica each round reaches.
            Some(store) => UrlSettings::new(Arc::new(store)),
            None => UrlSettings::in_memory(),
        };
        if let Some(hold) = self.url_hold {
            url = url.with_hold(hold);
        }
        let origin = self.public_origin.as_deref().unwrap_or(landing_origin);
        let url = url
            .with_origin(origin)
            .map_err(|e| format!("links' origin {origin}: {e}"))?;
        Ok(server.with_url(url.with_link_fallback()))
    }
}
