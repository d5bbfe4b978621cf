//! Digests: the canonical form of JSON arguments streamed into SHA-256, the short digests that
//! bind answers to questions, and the salted principal hash.
//!
//! The canonical form is never built as a `String` on the hot path: it is written piece by
//! piece into the hasher (through a small stack buffer, so SHA-256 sees few, large updates).

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ctutils::CtEq as _;
use serde_json::{Number, Value};
use sha2::{Digest, Sha256};

use elicit_wire::schema::RequestedSchema;

/// Domain-separation label hashed before the audience and principal.
const PRINCIPAL_LABEL: &[u8] = b"elicit-state principal v1\0";

/// Floats that are integral and smaller than this in magnitude digest as integers (`1.0` = `1`);
/// every such float is an exact integer.
const EXACT_INT_LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53

/// Where canonical JSON goes: a hasher or, for tests and flow ids, a string.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for String {
    fn put(&mut self, bytes: &[u8]) {
        // Only ever given whole UTF-8 text (ASCII punctuation, numbers, whole `&str` runs).
        self.push_str(&String::from_utf8_lossy(bytes));
    }
}

/// SHA-256 fed through a 256-byte buffer: canonical JSON arrives in many tiny pieces.
pub(crate) struct HashSink {
    hasher: Sha256,
    buf: [u8; 256],
    len: usize,
}

impl HashSink {
    pub(crate) fn new() -> Self {
        Self {
            hasher: Sha256::new(),
            buf: [0; 256],
            len: 0,
        }
    }

    fn flush(&mut self) {
        self.hasher.update(&self.buf[..self.len]);
        self.len = 0;
    }

    pub(crate) fn finalize(mut self) -> [u8; 32] {
        self.flush();
        self.hasher.finalize().into()
    }
}

impl Sink for HashSink {
    fn put(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > self.buf.len() {
            self.flush();
        }
        if bytes.len() > self.buf.len() {
            self.hasher.update(bytes);
        } else {
            self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }
}

/// `fmt::Write` onto a [`Sink`], for numbers.
struct Fmt<'a, S: Sink>(&'a mut S);

impl<S: Sink> fmt::Write for Fmt<'_, S> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.put(s.as_bytes());
        Ok(())
    }
}

/// The canonical JSON text of `value` (see `write_canonical`). Crate-private: digests stream
/// the same text into the hasher; this is for flow ids and tests.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// Writes the canonical JSON text of `value`: no whitespace, object keys sorted by their UTF-8
/// bytes at every depth, strings escaped minimally (only `"`, `\` and control characters), and
/// numbers in a bounded form:
///
/// - integers that `serde_json` holds as `i64`/`u64` exactly, in decimal (so integers above
///   2^53 stay distinct);
/// - floats that are integral and below 2^53 in magnitude as those integers (`1.0` and `-0.0`
///   digest as `1` and `0`, as a client re-serialising `1` as `1.0` would write them);
/// - every other float in the shortest form that reads back as the same `f64`, as `serde_json`
///   writes it (`1e+308`, `0.1`, `1e+20`, `9007199254740992.0`): at most 24 characters, and
///   always with a `.` or an exponent, so it never equals an integer's text even when the values
///   are equal (`1e19` the float and `10000000000000000000` the integer differ: the client wrote
///   different numbers).
///
/// Recursion follows the nesting of `value`; values parsed by `serde_json` are at most 128
/// levels deep.
pub(crate) fn write_canonical(value: &Value, out: &mut impl Sink) {
    match value {
        Value::Null => out.put(b"null"),
        Value::Bool(b) => out.put(if *b { b"true" } else { b"false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.put(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                write_canonical(item, out);
            }
            out.put(b"]");
        }
        Value::Object(map) => {
            let sorted = map
                .keys()
                .zip(map.keys().skip(1))
                .all(|(a, b)| a.as_bytes() < b.as_bytes());
            if sorted {
                write_entries(map.iter(), out);
            } else {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                write_entries(entries.into_iter(), out);
            }
        }
    }
}

fn write_entries<'a>(entries: impl Iterator<Item = (&'a String, &'a Value)>, out: &mut impl Sink) {
    out.put(b"{");
    for (i, (key, item)) in entries.enumerate() {
        if i > 0 {
            out.put(b",");
        }
        write_string(key, out);
        out.put(b":");
        write_canonical(item, out);
    }
    out.put(b"}");
}

/// A number in the bounded canonical form described at [`write_canonical`].
fn write_number(n: &Number, out: &mut impl Sink) {
    use fmt::Write as _;
    let mut w = Fmt(out);
    if let Some(i) = n.as_i64() {
        let _ = write!(w, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(w, "{u}");
    } else if let Some(f) = n
        .as_f64()
        .filter(|f| f.trunc() == *f && f.abs() < EXACT_INT_LIMIT)
    {
        // Exact: |f| < 2^53 and integral, so the cast loses nothing (and -0.0 becomes 0).
        #[allow(clippy::cast_possible_truncation)]
        let i = f as i64;
        let _ = write!(w, "{i}");
    } else {
        // `Number`'s `Display` is serde_json's own float writer: the shortest round-trip form.
        let _ = write!(w, "{n}");
    }
}

/// A JSON string literal: escapes `"`, `\` and the control characters, nothing else.
fn write_string(s: &str, out: &mut impl Sink) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.put(b"\"");
    // Runs of characters that need no escape are copied in one go.
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0C => b"\\f",
            0..0x20 => &[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ],
            _ => continue,
        };
        out.put(&s.as_bytes()[start..i]);
        out.put(escape);
        start = i + 1;
    }
    out.put(&s.as_bytes()[start..]);
    out.put(b"\"");
}

/// The digest a [`Binding`](super::Binding) carries for a request's arguments: SHA-256 of their
/// canonical JSON, truncated to 16 bytes.
///
/// The canonical form sorts object keys at every depth, drops whitespace and writes numbers in
/// a bounded form: integers exactly (`u64`/`i64`, so integers above 2^53 stay distinct),
/// integral floats below 2^53 as integers (`1.0` digests as `1`), other floats in their
/// shortest round-trip form (`1e308` is six characters, not 309). It is streamed into the
/// hash; no text is built.
///
/// Absent arguments (pass `&Value::Null`) and an empty object `{}` digest the same. Key order and
/// whitespace never matter; any change of a value does.
///
/// ```
/// use elicit_runtime::state::args_digest;
/// use serde_json::{Value, json};
///
/// assert_eq!(args_digest(&Value::Null), args_digest(&json!({})));
/// assert_eq!(
///     args_digest(&json!({"city": "Paris", "days": 3})),
///     args_digest(&serde_json::from_str(r#"{ "days": 3, "city": "Paris" }"#).unwrap()),
/// );
/// assert_eq!(args_digest(&json!({"days": 3.0})), args_digest(&json!({"days": 3})));
/// assert_ne!(args_digest(&json!({"days": 3})), args_digest(&json!({"days": 4})));
/// ```
#[must_use]
pub fn args_digest(arguments: &Value) -> [u8; 16] {
    let mut sink = HashSink::new();
    match arguments {
        Value::Null => sink.put(b"{}"),
        other => write_canonical(other, &mut sink),
    }
    truncate(&sink.finalize())
}

fn truncate(hash: &[u8; 32]) -> [u8; 16] {
    let mut digest = [0u8; 16];
    digest.copy_from_slice(&hash[..16]);
    digest
}

/// SHA-256 over length-prefixed parts and canonical JSON values, cut to 16 bytes, as unpadded
/// base64url: the digest that binds answers to questions and URL flows to calls.
///
/// The encoding is injective: a byte part is its length (u64, big-endian) and its bytes; a JSON
/// part is `u64::MAX` (no byte part is that long), its canonical text, and a zero byte (which
/// canonical JSON never contains: U+0000 is written `\u0000`).
pub(crate) struct ShortDigest(HashSink);

impl ShortDigest {
    pub(crate) fn new() -> Self {
        Self(HashSink::new())
    }

    pub(crate) fn bytes(mut self, part: &[u8]) -> Self {
        let len = u64::try_from(part.len()).unwrap_or(u64::MAX - 1);
        self.0.put(&len.to_be_bytes());
        self.0.put(part);
        self
    }

    pub(crate) fn json(mut self, value: &Value) -> Self {
        self.0.put(&u64::MAX.to_be_bytes());
        write_canonical(value, &mut self.0);
        self.0.put(&[0]);
        self
    }

    pub(crate) fn finish(self) -> String {
        URL_SAFE_NO_PAD.encode(truncate(&self.0.finalize()))
    }
}

/// `ShortDigest` over byte parts only.
pub fn short_digest(parts: &[&[u8]]) -> String {
    parts
        .iter()
        .fold(ShortDigest::new(), |digest, part| digest.bytes(part))
        .finish()
}

/// A short digest of key, message and schema (binds answers to questions): the key, the
/// message and the SHA-256 of the schema's canonical text, as byte parts.
pub fn question_digest(key: &str, message: &str, schema: &RequestedSchema) -> String {
    form_digest(key, message, &hash_schema(schema))
}

/// [`question_digest`] of a form's own schema (a `'static` the derive built once): the hash
/// of its canonical text is computed once per form type and kept, so asking with another
/// message hashes the key, the message and 32 bytes, and builds no `Value`.
pub fn question_digest_declared(
    key: &str,
    message: &str,
    schema: &'static RequestedSchema,
) -> String {
    form_digest(key, message, &schema_hash(schema))
}

/// The SHA-256 of a schema's canonical text.
fn hash_schema(schema: &RequestedSchema) -> [u8; 32] {
    let mut sink = HashSink::new();
    write_canonical(&serde_json::to_value(schema).unwrap_or_default(), &mut sink);
    sink.finalize()
}

fn form_digest(key: &str, message: &str, schema_hash: &[u8; 32]) -> String {
    ShortDigest::new()
        .bytes(key.as_bytes())
        .bytes(message.as_bytes())
        .bytes(schema_hash)
        .finish()
}

/// The SHA-256 of a `'static` schema's canonical text, by the schema's address: there is one
/// per form type, so the cache holds as many entries as the program has forms.
fn schema_hash(schema: &'static RequestedSchema) -> [u8; 32] {
    use std::collections::HashMap;
    use std::sync::{OnceLock, RwLock};
    static CACHE: OnceLock<RwLock<HashMap<usize, [u8; 32]>>> = OnceLock::new();
    let cache = CACHE.get_or_init(RwLock::default);
    let address = std::ptr::from_ref(schema) as usize;
    if let Some(hash) = cache.read().ok().and_then(|c| c.get(&address).copied()) {
        return hash;
    }
    let hash = hash_schema(schema);
    if let Ok(mut cache) = cache.write() {
        cache.insert(address, hash);
    }
    hash
}

/// A digest for a non-form input request: key, method and canonical params.
pub fn question_digest_raw(key: &str, method: &str, params: &Value) -> String {
    ShortDigest::new()
        .bytes(key.as_bytes())
        .bytes(method.as_bytes())
        .json(params)
        .finish()
}

/// SHA-256 of the principal, salted with the (length-prefixed) audience.
pub fn principal_hash(audience: &str, principal: &str) -> [u8; 32] {
    let audience_len = u64::try_from(audience.len()).unwrap_or(u64::MAX);
    Sha256::new()
        .chain_update(PRINCIPAL_LABEL)
        .chain_update(audience_len.to_be_bytes())
        .chain_update(audience.as_bytes())
        .chain_update(principal.as_bytes())
        .finalize()
        .into()
}

/// Equality of two byte strings in time independent of their contents (`ctutils`, the
/// constant-time toolkit `aes-gcm` itself uses to compare tags; the lengths are not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).to_bool()
}

#[cfg(test)]
mod tests;
