//! Why a key ring could not be read from its configuration text.

use std::fmt;

/// Why [`KeyRing::from_env`](super::KeyRing::from_env) or parsing a
/// [`KeyRing`](super::KeyRing) from text failed.
///
/// Entries are counted from 1 (the primary key). Neither the variants nor their texts ever
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
/// ```
/// use elicit_runtime::state::KeyWeakness;
///
/// assert_eq!(KeyWeakness::PrintableAscii.to_string(), "printable ASCII only (a password?)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyWeakness {
    /// One byte value repeated 32 times (an all-zero key, say).
    RepeatedByte,
    /// Every byte is printable ASCII: a password or passphrase, not random bytes.
    PrintableAscii,
    /// Fewer than 16 different byte values: a short pattern repeated.
    FewDistinctBytes,
}

impl fmt::Display for KeyWeakness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::RepeatedByte => "one byte repeated",
            Self::PrintableAscii => "printable ASCII only (a password?)",
            Self::FewDistinctBytes => "a short pattern repeated (fewer than 16 different bytes)",
        })
    }
}
