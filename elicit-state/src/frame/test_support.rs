//! What the state unit tests share: keys, a sealer, a binding's arguments, a payload, and
//! helpers to look inside tokens.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::frame;
use crate::{KeyRing, Opened, StateError, StateSealer, TOKEN_PREFIX};

/// Two keys drawn at random once (the checks of `KeyRing::with_old_key` refuse patterns).
pub(crate) const K1: [u8; 32] = [
    0x0b, 0xc2, 0xc8, 0x1a, 0xf9, 0xda, 0x87, 0x2a, 0x9b, 0x6f, 0x02, 0x77, 0x9d, 0x5f, 0xa8, 0x46,
    0x5a, 0x23, 0x30, 0xcc, 0x7a, 0x54, 0x67, 0xcb, 0x82, 0x1a, 0x03, 0x0f, 0x2d, 0x29, 0xd8, 0x25,
];
pub(crate) const K2: [u8; 32] = [
    0xf1, 0x32, 0x67, 0x86, 0x29, 0x2f, 0x92, 0x85, 0x05, 0x4c, 0x9d, 0x18, 0x52, 0x00, 0xc7, 0xbd,
    0xd7, 0xcc, 0x60, 0x30, 0x24, 0x32, 0xd0, 0x69, 0x68, 0x82, 0xe3, 0x4a, 0xaa, 0xcb, 0x76, 0x3d,
];
pub(crate) const AUD: &str = "example-server";
pub(crate) const PREFIX: &frame::Prefix = b"es1.";

pub(crate) fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_780_000_000)
}

pub(crate) fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

pub(crate) fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, K1), AUD)
}

pub(crate) fn args() -> Value {
    json!({"location": "New York", "units": {"temp": "C", "wind": "kmh"}, "days": 3})
}

pub(crate) fn payload() -> Value {
    json!({"answers": {"github_login": {"name": "octocat"}}, "round": 2, "ratio": 1.0})
}

pub(crate) fn uniform() -> Value {
    json!({
        "code": -32602,
        "message": "Invalid or expired requestState",
        "data": {"reason": "invalid_request_state"}
    })
}

/// Asserts the precise reason and the uniform client error.
#[track_caller]
pub(crate) fn assert_refused<P: std::fmt::Debug>(
    result: Result<Opened<P>, StateError>,
    expected: &StateError,
) {
    let err = result.expect_err("token must not open");
    assert_eq!(&err, expected);
    assert_eq!(err.to_jsonrpc_error(), uniform());
}

/// The token's bytes under the base64.
pub(crate) fn raw(token: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD
        .decode(token.strip_prefix(TOKEN_PREFIX).unwrap())
        .unwrap()
}

/// The token's plaintext.
pub(crate) fn decrypt(ring: &KeyRing, token: &str) -> Vec<u8> {
    frame::open(ring, PREFIX, token)
        .ok()
        .unwrap()
        .plaintext()
        .to_vec()
}
