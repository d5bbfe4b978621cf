use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::frame;
use crate::frame::test_support::*;
use crate::{Binding, KeyRing, StateError, StateSealer, args_digest};

/// A version-2 envelope as bytes: the header fields in order, then the payload text.
#[allow(clippy::too_many_arguments)]
fn envelope(
    v: u8,
    iat: u64,
    exp: u64,
    jti: [u8; 16],
    args: [u8; 16],
    principal: Option<[u8; 32]>,
    texts: [&str; 3],
    payload: &str,
) -> Vec<u8> {
    let mut out = vec![v];
    out.extend_from_slice(&iat.to_be_bytes());
    out.extend_from_slice(&exp.to_be_bytes());
    out.extend_from_slice(&jti);
    out.extend_from_slice(&args);
    match principal {
        Some(hash) => {
            out.push(1);
            out.extend_from_slice(&hash);
        }
        None => out.push(0),
    }
    for text in texts {
        out.extend_from_slice(&u32::try_from(text.len()).unwrap().to_be_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(payload.as_bytes());
    out
}

#[test]
fn token_layout() {
    let ring = KeyRing::new(0xA1B2_C3D4, K1);
    let s = StateSealer::new(ring.clone(), AUD);
    let a = args();
    let b = Binding::tool_call("get_weather", &a).with_principal("user-123");
    let token = s.seal(&b, &payload(), t0()).unwrap();
    assert!(token.starts_with("es1."));
    assert!(
        token[4..]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
    );
    let raw = raw(&token);
    assert_eq!(raw[..4], 0xA1B2_C3D4u32.to_be_bytes());
    let plaintext = decrypt(&ring, &token);
    assert_eq!(raw.len(), 4 + 12 + plaintext.len() + 16);
    // Nothing readable in the token; the principal not even in the plaintext.
    assert!(!String::from_utf8_lossy(&raw).contains("octocat"));
    assert!(!String::from_utf8_lossy(&plaintext).contains("user-123"));
    let (header, rest) = Header::parse(&plaintext).unwrap();
    assert_eq!(plaintext[0], 2);
    assert_eq!(header.iat, 1_780_000_000u64);
    assert_eq!(header.exp, 1_780_000_600u64);
    assert_eq!(header.aud, AUD.as_bytes());
    assert_eq!(header.method, b"tools/call");
    assert_eq!(header.target, b"get_weather");
    assert_eq!(header.args, args_digest(&a));
    assert_eq!(
        header.principal,
        Some(crate::digest::principal_hash(AUD, "user-123"))
    );
    assert_eq!(header.len(), plaintext.len() - rest.len());
    let opened = s.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!(header.jti, opened.id);
    assert_eq!(serde_json::from_slice::<Value>(rest).unwrap(), payload());
    // The same bytes, field by field.
    let expected = envelope(
        2,
        header.iat,
        header.exp,
        header.jti,
        header.args,
        header.principal,
        [AUD, "tools/call", "get_weather"],
        std::str::from_utf8(rest).unwrap(),
    );
    assert_eq!(plaintext, expected);
    // Without a principal there is no principal hash.
    let anon = s
        .seal(&Binding::tool_call("get_weather", &a), &Value::Null, t0())
        .unwrap();
    let plaintext = decrypt(&ring, &anon);
    let (header, rest) = Header::parse(&plaintext).unwrap();
    assert_eq!(header.principal, None);
    assert_eq!(plaintext[1 + 8 + 8 + 16 + 16], 0);
    assert_eq!(rest, b"null");
}

#[test]
fn envelope_problems_are_malformed() {
    let ring = KeyRing::new(1, K1);
    let s = StateSealer::new(ring.clone(), AUD);
    let b = Binding::tool_call("t", &Value::Null);
    let digest = b.args_digest;
    let jti = [9; 16];
    let texts = [AUD, "tools/call", "t"];
    let (iat, exp) = (1_780_000_000, 1_780_000_600);
    let ok = envelope(2, iat, exp, jti, digest, None, texts, r#"{"x":1}"#);
    let mut bad_flag = ok.clone();
    bad_flag[1 + 8 + 8 + 16 + 16] = 2;
    let mut long_text = ok.clone();
    long_text[FIXED_LEN..FIXED_LEN + 4].copy_from_slice(&u32::MAX.to_be_bytes());
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"not json".to_vec(),
        b"{}".to_vec(),
        // Version 1 (JSON) and an unknown version.
        format!(r#"{{"v":1,"iat":{iat},"exp":{exp},"aud":"{AUD}","s":null}}"#).into_bytes(),
        envelope(1, iat, exp, jti, digest, None, texts, "null"),
        envelope(3, iat, exp, jti, digest, None, texts, "null"),
        bad_flag,
        long_text,
        // No payload, a payload that is not JSON, JSON with trailing bytes.
        envelope(2, iat, exp, jti, digest, None, texts, ""),
        envelope(2, iat, exp, jti, digest, None, texts, "{"),
        envelope(2, iat, exp, jti, digest, None, texts, "1 2"),
        envelope(2, iat, exp, jti, digest, None, texts, "\"\u{0}\""),
    ];
    let mut cases = cases;
    // Every cut of a well-formed envelope.
    cases.extend((0..ok.len()).map(|n| ok[..n].to_vec()));
    let mut invalid_utf8 = envelope(2, iat, exp, jti, digest, None, texts, "\"x\"");
    let at = invalid_utf8.len() - 2;
    invalid_utf8[at] = 0xFF;
    cases.push(invalid_utf8);
    for plaintext in &cases {
        let token = frame::seal(&ring, PREFIX, plaintext).unwrap();
        let err = s.open::<Value>(&token, &b, t0()).unwrap_err();
        assert!(
            matches!(err, StateError::Malformed(_)),
            "{plaintext:?}: {err:?}"
        );
    }
    // The hand-made envelope itself is accepted when well formed.
    let token = frame::seal(&ring, PREFIX, &ok).unwrap();
    let opened = s.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!((opened.payload, opened.id), (json!({"x": 1}), [9; 16]));
    // Timestamps beyond what SystemTime can hold do not panic.
    let far = envelope(2, 0, u64::MAX, jti, digest, None, texts, "null");
    let token = frame::seal(&ring, PREFIX, &far).unwrap();
    let s_long = s.with_ttl(Duration::from_secs(u64::MAX));
    let _ = s_long.open::<Value>(&token, &b, t0());
}

/// Issue 9 item 7: `ttl_secs` computed `as_secs() + 1`, which overflowed (a panic in debug
/// builds) at `Duration::MAX`; and no TTL was too long.
#[test]
fn ttls_are_clamped_and_never_overflow() {
    assert_eq!(ttl_secs(Duration::MAX), MAX_TTL.as_secs());
    assert_eq!(ttl_secs(Duration::from_secs(u64::MAX)), MAX_TTL.as_secs());
    assert_eq!(
        ttl_secs(MAX_TTL + Duration::from_nanos(1)),
        MAX_TTL.as_secs()
    );
    assert_eq!(ttl_secs(MAX_TTL), MAX_TTL.as_secs());
    assert_eq!(ttl_secs(Duration::ZERO), 1);
    assert_eq!(ttl_secs(Duration::from_millis(1500)), 2);
    let sealer = sealer().with_ttl(Duration::MAX);
    assert_eq!(sealer.ttl(), MAX_TTL);
    let b = Binding::tool_call("t", &Value::Null);
    let token = sealer.seal(&b, &Value::Null, t0()).unwrap();
    let opened = sealer.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!(opened.expires_at, t0() + MAX_TTL);
}

#[test]
fn lifetimes_and_timestamps_never_overflow() {
    assert_eq!(
        lifetime(t0(), Duration::from_secs(60)),
        (1_780_000_000, 1_780_000_060)
    );
    let fractional = t0() + Duration::from_millis(1);
    assert_eq!(
        lifetime(fractional, Duration::from_secs(60)),
        (1_780_000_000, 1_780_000_061)
    );
    // Before the epoch counts as the epoch.
    let early = UNIX_EPOCH - Duration::from_secs(5);
    assert_eq!(lifetime(early, Duration::MAX), (0, MAX_TTL.as_secs()));
    assert_eq!(unix_secs(early), 0);
    // `UNIX_EPOCH + from_secs(exp)` panics for huge `exp`; this does not.
    assert_eq!(from_unix_secs(u64::MAX), None);
    assert_eq!(
        from_unix_secs(60),
        Some(UNIX_EPOCH + Duration::from_secs(60))
    );
    // An expiry the clock cannot hold is already over: fail closed.
    assert_eq!(expiry_from_unix_secs(u64::MAX), UNIX_EPOCH);
    assert_eq!(
        expiry_from_unix_secs(60),
        UNIX_EPOCH + Duration::from_secs(60)
    );
}
