//! The confirmation page's CSRF token: `ec1.` + the AEAD frame under the server's keys over
//! the page's handle (its exact text, hashed), that handle's expiry and the browser user
//! (hashed), so it is good for one link, one user, and only until that link expires.
//!
//! A flow's id is not enough to bind to: a flow asked again gets a new link under the same id,
//! and an `ask_or_link` call derives the same id for a later link, so a token bound to the id
//! alone let the page of an expired link confirm a later one (issue 32). The handle's text
//! differs for every link (each seal draws a fresh nonce), and the expiry is carried in clear
//! inside the sealed plaintext, so a token past it is refused before anything else is compared.
//!
//! The key ring keeps only AES-GCM ciphers, never key bytes, so the token is not an HMAC but
//! the same authenticated frame `requestState` and handles use, under a prefix of its own (the
//! prefix is authenticated: a handle or a state never passes as a token). Its plaintext is
//! not secret; the tag is what an attacker cannot forge. Opening checks the tag in constant
//! time (aes-gcm), and the plaintext is compared in constant time too.

use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::state::frame::{self, Prefix};
use crate::state::{SealError, StateSealer, ct_eq, expiry_from_unix_secs, principal_hash};

/// Confirmation tokens never open as handles or states and vice versa.
const CONFIRM_PREFIX: &Prefix = b"ec1.";

/// Domain separation of the handle's hash.
const HANDLE_LABEL: &[u8] = b"elicit confirm handle v2\0";

/// The length of a token's plaintext: the expiry, the handle's hash, the user's hash.
const CLAIM_LEN: usize = 8 + 32 + 32;

/// The link a token is for: the hash of its handle's text ([`handle_digest`]) and the
/// handle's expiry (seconds since the epoch, as the opened handle says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ForLink {
    pub handle: [u8; 32],
    pub exp: u64,
}

/// The hash of a handle's text, as the link carries it.
pub(crate) fn handle_digest(handle: &str) -> [u8; 32] {
    Sha256::new()
        .chain_update(HANDLE_LABEL)
        .chain_update(handle.as_bytes())
        .finalize()
        .into()
}

/// What a token says: the link's expiry, its handle's hash, then the user's (salted with the
/// audience).
fn claim(sealer: &StateSealer, link: &ForLink, subject: &str) -> [u8; CLAIM_LEN] {
    let mut out = [0u8; CLAIM_LEN];
    out[..8].copy_from_slice(&link.exp.to_be_bytes());
    out[8..40].copy_from_slice(&link.handle);
    out[40..].copy_from_slice(&principal_hash(sealer.audience(), subject));
    out
}

/// A token for `link` and `subject`.
pub(crate) fn seal(
    sealer: &StateSealer,
    link: &ForLink,
    subject: &str,
) -> Result<String, SealError> {
    frame::seal(
        sealer.key_ring(),
        CONFIRM_PREFIX,
        &claim(sealer, link, subject),
    )
}

/// Whether `token` was sealed by this server for `link` and `subject`, and is not past the
/// expiry it carries at `now`. An empty subject never confirms anything.
pub(crate) fn check(
    sealer: &StateSealer,
    link: &ForLink,
    subject: &str,
    token: &str,
    now: SystemTime,
) -> bool {
    if subject.is_empty() {
        return false;
    }
    let Ok(opened) = frame::open(sealer.key_ring(), CONFIRM_PREFIX, token) else {
        return false;
    };
    let plaintext = opened.plaintext();
    // The token's own expiry first: past it, nothing else matters. (A token of the older
    // layout, over the flow id only, is 64 bytes: refused by the comparison below.)
    let Some(exp) = plaintext.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()) else {
        return false;
    };
    if now >= expiry_from_unix_secs(u64::from_be_bytes(exp)) {
        return false;
    }
    ct_eq(plaintext, &claim(sealer, link, subject))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::KeyRing;
    use std::time::Duration;

    fn sealer(key: u8) -> StateSealer {
        StateSealer::new(KeyRing::new(1, [key; 32]), "aud")
    }

    /// A link expiring an hour from now, and `now`.
    fn link(handle: &str) -> (ForLink, SystemTime) {
        let now = SystemTime::now();
        let exp = crate::state::lifetime(now, Duration::from_secs(3600)).1;
        let link = ForLink {
            handle: handle_digest(handle),
            exp,
        };
        (link, now)
    }

    #[test]
    fn a_token_confirms_its_link_and_user_only() {
        let s = sealer(1);
        let (a, now) = link("eu1.handle-a");
        let token = seal(&s, &a, "alice").unwrap();
        assert!(token.starts_with("ec1."));
        assert!(check(&s, &a, "alice", &token, now));
        let (b, _) = link("eu1.handle-b");
        assert!(!check(&s, &b, "alice", &token, now), "another link");
        let later = ForLink {
            exp: a.exp + 1,
            ..a
        };
        assert!(!check(&s, &later, "alice", &token, now), "another expiry");
        assert!(!check(&s, &a, "bob", &token, now), "another user");
        assert!(!check(&s, &a, "", &token, now), "nobody");
        assert!(!check(&sealer(2), &a, "alice", &token, now), "another key");
        let other_audience = StateSealer::new(KeyRing::new(1, [1; 32]), "other");
        assert!(!check(&other_audience, &a, "alice", &token, now));
        assert!(!check(&s, &a, "alice", "", now));
        // A token sealed under another prefix (a handle's) never passes.
        let handle_like = frame::seal(s.key_ring(), b"eu1.", &claim(&s, &a, "alice"));
        let handle_like = handle_like.unwrap();
        assert!(!check(&s, &a, "alice", &handle_like, now));
        assert!(!check(
            &s,
            &a,
            "alice",
            &handle_like.replacen("eu1.", "ec1.", 1),
            now
        ));
    }

    /// Issue 32: a token is refused once the expiry it carries has passed, even for the very
    /// link and user it was sealed for.
    #[test]
    fn a_token_past_its_expiry_is_refused() {
        let s = sealer(4);
        let (a, now) = link("eu1.handle");
        let token = seal(&s, &a, "alice").unwrap();
        let expiry = expiry_from_unix_secs(a.exp);
        assert!(check(
            &s,
            &a,
            "alice",
            &token,
            expiry - Duration::from_secs(1)
        ));
        assert!(check(&s, &a, "alice", &token, now));
        assert!(!check(&s, &a, "alice", &token, expiry));
        assert!(!check(
            &s,
            &a,
            "alice",
            &token,
            expiry + Duration::from_secs(3600)
        ));
        // An expiry `SystemTime` cannot hold reads as expired: fail closed.
        let unbounded = ForLink { exp: u64::MAX, ..a };
        let token = seal(&s, &unbounded, "alice").unwrap();
        assert!(!check(&s, &unbounded, "alice", &token, now));
    }

    /// Issue 32: a token bound to the flow id only (the layout before) confirms no link.
    #[test]
    fn a_token_over_the_flow_id_only_is_refused() {
        let s = sealer(5);
        let (a, now) = link("eu1.handle");
        let mut old = [0u8; 64];
        old[..32].copy_from_slice(&handle_digest("flow-id"));
        old[32..].copy_from_slice(&principal_hash(s.audience(), "alice"));
        let old = frame::seal(s.key_ring(), CONFIRM_PREFIX, &old).unwrap();
        assert!(!check(&s, &a, "alice", &old, now));
    }

    #[test]
    fn every_bit_flip_of_a_token_is_refused() {
        use base64::Engine as _;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;

        let s = sealer(3);
        let (a, now) = link("eu1.handle");
        let token = seal(&s, &a, "alice").unwrap();
        let body = URL_SAFE_NO_PAD.decode(&token[4..]).unwrap();
        for i in 0..body.len() {
            for bit in 0..8 {
                let mut flipped = body.clone();
                flipped[i] ^= 1 << bit;
                let forged = format!("ec1.{}", URL_SAFE_NO_PAD.encode(&flipped));
                assert!(!check(&s, &a, "alice", &forged, now));
            }
        }
        for len in 0..token.len() {
            assert!(!check(&s, &a, "alice", &token[..len], now));
        }
    }
}
