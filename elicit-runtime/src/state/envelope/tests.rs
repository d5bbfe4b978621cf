use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::state::frame;
use crate::state::test_support::*;
use crate::state::{Binding, KeyRing, StateError, StateSealer, args_digest};
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
    assert!(!plaintext.contains("user-123"));
    let env: Value = serde_json::from_str(&plaintext).unwrap();
    assert_eq!(env["v"], 1);
    assert_eq!(env["iat"], 1_780_000_000u64);
    assert_eq!(env["exp"], 1_780_000_600u64);
    assert_eq!(env["aud"], AUD);
    assert_eq!(env["m"], "tools/call");
    assert_eq!(env["t"], "get_weather");
    assert_eq!(env["a"], b64(&args_digest(&a)));
    assert_eq!(env["p"].as_str().unwrap().len(), 43);
    assert_eq!(env["jti"].as_str().unwrap().len(), 22);
    assert_eq!(env["s"], payload());
    // Without a principal there is no `p` claim.
    let anon = s
        .seal(&Binding::tool_call("get_weather", &a), &Value::Null, t0())
        .unwrap();
    let env: Value = serde_json::from_str(&decrypt(&ring, &anon)).unwrap();
    assert!(env.get("p").is_none());
}

#[test]
fn envelope_problems_are_malformed() {
    let ring = KeyRing::new(1, K1);
    let s = StateSealer::new(ring.clone(), AUD);
    let b = Binding::tool_call("t", &Value::Null);
    let digest = b64(&b.args_digest);
    let jti = b64(&[9; 16]);
    let cases = [
        "not json".to_string(),
        "{}".into(),
        format!(
            r#"{{"v":2,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":null}}"#
        ),
        format!(
            r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"AAAA","jti":"{jti}","s":null}}"#
        ),
        format!(
            r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","p":"!","jti":"{jti}","s":null}}"#
        ),
        format!(
            r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}"}}"#
        ),
    ];
    for plaintext in &cases {
        let token = frame::seal(&ring, PREFIX, plaintext.as_bytes()).unwrap();
        let err = s.open::<Value>(&token, &b, t0()).unwrap_err();
        assert!(
            matches!(err, StateError::Malformed(_)),
            "{plaintext}: {err:?}"
        );
    }
    // The hand-made envelope itself is accepted when well formed.
    let ok = format!(
        r#"{{"v":1,"iat":1780000000,"exp":1780000600,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":{{"x":1}}}}"#
    );
    let token = frame::seal(&ring, PREFIX, ok.as_bytes()).unwrap();
    let opened = s.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!((opened.payload, opened.id), (json!({"x": 1}), [9; 16]));
    // Timestamps beyond what SystemTime can hold do not panic.
    let far = format!(
        r#"{{"v":1,"iat":0,"exp":18446744073709551615,"aud":"{AUD}","m":"tools/call","t":"t","a":"{digest}","jti":"{jti}","s":null}}"#
    );
    let token = frame::seal(&ring, PREFIX, far.as_bytes()).unwrap();
    let s_long = s.clone().with_ttl(Duration::from_secs(u64::MAX));
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
    let early = std::time::UNIX_EPOCH - Duration::from_secs(5);
    assert_eq!(lifetime(early, Duration::MAX), (0, MAX_TTL.as_secs()));
    assert_eq!(unix_secs(early), 0);
    // `UNIX_EPOCH + from_secs(exp)` panics for huge `exp`; this does not.
    assert_eq!(from_unix_secs(u64::MAX), None);
    assert_eq!(
        from_unix_secs(60),
        Some(std::time::UNIX_EPOCH + Duration::from_secs(60))
    );
}

#[test]
fn binary_claims_decode_to_exactly_their_length() {
    let bytes = [7u8; 16];
    let text = B64::new(&bytes);
    assert_eq!(text.as_str().len(), 22);
    assert_eq!(unb64::<16>(text.as_str()), Ok(bytes));
    assert!(matches!(
        unb64::<16>(B64::new(&[7u8; 17]).as_str()),
        Err(StateError::Malformed(_))
    ));
    assert!(matches!(
        unb64::<16>(B64::new(&[7u8; 15]).as_str()),
        Err(StateError::Malformed(_))
    ));
    assert!(matches!(
        unb64::<32>(&"A".repeat(400)),
        Err(StateError::Malformed(_))
    ));
    assert!(matches!(unb64::<16>("!!"), Err(StateError::Malformed(_))));
    assert_eq!(B64::new(&[0xFF; 32]).as_str().len(), 43);
}
