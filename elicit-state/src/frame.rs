//! The AEAD frame every sealed token of this crate uses:
//! `prefix ‖ base64url-nopad( kid ‖ nonce ‖ ciphertext ‖ tag )`.
//!
//! The prefix names the kind and version of token (`es1.` for `requestState`, `eu1.` for
//! URL-mode handles); it and the key id are authenticated as associated data, so tokens of one
//! kind never open as another and a key id cannot be rewritten. What the plaintext says is the
//! caller's business (see `envelope.rs` and `url/handle.rs`).

use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{AeadInOut, Nonce, Tag};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::{KeyRing, MAX_TOKEN_LEN, SealError, StateError};

/// Length of every token prefix (`es1.`, `eu1.`).
pub const PREFIX_LEN: usize = 4;
/// A token kind's prefix, as bytes.
pub type Prefix = [u8; PREFIX_LEN];

const KID_LEN: usize = 4;
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
/// What the frame adds to the plaintext before base64: key id, nonce and tag.
const HEADER_LEN: usize = KID_LEN + NONCE_LEN;

/// Domain-separation label at the head of the AEAD associated data.
const AAD_LABEL: &[u8; 13] = b"elicit-state\0";
const AAD_LEN: usize = AAD_LABEL.len() + PREFIX_LEN + KID_LEN;

/// Associated data: a label, the prefix (format and version) and the key id.
fn associated_data(prefix: &Prefix, kid: u32) -> [u8; AAD_LEN] {
    let mut aad = [0u8; AAD_LEN];
    let (label, rest) = aad.split_at_mut(AAD_LABEL.len());
    let (pre, kid_bytes) = rest.split_at_mut(PREFIX_LEN);
    label.copy_from_slice(AAD_LABEL);
    pre.copy_from_slice(prefix);
    kid_bytes.copy_from_slice(&kid.to_be_bytes());
    aad
}

pub use super::random::random;

/// A plaintext being written straight into the frame's buffer (after room for the key id and
/// nonce), so sealing copies it neither before nor after encryption.
pub struct Plaintext {
    buf: Vec<u8>,
    nonce: [u8; NONCE_LEN],
    id: [u8; 16],
}

/// Its length only: the plaintext is what the frame keeps secret.
impl std::fmt::Debug for Plaintext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plaintext")
            .field("len", &self.buf.len().saturating_sub(HEADER_LEN))
            .finish_non_exhaustive()
    }
}

impl Plaintext {
    /// An empty plaintext with room for about `capacity` bytes, its nonce drawn, and a random
    /// 16-byte id drawn with it for the caller (see `random.rs`).
    ///
    /// # Errors
    ///
    /// [`SealError::Randomness`] if the OS random number generator fails.
    pub fn new(capacity: usize) -> Result<Self, SealError> {
        let random = random::<{ NONCE_LEN + 16 }>()?;
        let (nonce, id) = random.split_at(NONCE_LEN);
        let mut buf = Vec::with_capacity(HEADER_LEN + capacity + TAG_LEN);
        buf.resize(HEADER_LEN, 0);
        Ok(Self {
            buf,
            nonce: nonce.try_into().unwrap_or_default(),
            id: id.try_into().unwrap_or_default(),
        })
    }

    /// Random bytes drawn with the nonce, for the caller's use (a state id); independent of the
    /// nonce and never written into the frame by it.
    pub fn random_id(&self) -> [u8; 16] {
        self.id
    }

    /// The buffer to append the plaintext to.
    pub fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Encrypts the plaintext with the ring's primary key into a token of kind `prefix`.
    ///
    /// # Errors
    ///
    /// [`SealError::PayloadTooLarge`] if the token would exceed [`MAX_TOKEN_LEN`].
    pub fn seal(self, ring: &KeyRing, prefix: &Prefix) -> Result<String, SealError> {
        let Self {
            buf: mut raw,
            nonce,
            ..
        } = self;
        let raw_len = raw.len() + TAG_LEN;
        let too_large = |len| SealError::PayloadTooLarge {
            len,
            max: MAX_TOKEN_LEN,
        };
        let token_len = base64::encoded_len(raw_len, false)
            .and_then(|n| n.checked_add(PREFIX_LEN))
            .ok_or(too_large(usize::MAX))?;
        if token_len > MAX_TOKEN_LEN {
            return Err(too_large(token_len));
        }
        let (kid, cipher) = ring.primary();
        raw[..KID_LEN].copy_from_slice(&kid.to_be_bytes());
        raw[KID_LEN..HEADER_LEN].copy_from_slice(&nonce);
        let aad = associated_data(prefix, kid);
        let tag = cipher
            .encrypt_inout_detached(
                &Nonce::<Aes256Gcm>::from(nonce),
                &aad,
                (&mut raw[HEADER_LEN..]).into(),
            )
            // AES-GCM only refuses inputs of gigabytes, far above the size checked above.
            .map_err(|_| too_large(token_len))?;
        raw.extend_from_slice(&tag);
        // Into a buffer of the exact length, checked as UTF-8 once (`encode_string` checks
        // every chunk it appends).
        let mut token = vec![0u8; token_len];
        token[..PREFIX_LEN].copy_from_slice(prefix);
        let written = URL_SAFE_NO_PAD
            .encode_slice(&raw, &mut token[PREFIX_LEN..])
            .map_err(|_| too_large(token_len))?;
        token.truncate(PREFIX_LEN + written);
        String::from_utf8(token).map_err(|_| too_large(token_len))
    }
}

/// The prefix as text (prefixes are ASCII constants).
fn prefix_str(prefix: &Prefix) -> &str {
    std::str::from_utf8(prefix).unwrap_or_default()
}

/// Encrypts `plaintext` with the ring's primary key into a token of kind `prefix`.
///
/// # Errors
///
/// As [`Plaintext::new`] and [`Plaintext::seal`].
pub fn seal(ring: &KeyRing, prefix: &Prefix, plaintext: &[u8]) -> Result<String, SealError> {
    let mut frame = Plaintext::new(plaintext.len())?;
    frame.buf().extend_from_slice(plaintext);
    frame.seal(ring, prefix)
}

/// An authenticated plaintext and the id of the key that opened it.
pub struct OpenedFrame {
    pub kid: u32,
    buf: Vec<u8>,
}

/// The key id and the plaintext's length only: the plaintext is what the frame kept secret.
impl std::fmt::Debug for OpenedFrame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedFrame")
            .field("kid", &self.kid)
            .field("len", &self.plaintext().len())
            .finish()
    }
}

impl OpenedFrame {
    /// The decrypted plaintext.
    pub fn plaintext(&self) -> &[u8] {
        &self.buf[HEADER_LEN..]
    }
}

/// Reverses [`seal`]: checks size, prefix, base64 and length, finds the key by id and
/// authenticates and decrypts (verify before decrypt, so every key with that id can be tried on
/// the same buffer).
///
/// # Errors
///
/// [`StateError::TooLarge`], [`StateError::Malformed`], [`StateError::UnknownKey`] or
/// [`StateError::Decrypt`].
pub fn open(ring: &KeyRing, prefix: &Prefix, token: &str) -> Result<OpenedFrame, StateError> {
    if token.len() > MAX_TOKEN_LEN {
        return Err(StateError::TooLarge { len: token.len() });
    }
    let body = token
        .strip_prefix(prefix_str(prefix))
        .ok_or(StateError::Malformed("unknown token prefix or version"))?;
    let mut buf = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| StateError::Malformed("token body is not unpadded base64url"))?;
    let Some(sealed_len) = buf.len().checked_sub(HEADER_LEN + TAG_LEN) else {
        return Err(StateError::Malformed("token too short"));
    };
    let tag_at = HEADER_LEN + sealed_len;
    let tag = Tag::<Aes256Gcm>::try_from(&buf[tag_at..])
        .map_err(|_| StateError::Malformed("token too short"))?;
    let mut kid_bytes = [0u8; KID_LEN];
    kid_bytes.copy_from_slice(&buf[..KID_LEN]);
    let kid = u32::from_be_bytes(kid_bytes);
    let mut nonce = Nonce::<Aes256Gcm>::default();
    nonce.copy_from_slice(&buf[KID_LEN..HEADER_LEN]);
    let aad = associated_data(prefix, kid);
    let mut known = false;
    for cipher in ring.ciphers_for(kid) {
        known = true;
        let sealed = &mut buf[HEADER_LEN..tag_at];
        if cipher
            .decrypt_inout_detached(&nonce, &aad, sealed.into(), &tag)
            .is_ok()
        {
            buf.truncate(tag_at);
            return Ok(OpenedFrame { kid, buf });
        }
    }
    Err(if known {
        StateError::Decrypt
    } else {
        StateError::UnknownKey { kid }
    })
}

#[cfg(test)]
mod tests;

/// What the state unit tests share (here, beside the frame they look inside).
#[cfg(test)]
pub(crate) mod test_support;
