use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::frame::test_support::*;
use crate::{Binding, MemoryReplayGuard, StateSealer};
#[test]
fn malformed_tokens() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let good = s.seal(&b, &Value::Null, t0()).unwrap();
    let body = &good[4..];
    let bad = [
        String::new(),
        "es1".into(),
        "es1.".into(),
        format!("es2.{body}"),
        format!("ES1.{body}"),
        format!("v1.{body}"),
        format!(" {good}"),
        format!("{good} "),
        format!("{good}="),
        format!("es1.+{}", &body[1..]),
        format!("es1.{}/", &body[..body.len() - 1]),
        "es1.!!!!".into(),
        "es1.AAAA".into(),
        format!("es1.{}", URL_SAFE_NO_PAD.encode([0u8; 31])),
        format!("es1.{body}\u{e9}"),
    ];
    for token in &bad {
        let err = s.open::<Value>(token, &b, t0()).unwrap_err();
        assert!(
            matches!(err, StateError::Malformed(_)),
            "{token:?}: {err:?}"
        );
        assert_eq!(err.to_jsonrpc_error(), uniform());
    }
}

#[test]
fn oversized_token_is_refused_before_decoding() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let huge = format!("es1.{}", "A".repeat(MAX_TOKEN_LEN));
    assert_refused(
        s.open::<Value>(&huge, &b, t0()),
        &StateError::TooLarge {
            len: MAX_TOKEN_LEN + 4,
        },
    );
    let very_huge = "\u{1F980}".repeat(1 << 20);
    assert!(matches!(
        s.open::<Value>(&very_huge, &b, t0()),
        Err(StateError::TooLarge { .. })
    ));
}

#[test]
fn unknown_key() {
    let other = StateSealer::new(KeyRing::new(99, K2), AUD);
    let b = Binding::tool_call("t", &Value::Null);
    let token = other.seal(&b, &Value::Null, t0()).unwrap();
    assert_refused(
        sealer().open::<Value>(&token, &b, t0()),
        &StateError::UnknownKey { kid: 99 },
    );
}

#[test]
fn wrong_key_under_the_same_kid() {
    let other = StateSealer::new(KeyRing::new(1, K2), AUD);
    let b = Binding::tool_call("t", &Value::Null);
    let token = other.seal(&b, &Value::Null, t0()).unwrap();
    assert_refused(
        sealer().open::<Value>(&token, &b, t0()),
        &StateError::Decrypt,
    );
}

#[test]
fn kid_is_authenticated() {
    // Same key under two ids: rewriting the kid in the token must still fail.
    let ring = KeyRing::new(1, K1).with_old_key_unchecked(2, K1);
    let s = StateSealer::new(ring, AUD);
    let b = Binding::tool_call("t", &Value::Null);
    let token = s.seal(&b, &Value::Null, t0()).unwrap();
    let mut bytes = raw(&token);
    bytes[..4].copy_from_slice(&2u32.to_be_bytes());
    let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes));
    assert_refused(s.open::<Value>(&forged, &b, t0()), &StateError::Decrypt);
}

#[test]
fn other_token_kinds_do_not_open_as_state() {
    let ring = KeyRing::new(1, K1);
    let b = Binding::tool_call("t", &Value::Null);
    let token = sealer().seal(&b, &Value::Null, t0()).unwrap();
    let as_other_kind = format!("eu1.{}", &token[4..]);
    assert_eq!(
        open(&ring, b"eu1.", &as_other_kind).err().unwrap(),
        StateError::Decrypt
    );
}

#[test]
fn tampering_any_character_never_opens() {
    let s = sealer();
    let a = args();
    let b = Binding::tool_call("get_weather", &a).with_principal("alice");
    let token = s.seal(&b, &payload(), t0()).unwrap();
    let subs = [
        'A', 'B', 'g', 'z', '0', '9', '-', '_', '.', '=', '+', '/', ' ', 'é',
    ];
    let chars: Vec<char> = token.chars().collect();
    let mut tried = 0;
    for i in 0..chars.len() {
        for &c in &subs {
            if c == chars[i] {
                continue;
            }
            let mut tampered = chars.clone();
            tampered[i] = c;
            let tampered: String = tampered.into_iter().collect();
            assert!(
                s.open::<Value>(&tampered, &b, t0()).is_err(),
                "position {i} -> {c}"
            );
            tried += 1;
        }
    }
    assert!(tried > 13 * chars.len() - chars.len());
}

#[test]
fn flipping_any_bit_never_opens() {
    let s = sealer();
    let b = Binding::tool_call("t", &json!({"k": 1}));
    let token = s.seal(&b, &payload(), t0()).unwrap();
    let bytes = raw(&token);
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut tampered = bytes.clone();
            tampered[i] ^= 1 << bit;
            let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&tampered));
            let err = s.open::<Value>(&forged, &b, t0()).unwrap_err();
            let expected = if i < 4 {
                StateError::UnknownKey {
                    kid: u32::from_be_bytes(tampered[..4].try_into().unwrap()),
                }
            } else {
                StateError::Decrypt
            };
            assert_eq!(err, expected, "byte {i} bit {bit}");
        }
    }
}

#[test]
fn truncation_at_every_length_never_opens() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let token = s.seal(&b, &payload(), t0()).unwrap();
    for len in 0..token.len() {
        assert!(
            s.open::<Value>(&token[..len], &b, t0()).is_err(),
            "length {len}"
        );
    }
    // Truncating the raw bytes (re-encoded as valid base64) fails authentication.
    let bytes = raw(&token);
    for len in 0..bytes.len() {
        let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes[..len]));
        let err = s.open::<Value>(&forged, &b, t0()).unwrap_err();
        assert!(
            matches!(err, StateError::Malformed(_) | StateError::Decrypt),
            "length {len}: {err:?}"
        );
    }
    // Appending also fails.
    for extra in ["A", "AA", "AAAA", "AAAAA"] {
        assert!(
            s.open::<Value>(&format!("{token}{extra}"), &b, t0())
                .is_err()
        );
    }
}

/// Text from the base64url alphabet and its near misses.
fn token_like_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u{0}é🦀"
            .chars()
            .collect();
    prop::collection::vec(prop::sample::select(alphabet), 0..400)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_500))]

    #[test]
    fn random_text_never_opens_or_panics(text in token_like_text(), prefixed in any::<bool>()) {
        let s = sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new()));
        let b = Binding::tool_call("t", &Value::Null);
        let token = if prefixed { format!("es1.{text}") } else { text };
        prop_assert!(s.open::<Value>(&token, &b, t0()).is_err());
    }

    /// Well-formed frames of random bytes, half of them under the primary kid.
    #[test]
    fn random_frames_never_open(
        mut bytes in prop::collection::vec(any::<u8>(), 32..232),
        primary_kid in any::<bool>(),
    ) {
        let s = sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new()));
        let b = Binding::tool_call("t", &Value::Null);
        if primary_kid {
            bytes[..4].copy_from_slice(&1u32.to_be_bytes());
        }
        let forged = format!("es1.{}", URL_SAFE_NO_PAD.encode(&bytes));
        let err = s.open::<Value>(&forged, &b, t0()).unwrap_err();
        prop_assert!(matches!(err, StateError::Decrypt | StateError::UnknownKey { .. }), "{:?}", err);
    }

    /// Arbitrary Unicode scalar values.
    #[test]
    fn random_unicode_never_opens(text in "\\PC{0,64}") {
        let s = sealer();
        let b = Binding::tool_call("t", &Value::Null);
        prop_assert!(s.open::<Value>(&text, &b, t0()).is_err());
        let prefixed = format!("es1.{text}");
        prop_assert!(s.open::<Value>(&prefixed, &b, t0()).is_err());
    }
}
