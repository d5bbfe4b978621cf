//! The key ring: one primary key that seals, older keys that still open.

use std::fmt;

use aes_gcm::aead::Generate;
use aes_gcm::{Aes256Gcm, Key, KeyInit};

mod config;
mod error;

pub use error::{KeyRingError, KeyWeakness};

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
/// Keys never appear in [`Debug`] output, only their ids, and a ring cannot give its keys back.
///
/// ```
/// use elicit_runtime::state::KeyRing;
///
/// let ring = KeyRing::new(2, [7u8; 32]).with_old_key(1, [9u8; 32]);
/// assert_eq!(ring.primary_kid(), 2);
/// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
/// assert_eq!(format!("{ring:?}"), "KeyRing { primary_kid: 2, old_kids: [1] }");
/// ```
///
/// # From configuration
///
/// Replicas of one server must share their keys. [`KeyRing::from_env`] (or
/// [`str::parse`], through [`FromStr`](std::str::FromStr)) reads them from text such as
/// `ELICIT_KEYS="2:cKr0mmAH…zmU3vy4=,1:Y0R1NisZ…QQtknQY="`:
///
/// - one entry `kid:key` per key, entries separated by commas and/or whitespace (newlines too,
///   so a mounted secret file with a trailing newline works);
/// - `kid` is the key id, a decimal `u32` (digits only);
/// - `key` is exactly 32 bytes in base64, standard (`+/`) or URL-safe (`-_`) alphabet, `=`
///   padding optional: `openssl rand -base64 32` prints one, and so does
///   [`KeyRing::generate_config_entry`];
/// - the **first** entry is the primary key (it seals); the others are old keys that still open;
/// - key ids must be unique, and so must keys;
/// - a key that cannot be random bytes is refused ([`KeyWeakness`]): one byte repeated,
///   text (valid UTF-8: a password, with a trailing newline, non-ASCII letters or control
///   characters too), or a short pattern repeated.
///
/// Rotation is then: put a new entry first, keep the previous primary after it for at least one
/// TTL, then delete it. Errors ([`KeyRingError`]) name an entry by position and key id, never
/// its text.
///
/// ```
/// use elicit_runtime::state::KeyRing;
///
/// let ring: KeyRing = "
///     2:cKr0mmAHjLbZk7v2QDp8QlZVf2NB0Dm5lgrEzmU3vy4
///     1:Y0R1NisZ+zHw0Y1P60soM2PYkqgufNFfFoAhQQtknQY=
/// "
/// .parse()?;
/// assert_eq!(ring.primary_kid(), 2);
/// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
/// # Ok::<(), elicit_runtime::state::KeyRingError>(())
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
    /// `openssl rand 32`), never a password. Unlike reading a ring from configuration, this
    /// checks nothing (tests use fixed keys); [`KeyWeakness::of`] applies the same checks.
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
    /// shared, persistent keys: [`KeyRing::from_env`], or [`KeyRing::new`].
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
    #[doc(hidden)]
    pub fn primary(&self) -> (u32, &Aes256Gcm) {
        (self.primary.kid, &self.primary.cipher)
    }

    /// Every key with id `kid`, primary first.
    #[doc(hidden)]
    pub fn ciphers_for(&self, kid: u32) -> impl Iterator<Item = &Aes256Gcm> + '_ {
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
mod tests;
