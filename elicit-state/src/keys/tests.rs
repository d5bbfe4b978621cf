use std::time::{Duration, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

use super::*;
use crate::{Binding, StateError, StateSealer};

/// A key that passes the checks, different for each `n` (32 different bytes, not UTF-8).
fn key(n: u8) -> [u8; 32] {
    std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ n)
}

#[test]
fn debug_never_shows_key_material() {
    // Keys whose bytes would be easy to spot (the checks would refuse them).
    let ring = KeyRing::new(5, [0xAB; 32]).with_old_key_unchecked(4, [0xCD; 32]);
    let text = format!("{ring:?} {ring:#?}");
    assert!(!text.to_lowercase().contains("ab, "), "{text}");
    assert!(!text.contains("171"), "{text}"); // 0xAB in decimal
    assert!(!text.contains("205"), "{text}"); // 0xCD in decimal
    assert!(text.contains("primary_kid: 5"));
}

#[test]
fn lookup_by_kid_primary_first() {
    let ring = KeyRing::new(1, key(1))
        .with_old_key(2, key(2))
        .unwrap()
        .with_old_key(3, key(3))
        .unwrap();
    assert_eq!(ring.ciphers_for(1).count(), 1);
    assert_eq!(ring.ciphers_for(2).count(), 1);
    assert_eq!(ring.ciphers_for(4).count(), 0);
    assert_eq!(ring.primary().0, 1);
    assert_eq!(ring.old_kids().collect::<Vec<_>>(), [2, 3]);
}

// Old keys given in code get the checks of the configuration text: a weak old key opens tokens
// anyone can seal.

#[test]
fn a_weak_old_key_is_refused() {
    let ring = || KeyRing::try_new(2, key(0x5c)).unwrap();
    assert_eq!(
        ring().with_old_key(1, [0; 32]).unwrap_err(),
        KeyRingError::WeakKey {
            position: 2,
            kid: 1,
            weakness: KeyWeakness::RepeatedByte
        }
    );
    let password: [u8; 32] = *b"correct horse battery staple 42!";
    assert_eq!(
        ring().with_old_key(1, password).unwrap_err(),
        KeyRingError::WeakKey {
            position: 2,
            kid: 1,
            weakness: KeyWeakness::Text
        }
    );
    let pattern = [0xde, 0xad, 0xbe, 0xef].repeat(8).try_into().unwrap();
    // The third old key: counted as the configuration text counts its entries.
    let two_old = ring()
        .with_old_key(1, key(0xa3))
        .unwrap()
        .with_old_key(0, key(0x3a))
        .unwrap();
    assert_eq!(
        two_old.with_old_key(7, pattern).unwrap_err(),
        KeyRingError::WeakKey {
            position: 4,
            kid: 7,
            weakness: KeyWeakness::FewDistinctBytes
        }
    );
}

#[test]
fn an_old_key_equal_to_another_key_is_refused() {
    let ring = KeyRing::try_new(2, key(0x5c)).unwrap();
    // The primary kept as an old key: a rotation that rotated nothing.
    let err = ring.clone().with_old_key(1, key(0x5c)).unwrap_err();
    assert_eq!(
        err,
        KeyRingError::DuplicateKey {
            position: 2,
            kid: 1,
            first: 1,
            first_kid: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "key ring entry 2 (kid 1): the same key as entry 1 (kid 2)"
    );
    // Another old key, added twice under two ids.
    let ring = ring.with_old_key(1, key(0xa3)).unwrap();
    assert_eq!(
        ring.clone().with_old_key(0, key(0xa3)).unwrap_err(),
        KeyRingError::DuplicateKey {
            position: 3,
            kid: 0,
            first: 2,
            first_kid: 1
        }
    );
    // The same id twice, whether the primary's or an old key's.
    for (kid, first) in [(2, 1), (1, 2)] {
        assert_eq!(
            ring.clone().with_old_key(kid, key(0x3a)).unwrap_err(),
            KeyRingError::DuplicateKid {
                position: 3,
                kid,
                first
            }
        );
    }
    assert_eq!(
        ring.with_old_key(0, key(0x3a)).unwrap().old_kids().count(),
        2
    );
}

#[test]
fn a_weak_primary_key_is_refused_by_try_new() {
    assert_eq!(
        KeyRing::try_new(9, [7; 32]).unwrap_err(),
        KeyRingError::WeakKey {
            position: 1,
            kid: 9,
            weakness: KeyWeakness::RepeatedByte
        }
    );
    assert_eq!(KeyRing::try_new(9, key(1)).unwrap().primary_kid(), 9);
}

#[test]
fn generated_rings_differ() {
    let a = KeyRing::generate();
    let b = KeyRing::generate();
    // Random 32-bit kids collide with probability 2^-32.
    assert_ne!(a.primary_kid(), b.primary_kid());
}

// The configuration text (`config.rs`, `error.rs`).

/// Three random keys in standard base64, padded.
const KEY_A: &str = "cKr0mmAHjLbZk7v2QDp8QlZVf2NB0Dm5lgrEzmU3vy4=";
const KEY_B: &str = "Y0R1NisZ+zHw0Y1P60soM2PYkqgufNFfFoAhQQtknQY=";
const KEY_C: &str = "HJVz4KVG7lppnOcBuQbrb1RMQn5+d9le90H58V5Y9y0=";

fn parse_err(text: &str) -> (KeyRingError, String) {
    let err = text.parse::<KeyRing>().unwrap_err();
    let message = err.to_string();
    (err, message)
}

fn kids(ring: &KeyRing) -> (u32, Vec<u32>) {
    (ring.primary_kid(), ring.old_kids().collect())
}

fn sealer(ring: KeyRing) -> StateSealer {
    StateSealer::new(ring, "example-server")
}

#[test]
fn one_entry_is_a_primary_without_old_keys() {
    let ring: KeyRing = format!("7:{KEY_A}").parse().unwrap();
    assert_eq!(kids(&ring), (7, vec![]));
}

#[test]
fn first_entry_is_primary_others_old_in_order() {
    let text = format!("3:{KEY_B},2:{KEY_A},1:{KEY_C}");
    let ring: KeyRing = text.parse().unwrap();
    assert_eq!(kids(&ring), (3, vec![2, 1]));
}

#[test]
fn separators_are_commas_and_whitespace_in_any_mix() {
    for text in [
        format!("2:{KEY_B},1:{KEY_A}"),
        format!("2:{KEY_B} 1:{KEY_A}"),
        format!("2:{KEY_B}\n1:{KEY_A}\n"),
        format!("\r\n\t 2:{KEY_B} ,\n 1:{KEY_A} ,"),
        format!(",,2:{KEY_B},,1:{KEY_A},,"),
    ] {
        let ring: KeyRing = text.parse().unwrap();
        assert_eq!(kids(&ring), (2, vec![1]), "{text:?}");
    }
}

#[test]
fn padding_is_optional_and_both_alphabets_are_read() {
    let unpadded = KEY_A.trim_end_matches('=');
    // A random key whose base64 has both `+` and `/`.
    let url_safe = "O_MP4BG0r4kPrbPNZpHgNzvtdi-7njioB16WPKbgcUg=";
    let standard = url_safe.replace('-', "+").replace('_', "/");
    for text in [
        format!("1:{unpadded}"),
        format!("1:{url_safe}"),
        format!("1:{}", url_safe.trim_end_matches('=')),
        format!("1:{standard}"),
    ] {
        assert_eq!(kids(&text.parse().unwrap()), (1, vec![]), "{text}");
    }
    // The same key in either alphabet opens what the other sealed.
    let a = sealer(format!("1:{url_safe}").parse().unwrap());
    let b = sealer(format!("1:{standard}").parse().unwrap());
    let binding = Binding::tool_call("t", &json!({}));
    let token = a.seal_now(&binding, &json!(1)).unwrap();
    assert_eq!(b.open_now::<i32>(&token, &binding).unwrap().payload, 1);
}

#[test]
fn kid_range_is_u32() {
    let ring: KeyRing = format!("0:{KEY_A},4294967295:{KEY_B}").parse().unwrap();
    assert_eq!(kids(&ring), (0, vec![u32::MAX]));
    // Leading zeros are the same number.
    let (err, _) = parse_err(&format!("007:{KEY_A},7:{KEY_B}"));
    assert_eq!(
        err,
        KeyRingError::DuplicateKid {
            position: 2,
            kid: 7,
            first: 1
        }
    );
}

#[test]
fn empty_text_is_refused() {
    for text in ["", " ", ",", "\n, \t,\n"] {
        let (err, message) = parse_err(text);
        assert_eq!(err, KeyRingError::Empty, "{text:?}");
        assert_eq!(
            message,
            "key ring is empty: expected `kid:base64key` entries"
        );
    }
}

#[test]
fn entry_without_colon_is_refused_by_position() {
    let (err, message) = parse_err(&format!("1:{KEY_A} {KEY_B}"));
    assert_eq!(err, KeyRingError::BadEntry { position: 2 });
    assert_eq!(
        message,
        "key ring entry 2 is not of the form `kid:base64key`"
    );
}

#[test]
fn bad_kids_are_refused() {
    for kid in [
        "",
        "x",
        "+1",
        "-1",
        "1.0",
        "0x10",
        "4294967296",
        "99999999999999999999",
        "١",
    ] {
        let (err, message) = parse_err(&format!("{kid}:{KEY_A}"));
        assert_eq!(err, KeyRingError::BadKid { position: 1 }, "{kid:?}");
        assert_eq!(
            message,
            "key ring entry 1: the key id is not a decimal number from 0 to 4294967295"
        );
    }
}

#[test]
fn key_not_base64_is_refused() {
    // Bad characters, padding in the middle, impossible lengths, mixed alphabets.
    for key in ["base64!", "ERER*ERE", "ERE=ERE=", "E", "ERERE", "+-__"] {
        let (err, message) = parse_err(&format!("2:{KEY_B},5:{key}"));
        assert_eq!(
            err,
            KeyRingError::KeyNotBase64 {
                position: 2,
                kid: 5
            },
            "{key:?}"
        );
        assert_eq!(message, "key ring entry 2 (kid 5): the key is not base64");
    }
}

#[test]
fn key_of_wrong_length_is_refused_with_its_length() {
    for (key, len) in [
        ("", 0),
        ("EREREREREREREREREREREREREREREREREREREREREQ==", 31),
        ("ERERERERERERERERERERERERERERERERERERERERERER", 33),
    ] {
        let (err, message) = parse_err(&format!("9:{key}"));
        assert_eq!(
            err,
            KeyRingError::KeyLength {
                position: 1,
                kid: 9,
                len
            }
        );
        assert_eq!(
            message,
            format!("key ring entry 1 (kid 9): the key is {len} bytes, expected 32")
        );
    }
}

#[test]
fn duplicate_kid_is_refused_naming_both_entries() {
    let (err, message) = parse_err(&format!("3:{KEY_A},2:{KEY_B},3:{KEY_B}"));
    assert_eq!(
        err,
        KeyRingError::DuplicateKid {
            position: 3,
            kid: 3,
            first: 1
        }
    );
    assert_eq!(
        message,
        "key ring entry 3: kid 3 is already used by entry 1"
    );
}

#[test]
fn the_first_error_is_reported() {
    let (err, _) = parse_err(&format!("1:{KEY_A},x,1:{KEY_A}"));
    assert_eq!(err, KeyRingError::BadEntry { position: 2 });
}

#[test]
fn errors_never_contain_key_material() {
    // A key pasted without its id, a key with a typo, keys of the wrong length, a duplicate.
    let secret = "S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS=";
    for text in [
        secret.to_owned(),
        format!("{secret}:{secret}"),
        format!("1:{}*", &secret[..43]),
        format!("1:{}", &secret[..40]),
        format!("1:{secret},1:{secret}"),
    ] {
        let (err, message) = parse_err(&text);
        let debug = format!("{err:?} {err:#?}");
        for shown in [&message, &debug] {
            assert!(!shown.contains("S3cr"), "{shown}");
            assert!(!shown.contains("cr3t"), "{shown}");
        }
    }
}

#[test]
fn env_errors_name_the_variable_only() {
    let (unset, not_unicode) = (
        config::from_var("ELICIT_KEYS", Err(std::env::VarError::NotPresent)).unwrap_err(),
        config::from_var(
            "ELICIT_KEYS",
            Err(std::env::VarError::NotUnicode("1:\u{0}secret".into())),
        )
        .unwrap_err(),
    );
    assert_eq!(
        unset,
        KeyRingError::EnvNotSet {
            var: "ELICIT_KEYS".into()
        }
    );
    assert_eq!(
        unset.to_string(),
        "environment variable ELICIT_KEYS is not set"
    );
    assert_eq!(
        not_unicode.to_string(),
        "environment variable ELICIT_KEYS is not valid Unicode"
    );
    assert!(!format!("{not_unicode:?}").contains("secret"));

    let ring = config::from_var("ELICIT_KEYS", Ok(format!("4:{KEY_A}\n"))).unwrap();
    assert_eq!(kids(&ring), (4, vec![]));
    let err = config::from_var("ELICIT_KEYS", Ok(String::new())).unwrap_err();
    assert_eq!(err, KeyRingError::Empty);
}

#[test]
fn from_env_reads_the_process_environment() {
    // Setting a variable needs `unsafe`; an unset one shows `from_env` reads the environment.
    let err = KeyRing::from_env("ELICIT_RUNTIME_TEST_KEYS_NEVER_SET").unwrap_err();
    assert_eq!(
        err,
        KeyRingError::EnvNotSet {
            var: "ELICIT_RUNTIME_TEST_KEYS_NEVER_SET".into()
        }
    );
}

#[test]
fn replicas_parsing_the_same_text_open_each_others_states() {
    let text = format!("2:{KEY_B},1:{KEY_A}");
    let replica_a = sealer(text.parse().unwrap());
    let replica_b = sealer(text.parse().unwrap());
    let args = json!({"location": "New York"});
    let binding = Binding::tool_call("get_weather", &args).with_principal("user-123");

    let token = replica_a.seal_now(&binding, &json!({"round": 1})).unwrap();
    let opened = replica_b
        .open_now::<serde_json::Value>(&token, &binding)
        .unwrap();
    assert_eq!(opened.payload, json!({"round": 1}));
    assert_eq!(opened.kid, 2);

    // The text is the key: the same key ids with other keys open nothing.
    let other = sealer(format!("2:{KEY_A},1:{KEY_B}").parse().unwrap());
    assert_eq!(
        other.open_now::<serde_json::Value>(&token, &binding),
        Err(StateError::Decrypt)
    );
}

#[test]
fn rotation_new_primary_seals_old_key_still_opens() {
    let binding = Binding::tool_call("get_weather", &json!({}));
    let t0 = UNIX_EPOCH + Duration::from_secs(1_780_000_000);
    let later = t0 + Duration::from_secs(5);

    // Before the rotation: key 1 alone.
    let before = sealer(format!("1:{KEY_A}").parse().unwrap());
    let old_token = before.seal(&binding, &json!("old"), t0).unwrap();

    // After: a new key 2 in front, key 1 kept as an old key.
    let after = sealer(format!("2:{KEY_B},1:{KEY_A}").parse().unwrap());
    let opened = after.open::<String>(&old_token, &binding, later).unwrap();
    assert_eq!((opened.payload.as_str(), opened.kid), ("old", 1));
    let new_token = after.seal(&binding, &json!("new"), t0).unwrap();
    assert_eq!(
        after
            .open::<String>(&new_token, &binding, later)
            .unwrap()
            .kid,
        2
    );

    // A replica still on the old text cannot open what the new primary sealed (roll the new
    // text out as an old key first if replicas update one by one).
    assert_eq!(
        before.open::<String>(&new_token, &binding, later),
        Err(StateError::UnknownKey { kid: 2 })
    );

    // Once key 1 is dropped, its tokens no longer open.
    let dropped = sealer(format!("2:{KEY_B}").parse().unwrap());
    assert_eq!(
        dropped.open::<String>(&old_token, &binding, later),
        Err(StateError::UnknownKey { kid: 1 })
    );
}

#[test]
fn generated_entries_parse_and_differ() {
    let a = KeyRing::generate_config_entry(1);
    let b = KeyRing::generate_config_entry(1);
    assert_ne!(a, b);
    let (kid, key) = a.split_once(':').unwrap();
    assert_eq!(kid, "1");
    assert_eq!(key.len(), 44); // 32 bytes, standard base64 with padding
    assert!(key.ends_with('='));
    let ring: KeyRing = format!("{},{a}", KeyRing::generate_config_entry(2))
        .parse()
        .unwrap();
    assert_eq!(kids(&ring), (2, vec![1]));
}

// Weak keys (issue 21, item 9): refused when read from configuration, naming the entry and
// what gave the key away, never the key.

#[test]
fn an_all_zero_key_is_refused() {
    let zero = STANDARD.encode([0u8; 32]);
    let (err, message) = parse_err(&format!("1:{zero}"));
    assert_eq!(
        err,
        KeyRingError::WeakKey {
            position: 1,
            kid: 1,
            weakness: KeyWeakness::RepeatedByte
        }
    );
    assert_eq!(
        message,
        "key ring entry 1 (kid 1): the key is one byte repeated, not 32 random bytes \
         (generate one with `openssl rand -base64 32`)"
    );
    // Any one byte repeated, as an old key too.
    let (err, _) = parse_err(&format!("2:{KEY_A},1:{}", STANDARD.encode([0x11u8; 32])));
    assert_eq!(
        err,
        KeyRingError::WeakKey {
            position: 2,
            kid: 1,
            weakness: KeyWeakness::RepeatedByte
        }
    );
}

#[test]
fn a_printable_password_of_32_characters_is_refused() {
    let password = "correct horse battery staple 42!";
    assert_eq!(password.len(), 32);
    let (err, message) = parse_err(&format!("7:{}", STANDARD.encode(password)));
    assert_eq!(
        err,
        KeyRingError::WeakKey {
            position: 1,
            kid: 7,
            weakness: KeyWeakness::Text
        }
    );
    assert_eq!(
        message,
        "key ring entry 1 (kid 7): the key is text (valid UTF-8: a password or passphrase?), \
         not 32 random bytes (generate one with `openssl rand -base64 32`)"
    );
    assert!(!message.contains("horse"), "{message}");
    // A hex or base64 text pasted where its bytes belong is printable too.
    let hex = "00112233445566778899aabbccddeeff";
    let (err, _) = parse_err(&format!("7:{}", STANDARD.encode(hex)));
    assert!(matches!(
        err,
        KeyRingError::WeakKey {
            weakness: KeyWeakness::Text,
            ..
        }
    ));
}

// Text that is not printable ASCII (issue 32): any valid UTF-8 is text.

/// The weakness parsing reports for `key`, given as its bytes (base64-encoded into an entry).
fn weakness_of_entry(key: &[u8]) -> Option<KeyWeakness> {
    assert_eq!(key.len(), 32, "{key:?}");
    match format!("5:{}", STANDARD.encode(key)).parse::<KeyRing>() {
        Ok(_) => None,
        Err(KeyRingError::WeakKey {
            position: 1,
            kid: 5,
            weakness,
        }) => Some(weakness),
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn a_password_base64_encoded_by_echo_with_its_newline_is_refused() {
    // `echo 'correct horse battery staple 1!' | base64`: 31 characters and echo's newline.
    let echoed = "correct horse battery staple 1!\n";
    assert_eq!(
        weakness_of_entry(echoed.as_bytes()),
        Some(KeyWeakness::Text)
    );
    // A Windows line end, and whitespace at the start as well as the end.
    for text in [
        "correct horse battery staple 1\r\n",
        " correct horse battery staple1!\n",
        "\tcorrect horse battery staple \n\n",
    ] {
        assert_eq!(
            weakness_of_entry(text.as_bytes()),
            Some(KeyWeakness::Text),
            "{text:?}"
        );
    }
    // So the base64 text of `echo` itself, as `openssl enc -base64` wraps it.
    let wrapped = "c2VjcmV0IHBhc3N3b3JkCg==\nabcdef\n";
    assert_eq!(
        weakness_of_entry(wrapped.as_bytes()),
        Some(KeyWeakness::Text)
    );
}

#[test]
fn a_passphrase_with_non_ascii_letters_is_refused() {
    // One `é` (two bytes in UTF-8) in an otherwise ASCII passphrase.
    let one = "correct horse battery stéple 1!";
    assert_eq!((one.len(), one.chars().count()), (32, 31));
    assert_eq!(weakness_of_entry(one.as_bytes()), Some(KeyWeakness::Text));
    // Cyrillic; 8 CJK characters and 2 emoji (3 and 4 bytes each); accents and a newline.
    for text in [
        "секретный пароль!",
        "秘密の合言葉です🔑🔑",
        "mot de passe très sûr, ça va\n",
    ] {
        assert_eq!(text.len(), 32, "{text:?}");
        assert_eq!(
            weakness_of_entry(text.as_bytes()),
            Some(KeyWeakness::Text),
            "{text:?}"
        );
    }
}

#[test]
fn text_with_control_characters_is_refused() {
    // Every control character from U+0000 to U+001F, once each: 32 different bytes, none
    // printable, all of them text.
    let controls: Vec<u8> = (0..32).collect();
    assert_eq!(weakness_of_entry(&controls), Some(KeyWeakness::Text));
    // Tabs and newlines inside the text, an escape sequence, a DEL.
    for text in [
        "user\tpassword\nsecond line\txyz!\r\n",
        "\x1b[1mbold secret\x1b[0m and more!!!\x7f",
    ] {
        assert_eq!(text.len(), 32, "{text:?}");
        assert_eq!(
            weakness_of_entry(text.as_bytes()),
            Some(KeyWeakness::Text),
            "{text:?}"
        );
    }
    // A short password padded with zero bytes to 32.
    let mut padded = [0u8; 32];
    padded[..22].copy_from_slice(b"my secret password #42");
    assert_eq!(weakness_of_entry(&padded), Some(KeyWeakness::Text));
}

/// `n` keys from SplitMix64 with a fixed seed: the same random-looking keys on every run.
fn fixed_seed_keys(n: usize) -> Vec<[u8; 32]> {
    let mut state: u64 = 0x0123_4567_89ab_cdef;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..n)
        .map(|_| {
            let mut key = [0u8; 32];
            for chunk in key.chunks_exact_mut(8) {
                chunk.copy_from_slice(&next().to_le_bytes());
            }
            key
        })
        .collect()
}

#[test]
fn fixed_random_looking_keys_are_accepted() {
    // Literal random bytes (KEY_A), through parsing and directly.
    let key_a: [u8; 32] = STANDARD.decode(KEY_A).unwrap().try_into().unwrap();
    assert_eq!(weakness_of_entry(&key_a), None);
    for key in [KEY_A, KEY_B, KEY_C] {
        let bytes = STANDARD.decode(key).unwrap();
        assert_eq!(KeyWeakness::of(&bytes.try_into().unwrap()), None, "{key}");
    }
    // 100 000 keys from a fixed seed: a random key is valid UTF-8 about once in 10^8.
    let keys = fixed_seed_keys(100_000);
    assert_ne!(keys[0], keys[1]);
    for key in &keys {
        assert_eq!(KeyWeakness::of(key), None, "{key:?}");
    }
    // Text with one byte that cannot be UTF-8 (a lone continuation byte) is no longer text.
    let mut almost = *b"correct horse battery staple 1!\n";
    almost[31] = 0x80;
    assert_ne!(KeyWeakness::of(&almost), Some(KeyWeakness::Text));
}

#[test]
fn a_short_repeated_pattern_is_refused() {
    let pattern: Vec<u8> = [0xde, 0xad, 0xbe, 0xef].repeat(8);
    let (err, _) = parse_err(&format!("3:{}", STANDARD.encode(&pattern)));
    assert_eq!(
        err,
        KeyRingError::WeakKey {
            position: 1,
            kid: 3,
            weakness: KeyWeakness::FewDistinctBytes
        }
    );
    // 15 different bytes, one of them non-printable: still a pattern.
    let fifteen: [u8; 32] =
        std::array::from_fn(|i| [0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14][i % 15]);
    assert_eq!(
        KeyWeakness::of(&fifteen),
        Some(KeyWeakness::FewDistinctBytes)
    );
    let sixteen: [u8; 32] =
        std::array::from_fn(|i| [0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15][i % 16]);
    assert_eq!(KeyWeakness::of(&sixteen), None);
}

#[test]
fn the_same_key_under_two_ids_is_refused() {
    let (err, message) = parse_err(&format!("3:{KEY_A},2:{KEY_B},1:{KEY_A}"));
    assert_eq!(
        err,
        KeyRingError::DuplicateKey {
            position: 3,
            kid: 1,
            first: 1,
            first_kid: 3
        }
    );
    assert_eq!(
        message,
        "key ring entry 3 (kid 1): the same key as entry 1 (kid 3)"
    );
    // In the other alphabet, unpadded: the same bytes.
    let url_safe = KEY_B.replace('+', "-").replace('/', "_");
    let (err, _) = parse_err(&format!("2:{KEY_B},1:{}", url_safe.trim_end_matches('=')));
    assert!(matches!(
        err,
        KeyRingError::DuplicateKey { position: 2, .. }
    ));
}

#[test]
fn random_keys_pass_the_checks() {
    for _ in 0..1000 {
        let entry = KeyRing::generate_config_entry(1);
        assert!(entry.parse::<KeyRing>().is_ok(), "a random key was refused");
    }
}
