//! The key ring: one primary key that seals, older keys that still open.

use std::fmt;

use aes_gcm::aead::{AeadInOut, Generate, Nonce, Tag};
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

    /// A key check value: the tag of an empty message under a fixed nonce. Equal keys give equal
    /// values, different keys different ones (but for a 2^-128 chance), so two entries can be
    /// compared without keeping their key bytes. It is computed when needed and never leaves
    /// the ring; the fixed nonce never seals anything.
    fn check_value(&self) -> Tag<Aes256Gcm> {
        self.cipher
            .encrypt_inout_detached(
                &Nonce::<Aes256Gcm>::default(),
                b"elicit-state key check value",
                (&mut [][..]).into(),
            )
            // AES-GCM refuses only messages of gigabytes; this one is empty. Were it ever
            // refused, every key would get the same value and old keys would be refused as
            // duplicates: the check fails closed.
            .unwrap_or_default()
    }
}

/// The AES-256-GCM keys a [`StateSealer`](super::StateSealer) uses.
///
/// The *primary* key seals every new token; its key id (`kid`) is written into the token so the
/// right key can be found when it comes back. *Old* keys are only used to open tokens sealed
/// before a rotation. To rotate: make the new key primary, keep the previous primary as an old
/// key for at least one TTL, then drop it.
///
/// Every old key is checked as it is added ([`KeyRing::with_old_key`]): a key that cannot be
/// random bytes ([`KeyWeakness`]), a key id already in the ring, or a key already in it under
/// another id is refused. A weak old key would let anyone seal tokens the server opens, and an
/// old key equal to the primary means the rotation rotated nothing.
///
/// Keys never appear in [`Debug`] output, only their ids, and a ring cannot give its keys back.
///
/// ```
/// use elicit_runtime::state::KeyRing;
///
/// # let primary_key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5c);
/// # let previous_key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0xa3);
/// let ring = KeyRing::try_new(2, primary_key)?.with_old_key(1, previous_key)?;
/// assert_eq!(ring.primary_kid(), 2);
/// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
/// assert_eq!(format!("{ring:?}"), "KeyRing { primary_kid: 2, old_kids: [1] }");
/// # Ok::<(), elicit_runtime::state::KeyRingError>(())
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
    /// `openssl rand 32`), never a password. Unlike reading a ring from configuration or
    /// [`KeyRing::try_new`], this checks nothing (tests use fixed keys); [`KeyWeakness::of`]
    /// applies the same checks.
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

    /// A ring whose primary (sealing) key is `key`, with id `kid`, if the key can be random
    /// bytes: the check reading a ring from configuration applies to each entry.
    ///
    /// # Errors
    ///
    /// [`KeyRingError::WeakKey`] (at position 1) if [`KeyWeakness::of`] finds the key weak.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, KeyRingError, KeyWeakness};
    ///
    /// let err = KeyRing::try_new(1, [0; 32]).unwrap_err();
    /// assert_eq!(
    ///     err,
    ///     KeyRingError::WeakKey { position: 1, kid: 1, weakness: KeyWeakness::RepeatedByte }
    /// );
    ///
    /// let key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5c);
    /// assert_eq!(KeyRing::try_new(1, key)?.primary_kid(), 1);
    /// # Ok::<(), KeyRingError>(())
    /// ```
    pub fn try_new(kid: u32, key: [u8; 32]) -> Result<Self, KeyRingError> {
        refuse_weak(1, kid, &key)?;
        Ok(Self::new(kid, key))
    }

    /// Adds a retired key: tokens sealed with it still open, but it never seals.
    ///
    /// The key gets the checks each entry of the configuration text gets, whatever way the
    /// primary key came in: an old key opens tokens as the primary does, so a weak one would let
    /// anyone seal tokens this server opens. Errors name the key by its position, counted as in
    /// the configuration text (1 is the primary key, 2 the first old key, and so on).
    ///
    /// # Errors
    ///
    /// - [`KeyRingError::DuplicateKid`]: the ring already has a key with id `kid`;
    /// - [`KeyRingError::WeakKey`]: the key cannot be random bytes ([`KeyWeakness::of`]);
    /// - [`KeyRingError::DuplicateKey`]: the ring already has this key, under another id (the
    ///   primary key kept as an old key: a rotation that rotates nothing).
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, KeyRingError, KeyWeakness};
    ///
    /// let key = |n: u8| -> [u8; 32] { std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ n) };
    /// let ring = KeyRing::try_new(3, key(0x5c))?
    ///     .with_old_key(2, key(0xa3))?
    ///     .with_old_key(1, key(0x3a))?;
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [2, 1]);
    ///
    /// // A configuration mistake during a rotation is refused, not kept as a key that opens.
    /// let zero = KeyRing::try_new(2, key(0x5c))?.with_old_key(1, [0; 32]).unwrap_err();
    /// assert_eq!(
    ///     zero,
    ///     KeyRingError::WeakKey { position: 2, kid: 1, weakness: KeyWeakness::RepeatedByte }
    /// );
    /// let same = KeyRing::try_new(2, key(0x5c))?.with_old_key(1, key(0x5c)).unwrap_err();
    /// assert_eq!(
    ///     same,
    ///     KeyRingError::DuplicateKey { position: 2, kid: 1, first: 1, first_kid: 2 }
    /// );
    /// # Ok::<(), KeyRingError>(())
    /// ```
    pub fn with_old_key(mut self, kid: u32, key: [u8; 32]) -> Result<Self, KeyRingError> {
        let position = self.old.len() + 2;
        if let Some(first) = self.entries().position(|e| e.kid == kid) {
            return Err(KeyRingError::DuplicateKid {
                position,
                kid,
                first: first + 1,
            });
        }
        refuse_weak(position, kid, &key)?;
        let entry = Entry::new(kid, key);
        let check = entry.check_value();
        if let Some((first, same)) = self
            .entries()
            .enumerate()
            .find(|(_, e)| e.check_value() == check)
        {
            return Err(KeyRingError::DuplicateKey {
                position,
                kid,
                first: first + 1,
                first_kid: same.kid,
            });
        }
        self.old.push(entry);
        Ok(self)
    }

    /// [`KeyRing::with_old_key`] without its checks, for tests that need a ring no caller can
    /// build (the same key under two ids).
    #[cfg(test)]
    pub(crate) fn with_old_key_unchecked(mut self, kid: u32, key: [u8; 32]) -> Self {
        self.old.push(Entry::new(kid, key));
        self
    }

    /// Every entry, primary first, then the old keys in the order they were added.
    fn entries(&self) -> impl Iterator<Item = &Entry> + '_ {
        std::iter::once(&self.primary).chain(self.old.iter())
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
    /// let old_key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5c);
    /// let ring = KeyRing::new(2, [0u8; 32]).with_old_key(1, old_key)?;
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
    /// # Ok::<(), elicit_runtime::state::KeyRingError>(())
    /// ```
    pub fn old_kids(&self) -> impl Iterator<Item = u32> + '_ {
        self.old.iter().map(|e| e.kid)
    }

    /// The sealing key and its id.
    #[doc(hidden)]
    pub fn primary(&self) -> (u32, &Aes256Gcm) {
        (self.primary.kid, &self.primary.cipher)
    }

    /// Every key with id `kid`, primary first (one at most: [`KeyRing::with_old_key`] refuses a
    /// second).
    #[doc(hidden)]
    pub fn ciphers_for(&self, kid: u32) -> impl Iterator<Item = &Aes256Gcm> + '_ {
        self.entries()
            .filter(move |e| e.kid == kid)
            .map(|e| &e.cipher)
    }
}

/// Refuses `key` as the ring's `position`th entry, with id `kid`, if [`KeyWeakness::of`] finds
/// it weak: the check every way into a ring applies.
fn refuse_weak(position: usize, kid: u32, key: &[u8; 32]) -> Result<(), KeyRingError> {
    match KeyWeakness::of(key) {
        Some(weakness) => Err(KeyRingError::WeakKey {
            position,
            kid,
            weakness,
        }),
        None => Ok(()),
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
