//! Sealing and opening `requestState` tokens, and what they are bound to.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Binding;
use super::digest::{ct_eq, principal_hash};
use super::envelope::{Header, from_unix_secs, lifetime, parse_payload, ttl_secs, unix_secs};
use super::frame::{self, Plaintext, Prefix};
use super::{KeyRing, MemoryReplayGuard, Redemption, ReplayGuard, SealError, StateError};
use crate::BoxFuture;

/// The text every `requestState` token of this crate starts with: format `es` ("elicit state"),
/// version 1.
pub const TOKEN_PREFIX: &str = "es1.";
const PREFIX: &Prefix = b"es1.";

/// Longest token [`StateSealer::open`] looks at (256 KiB); longer input is refused before any
/// decoding, and [`StateSealer::seal`] refuses to produce longer tokens.
pub const MAX_TOKEN_LEN: usize = 256 * 1024;

/// Default lifetime of a sealed state: 10 minutes.
pub const DEFAULT_TTL: Duration = Duration::from_mins(10);

/// How far in the future a token's issue time may lie (clocks of several server instances
/// disagree a little). Expiry gets no such allowance.
pub const MAX_CLOCK_SKEW: Duration = Duration::from_secs(30);

/// A state that passed every check of [`StateSealer::open`], with its payload read back as a
/// `P` (any `Deserialize` type; a JSON [`Value`] unless said otherwise).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Opened<P = Value> {
    /// The payload given to [`StateSealer::seal`].
    pub payload: P,
    /// The token's random state id (what a [`ReplayGuard`] redeems).
    pub id: [u8; 16],
    /// When the token was sealed (whole seconds).
    pub issued_at: SystemTime,
    /// When the token stops opening.
    pub expires_at: SystemTime,
    /// Id of the key that opened it (an old key's id means it was sealed before a rotation).
    pub kid: u32,
}

/// Seals server state into an opaque, tamper-proof, expiring `requestState` token and opens it
/// again, checking that it comes back for the same request, principal and server.
///
/// Tokens are AES-256-GCM encrypted (so the client can neither read nor change them) with a
/// random 96-bit nonce per token. Per NIST SP 800-38D a key should seal at most 2^32 tokens;
/// rotate keys (see [`KeyRing`]) well before that.
///
/// Token layout: `es1.` + base64url-nopad( kid (u32 big-endian) ‖ nonce (12 bytes) ‖
/// ciphertext ‖ tag (16 bytes) ), with the prefix and kid as associated data. The plaintext is a
/// binary envelope (version 2) with the issue and expiry times, a random 16-byte state id, the
/// arguments digest, salted principal hash, audience, method and target, followed by the
/// payload as compact JSON.
///
/// ```
/// use elicit_runtime::state::{Binding, KeyRing, StateError, StateSealer};
/// use serde_json::{Value, json};
///
/// let sealer = StateSealer::new(KeyRing::new(1, [7u8; 32]), "example-server");
/// let args = json!({"location": "New York"});
/// let binding = Binding::tool_call("get_weather", &args).with_principal("user-123");
///
/// // First round: the handler needs input; seal what it knows so far.
/// let token = sealer.seal_now(&binding, &json!({"step": 1}))?;
/// assert!(token.starts_with("es1."));
///
/// // Retry: the client echoes the token with the same request.
/// let opened = sealer.open_now::<Value>(&token, &binding)?;
/// assert_eq!(opened.payload, json!({"step": 1}));
///
/// // The same token for another tool is refused, with one uniform error for the client.
/// let other = Binding::tool_call("delete_repo", &args).with_principal("user-123");
/// let err = sealer.open_now::<Value>(&token, &other).unwrap_err();
/// assert_eq!(err, StateError::TargetMismatch);
/// assert_eq!(err.to_jsonrpc_error()["code"], -32602);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct StateSealer {
    ring: KeyRing,
    audience: String,
    ttl: Duration,
    replay: Option<Arc<dyn ReplayGuard>>,
}

impl StateSealer {
    /// A sealer using `ring`, for the server identified by `audience` (e.g. its name). Tokens
    /// live for [`DEFAULT_TTL`] and are **single use within this process**: the sealer starts
    /// with its own [`MemoryReplayGuard`], shared by its clones, so a state the request
    /// context has used once is refused the second time it comes back.
    ///
    /// A server running several replicas needs a guard they share
    /// ([`with_replay_guard`](Self::with_replay_guard) with the `elicit-redis` crate's
    /// `RedisReplayGuard`): the in-process guard protects one process only. A server that wants replays
    /// possible says so with [`without_replay_guard`](Self::without_replay_guard).
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer, DEFAULT_TTL};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "example-server");
    /// assert_eq!(sealer.audience(), "example-server");
    /// assert_eq!(sealer.ttl(), DEFAULT_TTL);
    /// assert!(sealer.has_replay_guard());
    /// ```
    #[must_use]
    pub fn new(ring: KeyRing, audience: impl Into<String>) -> Self {
        Self {
            ring,
            audience: audience.into(),
            ttl: DEFAULT_TTL,
            replay: Some(Arc::new(MemoryReplayGuard::new())),
        }
    }

    /// Lets a token be used any number of times until it expires: no replay guard, not even
    /// the in-process one [`new`](Self::new) starts with.
    ///
    /// Only for servers whose handlers are safe to run again with the same answers (nothing
    /// they do deletes, pays, sends or connects) or that enforce single use themselves; a
    /// client, a caching gateway or anyone holding a copy of a retry can then repeat it.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer};
    /// use serde_json::Value;
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv").without_replay_guard();
    /// assert!(!sealer.has_replay_guard());
    /// let binding = Binding::tool_call("ping", &Value::Null);
    /// let opened = sealer.open_now::<Value>(&sealer.seal_now(&binding, &Value::Null)?, &binding)?;
    /// assert_eq!(pollster::block_on(sealer.redeem(&opened, SystemTime::now())), Ok(()));
    /// assert_eq!(pollster::block_on(sealer.redeem(&opened, SystemTime::now())), Ok(()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn without_replay_guard(mut self) -> Self {
        self.replay = None;
        self
    }

    /// Sets the lifetime of new tokens (rounded up to whole seconds, at least one, at most
    /// [`MAX_TTL`](super::MAX_TTL)).
    ///
    /// Opening also caps a token's lifetime at the current TTL, so lowering it takes effect at
    /// once for tokens already handed out.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "example-server")
    ///     .with_ttl(Duration::from_secs(120));
    /// assert_eq!(sealer.ttl(), Duration::from_secs(120));
    /// // Any setting is safe; more than a day is a day.
    /// assert_eq!(sealer.with_ttl(Duration::MAX).ttl(), Duration::from_hours(24));
    /// ```
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = Duration::from_secs(ttl_secs(ttl));
        self
    }

    /// Redeems tokens with `guard` instead of the in-process [`MemoryReplayGuard`] that
    /// [`new`](Self::new) starts with: a store the replicas of a server share (Redis), or a
    /// guard of your own. A token that passed every check of [`open`](Self::open) is
    /// redeemed with it by [`redeem`](Self::redeem), and redeeming it again fails with
    /// [`StateError::Replayed`].
    ///
    /// `open` itself never calls the guard, so it stays synchronous and opening a state costs
    /// no round trip to a shared store. The request context redeems the state it opened when
    /// the handler first asks (the first moment an answer carried in it could be used), and
    /// before it seals the next state of a round that asked nothing; code opening tokens
    /// itself must await [`redeem`](Self::redeem) before acting on the payload.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use elicit_runtime::state::{Binding, KeyRing, MemoryReplayGuard, StateError, StateSealer};
    /// use pollster::block_on;
    /// use serde_json::Value;
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "example-server")
    ///     .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    /// let binding = Binding::tool_call("pay", &Value::Null);
    /// let token = sealer.seal_now(&binding, &Value::Null)?;
    /// let opened = sealer.open_now::<Value>(&token, &binding)?;
    /// assert_eq!(block_on(sealer.redeem(&opened, std::time::SystemTime::now())), Ok(()));
    /// // The same token again: it still opens, but cannot be redeemed a second time.
    /// let again = sealer.open_now::<Value>(&token, &binding)?;
    /// assert_eq!(
    ///     block_on(sealer.redeem(&again, std::time::SystemTime::now())),
    ///     Err(StateError::Replayed)
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_replay_guard(mut self, guard: Arc<dyn ReplayGuard>) -> Self {
        self.replay = Some(guard);
        self
    }

    /// Redeems the state `opened` with the replay guard, as of `now`: `Ok(())` the first time
    /// (and always, after [`without_replay_guard`](Self::without_replay_guard)),
    /// [`StateError::Replayed`] after that. Waits for the guard only as long as the guard
    /// bounds its store's answers.
    ///
    /// # Errors
    ///
    /// [`StateError::Replayed`] for a state redeemed before; [`StateError::ReplayGuardUnavailable`]
    /// if the guard cannot decide (its store is down or too slow): refuse the state.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use elicit_runtime::state::{Binding, KeyRing, StateError, StateSealer};
    /// use serde_json::Value;
    ///
    /// // By default, a state is redeemed once per process.
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::tool_call("ping", &Value::Null);
    /// let opened = sealer.open_now::<Value>(&sealer.seal_now(&binding, &Value::Null)?, &binding)?;
    /// assert_eq!(pollster::block_on(sealer.redeem(&opened, SystemTime::now())), Ok(()));
    /// assert_eq!(
    ///     pollster::block_on(sealer.redeem(&opened, SystemTime::now())),
    ///     Err(StateError::Replayed)
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redeem<P>(
        &self,
        opened: &Opened<P>,
        now: SystemTime,
    ) -> BoxFuture<'_, Result<(), StateError>> {
        self.redeem_state(Redemption::new(
            opened.id,
            opened.issued_at,
            opened.expires_at,
            now,
        ))
    }

    /// [`redeem`](Self::redeem) for a state known by its id and lifetime.
    #[doc(hidden)]
    pub fn redeem_state(&self, state: Redemption) -> BoxFuture<'_, Result<(), StateError>> {
        match &self.replay {
            Some(guard) => guard.redeem(state),
            None => Box::pin(std::future::ready(Ok(()))),
        }
    }

    /// Whether opened states are single use: true unless
    /// [`without_replay_guard`](Self::without_replay_guard) took the guard away.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// assert!(sealer.has_replay_guard());
    /// assert!(!sealer.without_replay_guard().has_replay_guard());
    /// ```
    #[must_use]
    pub fn has_replay_guard(&self) -> bool {
        self.replay.is_some()
    }

    /// The audience tokens are sealed for and checked against.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// assert_eq!(StateSealer::new(KeyRing::generate(), "srv").audience(), "srv");
    /// ```
    #[must_use]
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// The lifetime of new tokens.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv").with_ttl(Duration::from_millis(1500));
    /// assert_eq!(sealer.ttl(), Duration::from_secs(2));
    /// ```
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The key ring.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let sealer = StateSealer::new(KeyRing::new(4, [0u8; 32]), "srv");
    /// assert_eq!(sealer.key_ring().primary_kid(), 4);
    /// ```
    #[must_use]
    pub fn key_ring(&self) -> &KeyRing {
        &self.ring
    }

    /// Seals `payload` (a JSON [`Value`] or any `Serialize` type), bound to `binding`, as of
    /// `now`, into a token for `requestState`.
    ///
    /// # Errors
    ///
    /// [`SealError::PayloadTooLarge`] if the token would exceed [`MAX_TOKEN_LEN`] (keep large
    /// data server-side and seal a reference); [`SealError::Randomness`] if the OS random number
    /// generator fails; [`SealError::Serialize`] if `payload`'s `Serialize` fails (a map with
    /// keys that are not strings, say).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use elicit_runtime::state::{Binding, KeyRing, Opened, StateSealer};
    /// use serde_json::{Value, json};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::tool_call("ping", &Value::Null);
    /// let now = SystemTime::now();
    /// let token = sealer.seal(&binding, &json!([1, 2, 3]), now)?;
    /// let opened: Opened = sealer.open(&token, &binding, now + Duration::from_secs(5))?;
    /// assert_eq!(opened.payload, json!([1, 2, 3]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seal<P: Serialize + ?Sized>(
        &self,
        binding: &Binding<'_>,
        payload: &P,
        now: SystemTime,
    ) -> Result<String, SealError> {
        self.seal_with(binding, now, |buf| {
            serde_json::to_writer(buf, payload).map_err(|e| SealError::Serialize(e.to_string()))
        })
    }

    /// [`seal`](Self::seal) with the payload written by `write` in whatever layout its reader
    /// (see [`open_with`](Self::open_with)) expects: the crate's own round state is binary.
    #[doc(hidden)]
    pub fn seal_with(
        &self,
        binding: &Binding<'_>,
        now: SystemTime,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), SealError>,
    ) -> Result<String, SealError> {
        let (iat, exp) = lifetime(now, self.ttl);
        let capacity = Header::capacity(&self.audience, binding.method, binding.target);
        let mut plaintext = Plaintext::new(capacity)?;
        let header = Header {
            iat,
            exp,
            jti: plaintext.random_id(),
            args: binding.args_digest,
            principal: binding
                .principal
                .map(|principal| principal_hash(&self.audience, principal)),
            aud: self.audience.as_bytes(),
            method: binding.method.as_bytes(),
            target: binding.target.as_bytes(),
        };
        header.write(&mut plaintext)?;
        write(plaintext.buf())?;
        plaintext.seal(&self.ring, PREFIX)
    }

    /// [`seal`](Self::seal) as of [`SystemTime::now`].
    ///
    /// # Errors
    ///
    /// As [`seal`](Self::seal).
    ///
    /// ```
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer};
    /// use serde_json::json;
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let token = sealer.seal_now(&Binding::resource_read("file:///a"), &json!("x"))?;
    /// assert!(token.starts_with("es1."));
    /// # Ok::<(), elicit_runtime::state::SealError>(())
    /// ```
    pub fn seal_now<P: Serialize + ?Sized>(
        &self,
        binding: &Binding<'_>,
        payload: &P,
    ) -> Result<String, SealError> {
        self.seal(binding, payload, SystemTime::now())
    }

    /// Opens `token` (the `requestState` the client sent back) for the request described by
    /// `binding`, as of `now`.
    ///
    /// Checks, in order: size, prefix and version, base64, length, key id, authenticated
    /// decryption, envelope, audience, issue time (at most [`MAX_CLOCK_SKEW`] ahead), expiry,
    /// method, target, arguments digest, principal, and last the payload's type. Never panics, whatever the input.
    ///
    /// Opening does not redeem: with a [`ReplayGuard`] set, await [`redeem`](Self::redeem)
    /// before acting on the payload (the request context does this when the handler first
    /// asks).
    ///
    /// # Errors
    ///
    /// The [`StateError`] naming the first check that failed. Log it; send the client
    /// [`StateError::to_jsonrpc_error`], which is the same for all of them.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use elicit_runtime::state::{Binding, KeyRing, StateError, StateSealer};
    /// use serde_json::{Value, json};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::tool_call("ping", &Value::Null);
    /// let now = SystemTime::now();
    /// let token = sealer.seal(&binding, &json!(1), now)?;
    /// let later = now + Duration::from_secs(601);
    /// assert_eq!(sealer.open::<Value>(&token, &binding, later), Err(StateError::Expired));
    /// assert!(matches!(
    ///     sealer.open::<Value>("es1.garbage", &binding, now),
    ///     Err(StateError::Malformed(_))
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open<P: DeserializeOwned>(
        &self,
        token: &str,
        binding: &Binding<'_>,
        now: SystemTime,
    ) -> Result<Opened<P>, StateError> {
        self.open_with(token, binding, now, parse_payload::<P>)
    }

    /// [`open`](Self::open) with the payload read by `read` (the counterpart of the `write` given
    /// to [`seal_with`](Self::seal_with)).
    #[doc(hidden)]
    pub fn open_with<P>(
        &self,
        token: &str,
        binding: &Binding<'_>,
        now: SystemTime,
        read: impl FnOnce(&[u8]) -> Result<P, StateError>,
    ) -> Result<Opened<P>, StateError> {
        let opened = frame::open(&self.ring, PREFIX, token)?;
        let (env, payload) = Header::parse(opened.plaintext())?;

        if !ct_eq(env.aud, self.audience.as_bytes()) {
            return Err(StateError::AudienceMismatch);
        }
        let (issued_at, expires_at) = self.check_times(env.iat, env.exp, now)?;
        if env.method != binding.method.as_bytes() {
            return Err(StateError::MethodMismatch);
        }
        if env.target != binding.target.as_bytes() {
            return Err(StateError::TargetMismatch);
        }
        if !ct_eq(&env.args, &binding.args_digest) {
            return Err(StateError::ArgumentsChanged);
        }
        let principal_ok = match (env.principal, binding.principal) {
            (None, None) => true,
            (Some(sealed), Some(principal)) => {
                ct_eq(&sealed, &principal_hash(&self.audience, principal))
            }
            _ => false,
        };
        if !principal_ok {
            return Err(StateError::PrincipalMismatch);
        }
        // Last: a token refused by its claims costs no payload parsing.
        Ok(Opened {
            payload: read(payload)?,
            id: env.jti,
            issued_at,
            expires_at,
            kid: opened.kid,
        })
    }

    /// Issue time at most [`MAX_CLOCK_SKEW`] ahead of `now`; the sealed expiry, capped by the
    /// current TTL (so that lowering it applies at once), after `now`.
    fn check_times(
        &self,
        iat: u64,
        exp: u64,
        now: SystemTime,
    ) -> Result<(SystemTime, SystemTime), StateError> {
        let now_secs = unix_secs(now);
        if iat > now_secs.saturating_add(MAX_CLOCK_SKEW.as_secs()) {
            return Err(StateError::NotYetValid);
        }
        let exp = exp.min(iat.saturating_add(ttl_secs(self.ttl)).saturating_add(1));
        if now_secs >= exp {
            return Err(StateError::Expired);
        }
        let out_of_range = StateError::Malformed("timestamp out of range");
        let issued_at = from_unix_secs(iat).ok_or(out_of_range.clone())?;
        let expires_at = from_unix_secs(exp).ok_or(out_of_range)?;
        Ok((issued_at, expires_at))
    }

    /// [`open`](Self::open) as of [`SystemTime::now`].
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    ///
    /// ```
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer};
    /// use serde_json::{Value, json};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::prompt_get("review", &json!({"pr": 7}));
    /// let token = sealer.seal_now(&binding, &json!({"asked": ["title"]}))?;
    /// assert_eq!(sealer.open_now::<Value>(&token, &binding)?.payload["asked"][0], "title");
    ///
    /// // A typed payload: what does not deserialize as the type is refused like any other
    /// // malformed state.
    /// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct Round { asked: Vec<String> }
    /// let token = sealer.seal_now(&binding, &Round { asked: vec!["title".into()] })?;
    /// assert_eq!(sealer.open_now::<Round>(&token, &binding)?.payload.asked, ["title"]);
    /// assert!(sealer.open_now::<u32>(&token, &binding).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_now<P: DeserializeOwned>(
        &self,
        token: &str,
        binding: &Binding<'_>,
    ) -> Result<Opened<P>, StateError> {
        self.open(token, binding, SystemTime::now())
    }
}

impl fmt::Debug for StateSealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateSealer")
            .field("ring", &self.ring)
            .field("audience", &self.audience)
            .field("ttl", &self.ttl)
            .field("replay_guard", &self.replay.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests;
