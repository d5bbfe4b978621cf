//! What a sealed `requestState` says: the plaintext inside an `es1.` frame.
//!
//! A compact JSON object: `v` (version), `iat` and `exp` (Unix seconds), `aud` (audience),
//! `m` (method), `t` (target), `a` (arguments digest), `p` (salted principal hash, absent
//! without a principal), `jti` (random state id) and `s` (the caller's payload). Binary claims
//! are unpadded base64url. It is written straight into the frame's buffer and read back
//! borrowing from the decrypted bytes; only the payload is built.

use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use super::frame::Plaintext;
use super::{SealError, StateError};

/// Version of the plaintext envelope inside an `es1.` token.
pub(crate) const ENVELOPE_VERSION: u32 = 1;

/// Longest lifetime a sealer gives tokens: one day. Longer settings are clamped to it, which
/// also keeps every `now + ttl` far from overflowing.
pub const MAX_TTL: Duration = Duration::from_hours(24);

/// Unpadded base64url of up to 32 bytes, on the stack.
pub(crate) struct B64 {
    buf: [u8; 43],
    len: usize,
}

impl B64 {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let mut buf = [0u8; 43];
        let len = URL_SAFE_NO_PAD.encode_slice(bytes, &mut buf).unwrap_or(0);
        Self { buf, len }
    }

    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

/// Exactly `N` bytes from unpadded base64url.
pub(crate) fn unb64<const N: usize>(text: &str) -> Result<[u8; N], StateError> {
    // One spare byte, so that longer input is caught as the wrong length, not a short buffer.
    let mut buf = [0u8; 33];
    let out = buf.get_mut(..=N).unwrap_or_default();
    let len = URL_SAFE_NO_PAD
        .decode_slice(text, out)
        .map_err(|_| StateError::Malformed("envelope claim is not base64url"))?;
    let mut bytes = [0u8; N];
    if len != N {
        return Err(StateError::Malformed("envelope claim has the wrong length"));
    }
    bytes.copy_from_slice(&buf[..N]);
    Ok(bytes)
}

/// The claims of an envelope being sealed (binary claims already in base64url).
#[derive(Serialize)]
pub(crate) struct Sealing<'a, P: ?Sized> {
    pub v: u32,
    pub iat: u64,
    pub exp: u64,
    pub aud: &'a str,
    pub m: &'a str,
    pub t: &'a str,
    pub a: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<&'a str>,
    pub jti: &'a str,
    pub s: &'a P,
}

impl<P: Serialize + ?Sized> Sealing<'_, P> {
    /// Room to reserve for an envelope around a payload of typical size (a few answers).
    pub(crate) fn capacity(aud: &str, m: &str, t: &str) -> usize {
        160 + aud.len() + m.len() + t.len() + 768
    }

    /// Writes the envelope into the frame's plaintext.
    pub(crate) fn write(&self, plaintext: &mut Plaintext) -> Result<(), SealError> {
        serde_json::to_writer(plaintext.buf(), self)
            .map_err(|e| SealError::Serialize(e.to_string()))
    }
}

/// The envelope as read back, borrowing from the plaintext.
#[derive(Deserialize)]
pub(crate) struct Claims<'a, P> {
    /// Envelope version.
    pub v: u32,
    /// Issued at, Unix seconds.
    pub iat: u64,
    /// Expires at, Unix seconds.
    pub exp: u64,
    /// Audience (the sealing server).
    #[serde(borrow)]
    pub aud: Cow<'a, str>,
    /// Method of the originating request.
    #[serde(borrow)]
    pub m: Cow<'a, str>,
    /// Target: tool or prompt name, resource URI.
    #[serde(borrow)]
    pub t: Cow<'a, str>,
    /// Arguments digest (16 bytes).
    pub a: &'a str,
    /// Salted principal hash (32 bytes); absent when there was no principal.
    #[serde(default, borrow)]
    pub p: Option<&'a str>,
    /// State id (16 random bytes).
    pub jti: &'a str,
    /// The caller's payload.
    pub s: P,
}

impl<'a, P: DeserializeOwned> Claims<'a, P> {
    /// Parses an envelope of the current version; a payload that is not a `P` is malformed too.
    pub(crate) fn parse(plaintext: &'a [u8]) -> Result<Self, StateError> {
        let claims: Self = serde_json::from_slice(plaintext).map_err(|_| {
            // Only on failure: was it the envelope, or a payload of another type?
            match serde_json::from_slice::<Claims<'_, IgnoredAny>>(plaintext) {
                Ok(_) => StateError::Malformed("payload is not of the expected type"),
                Err(_) => StateError::Malformed("envelope does not parse"),
            }
        })?;
        if claims.v != ENVELOPE_VERSION {
            return Err(StateError::Malformed("unsupported envelope version"));
        }
        Ok(claims)
    }
}

/// Whole seconds since the epoch (0 before it).
pub(crate) fn unix_secs(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The time `secs` after the epoch, if a `SystemTime` can hold it.
pub(crate) fn from_unix_secs(secs: u64) -> Option<SystemTime> {
    UNIX_EPOCH.checked_add(Duration::from_secs(secs))
}

/// A TTL in whole seconds: rounded up, at least one, at most [`MAX_TTL`].
pub(crate) fn ttl_secs(ttl: Duration) -> u64 {
    let secs = ttl
        .as_secs()
        .saturating_add(u64::from(ttl.subsec_nanos() > 0));
    secs.clamp(1, MAX_TTL.as_secs())
}

/// Issue and expiry time of a token sealed at `now` with `ttl`: the issue time is rounded
/// down to whole seconds, the expiry up, so every token lives at least the full TTL (and less
/// than a second longer).
pub(crate) fn lifetime(now: SystemTime, ttl: Duration) -> (u64, u64) {
    let iat = unix_secs(now);
    let fraction = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let exp = iat
        .saturating_add(ttl_secs(ttl))
        .saturating_add(u64::from(fraction > 0));
    (iat, exp)
}

#[cfg(test)]
mod tests;
