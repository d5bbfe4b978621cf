//! The confirmation page's CSRF token: `ec1.` + the AEAD frame under the server's keys over
//! the handle's id and the browser user (hashed), so it is good for one flow and one user.
//!
//! The key ring keeps only AES-GCM ciphers, never key bytes, so the token is not an HMAC but
//! the same authenticated frame `requestState` and handles use, under a prefix of its own (the
//! prefix is authenticated: a handle or a state never passes as a token). Its plaintext is
//! not secret; the tag is what an attacker cannot forge. Opening checks the tag in constant
//! time (aes-gcm), and the plaintext is compared in constant time too.

use sha2::{Digest, Sha256};

use crate::state::frame::{self, Prefix};
use crate::state::{SealError, StateSealer, ct_eq, principal_hash};

/// Confirmation tokens never open as handles or states and vice versa.
const CONFIRM_PREFIX: &Prefix = b"ec1.";

/// Domain separation of the handle id's hash.
const FLOW_LABEL: &[u8] = b"elicit confirm flow v1\0";

/// What a token says: the flow's hash, then the user's (salted with the audience).
fn claim(sealer: &StateSealer, id: &str, subject: &str) -> [u8; 64] {
    let mut out = [0u8; 64];
    let flow: [u8; 32] = Sha256::new()
        .chain_update(FLOW_LABEL)
        .chain_update(id.as_bytes())
        .finalize()
        .into();
    out[..32].copy_from_slice(&flow);
    out[32..].copy_from_slice(&principal_hash(sealer.audience(), subject));
    out
}

/// A token for flow `id` and `subject`.
pub(crate) fn seal(sealer: &StateSealer, id: &str, subject: &str) -> Result<String, SealError> {
    frame::seal(
        sealer.key_ring(),
        CONFIRM_PREFIX,
        &claim(sealer, id, subject),
    )
}

/// Whether `token` was sealed by this server for flow `id` and `subject`. An empty subject
/// never confirms anything.
pub(crate) fn check(sealer: &StateSealer, id: &str, subject: &str, token: &str) -> bool {
    if subject.is_empty() {
        return false;
    }
    let Ok(opened) = frame::open(sealer.key_ring(), CONFIRM_PREFIX, token) else {
        return false;
    };
    ct_eq(opened.plaintext(), &claim(sealer, id, subject))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::KeyRing;

    fn sealer(key: u8) -> StateSealer {
        StateSealer::new(KeyRing::new(1, [key; 32]), "aud")
    }

    #[test]
    fn a_token_confirms_its_flow_and_user_only() {
        let s = sealer(1);
        let token = seal(&s, "flow-1", "alice").unwrap();
        assert!(token.starts_with("ec1."));
        assert!(check(&s, "flow-1", "alice", &token));
        assert!(!check(&s, "flow-2", "alice", &token), "another flow");
        assert!(!check(&s, "flow-1", "bob", &token), "another user");
        assert!(!check(&s, "flow-1", "", &token), "nobody");
        assert!(!check(&sealer(2), "flow-1", "alice", &token), "another key");
        let other_audience = StateSealer::new(KeyRing::new(1, [1; 32]), "other");
        assert!(!check(&other_audience, "flow-1", "alice", &token));
        assert!(!check(&s, "flow-1", "alice", ""));
        // A token sealed under another prefix (a handle's) never passes.
        let handle_like = frame::seal(s.key_ring(), b"eu1.", &claim(&s, "flow-1", "alice"));
        let handle_like = handle_like.unwrap();
        assert!(!check(&s, "flow-1", "alice", &handle_like));
        assert!(!check(
            &s,
            "flow-1",
            "alice",
            &handle_like.replacen("eu1.", "ec1.", 1)
        ));
    }

    #[test]
    fn every_bit_flip_of_a_token_is_refused() {
        use base64::Engine as _;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;

        let s = sealer(3);
        let token = seal(&s, "flow", "alice").unwrap();
        let body = URL_SAFE_NO_PAD.decode(&token[4..]).unwrap();
        for i in 0..body.len() {
            for bit in 0..8 {
                let mut flipped = body.clone();
                flipped[i] ^= 1 << bit;
                let forged = format!("ec1.{}", URL_SAFE_NO_PAD.encode(&flipped));
                assert!(!check(&s, "flow", "alice", &forged));
            }
        }
        for len in 0..token.len() {
            assert!(!check(&s, "flow", "alice", &token[..len]));
        }
    }
}
