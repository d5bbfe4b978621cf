//! The key ring's text format, for configuration: `kid:base64key` entries, primary first.

use std::str::FromStr;

use aes_gcm::aead::Generate;
use base64::Engine as _;
use base64::engine::general_purpose::{
    STANDARD, STANDARD_PAD_INDIFFERENT, URL_SAFE_PAD_INDIFFERENT,
};

use super::{KeyRing, KeyRingError, KeyWeakness};

impl FromStr for KeyRing {
    type Err = KeyRingError;

    /// Reads a key ring from its configuration text: `kid:base64key` entries separated by
    /// commas or whitespace, the first one primary (the format is described on
    /// [`KeyRing`](KeyRing#from-configuration)).
    ///
    /// Errors name the entry by its position (1 is the primary) and its key id, never its text.
    ///
    /// Keys that cannot be random bytes are refused ([`KeyRingError::WeakKey`]): one byte
    /// repeated (an all-zero key), text (the 32 bytes are valid UTF-8: a password or passphrase
    /// pasted as a key, in any language, trailing newline or control characters included), or
    /// fewer than 16 different byte values (a short pattern repeated). A random key trips one
    /// of these with a probability of about 10^-8 (the text check; the others are below
    /// 10^-16): if `openssl rand -base64 32` ever prints such a key, run it again. The same key
    /// under two key ids is refused too ([`KeyRingError::DuplicateKey`]): a rotation that
    /// reuses the old key rotates nothing.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, KeyRingError, KeyWeakness};
    ///
    /// let text = "2:cKr0mmAHjLbZk7v2QDp8QlZVf2NB0Dm5lgrEzmU3vy4=,\n\
    ///             1:Y0R1NisZ+zHw0Y1P60soM2PYkqgufNFfFoAhQQtknQY=";
    /// let ring: KeyRing = text.parse()?;
    /// assert_eq!(ring.primary_kid(), 2);
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
    ///
    /// let err = "2:q83v".parse::<KeyRing>().unwrap_err();
    /// assert_eq!(err.to_string(), "key ring entry 1 (kid 2): the key is 3 bytes, expected 32");
    ///
    /// // 32 zero bytes: refused.
    /// let err = "1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".parse::<KeyRing>().unwrap_err();
    /// assert_eq!(
    ///     err,
    ///     KeyRingError::WeakKey { position: 1, kid: 1, weakness: KeyWeakness::RepeatedByte }
    /// );
    /// # Ok::<(), elicit_runtime::state::KeyRingError>(())
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut ring: Option<KeyRing> = None;
        let entries = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|entry| !entry.is_empty());
        for (index, entry) in entries.enumerate() {
            let position = index + 1;
            let (kid, key) = parse_entry(entry, position)?;
            let key = decode_key(key, position, kid)?;
            // The checks of keys given in code: entry `position` is the ring's `position`th key.
            ring = Some(match ring {
                None => KeyRing::try_new(kid, key)?,
                Some(ring) => ring.with_old_key(kid, key)?,
            });
        }
        ring.ok_or(KeyRingError::Empty)
    }
}

impl KeyRing {
    /// Reads a key ring from the environment variable `var`, in the
    /// [text format](KeyRing#from-configuration) that [`str::parse`] reads: `kid:base64key`
    /// entries, primary first.
    ///
    /// This is how replicas of one server share their sealing keys: give each the same value,
    /// e.g. `ELICIT_KEYS="2:<new key>,1:<previous key>"` from your secret manager.
    ///
    /// # Errors
    ///
    /// [`KeyRingError::EnvNotSet`] or [`KeyRingError::EnvNotUnicode`] if the variable cannot be
    /// read, otherwise the errors of parsing its text. None of them contains key material.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, KeyRingError, StateSealer};
    ///
    /// fn sealer() -> Result<StateSealer, KeyRingError> {
    ///     Ok(StateSealer::new(KeyRing::from_env("ELICIT_KEYS")?, "booking-server"))
    /// }
    ///
    /// let err = KeyRing::from_env("ELICIT_EXAMPLE_KEYS_NOT_SET").unwrap_err();
    /// assert_eq!(err.to_string(), "environment variable ELICIT_EXAMPLE_KEYS_NOT_SET is not set");
    /// # let _ = sealer;
    /// ```
    pub fn from_env(var: &str) -> Result<Self, KeyRingError> {
        from_var(var, std::env::var(var))
    }

    /// A new configuration entry `kid:base64key` holding a fresh random key, for operators to
    /// create or rotate the value [`KeyRing::from_env`] reads.
    ///
    /// The returned text **is the secret**: put it in your secret manager, not in logs or source
    /// control. A ring never gives its keys back (it keeps only the expanded ciphers), so there is
    /// no way to export an existing ring; to rotate, generate an entry with an unused key id and
    /// put it in front of the current value. The shell equivalent is
    /// `echo "3:$(openssl rand -base64 32)"`.
    ///
    /// The key always passes the checks parsing applies ([`KeyWeakness::of`]): in the one draw
    /// in about 10^8 that would be refused (its bytes happen to be valid UTF-8), it draws again.
    ///
    /// # Panics
    ///
    /// If the operating system's random number generator fails.
    ///
    /// ```
    /// use elicit_runtime::state::KeyRing;
    ///
    /// let current = KeyRing::generate_config_entry(1);
    /// let rotated = format!("{},{current}", KeyRing::generate_config_entry(2));
    ///
    /// let ring: KeyRing = rotated.parse()?;
    /// assert_eq!(ring.primary_kid(), 2);
    /// assert_eq!(ring.old_kids().collect::<Vec<_>>(), [1]);
    /// # Ok::<(), elicit_runtime::state::KeyRingError>(())
    /// ```
    #[must_use]
    pub fn generate_config_entry(kid: u32) -> String {
        // Drawing again when a check fails (about once in 10^8 draws) costs the key space a
        // fraction of about 10^-8 of its keys: under 10^-7 bits of the 256.
        let key = loop {
            let key = <[u8; 32]>::generate();
            if KeyWeakness::of(&key).is_none() {
                break key;
            }
        };
        format!("{kid}:{}", STANDARD.encode(key))
    }
}

/// [`KeyRing::from_env`] on the result of reading the variable (tests cannot set variables
/// without `unsafe`).
pub(super) fn from_var(
    var: &str,
    value: Result<String, std::env::VarError>,
) -> Result<KeyRing, KeyRingError> {
    match value {
        Ok(text) => text.parse(),
        Err(std::env::VarError::NotPresent) => Err(KeyRingError::EnvNotSet { var: var.into() }),
        // The value is dropped unread: it may hold keys.
        Err(std::env::VarError::NotUnicode(_)) => {
            Err(KeyRingError::EnvNotUnicode { var: var.into() })
        }
    }
}

/// Splits one entry into its key id and its (still encoded) key.
fn parse_entry(entry: &str, position: usize) -> Result<(u32, &str), KeyRingError> {
    let (kid, key) = entry
        .split_once(':')
        .ok_or(KeyRingError::BadEntry { position })?;
    // `u32::from_str` also takes a leading `+`; a key id is digits only.
    if kid.is_empty() || !kid.bytes().all(|b| b.is_ascii_digit()) {
        return Err(KeyRingError::BadKid { position });
    }
    let kid = kid.parse().map_err(|_| KeyRingError::BadKid { position })?;
    Ok((kid, key))
}

/// Decodes a base64 key (either alphabet, padding optional) of exactly 32 bytes.
fn decode_key(key: &str, position: usize, kid: u32) -> Result<[u8; 32], KeyRingError> {
    // The decoder's error names the offending byte: it is dropped, never reported.
    let bytes = STANDARD_PAD_INDIFFERENT
        .decode(key)
        .or_else(|_| URL_SAFE_PAD_INDIFFERENT.decode(key))
        .map_err(|_| KeyRingError::KeyNotBase64 { position, kid })?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| KeyRingError::KeyLength {
        position,
        kid,
        len: bytes.len(),
    })
}

/// Fewer different byte values than this in a 32-byte key: a pattern, not random bytes (a
/// random key has about 30; fewer than 16 happens with a probability of about 3 × 10^-17).
const MIN_DISTINCT_BYTES: usize = 16;

impl KeyWeakness {
    /// Why `key` cannot be 32 random bytes, if it cannot: the checks parsing a
    /// [`KeyRing`] applies to each configured key. Use it on keys from elsewhere (a key
    /// management service, a file) before [`KeyRing::new`], which checks nothing, or use
    /// [`KeyRing::try_new`], which checks with it.
    ///
    /// ```
    /// use elicit_runtime::state::KeyWeakness;
    ///
    /// assert_eq!(KeyWeakness::of(&[0; 32]), Some(KeyWeakness::RepeatedByte));
    /// assert_eq!(KeyWeakness::of(b"correct horse battery staple 123"), Some(KeyWeakness::Text));
    /// // `echo 'correct horse battery staple 1!' | base64`: 31 characters and a newline.
    /// assert_eq!(KeyWeakness::of(b"correct horse battery staple 1!\n"), Some(KeyWeakness::Text));
    /// assert_eq!(KeyWeakness::of(&[0xde, 0xad, 0xbe, 0xef].repeat(8).try_into().unwrap()), Some(KeyWeakness::FewDistinctBytes));
    /// let random: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5c);
    /// assert_eq!(KeyWeakness::of(&random), None);
    /// ```
    #[must_use]
    pub fn of(key: &[u8; 32]) -> Option<Self> {
        if key.iter().all(|&b| b == key[0]) {
            return Some(Self::RepeatedByte);
        }
        // Text is any valid UTF-8 (`KeyWeakness::Text` says why, and how rarely random bytes
        // are). No trimming first: ASCII whitespace at either end is UTF-8 on its own, so
        // removing it could neither make nor break validity.
        if std::str::from_utf8(key).is_ok() {
            return Some(Self::Text);
        }
        let mut seen = [false; 256];
        for &b in key {
            seen[usize::from(b)] = true;
        }
        if seen.iter().filter(|&&s| s).count() < MIN_DISTINCT_BYTES {
            return Some(Self::FewDistinctBytes);
        }
        None
    }
}
