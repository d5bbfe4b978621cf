use std::collections::BTreeMap;

use serde_json::json;

use super::{read, write};
use crate::channel::Reask;
use crate::keyed::Keyed;
use crate::request::round::{Carried, RoundState, UrlFlow};
use crate::state::{Completion, StateError};

fn state() -> RoundState {
    let carried = |d: &str, r: &str| Carried {
        digest: d.into(),
        response: r.into(),
    };
    RoundState {
        asked: Keyed::from([("confirm".into(), "q1Yk0mJ3vXo2c8fN4tHs7A".into())]),
        answers: BTreeMap::from([
            (
                "guests".into(),
                carried(
                    "b2XgR5yq0wLk9ZpE3sTj1Q",
                    r#"{"action":"accept","content":{"count":4}}"#,
                ),
            ),
            ("day".into(), carried("Hc8u", r#"{"action":"decline"}"#)),
        ]),
        url_flows: Keyed::from([
            (
                "github".into(),
                UrlFlow {
                    id: "h-1".into(),
                    exp: 1_800_000_000,
                    done: None,
                },
            ),
            (
                "pay".into(),
                UrlFlow {
                    id: "h-2".into(),
                    exp: u64::MAX,
                    done: Some(Completion::Completed {
                        result: Some(json!({"charge": "ch_1", "ünï": "çødé"})),
                    }),
                },
            ),
        ]),
        round: 3,
        reasks: BTreeMap::from([(
            "guests".into(),
            Reask {
                origin: "b2XgR5yq0wLk9ZpE3sTj1Q".into(),
                count: 2,
                message: "How many?\n\nPlease correct and send again:\n- count must be at most 12"
                    .into(),
                defaults: json!({"note": "window ✓"}).as_object().cloned().unwrap(),
            },
        )]),
    }
}

fn bytes(state: &RoundState) -> Vec<u8> {
    let mut buf = Vec::new();
    write(state, &mut buf).unwrap();
    buf
}

#[test]
fn a_state_reads_back_as_written() {
    assert_eq!(read(&bytes(&state())).unwrap(), state());
    assert_eq!(
        read(&bytes(&RoundState::default())).unwrap(),
        RoundState::default()
    );
}

#[test]
fn the_layout_is_the_documented_one() {
    let one = RoundState {
        asked: Keyed::from([("k".into(), "d".into())]),
        round: 2,
        ..RoundState::default()
    };
    assert_eq!(
        bytes(&one),
        [
            &[1u8][..],
            &2u32.to_be_bytes(),
            &1u32.to_be_bytes(),
            &1u32.to_be_bytes(),
            b"k",
            &1u32.to_be_bytes(),
            b"d",
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
        ]
        .concat()
    );
}

#[test]
fn re_asks_are_a_version_2_section_after_the_flows() {
    let reask = RoundState {
        reasks: BTreeMap::from([(
            "k".into(),
            Reask {
                origin: "o".into(),
                count: 1,
                message: "m".into(),
                defaults: serde_json::Map::new(),
            },
        )]),
        ..RoundState::default()
    };
    assert_eq!(
        bytes(&reask),
        [
            &[2u8][..],
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
            &1u32.to_be_bytes(),
            &1u32.to_be_bytes(),
            b"k",
            &1u32.to_be_bytes(),
            b"o",
            &[1u8],
            &1u32.to_be_bytes(),
            b"m",
            &2u32.to_be_bytes(),
            b"{}",
        ]
        .concat()
    );
    assert_eq!(read(&bytes(&reask)).unwrap(), reask);
}

#[test]
fn every_truncation_and_any_trailing_byte_is_refused() {
    let full = bytes(&state());
    for len in 0..full.len() {
        assert!(
            matches!(read(&full[..len]), Err(StateError::Malformed(_))),
            "cut at {len}"
        );
    }
    let mut longer = full.clone();
    longer.push(0);
    assert!(matches!(read(&longer), Err(StateError::Malformed(_))));
}

#[test]
fn other_versions_counts_texts_and_flags_are_refused() {
    let full = bytes(&state());
    let mut version = full.clone();
    version[0] = 3;
    assert!(read(&version).is_err());
    // Version 1 has no re-asks section: one that carries one is refused.
    let mut one = full.clone();
    one[0] = 1;
    assert!(read(&one).is_err());

    // A count far beyond what the rest could hold is refused before any loop runs.
    let mut count = bytes(&RoundState::default());
    count[5..9].copy_from_slice(&u32::MAX.to_be_bytes());
    assert!(read(&count).is_err());

    // A key that is not UTF-8.
    let mut key = bytes(&RoundState {
        asked: Keyed::from([("k".into(), "d".into())]),
        ..RoundState::default()
    });
    key[13] = 0xff;
    assert!(read(&key).is_err());

    // A flow's flag other than 0 or 1, and a completion that is not one.
    let flow = |done| RoundState {
        url_flows: Keyed::from([(
            "k".into(),
            UrlFlow {
                id: "i".into(),
                exp: 1,
                done,
            },
        )]),
        ..RoundState::default()
    };
    let mut flag = bytes(&flow(None));
    let at = flag.len() - 1;
    flag[at] = 2;
    assert!(read(&flag).is_err());
    let mut done = bytes(&flow(Some(Completion::Redeemed)));
    let at = done.len() - 2;
    done[at] = b'!';
    assert!(read(&done).is_err());
}
