//! The sealed handle put in a URL-mode link: unguessable, bound to the principal (hashed,
//! never in clear), the tool call and a short expiry, carrying the bound state encrypted.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::state::seal::{ct_eq, open_frame, principal_hash, seal_frame};
use crate::state::{Binding, SealError, StateError, StateSealer};

/// Handles never open as `requestState` and vice versa: the prefix is authenticated.
const HANDLE_PREFIX: &str = "eu1.";

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
    /// The bound state.
    pub s: Value,
}

impl Claims {
    pub fn expires_at(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.exp)
    }

    /// Whether `subject` is the principal who started the elicitation.
    pub fn is_for(&self, sealer: &StateSealer, subject: &str) -> bool {
        let expected = principal_hash(sealer.audience(), subject);
        URL_SAFE_NO_PAD
            .decode(&self.p)
            .is_ok_and(|p| ct_eq(&p, &expected))
    }
}

/// A fresh random handle id (128 bits).
pub(crate) fn new_id() -> Result<String, SealError> {
    use aes_gcm::aead::Generate as _;
    let bytes = <[u8; 16]>::try_generate().map_err(|e| SealError::Randomness(e.to_string()))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// Seals a handle for `key` with `state`, bound to `binding` (which must carry a principal).
pub(crate) fn mint(
    sealer: &StateSealer,
    binding: &Binding<'_>,
    principal: &str,
    key: &str,
    state: Value,
    now: SystemTime,
    id: Option<String>,
) -> Result<(Claims, String), SealError> {
    let since_epoch = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let iat = since_epoch.as_secs();
    // Rounded up, as `requestState` expiries are: a handle lives at least the full TTL.
    let round_up = u64::from(since_epoch.subsec_nanos() > 0);
    let claims = Claims {
        v: 1,
        id: match id {
            Some(id) => id,
            None => new_id()?,
        },
        iat,
        exp: iat
            .saturating_add(sealer.ttl().as_secs())
            .saturating_add(round_up),
        aud: sealer.audience().to_owned(),
        m: binding.method.to_owned(),
        t: binding.target.to_owned(),
        a: URL_SAFE_NO_PAD.encode(binding.args_digest),
        p: URL_SAFE_NO_PAD.encode(principal_hash(sealer.audience(), principal)),
        k: key.to_owned(),
        s: state,
    };
    let plaintext =
        serde_json::to_vec(&claims).map_err(|e| SealError::Randomness(e.to_string()))?;
    let token = seal_frame(sealer.key_ring(), HANDLE_PREFIX, &plaintext)?;
    Ok((claims, token))
}

/// Opens a handle: authenticity and audience only; the caller checks subject and expiry.
pub(crate) fn open(sealer: &StateSealer, token: &str) -> Result<Claims, StateError> {
    let (_, plaintext) = open_frame(sealer.key_ring(), HANDLE_PREFIX, token)?;
    let claims: Claims =
        serde_json::from_slice(&plaintext).map_err(|_| StateError::Malformed("handle claims"))?;
    if claims.v != 1 {
        return Err(StateError::Malformed("handle version"));
    }
    if claims.aud != sealer.audience() {
        return Err(StateError::AudienceMismatch);
    }
    Ok(claims)
}
