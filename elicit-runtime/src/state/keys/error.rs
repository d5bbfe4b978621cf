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
/// let err = "1:ERERERERERERERERERERERERERERERERERERERERERE=,x".parse::<KeyRing>().unwrap_err();
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
            Self::EnvNotSet { var } => write!(f, "environment variable {var} is not set"),
            Self::EnvNotUnicode { var } => {
                write!(f, "environment variable {var} is not valid Unicode")
            }
        }
    }
}

impl std::error::Error for KeyRingError {}
