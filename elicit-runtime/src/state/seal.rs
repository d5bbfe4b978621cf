//! Sealing and opening `requestState` tokens, and what they are bound to.

use std::fmt;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{Aead, Generate, Nonce, Payload};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{KeyRing, ReplayGuard, SealError, StateError};

/// The text every `requestState` token of this crate starts with: format `es` ("elicit state"),
/// version 1.
pub const TOKEN_PREFIX: &str = "es1.";

/// Longest token [`StateSealer::open`] looks at (256 KiB); longer input is refused before any
/// decoding, and [`StateSealer::seal`] refuses to produce longer tokens.
pub const MAX_TOKEN_LEN: usize = 256 * 1024;

/// Default lifetime of a sealed state: 10 minutes.
pub const DEFAULT_TTL: Duration = Duration::from_mins(10);

/// How far in the future a token's issue time may lie (clocks of several server instances
/// disagree a little). Expiry gets no such allowance.
pub const MAX_CLOCK_SKEW: Duration = Duration::from_secs(30);

/// Version of the plaintext envelope inside an `es1.` token.
const ENVELOPE_VERSION: u32 = 1;
const KID_LEN: usize = 4;
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;

/// Domain-separation label hashed before the audience and principal.
const PRINCIPAL_LABEL: &[u8] = b"elicit-state principal v1\0";
/// Domain-separation label at the head of the AEAD associated data.
const AAD_LABEL: &[u8] = b"elicit-state\0";

// ---------------------------------------------------------------------------------------------
// Canonical JSON and the arguments digest
// ---------------------------------------------------------------------------------------------

/// The canonical JSON text of `value`: no whitespace, object keys sorted (by their UTF-8 bytes)
/// at every depth, numbers normalised (a float with no fractional part below 2^53 is written as
/// an integer, so `1.0` and `1` are the same), strings escaped minimally (only `"`, `\` and
/// control characters).
///
/// Two JSON texts that a client may legitimately re-serialise differently (key order, spacing,
/// `1.0` vs `1`) get the same canonical text. Recursion follows the nesting of `value`; values
/// parsed by `serde_json` are at most 128 levels deep.
///
/// ```
/// use elicit_runtime::state::canonical_json;
/// use serde_json::json;
///
/// let value = json!({"z": "a\nb", "a": [1.0, {"y": true, "x": null}]});
/// assert_eq!(canonical_json(&value), r#"{"a":[1,{"x":null,"y":true}],"z":"a\nb"}"#);
/// ```
#[must_use]
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out, true);
    out
}

/// The digest a [`Binding`] carries for a request's arguments: SHA-256 of their
/// [`canonical_json`], truncated to 16 bytes.
///
/// Absent arguments (pass `&Value::Null`) and an empty object `{}` digest the same. Key order and
/// whitespace never matter; any change of a value does.
///
/// ```
/// use elicit_runtime::state::args_digest;
/// use serde_json::{Value, json};
///
/// assert_eq!(args_digest(&Value::Null), args_digest(&json!({})));
/// assert_eq!(
///     args_digest(&json!({"city": "Paris", "days": 3})),
///     args_digest(&serde_json::from_str(r#"{ "days": 3, "city": "Paris" }"#).unwrap()),
/// );
/// assert_ne!(args_digest(&json!({"days": 3})), args_digest(&json!({"days": 4})));
/// ```
#[must_use]
pub fn args_digest(arguments: &Value) -> [u8; 16] {
    let canonical = match arguments {
        Value::Null => String::from("{}"),
        other => canonical_json(other),
    };
    let hash = Sha256::digest(canonical.as_bytes());
    let mut digest = [0u8; 16];
    digest.copy_from_slice(&hash[..16]);
    digest
}

/// Writes `value` as compact JSON. `canonical` sorts object keys and normalises numbers; without
/// it, keys keep their order and numbers their exact `serde_json` text (so the value round-trips).
fn write_json(value: &Value, out: &mut String, canonical: bool) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if canonical {
                write_canonical_number(n, out);
            } else {
                let _ = write!(out, "{n}");
            }
        }
        Value::String(s) => write_json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out, canonical);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if canonical {
                entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            }
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(key, out);
                out.push(':');
                write_json(item, out, canonical);
            }
            out.push('}');
        }
    }
}

/// Integers as integers; integral floats below 2^53 as integers; other floats in Rust's
/// shortest round-trip decimal form (never exponent notation).
fn write_canonical_number(n: &serde_json::Number, out: &mut String) {
    const EXACT_INT_LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        if f.trunc() == f && f.abs() < EXACT_INT_LIMIT {
            // Exact: |f| < 2^53 and integral, so the cast loses nothing (and -0.0 becomes 0).
            #[allow(clippy::cast_possible_truncation)]
            let i = f as i64;
            let _ = write!(out, "{i}");
        } else {
            let _ = write!(out, "{f}");
        }
    } else {
        let _ = write!(out, "{n}");
    }
}

/// A JSON string literal: escapes `"`, `\` and the control characters, nothing else.
fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    // Runs of characters that need no escape are copied in one go.
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

// ---------------------------------------------------------------------------------------------
// Binding
// ---------------------------------------------------------------------------------------------

/// What a sealed state is bound to: the originating request and the authenticated principal.
///
/// The same binding must be presented when the state comes back; any difference refuses it. The
/// MCP spec asks servers to bind `requestState` to the authenticated principal and to the
/// originating request (method plus a digest of its salient params).
///
/// ```
/// use elicit_runtime::state::{Binding, args_digest};
/// use serde_json::json;
///
/// let args = json!({"location": "New York"});
/// let binding = Binding::tool_call("get_weather", &args).with_principal("user-123");
/// assert_eq!(binding.method, "tools/call");
/// assert_eq!(binding.target, "get_weather");
/// assert_eq!(binding.args_digest, args_digest(&args));
/// assert_eq!(binding.principal, Some("user-123"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding<'a> {
    /// The JSON-RPC method of the originating request: `tools/call`, `prompts/get` or
    /// `resources/read`.
    pub method: &'a str,
    /// The tool name, prompt name or resource URI.
    pub target: &'a str,
    /// [`args_digest`] of the request's arguments.
    pub args_digest: [u8; 16],
    /// The authenticated subject (e.g. the `sub` of the MCP authorization token), if any. Sealed
    /// only as a hash salted with the sealer's audience, never in clear.
    pub principal: Option<&'a str>,
}

impl<'a> Binding<'a> {
    /// A binding for `method` on `target` with `arguments` (`&Value::Null` when absent), and no
    /// principal.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::json;
    ///
    /// let binding = Binding::new("tools/call", "deploy", &json!({"env": "prod"}));
    /// assert_eq!(binding.principal, None);
    /// ```
    #[must_use]
    pub fn new(method: &'a str, target: &'a str, arguments: &Value) -> Self {
        Self {
            method,
            target,
            args_digest: args_digest(arguments),
            principal: None,
        }
    }

    /// A `tools/call` binding for tool `name` with `arguments`.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::Value;
    ///
    /// assert_eq!(Binding::tool_call("ping", &Value::Null).method, "tools/call");
    /// ```
    #[must_use]
    pub fn tool_call(name: &'a str, arguments: &Value) -> Self {
        Self::new("tools/call", name, arguments)
    }

    /// A `prompts/get` binding for prompt `name` with `arguments`.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::json;
    ///
    /// assert_eq!(Binding::prompt_get("review", &json!({})).method, "prompts/get");
    /// ```
    #[must_use]
    pub fn prompt_get(name: &'a str, arguments: &Value) -> Self {
        Self::new("prompts/get", name, arguments)
    }

    /// A `resources/read` binding for resource `uri` (which has no arguments).
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    ///
    /// let binding = Binding::resource_read("file:///notes.txt");
    /// assert_eq!((binding.method, binding.target), ("resources/read", "file:///notes.txt"));
    /// ```
    #[must_use]
    pub fn resource_read(uri: &'a str) -> Self {
        Self::new("resources/read", uri, &Value::Null)
    }

    /// The same binding for `principal` (a `&str`, or an `Option<&str>` as it comes from the
    /// transport's authentication).
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::Value;
    ///
    /// let subject: Option<&str> = None;
    /// let anonymous = Binding::tool_call("ping", &Value::Null).with_principal(subject);
    /// assert_eq!(anonymous.principal, None);
    /// let alice = anonymous.with_principal("alice");
    /// assert_eq!(alice.principal, Some("alice"));
    /// ```
    #[must_use]
    pub fn with_principal(self, principal: impl Into<Option<&'a str>>) -> Self {
        Self {
            principal: principal.into(),
            ..self
        }
    }
}

/// SHA-256 of the principal, salted with the (length-prefixed) audience.
pub(crate) fn principal_hash(audience: &str, principal: &str) -> [u8; 32] {
    let audience_len = u64::try_from(audience.len()).unwrap_or(u64::MAX);
    Sha256::new()
        .chain_update(PRINCIPAL_LABEL)
        .chain_update(audience_len.to_be_bytes())
        .chain_update(audience.as_bytes())
        .chain_update(principal.as_bytes())
        .finalize()
        .into()
}

/// Equality of two byte strings in time independent of where they differ.
pub(crate) fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

// ---------------------------------------------------------------------------------------------
// Token framing: prefix ‖ base64url(kid ‖ nonce ‖ ciphertext+tag)
// ---------------------------------------------------------------------------------------------

/// Associated data: a label, the prefix (format and version) and the key id.
fn associated_data(prefix: &str, kid: u32) -> Vec<u8> {
    let mut aad = Vec::with_capacity(AAD_LABEL.len() + prefix.len() + KID_LEN);
    aad.extend_from_slice(AAD_LABEL);
    aad.extend_from_slice(prefix.as_bytes());
    aad.extend_from_slice(&kid.to_be_bytes());
    aad
}

/// Length of unpadded base64 for `n` bytes.
fn base64_len(n: usize) -> usize {
    n / 3 * 4
        + match n % 3 {
            0 => 0,
            1 => 2,
            _ => 3,
        }
}

/// Encrypts `plaintext` with the ring's primary key into `prefix` + base64url(kid ‖ nonce ‖
/// ciphertext ‖ tag). The prefix is authenticated as associated data, so tokens of different
/// kinds (e.g. URL-mode handles) never open as one another.
pub(crate) fn seal_frame(
    ring: &KeyRing,
    prefix: &str,
    plaintext: &[u8],
) -> Result<String, SealError> {
    let raw_len = KID_LEN + NONCE_LEN + plaintext.len() + TAG_LEN;
    let token_len = prefix.len() + base64_len(raw_len);
    if token_len > MAX_TOKEN_LEN {
        return Err(SealError::PayloadTooLarge {
            len: token_len,
            max: MAX_TOKEN_LEN,
        });
    }
    let (kid, cipher) = ring.primary();
    let nonce_bytes =
        <[u8; NONCE_LEN]>::try_generate().map_err(|e| SealError::Randomness(e.to_string()))?;
    let aad = associated_data(prefix, kid);
    let sealed = cipher
        .encrypt(
            &Nonce::<Aes256Gcm>::from(nonce_bytes),
            Payload {
                msg: plaintext,
                aad: &aad,
            },
        )
        // AES-GCM only refuses inputs of gigabytes, far above the size checked above.
        .map_err(|_| SealError::PayloadTooLarge {
            len: token_len,
            max: MAX_TOKEN_LEN,
        })?;
    let mut raw = Vec::with_capacity(raw_len);
    raw.extend_from_slice(&kid.to_be_bytes());
    raw.extend_from_slice(&nonce_bytes);
    raw.extend_from_slice(&sealed);
    let mut token = String::with_capacity(token_len);
    token.push_str(prefix);
    URL_SAFE_NO_PAD.encode_string(&raw, &mut token);
    Ok(token)
}

/// Reverses [`seal_frame`]: the key id and the authenticated plaintext.
pub(crate) fn open_frame(
    ring: &KeyRing,
    prefix: &str,
    token: &str,
) -> Result<(u32, Vec<u8>), StateError> {
    if token.len() > MAX_TOKEN_LEN {
        return Err(StateError::TooLarge { len: token.len() });
    }
    let body = token
        .strip_prefix(prefix)
        .ok_or(StateError::Malformed("unknown token prefix or version"))?;
    let raw = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| StateError::Malformed("token body is not unpadded base64url"))?;
    if raw.len() < KID_LEN + NONCE_LEN + TAG_LEN {
        return Err(StateError::Malformed("token too short"));
    }
    let (kid_bytes, rest) = raw.split_at(KID_LEN);
    let (nonce_bytes, sealed) = rest.split_at(NONCE_LEN);
    let kid = <[u8; KID_LEN]>::try_from(kid_bytes)
        .map(u32::from_be_bytes)
        .map_err(|_| StateError::Malformed("token too short"))?;
    let nonce = <[u8; NONCE_LEN]>::try_from(nonce_bytes)
        .map(Nonce::<Aes256Gcm>::from)
        .map_err(|_| StateError::Malformed("token too short"))?;
    let aad = associated_data(prefix, kid);
    let mut known = false;
    for cipher in ring.ciphers_for(kid) {
        known = true;
        let payload = Payload {
            msg: sealed,
            aad: &aad,
        };
        if let Ok(plaintext) = cipher.decrypt(&nonce, payload) {
            return Ok((kid, plaintext));
        }
    }
    Err(if known {
        StateError::Decrypt
    } else {
        StateError::UnknownKey { kid }
    })
}

// ---------------------------------------------------------------------------------------------
// The envelope (plaintext of an es1 token)
// ---------------------------------------------------------------------------------------------

/// The envelope as read back. Binary claims are unpadded base64url.
#[derive(Deserialize)]
struct Envelope {
    /// Envelope version.
    v: u32,
    /// Issued at, Unix seconds.
    iat: u64,
    /// Expires at, Unix seconds.
    exp: u64,
    /// Audience (the sealing server).
    aud: String,
    /// Method of the originating request.
    m: String,
    /// Target: tool or prompt name, resource URI.
    t: String,
    /// Arguments digest (16 bytes).
    a: String,
    /// Salted principal hash (32 bytes); absent when there was no principal.
    #[serde(default)]
    p: Option<String>,
    /// State id (16 random bytes).
    jti: String,
    /// The caller's payload.
    s: Value,
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn unb64<const N: usize>(text: &str) -> Result<[u8; N], StateError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| StateError::Malformed("envelope claim is not base64url"))?;
    <[u8; N]>::try_from(bytes.as_slice())
        .map_err(|_| StateError::Malformed("envelope claim has the wrong length"))
}

fn unix_secs(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn from_unix_secs(secs: u64) -> Result<SystemTime, StateError> {
    UNIX_EPOCH
        .checked_add(Duration::from_secs(secs))
        .ok_or(StateError::Malformed("timestamp out of range"))
}

/// Whole seconds, rounded up, at least one.
fn ttl_secs(ttl: Duration) -> u64 {
    let secs = ttl.as_secs() + u64::from(ttl.subsec_nanos() > 0);
    secs.max(1)
}

// ---------------------------------------------------------------------------------------------
// Sealer
// ---------------------------------------------------------------------------------------------

/// A state that passed every check of [`StateSealer::open`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Opened {
    /// The payload given to [`StateSealer::seal`].
    pub payload: Value,
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
/// compact JSON envelope with the version, issue and expiry times, audience, method, target,
/// arguments digest, salted principal hash, a random 16-byte state id and the payload.
///
/// ```
/// use elicit_runtime::state::{Binding, KeyRing, StateError, StateSealer};
/// use serde_json::json;
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
/// let opened = sealer.open_now(&token, &binding)?;
/// assert_eq!(opened.payload, json!({"step": 1}));
///
/// // The same token for another tool is refused, with one uniform error for the client.
/// let other = Binding::tool_call("delete_repo", &args).with_principal("user-123");
/// let err = sealer.open_now(&token, &other).unwrap_err();
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
    /// live for [`DEFAULT_TTL`] and may be opened any number of times within it.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer, DEFAULT_TTL};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "example-server");
    /// assert_eq!(sealer.audience(), "example-server");
    /// assert_eq!(sealer.ttl(), DEFAULT_TTL);
    /// ```
    #[must_use]
    pub fn new(ring: KeyRing, audience: impl Into<String>) -> Self {
        Self {
            ring,
            audience: audience.into(),
            ttl: DEFAULT_TTL,
            replay: None,
        }
    }

    /// Sets the lifetime of new tokens (rounded up to whole seconds, at least one).
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
    /// ```
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = Duration::from_secs(ttl_secs(ttl));
        self
    }

    /// Makes tokens single-use: every [`open`](Self::open) that passes all other checks redeems
    /// the token's id with `guard`, and a second open fails with [`StateError::Replayed`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use elicit_runtime::state::{Binding, KeyRing, MemoryReplayGuard, StateError, StateSealer};
    /// use serde_json::Value;
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "example-server")
    ///     .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    /// let binding = Binding::tool_call("pay", &Value::Null);
    /// let token = sealer.seal_now(&binding, &Value::Null)?;
    /// assert!(sealer.open_now(&token, &binding).is_ok());
    /// assert_eq!(sealer.open_now(&token, &binding), Err(StateError::Replayed));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_replay_guard(mut self, guard: Arc<dyn ReplayGuard>) -> Self {
        self.replay = Some(guard);
        self
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

    /// Seals `payload`, bound to `binding`, as of `now`, into a token for `requestState`.
    ///
    /// # Errors
    ///
    /// [`SealError::PayloadTooLarge`] if the token would exceed [`MAX_TOKEN_LEN`] (keep large
    /// data server-side and seal a reference); [`SealError::Randomness`] if the OS random number
    /// generator fails.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer};
    /// use serde_json::{Value, json};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::tool_call("ping", &Value::Null);
    /// let now = SystemTime::now();
    /// let token = sealer.seal(&binding, &json!([1, 2, 3]), now)?;
    /// let opened = sealer.open(&token, &binding, now + Duration::from_secs(5))?;
    /// assert_eq!(opened.payload, json!([1, 2, 3]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seal(
        &self,
        binding: &Binding<'_>,
        payload: &Value,
        now: SystemTime,
    ) -> Result<String, SealError> {
        let iat = unix_secs(now);
        // `iat` is rounded down to whole seconds; rounding the expiry up instead keeps every
        // token alive for at least the full TTL (and less than a second longer).
        let fraction = now
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let exp = iat
            .saturating_add(ttl_secs(self.ttl))
            .saturating_add(u64::from(fraction > 0));
        let jti = <[u8; 16]>::try_generate().map_err(|e| SealError::Randomness(e.to_string()))?;

        let mut env = String::with_capacity(256);
        let _ = write!(
            env,
            "{{\"v\":{ENVELOPE_VERSION},\"iat\":{iat},\"exp\":{exp},\"aud\":"
        );
        write_json_string(&self.audience, &mut env);
        env.push_str(",\"m\":");
        write_json_string(binding.method, &mut env);
        env.push_str(",\"t\":");
        write_json_string(binding.target, &mut env);
        let _ = write!(env, ",\"a\":\"{}\"", b64(&binding.args_digest));
        if let Some(principal) = binding.principal {
            let hash = principal_hash(&self.audience, principal);
            let _ = write!(env, ",\"p\":\"{}\"", b64(&hash));
        }
        let _ = write!(env, ",\"jti\":\"{}\",\"s\":", b64(&jti));
        write_json(payload, &mut env, false);
        env.push('}');

        seal_frame(&self.ring, TOKEN_PREFIX, env.as_bytes())
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
    pub fn seal_now(&self, binding: &Binding<'_>, payload: &Value) -> Result<String, SealError> {
        self.seal(binding, payload, SystemTime::now())
    }

    /// Opens `token` (the `requestState` the client sent back) for the request described by
    /// `binding`, as of `now`.
    ///
    /// Checks, in order: size, prefix and version, base64, length, key id, authenticated
    /// decryption, envelope, audience, issue time (at most [`MAX_CLOCK_SKEW`] ahead), expiry,
    /// method, target, arguments digest, principal; then, if a [`ReplayGuard`] is set, redeems
    /// the state id. Never panics, whatever the input.
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
    /// assert_eq!(sealer.open(&token, &binding, later), Err(StateError::Expired));
    /// assert!(matches!(
    ///     sealer.open("es1.garbage", &binding, now),
    ///     Err(StateError::Malformed(_))
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(
        &self,
        token: &str,
        binding: &Binding<'_>,
        now: SystemTime,
    ) -> Result<Opened, StateError> {
        let (kid, plaintext) = open_frame(&self.ring, TOKEN_PREFIX, token)?;
        let env: Envelope = serde_json::from_slice(&plaintext)
            .map_err(|_| StateError::Malformed("envelope does not parse"))?;
        if env.v != ENVELOPE_VERSION {
            return Err(StateError::Malformed("unsupported envelope version"));
        }
        let sealed_args: [u8; 16] = unb64(&env.a)?;
        let sealed_principal: Option<[u8; 32]> = env.p.as_deref().map(unb64).transpose()?;
        let id: [u8; 16] = unb64(&env.jti)?;

        if !ct_eq(env.aud.as_bytes(), self.audience.as_bytes()) {
            return Err(StateError::AudienceMismatch);
        }

        let now_secs = unix_secs(now);
        if env.iat > now_secs.saturating_add(MAX_CLOCK_SKEW.as_secs()) {
            return Err(StateError::NotYetValid);
        }
        // The sealed expiry, capped by the current TTL so that lowering it applies at once.
        let exp = env
            .exp
            .min(env.iat.saturating_add(ttl_secs(self.ttl)).saturating_add(1));
        if now_secs >= exp {
            return Err(StateError::Expired);
        }
        let issued_at = from_unix_secs(env.iat)?;
        let expires_at = from_unix_secs(exp)?;

        if env.m != binding.method {
            return Err(StateError::MethodMismatch);
        }
        if env.t != binding.target {
            return Err(StateError::TargetMismatch);
        }
        if !ct_eq(&sealed_args, &binding.args_digest) {
            return Err(StateError::ArgumentsChanged);
        }
        let principal_ok = match (sealed_principal, binding.principal) {
            (None, None) => true,
            (Some(sealed), Some(principal)) => {
                ct_eq(&sealed, &principal_hash(&self.audience, principal))
            }
            _ => false,
        };
        if !principal_ok {
            return Err(StateError::PrincipalMismatch);
        }

        if let Some(guard) = &self.replay {
            guard.redeem(id, expires_at, now)?;
        }
        Ok(Opened {
            payload: env.s,
            id,
            issued_at,
            expires_at,
            kid,
        })
    }

    /// [`open`](Self::open) as of [`SystemTime::now`].
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    ///
    /// ```
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer};
    /// use serde_json::json;
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "srv");
    /// let binding = Binding::prompt_get("review", &json!({"pr": 7}));
    /// let token = sealer.seal_now(&binding, &json!({"asked": ["title"]}))?;
    /// assert_eq!(sealer.open_now(&token, &binding)?.payload["asked"][0], "title");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_now(&self, token: &str, binding: &Binding<'_>) -> Result<Opened, StateError> {
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
mod tests {
    use super::*;
    use crate::state::MemoryReplayGuard;
    use serde_json::json;

    const K1: [u8; 32] = [0x11; 32];
    const K2: [u8; 32] = [0x22; 32];
    const AUD: &str = "example-server";

    fn t0() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_780_000_000)
    }

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn sealer() -> StateSealer {
        StateSealer::new(KeyRing::new(1, K1), AUD)
    }

    fn args() -> Value {
        json!({"location": "New York", "units": {"temp": "C", "wind": "kmh"}, "days": 3})
    }

    fn payload() -> Value {
        json!({"answers": {"github_login": {"name": "octocat"}}, "round": 2, "ratio": 1.0})
    }

    fn uniform() -> Value {
        json!({
            "code": -32602,
            "message": "Invalid or expired requestState",
            "data": {"reason": "invalid_request_state"}
        })
    }

    /// Asserts the precise reason and the uniform client error.
    #[track_caller]
    fn assert_refused(result: Result<Opened, StateError>, expected: &StateError) {
        let err = result.expect_err("token must not open");
        assert_eq!(&err, expected);
        assert_eq!(err.to_jsonrpc_error(), uniform());
    }

    fn raw(token: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD
            .decode(token.strip_prefix(TOKEN_PREFIX).unwrap())
            .unwrap()
    }

    fn decrypt(ring: &KeyRing, token: &str) -> String {
        String::from_utf8(open_frame(ring, TOKEN_PREFIX, token).unwrap().1).unwrap()
    }

    /// A tiny xorshift64* PRNG for deterministic fuzz-ish loops.
    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap()
        }
    }

    #[test]
    fn round_trip() {
        let s = sealer();
        let a = args();
        let b = Binding::tool_call("get_weather", &a).with_principal("user-123");
        let token = s.seal(&b, &payload(), t0()).unwrap();
        let opened = s.open(&token, &b, t0() + secs(5)).unwrap();
        assert_eq!(opened.payload, payload());
        assert_eq!(opened.issued_at, t0());
        assert_eq!(opened.expires_at, t0() + DEFAULT_TTL);
        assert_eq!(opened.kid, 1);
        assert_ne!(opened.id, [0; 16]);
        // Opening does not consume the token without a replay guard.
        assert_eq!(s.open(&token, &b, t0() + secs(6)).unwrap(), opened);
    }

    #[test]
    fn payload_round_trips_exactly() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        for p in [
            Value::Null,
            json!(true),
            json!(0.1),
            json!(1.0),
            json!(-0.0),
            json!(1e300),
            json!(u64::MAX),
            json!(i64::MIN),
            json!("quote \" backslash \\ nl \n ctl \u{1} emoji 🦀 nul \u{0}"),
            json!({"z": 1, "a": [null, {"k": "v"}]}),
        ] {
            let token = s.seal(&b, &p, t0()).unwrap();
            assert_eq!(s.open(&token, &b, t0()).unwrap().payload, p, "{p}");
        }
    }

    #[test]
    fn token_layout() {
        let ring = KeyRing::new(0xA1B2_C3D4, K1);
        let s = StateSealer::new(ring.clone(), AUD);
        let a = args();
        let b = Binding::tool_call("get_weather", &a).with_principal("user-123");
        let token = s.seal(&b, &payload(), t0()).unwrap();
        assert!(token.starts_with("es1."));
        assert!(
            token[4..]
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        let raw = raw(&token);
        assert_eq!(raw[..4], 0xA1B2_C3D4u32.to_be_bytes());
        let plaintext = decrypt(&ring, &token);
        assert_eq!(raw.len(), 4 + 12 + plaintext.len() + 16);
        // Nothing readable in the token; the principal not even in the plaintext.
        assert!(!String::from_utf8_lossy(&raw).contains("octocat"));
        assert!(!plaintext.contains("user-123"));
        let env: Value = serde_json::from_str(&plaintext).unwrap();
        assert_eq!(env["v"], 1);
        assert_eq!(env["iat"], 1_780_000_000u64);
        assert_eq!(env["exp"], 1_780_000_600u64);
        assert_eq!(env["aud"], AUD);
        assert_eq!(env["m"], "tools/call");
        assert_eq!(env["t"], "get_weather");
        assert_eq!(env["a"], b64(&args_digest(&a)));
        assert_eq!(env["p"].as_str().unwrap().len(), 43);
        assert_eq!(env["jti"].as_str().unwrap().len(), 22);
        assert_eq!(env["s"], payload());
        // Without a principal there is no `p` claim.
        let anon = s
            .seal(&Binding::tool_call("get_weather", &a), &Value::Null, t0())
            .unwrap();
        let env: Value = serde_json::from_str(&decrypt(&ring, &anon)).unwrap();
        assert!(env.get("p").is_none());
    }

    #[test]
    fn every_seal_is_fresh() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        let t1 = s.seal(&b, &Value::Null, t0()).unwrap();
        let t2 = s.seal(&b, &Value::Null, t0()).unwrap();
        assert_ne!(t1, t2);
        assert_ne!(raw(&t1)[4..16], raw(&t2)[4..16]);
        assert_ne!(
            s.open(&t1, &b, t0()).unwrap().id,
            s.open(&t2, &b, t0()).unwrap().id
        );
    }

    #[test]
    fn malformed_tokens() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        let good = s.seal(&b, &Value::Null, t0()).unwrap();
        let body = &good[4..];
        let bad = [
            String::new(),
            "es1".into(),
            "es1.".into(),
            format!("es2.{body}"),
            format!("ES1.{body}"),
            format!("v1.{body}"),
            format!(" {good}"),
            format!("{good} "),
            format!("{good}="),
            format!("es1.+{}", &body[1..]),
            format!("es1.{}/", &body[..body.len() - 1]),
            "es1.!!!!".into(),
            "es1.AAAA".into(),
            format!("es1.{}", URL_SAFE_NO_PAD.encode([0u8; 31])),
            format!("es1.{body}\u{e9}"),
        ];
        for token in &bad {
            let err = s.open(token, &b, t0()).unwrap_err();
            assert!(
                matches!(err, StateError::Malformed(_)),
                "{token:?}: {err:?}"
            );
            assert_eq!(err.to_jsonrpc_error(), uniform());
        }
    }

    #[test]
    fn oversized_token_is_refused_before_decoding() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        let huge = format!("es1.{}", "A".repeat(MAX_TOKEN_LEN));
        assert_refused(
            s.open(&huge, &b, t0()),
            &StateError::TooLarge {
                len: MAX_TOKEN_LEN + 4,
            },
        );
        let very_huge = "\u{1F980}".repeat(1 << 20);
        assert!(matches!(
            s.open(&very_huge, &b, t0()),
            Err(StateError::TooLarge { .. })
        ));
    }

    #[test]
    fn envelope_problems_are_malformed() {
        let ring = KeyRing::new(1, K1);
        let s = StateSealer::new(ring.clone(), AUD);
        let b = Binding::tool_call("t", &Value::Null);
        let digest = b64(&b.args_digest);
        let jti = b64(&[9; 16]);
        let cases = [
            "not json".to_string(),
            "{}".into(),
            format!(
                r#"{{"v":2,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":null}}"#
            ),
            format!(
                r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"AAAA","jti":"{jti}","s":null}}"#
            ),
            format!(
                r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","p":"!","jti":"{jti}","s":null}}"#
            ),
            format!(
                r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}"}}"#
            ),
        ];
        for plaintext in &cases {
            let token = seal_frame(&ring, TOKEN_PREFIX, plaintext.as_bytes()).unwrap();
            let err = s.open(&token, &b, t0()).unwrap_err();
            assert!(
                matches!(err, StateError::Malformed(_)),
                "{plaintext}: {err:?}"
            );
        }
        // The hand-made envelope itself is accepted when well formed.
        let ok = format!(
            r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":{{"x":1}}}}"#
        );
        let token = seal_frame(&ring, TOKEN_PREFIX, ok.as_bytes()).unwrap();
        let opened = s.open(&token, &b, t0()).unwrap();
        assert_eq!((opened.payload, opened.id), (json!({"x": 1}), [9; 16]));
        // Timestamps beyond what SystemTime can hold do not panic.
        let far = format!(
            r#"{{"v":1,"iat":0,"exp":18446744073709551615,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":null}}"#
        );
        let token = seal_frame(&ring, TOKEN_PREFIX, far.as_bytes()).unwrap();
        let s_long = s.clone().with_ttl(Duration::from_secs(u64::MAX));
        let _ = s_long.open(&token, &b, t0());
    }

    #[test]
    fn unknown_key() {
        let other = StateSealer::new(KeyRing::new(99, K2), AUD);
        let b = Binding::tool_call("t", &Value::Null);
        let token = other.seal(&b, &Value::Null, t0()).unwrap();
        assert_refused(
            sealer().open(&token, &b, t0()),
            &StateError::UnknownKey { kid: 99 },
        );
    }

    #[test]
    fn wrong_key_under_the_same_kid() {
        let other = StateSealer::new(KeyRing::new(1, K2), AUD);
        let b = Binding::tool_call("t", &Value::Null);
        let token = other.seal(&b, &Value::Null, t0()).unwrap();
        assert_refused(sealer().open(&token, &b, t0()), &StateError::Decrypt);
    }

    #[test]
    fn kid_is_authenticated() {
        // Same key under two ids: rewriting the kid in the token must still fail.
        let ring = KeyRing::new(1, K1).with_old_key(2, K1);
        let s = StateSealer::new(ring, AUD);
        let b = Binding::tool_call("t", &Value::Null);
        let token = s.seal(&b, &Value::Null, t0()).unwrap();
        let mut bytes = raw(&token);
        bytes[..4].copy_from_slice(&2u32.to_be_bytes());
        let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_refused(s.open(&forged, &b, t0()), &StateError::Decrypt);
    }

    #[test]
    fn other_token_kinds_do_not_open_as_state() {
        let ring = KeyRing::new(1, K1);
        let b = Binding::tool_call("t", &Value::Null);
        let token = sealer().seal(&b, &Value::Null, t0()).unwrap();
        let as_other_kind = format!("eu1.{}", &token[4..]);
        assert_eq!(
            open_frame(&ring, "eu1.", &as_other_kind).unwrap_err(),
            StateError::Decrypt
        );
    }

    #[test]
    fn rotation_old_key_opens_new_key_seals() {
        let b = Binding::tool_call("t", &Value::Null);
        let before = StateSealer::new(KeyRing::new(1, K1), AUD);
        let old_token = before.seal(&b, &json!("old"), t0()).unwrap();

        let after = StateSealer::new(KeyRing::new(2, K2).with_old_key(1, K1), AUD);
        let opened = after.open(&old_token, &b, t0() + secs(1)).unwrap();
        assert_eq!((opened.payload, opened.kid), (json!("old"), 1));

        let new_token = after.seal(&b, &json!("new"), t0()).unwrap();
        assert_eq!(raw(&new_token)[..4], 2u32.to_be_bytes());
        assert_eq!(after.open(&new_token, &b, t0()).unwrap().kid, 2);
        // The previous deployment cannot open tokens of the new key.
        assert_refused(
            before.open(&new_token, &b, t0()),
            &StateError::UnknownKey { kid: 2 },
        );
        // Once the old key is dropped, its tokens die.
        let later = StateSealer::new(KeyRing::new(2, K2), AUD);
        assert_refused(
            later.open(&old_token, &b, t0()),
            &StateError::UnknownKey { kid: 1 },
        );
    }

    #[test]
    fn expiry_and_clock_skew() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        let token = s.seal(&b, &Value::Null, t0()).unwrap();
        assert!(s.open(&token, &b, t0() + secs(599)).is_ok());
        assert_refused(s.open(&token, &b, t0() + secs(600)), &StateError::Expired);
        assert_refused(
            s.open(&token, &b, t0() + secs(86_400)),
            &StateError::Expired,
        );
        assert!(s.open(&token, &b, t0() - secs(30)).is_ok());
        assert_refused(
            s.open(&token, &b, t0() - secs(31)),
            &StateError::NotYetValid,
        );
        assert_refused(s.open(&token, &b, UNIX_EPOCH), &StateError::NotYetValid);
        // A time before the epoch does not panic.
        let _ = s.open(&token, &b, UNIX_EPOCH - secs(10));
        let _ = s.seal(&b, &Value::Null, UNIX_EPOCH - secs(10)).unwrap();
    }

    #[test]
    fn custom_ttl_and_lowering_it() {
        let b = Binding::tool_call("t", &Value::Null);
        let short = sealer().with_ttl(secs(60));
        let token = short.seal(&b, &Value::Null, t0()).unwrap();
        assert_eq!(
            short.open(&token, &b, t0()).unwrap().expires_at,
            t0() + secs(60)
        );
        assert_refused(
            short.open(&token, &b, t0() + secs(60)),
            &StateError::Expired,
        );

        // Lowering the TTL applies to tokens already handed out.
        let long_lived = sealer().seal(&b, &Value::Null, t0()).unwrap();
        assert_refused(
            short.open(&long_lived, &b, t0() + secs(61)),
            &StateError::Expired,
        );
        // (within the second a token sealed at a fractional time may need).
        assert_eq!(
            short.open(&long_lived, &b, t0()).unwrap().expires_at,
            t0() + secs(61)
        );
        // Zero rounds up to one second.
        assert_eq!(sealer().with_ttl(Duration::ZERO).ttl(), secs(1));
    }

    #[test]
    fn audience_mismatch() {
        let b = Binding::tool_call("t", &Value::Null);
        let token = sealer().seal(&b, &Value::Null, t0()).unwrap();
        let other_server = StateSealer::new(KeyRing::new(1, K1), "other-server");
        assert_refused(
            other_server.open(&token, &b, t0()),
            &StateError::AudienceMismatch,
        );
    }

    #[test]
    fn method_target_and_arguments_mismatch() {
        let s = sealer();
        let a = args();
        let b = Binding::tool_call("get_weather", &a);
        let token = s.seal(&b, &Value::Null, t0()).unwrap();

        assert_refused(
            s.open(&token, &Binding::prompt_get("get_weather", &a), t0()),
            &StateError::MethodMismatch,
        );
        assert_refused(
            s.open(&token, &Binding::tool_call("get_forecast", &a), t0()),
            &StateError::TargetMismatch,
        );
        let changed =
            json!({"location": "Paris", "units": {"temp": "C", "wind": "kmh"}, "days": 3});
        assert_refused(
            s.open(&token, &Binding::tool_call("get_weather", &changed), t0()),
            &StateError::ArgumentsChanged,
        );
        let extra = json!({"location": "New York", "units": {"temp": "C", "wind": "kmh"}, "days": 3, "x": null});
        assert_refused(
            s.open(&token, &Binding::tool_call("get_weather", &extra), t0()),
            &StateError::ArgumentsChanged,
        );
        // Key order (at every depth) and whitespace do not matter.
        let reordered: Value = serde_json::from_str(
            r#"{ "days": 3, "units": { "wind": "kmh", "temp": "C" }, "location": "New York" }"#,
        )
        .unwrap();
        assert!(
            s.open(&token, &Binding::tool_call("get_weather", &reordered), t0())
                .is_ok()
        );
    }

    #[test]
    fn principal_binding() {
        let s = sealer();
        let a = args();
        let alice = Binding::tool_call("get_weather", &a).with_principal("alice");
        let bob = alice.with_principal("bob");
        let nobody = alice.with_principal(None);

        let for_alice = s.seal(&alice, &Value::Null, t0()).unwrap();
        assert!(s.open(&for_alice, &alice, t0()).is_ok());
        assert_refused(
            s.open(&for_alice, &bob, t0()),
            &StateError::PrincipalMismatch,
        );
        assert_refused(
            s.open(&for_alice, &nobody, t0()),
            &StateError::PrincipalMismatch,
        );

        let anonymous = s.seal(&nobody, &Value::Null, t0()).unwrap();
        assert!(s.open(&anonymous, &nobody, t0()).is_ok());
        assert_refused(
            s.open(&anonymous, &alice, t0()),
            &StateError::PrincipalMismatch,
        );
        assert_refused(
            s.open(&anonymous, &alice.with_principal(""), t0()),
            &StateError::PrincipalMismatch,
        );
    }

    #[test]
    fn principal_hash_is_salted_with_the_audience() {
        assert_ne!(principal_hash("a", "bc"), principal_hash("ab", "c"));
        assert_ne!(principal_hash("srv1", "u"), principal_hash("srv2", "u"));
        assert_eq!(principal_hash("srv1", "u"), principal_hash("srv1", "u"));
    }

    #[test]
    fn replay_guard_makes_state_single_use() {
        let guard = Arc::new(MemoryReplayGuard::new());
        let s = sealer().with_replay_guard(guard.clone());
        let a = args();
        let b = Binding::tool_call("get_weather", &a).with_principal("alice");
        let token = s.seal(&b, &payload(), t0()).unwrap();

        // Failed checks do not burn the token.
        assert_refused(
            s.open(&token, &b.with_principal("mallory"), t0()),
            &StateError::PrincipalMismatch,
        );
        assert!(guard.is_empty());

        let opened = s.open(&token, &b, t0()).unwrap();
        assert_eq!(opened.payload, payload());
        assert_eq!(guard.len(), 1);
        assert_refused(s.open(&token, &b, t0() + secs(1)), &StateError::Replayed);

        // Another token of the same request is independent.
        let second = s.seal(&b, &payload(), t0()).unwrap();
        assert!(s.open(&second, &b, t0()).is_ok());
    }

    #[test]
    fn replay_guard_failure_fails_closed() {
        struct Down;
        impl ReplayGuard for Down {
            fn redeem(&self, _: [u8; 16], _: SystemTime, _: SystemTime) -> Result<(), StateError> {
                Err(StateError::ReplayGuardUnavailable(
                    "store unreachable".into(),
                ))
            }
        }
        let s = sealer().with_replay_guard(Arc::new(Down));
        let b = Binding::tool_call("t", &Value::Null);
        let token = s.seal(&b, &Value::Null, t0()).unwrap();
        assert_refused(
            s.open(&token, &b, t0()),
            &StateError::ReplayGuardUnavailable("store unreachable".into()),
        );
    }

    #[test]
    fn tampering_any_character_never_opens() {
        let s = sealer();
        let a = args();
        let b = Binding::tool_call("get_weather", &a).with_principal("alice");
        let token = s.seal(&b, &payload(), t0()).unwrap();
        let subs = [
            'A', 'B', 'g', 'z', '0', '9', '-', '_', '.', '=', '+', '/', ' ', 'é',
        ];
        let chars: Vec<char> = token.chars().collect();
        let mut tried = 0;
        for i in 0..chars.len() {
            for &c in &subs {
                if c == chars[i] {
                    continue;
                }
                let mut tampered = chars.clone();
                tampered[i] = c;
                let tampered: String = tampered.into_iter().collect();
                assert!(s.open(&tampered, &b, t0()).is_err(), "position {i} -> {c}");
                tried += 1;
            }
        }
        assert!(tried > 13 * chars.len() - chars.len());
    }

    #[test]
    fn flipping_any_bit_never_opens() {
        let s = sealer();
        let b = Binding::tool_call("t", &json!({"k": 1}));
        let token = s.seal(&b, &payload(), t0()).unwrap();
        let bytes = raw(&token);
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut tampered = bytes.clone();
                tampered[i] ^= 1 << bit;
                let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&tampered));
                let err = s.open(&forged, &b, t0()).unwrap_err();
                let expected = if i < 4 {
                    StateError::UnknownKey {
                        kid: u32::from_be_bytes(tampered[..4].try_into().unwrap()),
                    }
                } else {
                    StateError::Decrypt
                };
                assert_eq!(err, expected, "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn truncation_at_every_length_never_opens() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        let token = s.seal(&b, &payload(), t0()).unwrap();
        for len in 0..token.len() {
            assert!(s.open(&token[..len], &b, t0()).is_err(), "length {len}");
        }
        // Truncating the raw bytes (re-encoded as valid base64) fails authentication.
        let bytes = raw(&token);
        for len in 0..bytes.len() {
            let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes[..len]));
            let err = s.open(&forged, &b, t0()).unwrap_err();
            assert!(
                matches!(err, StateError::Malformed(_) | StateError::Decrypt),
                "length {len}: {err:?}"
            );
        }
        // Appending also fails.
        for extra in ["A", "AA", "AAAA", "AAAAA"] {
            assert!(s.open(&format!("{token}{extra}"), &b, t0()).is_err());
        }
    }

    #[test]
    fn random_garbage_never_opens_or_panics() {
        let s = sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new()));
        let b = Binding::tool_call("t", &Value::Null);
        let alphabet: Vec<char> =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u{0}é🦀"
                .chars()
                .collect();
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for round in 0..3_000 {
            let len = rng.below(400);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let token = if round % 2 == 0 {
                format!("es1.{text}")
            } else {
                text
            };
            assert!(s.open(&token, &b, t0()).is_err());

            // Well-formed frames of random bytes, half of them under the primary kid.
            let n = 32 + rng.below(200);
            let mut bytes: Vec<u8> = (0..n).map(|_| rng.next().to_le_bytes()[0]).collect();
            if round % 2 == 0 {
                bytes[..4].copy_from_slice(&1u32.to_be_bytes());
            }
            let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes));
            let err = s.open(&forged, &b, t0()).unwrap_err();
            assert!(matches!(
                err,
                StateError::Decrypt | StateError::UnknownKey { .. }
            ));
        }
        // Arbitrary Unicode scalar values.
        for _ in 0..1_000 {
            let len = rng.below(64);
            let text: String = (0..len)
                .filter_map(|_| char::from_u32(u32::try_from(rng.next() % 0x11_0000).unwrap()))
                .collect();
            assert!(s.open(&text, &b, t0()).is_err());
            assert!(s.open(&format!("es1.{text}"), &b, t0()).is_err());
        }
    }

    #[test]
    fn size_limit_is_symmetric() {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        // Largest string payload that seals, by bisection; it must also open.
        let (mut lo, mut hi) = (0usize, MAX_TOKEN_LEN);
        while lo + 1 < hi {
            let mid = usize::midpoint(lo, hi);
            if s.seal(&b, &json!("x".repeat(mid)), t0()).is_ok() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let token = s.seal(&b, &json!("x".repeat(lo)), t0()).unwrap();
        assert!(token.len() <= MAX_TOKEN_LEN);
        assert!(token.len() > MAX_TOKEN_LEN - 4);
        assert!(s.open(&token, &b, t0()).is_ok());
        let err = s.seal(&b, &json!("x".repeat(lo + 1)), t0()).unwrap_err();
        assert!(matches!(err, SealError::PayloadTooLarge { max, .. } if max == MAX_TOKEN_LEN));
    }

    #[test]
    fn canonical_json_rules() {
        assert_eq!(canonical_json(&json!(null)), "null");
        assert_eq!(
            canonical_json(&json!({"b": 1, "a": {"d": [3, 2], "c": "é\u{7f}\u{1f}"}})),
            "{\"a\":{\"c\":\"é\u{7f}\\u001f\",\"d\":[3,2]},\"b\":1}"
        );
        assert_eq!(
            canonical_json(&json!([1.0, -0.0, 2.5, 1e20, -7])),
            "[1,0,2.5,100000000000000000000,-7]"
        );
        assert_eq!(
            canonical_json(&json!({"B": 0, "a": 0, "é": 0, "z": 0})),
            r#"{"B":0,"a":0,"z":0,"é":0}"#
        );
        // Canonical text parses back to the same structure.
        let v = json!({"s": "tab\t quote\" back\\ \u{8}\u{c}\r", "n": [0.1, u64::MAX, i64::MIN]});
        let back: Value = serde_json::from_str(&canonical_json(&v)).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn args_digest_rules() {
        assert_eq!(args_digest(&Value::Null), args_digest(&json!({})));
        assert_eq!(
            args_digest(&json!({"a": 1, "b": [1, 2]})),
            args_digest(&json!({"b": [1, 2], "a": 1}))
        );
        assert_eq!(
            args_digest(&json!({"a": 1.0})),
            args_digest(&json!({"a": 1}))
        );
        assert_ne!(
            args_digest(&json!({"a": [1, 2]})),
            args_digest(&json!({"a": [2, 1]}))
        );
        assert_ne!(
            args_digest(&json!({"a": "1"})),
            args_digest(&json!({"a": 1}))
        );
        assert_ne!(args_digest(&json!([])), args_digest(&json!({})));
        // Known answer: SHA-256("{}") = 44136fa3 55b3678a 1146ad16 f7e8649e ...
        assert_eq!(
            args_digest(&json!({})),
            [
                0x44, 0x13, 0x6f, 0xa3, 0x55, 0xb3, 0x67, 0x8a, 0x11, 0x46, 0xad, 0x16, 0xf7, 0xe8,
                0x64, 0x9e
            ]
        );
    }

    #[test]
    fn sealer_is_shareable_and_debug_hides_keys() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<StateSealer>();
        assert_send_sync::<KeyRing>();
        let s = StateSealer::new(KeyRing::new(1, [0xEE; 32]), AUD)
            .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
        let text = format!("{s:?}");
        assert!(
            text.contains("primary_kid: 1") && text.contains(AUD),
            "{text}"
        );
        assert!(!text.contains("238"), "{text}"); // 0xEE
    }
}
