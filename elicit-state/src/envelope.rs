//! What a sealed `requestState` says: the plaintext inside an `es1.` frame.
//!
//! Version 2 is a fixed binary header followed by the caller's payload as compact JSON:
//!
//! ```text
//! v (u8 = 2) ‖ iat (u64 BE) ‖ exp (u64 BE) ‖ jti (16 bytes) ‖ args digest (16 bytes)
//! ‖ principal flag (u8: 0 none, 1 present) [‖ salted principal hash (32 bytes)]
//! ‖ len (u32 BE) ‖ audience ‖ len (u32 BE) ‖ method ‖ len (u32 BE) ‖ target ‖ payload JSON
//! ```
//!
//! Times are Unix seconds. The header is written straight into the frame's buffer and read
//! back borrowing from the decrypted bytes; only the payload is built. Version 1 (a JSON
//! object with base64url binary claims) spent a tenth of a seal and open on writing,
//! escaping and parsing the claims and their base64; its tokens are refused as malformed.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::{DeserializeOwned, IgnoredAny};

use super::frame::Plaintext;
use super::{MAX_TOKEN_LEN, SealError, StateError};

/// Version of the plaintext envelope inside an `es1.` token (its first byte).
pub(crate) const ENVELOPE_VERSION: u8 = 2;

/// Longest lifetime a sealer gives tokens: one day. Longer settings are clamped to it, which
/// also keeps every `now + ttl` far from overflowing.
pub const MAX_TTL: Duration = Duration::from_hours(24);

/// Bytes of the header before the principal hash: version, times, state id, arguments digest
/// and the principal flag.
const FIXED_LEN: usize = 1 + 8 + 8 + 16 + 16 + 1;

/// The claims of an envelope: what a token is bound to, when it lives, and its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header<'a> {
    /// Issued at, Unix seconds.
    pub iat: u64,
    /// Expires at, Unix seconds.
    pub exp: u64,
    /// State id (16 random bytes).
    pub jti: [u8; 16],
    /// Arguments digest.
    pub args: [u8; 16],
    /// Salted principal hash; `None` when there was no principal.
    pub principal: Option<[u8; 32]>,
    /// Audience (the sealing server).
    pub aud: &'a [u8],
    /// Method of the originating request.
    pub method: &'a [u8],
    /// Target: tool or prompt name, resource URI.
    pub target: &'a [u8],
}

impl<'a> Header<'a> {
    /// Room to reserve for an envelope around a payload of typical size (a few answers).
    pub(crate) fn capacity(aud: &str, method: &str, target: &str) -> usize {
        FIXED_LEN + 32 + 12 + aud.len() + method.len() + target.len() + 768
    }

    /// Length of the header in bytes.
    pub(crate) fn len(&self) -> usize {
        let principal = if self.principal.is_some() { 32 } else { 0 };
        FIXED_LEN + principal + 12 + self.aud.len() + self.method.len() + self.target.len()
    }

    /// Writes the header into the frame's plaintext (the payload goes after it).
    ///
    /// # Errors
    ///
    /// [`SealError::PayloadTooLarge`] if the header alone is longer than a token may be.
    pub(crate) fn write(&self, plaintext: &mut Plaintext) -> Result<(), SealError> {
        let len = self.len();
        if len > MAX_TOKEN_LEN {
            return Err(SealError::PayloadTooLarge {
                len,
                max: MAX_TOKEN_LEN,
            });
        }
        let buf = plaintext.buf();
        buf.push(ENVELOPE_VERSION);
        buf.extend_from_slice(&self.iat.to_be_bytes());
        buf.extend_from_slice(&self.exp.to_be_bytes());
        buf.extend_from_slice(&self.jti);
        buf.extend_from_slice(&self.args);
        match &self.principal {
            Some(hash) => {
                buf.push(1);
                buf.extend_from_slice(hash);
            }
            None => buf.push(0),
        }
        for text in [self.aud, self.method, self.target] {
            // Below MAX_TOKEN_LEN, checked above, so within a u32.
            let text_len = u32::try_from(text.len()).unwrap_or(u32::MAX);
            buf.extend_from_slice(&text_len.to_be_bytes());
            buf.extend_from_slice(text);
        }
        Ok(())
    }

    /// Reads the header of an envelope of the current version, and the payload bytes after it.
    ///
    /// # Errors
    ///
    /// [`StateError::Malformed`] if the version is not the current one or the header is cut
    /// short or badly formed.
    pub(crate) fn parse(plaintext: &'a [u8]) -> Result<(Self, &'a [u8]), StateError> {
        let mut r = EnvelopeReader(plaintext);
        if r.array::<1>()? != [ENVELOPE_VERSION] {
            return Err(StateError::Malformed("unsupported envelope version"));
        }
        let iat = u64::from_be_bytes(r.array()?);
        let exp = u64::from_be_bytes(r.array()?);
        let jti = r.array()?;
        let args = r.array()?;
        let principal = match r.array::<1>()? {
            [0] => None,
            [1] => Some(r.array()?),
            _ => return Err(StateError::Malformed("envelope principal flag")),
        };
        let aud = r.text()?;
        let method = r.text()?;
        let target = r.text()?;
        let header = Self {
            iat,
            exp,
            jti,
            args,
            principal,
            aud,
            method,
            target,
        };
        Ok((header, r.0))
    }
}

/// Reads a header front to back; every shortfall is the same malformed envelope.
struct EnvelopeReader<'a>(&'a [u8]);

impl<'a> EnvelopeReader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        let Some((head, rest)) = self.0.split_at_checked(n) else {
            return Err(StateError::Malformed("envelope header cut short"));
        };
        self.0 = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], StateError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A length-prefixed text (compared as bytes, never read as text).
    fn text(&mut self) -> Result<&'a [u8], StateError> {
        let len = u32::from_be_bytes(self.array()?);
        let len =
            usize::try_from(len).map_err(|_| StateError::Malformed("envelope header cut short"))?;
        self.take(len)
    }
}

/// Parses the payload of an envelope as a `P`; what is not JSON, or not a `P`, is malformed.
///
/// The bytes are checked as UTF-8 once and parsed as text, which spares `serde_json` checking
/// every string on its own.
pub(crate) fn parse_payload<P: DeserializeOwned>(bytes: &[u8]) -> Result<P, StateError> {
    let not_json = StateError::Malformed("payload does not parse");
    let text = std::str::from_utf8(bytes).map_err(|_| not_json.clone())?;
    serde_json::from_str(text).map_err(|_| {
        // Only on failure: was it not JSON, or JSON of another type?
        match serde_json::from_str::<IgnoredAny>(text) {
            Ok(_) => StateError::Malformed("payload is not of the expected type"),
            Err(_) => not_json,
        }
    })
}

/// Whole seconds since the epoch (0 before it).
pub(crate) fn unix_secs(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The time `secs` after the epoch, if a `SystemTime` can hold it.
pub(crate) fn from_unix_secs(secs: u64) -> Option<SystemTime> {
    UNIX_EPOCH.checked_add(Duration::from_secs(secs))
}

/// An expiry `secs` after the epoch. One that `SystemTime` cannot hold (never sealed: sealers
/// clamp their TTL) reads as the epoch, so what it guards counts as expired: fail closed,
/// never panic.
pub fn expiry_from_unix_secs(secs: u64) -> SystemTime {
    from_unix_secs(secs).unwrap_or(UNIX_EPOCH)
}

/// A TTL in whole seconds: rounded up, at least one, at most [`MAX_TTL`].
pub fn ttl_secs(ttl: Duration) -> u64 {
    let secs = ttl
        .as_secs()
        .saturating_add(u64::from(ttl.subsec_nanos() > 0));
    secs.clamp(1, MAX_TTL.as_secs())
}

/// Issue and expiry time of a token sealed at `now` with `ttl`: the issue time is rounded
/// down to whole seconds, the expiry up, so every token lives at least the full TTL (and less
/// than a second longer).
pub fn lifetime(now: SystemTime, ttl: Duration) -> (u64, u64) {
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
