use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Value, json};

use super::*;
use crate::BoxFuture;
use crate::frame::test_support::*;
use crate::{KeyRing, MemoryReplayGuard, ReplayGuard, SealError, StateError};
use pollster::block_on;
#[test]
fn round_trip() {
    let s = sealer();
    let a = args();
    let b = Binding::tool_call("get_weather", &a).with_principal("user-123");
    let token = s.seal(&b, &payload(), t0()).unwrap();
    let opened = s.open::<Value>(&token, &b, t0() + secs(5)).unwrap();
    assert_eq!(opened.payload, payload());
    assert_eq!(opened.issued_at, t0());
    assert_eq!(opened.expires_at, t0() + DEFAULT_TTL);
    assert_eq!(opened.kid, 1);
    assert_ne!(opened.id, [0; 16]);
    // Opening does not consume the token without a replay guard.
    assert_eq!(s.open::<Value>(&token, &b, t0() + secs(6)).unwrap(), opened);
}

#[test]
fn payload_round_trips_exactly() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    for p in [
        Value::Null,
        json!(true),
        json!(0.1),
        json!(1.0),
        json!(-0.0),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!("quote \" backslash \\ nl \n ctl \u{1} emoji 🦀 nul \u{0}"),
        json!({"z": 1, "a": [null, {"k": "v"}]}),
    ] {
        let token = s.seal(&b, &p, t0()).unwrap();
        assert_eq!(s.open::<Value>(&token, &b, t0()).unwrap().payload, p, "{p}");
    }
}

#[test]
fn every_seal_is_fresh() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let t1 = s.seal(&b, &Value::Null, t0()).unwrap();
    let t2 = s.seal(&b, &Value::Null, t0()).unwrap();
    assert_ne!(t1, t2);
    assert_ne!(raw(&t1)[4..16], raw(&t2)[4..16]);
    assert_ne!(
        s.open::<Value>(&t1, &b, t0()).unwrap().id,
        s.open::<Value>(&t2, &b, t0()).unwrap().id
    );
}

#[test]
fn rotation_old_key_opens_new_key_seals() {
    let b = Binding::tool_call("t", &Value::Null);
    let before = StateSealer::new(KeyRing::new(1, K1), AUD);
    let old_token = before.seal(&b, &json!("old"), t0()).unwrap();

    let after = StateSealer::new(KeyRing::new(2, K2).with_old_key(1, K1).unwrap(), AUD);
    let opened = after.open::<Value>(&old_token, &b, t0() + secs(1)).unwrap();
    assert_eq!((opened.payload, opened.kid), (json!("old"), 1));

    let new_token = after.seal(&b, &json!("new"), t0()).unwrap();
    assert_eq!(raw(&new_token)[..4], 2u32.to_be_bytes());
    assert_eq!(after.open::<Value>(&new_token, &b, t0()).unwrap().kid, 2);
    // The previous deployment cannot open tokens of the new key.
    assert_refused(
        before.open::<Value>(&new_token, &b, t0()),
        &StateError::UnknownKey { kid: 2 },
    );
    // Once the old key is dropped, its tokens die.
    let later = StateSealer::new(KeyRing::new(2, K2), AUD);
    assert_refused(
        later.open::<Value>(&old_token, &b, t0()),
        &StateError::UnknownKey { kid: 1 },
    );
}

#[test]
fn expiry_and_clock_skew() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let token = s.seal(&b, &Value::Null, t0()).unwrap();
    assert!(s.open::<Value>(&token, &b, t0() + secs(599)).is_ok());
    assert_refused(
        s.open::<Value>(&token, &b, t0() + secs(600)),
        &StateError::Expired,
    );
    assert_refused(
        s.open::<Value>(&token, &b, t0() + secs(86_400)),
        &StateError::Expired,
    );
    assert!(s.open::<Value>(&token, &b, t0() - secs(30)).is_ok());
    assert_refused(
        s.open::<Value>(&token, &b, t0() - secs(31)),
        &StateError::NotYetValid,
    );
    assert_refused(
        s.open::<Value>(&token, &b, UNIX_EPOCH),
        &StateError::NotYetValid,
    );
    // A time before the epoch does not panic.
    let _ = s.open::<Value>(&token, &b, UNIX_EPOCH - secs(10));
    let _ = s.seal(&b, &Value::Null, UNIX_EPOCH - secs(10)).unwrap();
}

#[test]
fn custom_ttl_and_lowering_it() {
    let b = Binding::tool_call("t", &Value::Null);
    let short = sealer().with_ttl(secs(60));
    let token = short.seal(&b, &Value::Null, t0()).unwrap();
    assert_eq!(
        short.open::<Value>(&token, &b, t0()).unwrap().expires_at,
        t0() + secs(60)
    );
    assert_refused(
        short.open::<Value>(&token, &b, t0() + secs(60)),
        &StateError::Expired,
    );

    // Lowering the TTL applies to tokens already handed out.
    let long_lived = sealer().seal(&b, &Value::Null, t0()).unwrap();
    assert_refused(
        short.open::<Value>(&long_lived, &b, t0() + secs(61)),
        &StateError::Expired,
    );
    // (within the second a token sealed at a fractional time may need).
    assert_eq!(
        short
            .open::<Value>(&long_lived, &b, t0())
            .unwrap()
            .expires_at,
        t0() + secs(61)
    );
    // Zero rounds up to one second.
    assert_eq!(sealer().with_ttl(Duration::ZERO).ttl(), secs(1));
}

#[test]
fn audience_mismatch() {
    let b = Binding::tool_call("t", &Value::Null);
    let token = sealer().seal(&b, &Value::Null, t0()).unwrap();
    let other_server = StateSealer::new(KeyRing::new(1, K1), "other-server");
    assert_refused(
        other_server.open::<Value>(&token, &b, t0()),
        &StateError::AudienceMismatch,
    );
}

#[test]
fn method_target_and_arguments_mismatch() {
    let s = sealer();
    let a = args();
    let b = Binding::tool_call("get_weather", &a);
    let token = s.seal(&b, &Value::Null, t0()).unwrap();

    assert_refused(
        s.open::<Value>(&token, &Binding::prompt_get("get_weather", &a), t0()),
        &StateError::MethodMismatch,
    );
    assert_refused(
        s.open::<Value>(&token, &Binding::tool_call("get_forecast", &a), t0()),
        &StateError::TargetMismatch,
    );
    let changed = json!({"location": "Paris", "units": {"temp": "C", "wind": "kmh"}, "days": 3});
    assert_refused(
        s.open::<Value>(&token, &Binding::tool_call("get_weather", &changed), t0()),
        &StateError::ArgumentsChanged,
    );
    let extra = json!({"location": "New York", "units": {"temp": "C", "wind": "kmh"}, "days": 3, "x": null});
    assert_refused(
        s.open::<Value>(&token, &Binding::tool_call("get_weather", &extra), t0()),
        &StateError::ArgumentsChanged,
    );
    // Key order (at every depth) and whitespace do not matter.
    let reordered: Value = serde_json::from_str(
        r#"{ "days": 3, "units": { "wind": "kmh", "temp": "C" }, "location": "New York" }"#,
    )
    .unwrap();
    assert!(
        s.open::<Value>(&token, &Binding::tool_call("get_weather", &reordered), t0())
            .is_ok()
    );
}

#[test]
fn principal_binding() {
    let s = sealer();
    let a = args();
    let alice = Binding::tool_call("get_weather", &a).with_principal("alice");
    let bob = alice.with_principal("bob");
    let nobody = alice.with_principal(None);

    let for_alice = s.seal(&alice, &Value::Null, t0()).unwrap();
    assert!(s.open::<Value>(&for_alice, &alice, t0()).is_ok());
    assert_refused(
        s.open::<Value>(&for_alice, &bob, t0()),
        &StateError::PrincipalMismatch,
    );
    assert_refused(
        s.open::<Value>(&for_alice, &nobody, t0()),
        &StateError::PrincipalMismatch,
    );

    let anonymous = s.seal(&nobody, &Value::Null, t0()).unwrap();
    assert!(s.open::<Value>(&anonymous, &nobody, t0()).is_ok());
    assert_refused(
        s.open::<Value>(&anonymous, &alice, t0()),
        &StateError::PrincipalMismatch,
    );
    assert_refused(
        s.open::<Value>(&anonymous, &alice.with_principal(""), t0()),
        &StateError::PrincipalMismatch,
    );
}

#[test]
fn replay_guard_makes_state_single_use() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let s = sealer().with_replay_guard(guard.clone());
    let a = args();
    let b = Binding::tool_call("get_weather", &a).with_principal("alice");
    let token = s.seal(&b, &payload(), t0()).unwrap();

    // Failed checks do not burn the token, and opening alone never calls the guard.
    assert_refused(
        s.open::<Value>(&token, &b.with_principal("mallory"), t0()),
        &StateError::PrincipalMismatch,
    );
    let opened = s.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!(opened.payload, payload());
    assert!(guard.is_empty());

    assert_eq!(block_on(s.redeem(&opened, t0())), Ok(()));
    assert_eq!(guard.len(), 1);
    let again = s.open::<Value>(&token, &b, t0() + secs(1)).unwrap();
    assert_eq!(again.id, opened.id);
    assert_eq!(
        block_on(s.redeem(&again, t0() + secs(1))),
        Err(StateError::Replayed)
    );

    // Another token of the same request is independent.
    let second = s.seal(&b, &payload(), t0()).unwrap();
    let second = s.open::<Value>(&second, &b, t0()).unwrap();
    assert_eq!(block_on(s.redeem(&second, t0())), Ok(()));
}

#[test]
fn replay_guard_failure_fails_closed() {
    struct Down;
    impl ReplayGuard for Down {
        fn redeem(&self, _: Redemption) -> BoxFuture<'_, Result<(), StateError>> {
            Box::pin(async {
                Err(StateError::ReplayGuardUnavailable(
                    "store unreachable".into(),
                ))
            })
        }
    }
    let s = sealer().with_replay_guard(Arc::new(Down));
    let b = Binding::tool_call("t", &Value::Null);
    let token = s.seal(&b, &Value::Null, t0()).unwrap();
    let opened = s.open::<Value>(&token, &b, t0()).unwrap();
    assert_eq!(
        block_on(s.redeem(&opened, t0())),
        Err(StateError::ReplayGuardUnavailable(
            "store unreachable".into()
        ))
    );
}

#[test]
fn size_limit_is_symmetric() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    // Largest string payload that seals, by bisection; it must also open.
    let (mut lo, mut hi) = (0usize, MAX_TOKEN_LEN);
    while lo + 1 < hi {
        let mid = usize::midpoint(lo, hi);
        if s.seal(&b, &json!("x".repeat(mid)), t0()).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let token = s.seal(&b, &json!("x".repeat(lo)), t0()).unwrap();
    assert!(token.len() <= MAX_TOKEN_LEN);
    assert!(token.len() > MAX_TOKEN_LEN - 4);
    assert!(s.open::<Value>(&token, &b, t0()).is_ok());
    let err = s.seal(&b, &json!("x".repeat(lo + 1)), t0()).unwrap_err();
    assert!(matches!(err, SealError::PayloadTooLarge { max, .. } if max == MAX_TOKEN_LEN));
}

#[test]
fn sealer_is_shareable_and_debug_hides_keys() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<StateSealer>();
    assert_send_sync::<KeyRing>();
    let s = StateSealer::new(KeyRing::new(1, [0xEE; 32]), AUD)
        .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    let text = format!("{s:?}");
    assert!(
        text.contains("primary_kid: 1") && text.contains(AUD),
        "{text}"
    );
    assert!(!text.contains("238"), "{text}"); // 0xEE
}

/// Shaped like the round state the context seals.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct RoundState {
    asked: std::collections::BTreeMap<String, String>,
    answers: std::collections::BTreeMap<String, Answered>,
    #[serde(default)]
    notes: std::collections::BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Answered {
    d: String,
    r: Value,
}

fn round_state() -> RoundState {
    RoundState {
        asked: [("confirm".to_owned(), "q1Yk0mJ3vXo2c8fN4tHs7A".to_owned())].into(),
        answers: [(
            "guests".to_owned(),
            Answered {
                d: "b2XgR5yq0wLk9ZpE3sTj1Q".to_owned(),
                r: json!({"action": "accept", "content": {"count": 4}}),
            },
        )]
        .into(),
        notes: std::collections::BTreeMap::new(),
    }
}

#[test]
fn typed_payloads_round_trip() {
    let s = sealer();
    let a = args();
    let b = Binding::tool_call("get_weather", &a).with_principal("user-123");
    let token = s.seal(&b, &round_state(), t0()).unwrap();
    let opened: Opened<RoundState> = s.open(&token, &b, t0()).unwrap();
    assert_eq!(opened.payload, round_state());
    assert_eq!(opened.kid, 1);
    // The same token reads as JSON too, and a JSON payload of the right shape as the type.
    let as_json = s.open::<Value>(&token, &b, t0()).unwrap().payload;
    assert_eq!(as_json, serde_json::to_value(round_state()).unwrap());
    let from_json = s.seal(&b, &as_json, t0()).unwrap();
    assert_eq!(
        s.open::<RoundState>(&from_json, &b, t0()).unwrap().payload,
        round_state()
    );
    // Unsized payloads seal too.
    let token = s.seal(&b, "just text", t0()).unwrap();
    assert_eq!(
        s.open::<String>(&token, &b, t0()).unwrap().payload,
        "just text"
    );
    let token = s.seal(&b, &[1u8, 2, 3][..], t0()).unwrap();
    assert_eq!(
        s.open::<Vec<u8>>(&token, &b, t0()).unwrap().payload,
        [1, 2, 3]
    );
}

#[test]
fn a_payload_of_another_type_is_refused_uniformly() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    for payload in [json!({"asked": 1}), json!([1, 2]), Value::Null, json!({})] {
        let token = s.seal(&b, &payload, t0()).unwrap();
        assert_refused(
            s.open::<RoundState>(&token, &b, t0()),
            &StateError::Malformed("payload is not of the expected type"),
        );
    }
    let token = s.seal(&b, &round_state(), t0()).unwrap();
    assert_refused(
        s.open::<u64>(&token, &b, t0()),
        &StateError::Malformed("payload is not of the expected type"),
    );
    // A replay guard is not consulted for a state that does not parse.
    let guard = Arc::new(MemoryReplayGuard::new());
    let guarded = sealer().with_replay_guard(guard.clone());
    assert!(guarded.open::<u64>(&token, &b, t0()).is_err());
    assert!(guard.is_empty());
    assert!(guarded.open::<RoundState>(&token, &b, t0()).is_ok());
}

#[test]
fn a_payload_that_does_not_serialize_is_a_seal_error() {
    let s = sealer();
    let b = Binding::tool_call("t", &Value::Null);
    let bad: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
    let err = s.seal(&b, &bad, t0()).unwrap_err();
    assert!(matches!(err, SealError::Serialize(_)), "{err:?}");
    assert!(err.to_string().contains("does not serialize"), "{err}");
}
