//! Why a key ring could not be read from its configuration text.

use std::fmt;

/// Why [`KeyRing::from_env`](super::KeyRing::from_env) or parsing a
/// [`KeyRing`](super::KeyRing) from text failed, or why [`KeyRing::try_new`](super::KeyRing::try_new)
/// or [`KeyRing::with_old_key`](super::KeyRing::with_old_key) refused a key.
///
/// Entries are counted from 1 (the primary key; the first old key is 2). Neither the variants nor their texts ever
/// contain key material, nor the text of a malformed entry (it may be a key pasted in the wrong
/// place): only positions, key ids, lengths and the variable's name. They are safe to log.
///
/// ```
/// use elicit_runtime::state::{KeyRing, KeyRingError};
///
/// let err = "1:cKr0mmAHjLbZk7v2QDp8QlZVf2NB0Dm5lgrEzmU3vy4=,x".parse::<KeyRing>().unwrap_err();
/// assert_eq!(err, KeyRingError::BadEntry { position: 2 });
/// assert_eq!(err.to_string(), "key ring entry 2 is not of the form `kid:base64key`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyRingError {
    /// The text holds no entry (it is empty, or only separators).
    Empty,
    /// An entry has no `:` between a key id and a key.
    BadEntry {
        /// The entry's position, from 1.
        position: usize,
    },
    /// An entry's key id is not a decimal number from 0 to 4294967295 (`u32`).
    BadKid {
        /// The entry's position, from 1.
        position: usize,
    },
    /// An entry's key is not base64 (standard or URL-safe alphabet, padding optional).
    KeyNotBase64 {
        /// The entry's position, from 1.
        position: usize,
        /// The entry's key id.
        kid: u32,
    },
    /// An entry's key is base64, but not of 32 bytes (AES-256).
    KeyLength {
        /// The entry's position, from 1.
        position: usize,
        /// The entry's key id.
        kid: u32,
        /// How many bytes the key decodes to.
        len: usize,
    },
    /// Two entries have the same key id.
    DuplicateKid {
        /// The position of the second entry, from 1.
        position: usize,
        /// The shared key id.
        kid: u32,
        /// The position of the first entry with this key id.
        first: usize,
    },
    /// An entry's key cannot be random bytes (see [`KeyWeakness`]): generate one with
    /// [`KeyRing::generate_config_entry`](super::KeyRing::generate_config_entry) or
    /// `openssl rand -base64 32`.
    WeakKey {
        /// The entry's position, from 1.
        position: usize,
        /// The entry's key id.
        kid: u32,
        /// What gives the key away.
        weakness: KeyWeakness,
    },
    /// An entry holds the same key as an earlier entry under another key id.
    DuplicateKey {
        /// The position of the second entry, from 1.
        position: usize,
        /// The second entry's key id.
        kid: u32,
        /// The position of the first entry with this key.
        first: usize,
        /// The first entry's key id.
        first_kid: u32,
    },
    /// The environment variable is not set.
    EnvNotSet {
        /// The variable's name.
        var: String,
    },
    /// The environment variable is set, but not to valid Unicode.
    EnvNotUnicode {
        /// The variable's name.
        var: String,
    },
}

impl fmt::Display for KeyRingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("key ring is empty: expected `kid:base64key` entries"),
            Self::BadEntry { position } => {
                write!(
                    f,
                    "key ring entry {position} is not of the form `kid:base64key`"
                )
            }
            Self::BadKid { position } => write!(
                f,
                "key ring entry {position}: the key id is not a decimal number from 0 to {}",
                u32::MAX
            ),
            Self::KeyNotBase64 { position, kid } => {
                write!(
                    f,
                    "key ring entry {position} (kid {kid}): the key is not base64"
                )
            }
            Self::KeyLength { position, kid, len } => write!(
                f,
                "key ring entry {position} (kid {kid}): the key is {len} bytes, expected 32"
            ),
            Self::DuplicateKid {
                position,
                kid,
                first,
            } => write!(
                f,
                "key ring entry {position}: kid {kid} is already used by entry {first}"
            ),
            Self::WeakKey {
                position,
                kid,
                weakness,
            } => write!(
                f,
                "key ring entry {position} (kid {kid}): the key is {weakness}, not 32 random bytes \
                 (generate one with `openssl rand -base64 32`)"
            ),
            Self::DuplicateKey {
                position,
                kid,
                first,
                first_kid,
            } => write!(
                f,
                "key ring entry {position} (kid {kid}): the same key as entry {first} (kid {first_kid})"
            ),
            Self::EnvNotSet { var } => write!(f, "environment variable {var} is not set"),
            Self::EnvNotUnicode { var } => {
                write!(f, "environment variable {var} is not valid Unicode")
            }
        }
    }
}

impl std::error::Error for KeyRingError {}

/// Why a configured key cannot be 32 random bytes ([`KeyRingError::WeakKey`]).
///
/// [`KeyWeakness::of`] tries the variants in the order they are declared and reports the first
/// that fits.
///
/// ```
/// use elicit_runtime::state::KeyWeakness;
///
/// assert_eq!(KeyWeakness::Text.to_string(), "text (valid UTF-8: a password or passphrase?)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyWeakness {
    /// One byte value repeated 32 times (an all-zero key, say).
    RepeatedByte,
    /// The key is text: its 32 bytes are valid UTF-8 (RFC 3629), whatever the characters. That
    /// is a password or passphrase pasted as a key, in ASCII or not (`"très secret"`), with
    /// tabs, newlines or any other control character (U+0000 to U+001F, U+007F) anywhere, the
    /// trailing newline of `echo … | base64` or `\r\n` of a Windows file, zero bytes padding a
    /// short password, or a hex or base64 text pasted where its bytes belong.
    ///
    /// Leading and trailing ASCII whitespace never changes the verdict: ASCII bytes are
    /// characters of their own in UTF-8, so trimming them neither makes nor breaks validity.
    ///
    /// A random key is valid UTF-8 with a probability of about 1.0 × 10^-8 (one key in 10^8,
    /// counted exactly over the 2^256 keys; all of it ASCII: 2^-32, about 2.3 × 10^-10). Such a
    /// key is refused like a password: generate another one.
    /// [`KeyRing::generate_config_entry`](super::KeyRing::generate_config_entry) never returns
    /// one. Text in an 8-bit code page (Latin-1 `é` as the single byte `0xE9`) is not valid
    /// UTF-8 and is not recognised.
    Text,
    /// Fewer than 16 different byte values: a short pattern repeated.
    FewDistinctBytes,
}

impl fmt::Display for KeyWeakness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::RepeatedByte => "one byte repeated",
            Self::Text => "text (valid UTF-8: a password or passphrase?)",
            Self::FewDistinctBytes => "a short pattern repeated (fewer than 16 different bytes)",
        })
    }
}
