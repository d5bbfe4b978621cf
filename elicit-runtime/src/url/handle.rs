//! The sealed handle put in a URL-mode link: unguessable, bound to the principal (hashed,
//! never in clear), the tool call and a short expiry, carrying the bound state encrypted.

use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::state::frame::{self, Prefix};
use crate::state::{
    Binding, SealError, StateError, StateSealer, ct_eq, expiry_from_unix_secs, lifetime,
    principal_hash, ttl_secs,
};

pub(crate) mod confirm;

/// Handles never open as `requestState` and vice versa: the prefix is authenticated.
pub(crate) const HANDLE_PREFIX: &Prefix = b"eu1.";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Claims {
    pub v: u8,
    /// The handle id: random, also the 2025-11-25 `elicitationId` and the store key.
    pub id: String,
    pub iat: u64,
    pub exp: u64,
    pub aud: String,
    pub m: String,
    pub t: String,
    pub a: String,
    pub p: String,
    /// The elicitation's key.
    pub k: String,
    /// The elicitation's message (`ElicitUrl::MESSAGE`), which the landing route's
    /// confirmation page shows: what the user is asked to do. Absent from handles sealed
    /// before it was added (they still open; the page then shows a generic text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub msg: String,
    /// What the confirmation page shows of the bound state (`ElicitUrl::shown`). Absent when
    /// nothing is marked to be shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub show: Vec<super::Shown>,
    /// The bound state.
    pub s: Value,
}

impl Claims {
    /// The expiry. One that `SystemTime` cannot hold (never sealed: sealers clamp their TTL)
    /// is read as the epoch, so the handle counts as expired: fail closed, never panic.
    pub(crate) fn expires_at(&self) -> SystemTime {
        expiry_from_unix_secs(self.exp)
    }

    /// Whether `subject` is the principal who started the elicitation.
    pub(crate) fn is_for(&self, sealer: &StateSealer, subject: &str) -> bool {
        let expected = principal_hash(sealer.audience(), subject);
        URL_SAFE_NO_PAD
            .decode(&self.p)
            .is_ok_and(|p| ct_eq(&p, &expected))
    }
}

/// A fresh random handle id (128 bits).
pub(crate) fn new_id() -> Result<String, SealError> {
    Ok(URL_SAFE_NO_PAD.encode(frame::random::<16>()?))
}

/// Seals a handle for `key` (asked with `message`) with `state`, bound to `binding` (which
/// must carry a principal). With `flow`, the handle continues that flow: its id, and an expiry
/// no later than the flow's (seconds since the epoch).
#[allow(clippy::too_many_arguments)]
pub(crate) fn mint(
    sealer: &StateSealer,
    binding: &Binding<'_>,
    principal: &str,
    key: &str,
    message: &str,
    bound: &super::Bound,
    now: SystemTime,
    flow: Option<(String, u64)>,
) -> Result<(Claims, String), SealError> {
    // Rounded as `requestState` lifetimes are: a handle lives at least the full TTL.
    let (iat, exp) = lifetime(now, sealer.ttl());
    let (id, exp) = match flow {
        Some((id, until)) => (id, exp.min(until)),
        None => (new_id()?, exp),
    };
    let claims = Claims {
        v: 1,
        id,
        iat,
        exp,
        aud: sealer.audience().to_owned(),
        m: binding.method.to_owned(),
        t: binding.target.to_owned(),
        a: URL_SAFE_NO_PAD.encode(binding.args_digest),
        p: URL_SAFE_NO_PAD.encode(principal_hash(sealer.audience(), principal)),
        k: key.to_owned(),
        msg: message.to_owned(),
        show: bound.shown.clone(),
        s: bound.state.clone(),
    };
    let plaintext = serde_json::to_vec(&claims).map_err(|e| SealError::Serialize(e.to_string()))?;
    let token = frame::seal(sealer.key_ring(), HANDLE_PREFIX, &plaintext)?;
    Ok((claims, token))
}

/// Opens a handle: authenticity and audience only; the caller checks subject and expiry.
pub(crate) fn open(sealer: &StateSealer, token: &str) -> Result<Claims, StateError> {
    let opened = frame::open(sealer.key_ring(), HANDLE_PREFIX, token)?;
    let mut claims: Claims = serde_json::from_slice(opened.plaintext())
        .map_err(|_| StateError::Malformed("handle claims"))?;
    // As for `requestState`: a lowered TTL applies at once to handles already out.
    let cap = claims
        .iat
        .saturating_add(ttl_secs(sealer.ttl()))
        .saturating_add(1);
    claims.exp = claims.exp.min(cap);
    if claims.v != 1 {
        return Err(StateError::Malformed("handle version"));
    }
    if claims.aud != sealer.audience() {
        return Err(StateError::AudienceMismatch);
    }
    Ok(claims)
}

/// Seals a handle for elicitation `key`, asked with `message` on a channel in URL `mode`, with
/// the bound state (continuing `flow`, its id and expiry, when given).
pub(crate) fn mint_for(
    mode: &crate::channel::UrlMode,
    key: &str,
    message: &str,
    bound: &super::Bound,
    flow: Option<(String, u64)>,
) -> Result<(Claims, String), crate::interrupt::Interrupt> {
    mint(
        mode.server.sealer(),
        &mode.binding(),
        mode.principal()?,
        key,
        message,
        bound,
        SystemTime::now(),
        flow,
    )
    .map_err(|e| crate::channel::internal(format!("cannot seal the URL handle: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9 item 7: `UNIX_EPOCH + Duration::from_secs(exp)` panicked for an expiry that
    /// `SystemTime` cannot hold; now such a handle reads as expired.
    #[test]
    fn an_unrepresentable_expiry_reads_as_expired() {
        let claims = |exp| Claims {
            v: 1,
            id: "id".into(),
            iat: 0,
            exp,
            aud: "a".into(),
            m: "tools/call".into(),
            t: "t".into(),
            a: String::new(),
            p: String::new(),
            k: "k".into(),
            msg: String::new(),
            show: Vec::new(),
            s: Value::Null,
        };
        assert_eq!(claims(u64::MAX).expires_at(), SystemTime::UNIX_EPOCH);
        assert_eq!(
            claims(60).expires_at(),
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(60)
        );
    }

    /// Issue 9 item 7: lowering the TTL shortens handles already out, as it does `requestState`.
    #[test]
    fn a_lowered_ttl_caps_handles_already_out() {
        use std::time::Duration;

        let ring = || crate::state::KeyRing::new(1, [3; 32]);
        let long = StateSealer::new(ring(), "aud").with_ttl(Duration::from_secs(600));
        let short = StateSealer::new(ring(), "aud").with_ttl(Duration::from_secs(1));
        let args = serde_json::json!({});
        let binding = Binding::tool_call("t", &args).with_principal("alice");
        let ten_ago = SystemTime::now() - Duration::from_secs(10);
        let (_, token) = mint(
            &long,
            &binding,
            "alice",
            "k",
            "m",
            &crate::url::Bound::plain(Value::Null),
            ten_ago,
            None,
        )
        .unwrap();
        assert!(open(&long, &token).unwrap().expires_at() > SystemTime::now());
        assert!(open(&short, &token).unwrap().expires_at() < SystemTime::now());
    }

    /// Every single-bit flip and every truncation of a URL handle is refused, and what the
    /// landing page may show for each is the one uniform text.
    #[test]
    fn every_bit_flip_and_truncation_of_a_handle_is_refused_uniformly() {
        use crate::url::PageError;

        let sealer = StateSealer::new(crate::state::KeyRing::new(1, [5; 32]), "aud");
        let args = serde_json::json!({"repo": "elicit"});
        let binding = Binding::tool_call("connect", &args).with_principal("alice");
        let state = serde_json::json!({"scopes": "repo"});
        let (_, token) = mint(
            &sealer,
            &binding,
            "alice",
            "k",
            "Connect",
            &crate::url::Bound::plain(state),
            SystemTime::now(),
            None,
        )
        .unwrap();
        assert!(open(&sealer, &token).is_ok(), "the control opens");
        let uniform = PageError::Expired.to_string();
        let prefix = "eu1.";
        let refused = |forged: &str| {
            let error = open(&sealer, forged).expect_err(forged);
            assert_eq!(PageError::Invalid(error).to_string(), uniform, "{forged}");
        };
        let body = URL_SAFE_NO_PAD
            .decode(&token[HANDLE_PREFIX.len()..])
            .unwrap();
        for i in 0..body.len() {
            for bit in 0..8 {
                let mut flipped = body.clone();
                flipped[i] ^= 1 << bit;
                refused(&format!("{prefix}{}", URL_SAFE_NO_PAD.encode(&flipped)));
            }
        }
        for len in 0..token.len() {
            refused(&token[..len]);
        }
        for len in 0..body.len() {
            refused(&format!("{prefix}{}", URL_SAFE_NO_PAD.encode(&body[..len])));
        }
    }
}
