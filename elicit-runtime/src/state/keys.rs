//! The key ring: one primary key that seals, older keys that still open.

use std::fmt;

use aes_gcm::aead::Generate;
use aes_gcm::{Aes256Gcm, Key, KeyInit};

/// One AES-256-GCM key with its id. Only the expanded cipher is kept, never the raw key bytes;
/// with the `zeroize` feature of `aes-gcm` the key schedule is wiped when it is dropped.
#[derive(Clone)]
struct Entry {
    kid: u32,
    cipher: Aes256Gcm,
}

impl Entry {
    fn new(kid: u32, key: [u8; 32]) -> Self {
        let key = Key::<Aes256Gcm>::from(key);
        Self {
            kid,
            cipher: Aes256Gcm::new(&key),
        }
    }
}

/// The AES-256-GCM keys a [`StateSealer`](super::StateSealer) uses.
///
/// The *primary* key seals every new token; its key id (`kid`) is written into the token so the
/// right key can be found when it comes back. *Old* keys are only used to open tokens sealed
/// before a rotation. To rotate: make the new key primary, keep the previous primary as an old
/// key for at least one TTL, then drop it.
///
/// Key ids should be unique; if two keys share one, both are tried when opening.
///
/// Keys never appear in [`Debug`] output, only their ids.
///
/// ```
/// use elicit_runtime::state::KeyRing;
///
/// let ring = KeyRing::new(2, [7u8; 32]).with_old_key(1, [9u8; 32]);
/// assert_eq!(ring.primary_kid(), 2);
/// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
/// assert_eq!(format!("{ring:?}"), "KeyRing { primary_kid: 2, old_kids: [1] }");
/// ```
#[derive(Clone)]
pub struct KeyRing {
    primary: Entry,
    old: Vec<Entry>,
}

impl KeyRing {
    /// A ring whose primary (sealing) key is `key`, with id `kid`.
    ///
    /// Use 32 bytes from a cryptographically secure source (a secret manager, or
    /// `openssl rand 32`), never a password.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// let ring = KeyRing::new(1, [42u8; 32]);
    /// assert_eq!(ring.primary_kid(), 1);
    /// ```
    #[must_use]
    pub fn new(kid: u32, key: [u8; 32]) -> Self {
        Self {
            primary: Entry::new(kid, key),
            old: Vec::new(),
        }
    }

    /// Adds a retired key: tokens sealed with it still open, but it never seals.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// let ring = KeyRing::new(3, [3u8; 32])
    ///     .with_old_key(2, [2u8; 32])
    ///     .with_old_key(1, [1u8; 32]);
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [2, 1]);
    /// ```
    #[must_use]
    pub fn with_old_key(mut self, kid: u32, key: [u8; 32]) -> Self {
        self.old.push(Entry::new(kid, key));
        self
    }

    /// A ring with a fresh random primary key and a random key id, for development and tests.
    ///
    /// Tokens sealed with it die with the process (or the ring), which is what a dev server wants;
    /// production servers that run more than one instance or restart during a conversation need
    /// a shared, persistent key given to [`KeyRing::new`].
    ///
    /// # Panics
    ///
    /// If the operating system's random number generator fails.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// let a = KeyRing::generate();
    /// let b = KeyRing::generate();
    /// assert_eq!(a.old_kids().count(), 0);
    /// # let _ = b;
    /// ```
    #[must_use]
    pub fn generate() -> Self {
        let kid = u32::from_be_bytes(<[u8; 4]>::generate());
        Self::new(kid, <[u8; 32]>::generate())
    }

    /// The id of the key that seals new tokens.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// assert_eq!(KeyRing::new(9, [0u8; 32]).primary_kid(), 9);
    /// ```
    #[must_use]
    pub fn primary_kid(&self) -> u32 {
        self.primary.kid
    }

    /// The ids of the old (open-only) keys, in the order they were added.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// let ring = KeyRing::new(2, [0u8; 32]).with_old_key(1, [1u8; 32]);
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
    /// ```
    pub fn old_kids(&self) -> impl Iterator<Item = u32> + '_ {
        self.old.iter().map(|e| e.kid)
    }

    /// The sealing key and its id.
    pub(crate) fn primary(&self) -> (u32, &Aes256Gcm) {
        (self.primary.kid, &self.primary.cipher)
    }

    /// Every key with id `kid`, primary first.
    pub(crate) fn ciphers_for(&self, kid: u32) -> impl Iterator<Item = &Aes256Gcm> + '_ {
        std::iter::once(&self.primary)
            .chain(self.old.iter())
            .filter(move |e| e.kid == kid)
            .map(|e| &e.cipher)
    }
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRing")
            .field("primary_kid", &self.primary.kid)
            .field("old_kids", &self.old_kids().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_key_material() {
        let ring = KeyRing::new(5, [0xAB; 32]).with_old_key(4, [0xCD; 32]);
        let text = format!("{ring:?} {ring:#?}");
        assert!(!text.to_lowercase().contains("ab, "), "{text}");
        assert!(!text.contains("171"), "{text}"); // 0xAB in decimal
        assert!(!text.contains("205"), "{text}"); // 0xCD in decimal
        assert!(text.contains("primary_kid: 5"));
    }

    #[test]
    fn lookup_by_kid_primary_first() {
        let ring = KeyRing::new(1, [1; 32])
            .with_old_key(2, [2; 32])
            .with_old_key(1, [3; 32]);
        assert_eq!(ring.ciphers_for(1).count(), 2);
        assert_eq!(ring.ciphers_for(2).count(), 1);
        assert_eq!(ring.ciphers_for(3).count(), 0);
        assert_eq!(ring.primary().0, 1);
    }

    #[test]
    fn generated_rings_differ() {
        let a = KeyRing::generate();
        let b = KeyRing::generate();
        // Random 32-bit kids collide with probability 2^-32.
        assert_ne!(a.primary_kid(), b.primary_kid());
    }
}
