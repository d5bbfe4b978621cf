//! `state_open` and `url_handle_open`: opening `requestState` tokens and URL-mode handles,
//! from the token text down to the payload the AEAD authenticated.

use std::borrow::Cow;
use std::time::Duration;

use serde_json::{Value, json};

use super::fixtures::{AUDIENCE, PRINCIPAL, now, same_json, sealer};
use crate::request::round;
use crate::state::frame::{self, Prefix};
use crate::state::{Binding, MAX_CLOCK_SKEW, StateSealer, TOKEN_PREFIX};
use crate::url::handle::{self, HANDLE_PREFIX};

/// The tool call every state of the target is bound to, and its arguments.
pub(crate) const TOOL: &str = "get_weather";
pub(crate) fn tool_args() -> Value {
    json!({"location": "New York", "days": 3})
}

/// The bindings a state may be opened for, picked by the input's first byte.
pub(crate) fn binding(pick: u8, args: &Value) -> Binding<'_> {
    match pick % 4 {
        0 => Binding::tool_call(TOOL, args).with_principal(PRINCIPAL),
        1 => Binding::tool_call(TOOL, args),
        2 => Binding::prompt_get(TOOL, args).with_principal(PRINCIPAL),
        _ => Binding::resource_read("file:///weather.txt"),
    }
}

/// The token the input stands for: its first byte's low bit says whether the rest is the token
/// text, or a plaintext to seal with the fixed key under `prefix` (what a token's parser sees
/// once the tag checked out, which a fuzzer could never forge).
fn token<'a>(data: &'a [u8], sealer: &StateSealer, prefix: &Prefix) -> Option<(u8, Cow<'a, str>)> {
    let (&mode, rest) = data.split_first()?;
    let token = if mode & 1 == 0 {
        Cow::Borrowed(std::str::from_utf8(rest).ok()?)
    } else {
        Cow::Owned(frame::seal(sealer.key_ring(), prefix, rest).expect("sealing a plaintext"))
    };
    Some((mode >> 1, token))
}

fn state_prefix() -> &'static Prefix {
    TOKEN_PREFIX.as_bytes().try_into().expect("a 4-byte prefix")
}

/// Opens a `requestState` for one of four bindings, as of a fixed clock, as JSON and as the
/// binary round state the request context reads. What opens is current and was issued for this
/// server, and sealing its payload again gives a token that opens to the same payload.
pub fn state_open(data: &[u8]) {
    let sealer = sealer();
    let Some((pick, token)) = token(data, &sealer, state_prefix()) else {
        return;
    };
    let args = tool_args();
    let binding = binding(pick, &args);
    let now = now();
    // The request context's own reader: the binary round state (`request/round/binary.rs`).
    let _ = sealer.open_with(&token, &binding, now, round::read);
    let Ok(opened) = sealer.open::<Value>(&token, &binding, now) else {
        return;
    };
    assert!(opened.expires_at > now, "an expired state opened");
    assert!(
        opened.issued_at <= now + MAX_CLOCK_SKEW,
        "a future state opened"
    );
    let ttl = sealer.ttl() + Duration::from_secs(1);
    assert!(
        opened.expires_at <= opened.issued_at + ttl,
        "a state outlives the TTL"
    );
    assert!(matches!(opened.kid, 1 | 2), "key id {}", opened.kid);
    let resealed = sealer
        .seal(&binding, &opened.payload, now)
        .expect("sealing");
    let again = sealer
        .open::<Value>(&resealed, &binding, now)
        .expect("reopening");
    assert!(
        same_json(&again.payload, &opened.payload),
        "resealed {} vs {}",
        again.payload,
        opened.payload
    );
    // Never as a handle: the prefix is authenticated.
    assert!(
        handle::open(&sealer, &token).is_err(),
        "a state opened as a handle"
    );
}

/// Opens a URL-mode handle (authenticity, version, audience; the TTL caps its expiry), checks
/// the subject as the landing page does, and opens it as `requestState`, which must fail.
pub fn url_handle_open(data: &[u8]) {
    let sealer = sealer();
    let Some((pick, token)) = token(data, &sealer, HANDLE_PREFIX) else {
        return;
    };
    let args = tool_args();
    let binding = binding(pick, &args);
    assert!(
        sealer.open::<Value>(&token, &binding, now()).is_err(),
        "a handle opened as requestState"
    );
    let Ok(claims) = handle::open(&sealer, &token) else {
        return;
    };
    assert_eq!((claims.v, claims.aud.as_str()), (1, AUDIENCE));
    let ttl = crate::state::ttl_secs(sealer.ttl());
    assert!(claims.exp <= claims.iat.saturating_add(ttl).saturating_add(1));
    let _ = claims.expires_at();
    for subject in [PRINCIPAL, "", "mallory"] {
        let _ = claims.is_for(&sealer, subject);
    }
    let _ = serde_json::to_string(&claims).expect("claims serialize");
}
