//! The server-side cost of the 2026-07-28 multi round-trip flow.
//!
//! Group `mrtr_state_3_answers`: sealing and opening one `requestState` that carries three
//! answers, beside rmcp's `RequestStateCodec` (HMAC-SHA256 only, rmcp's `request-state`
//! feature) on the same payload:
//! - `elicit_seal` / `elicit_open` / `elicit_seal_open`: `StateSealer::seal(&binding, &payload,
//!   now)` and `StateSealer::open(&token, &binding, now)`: AES-256-GCM, a binary envelope
//!   header with audience, method, target, arguments digest, salted principal hash, expiry and
//!   a random state id before the payload's JSON; `open` parses the payload back into a `Value`;
//! - `rmcp_encode` / `rmcp_decode` / `rmcp_encode_decode`: a keyring codec (`rs2`, so a key id
//!   travels in the token as ours does) with `seal_json_with` / `open_json_with::<Value>`, the
//!   same binding (method, target, arguments digest, principal) as associated data and the same
//!   10-minute TTL; so both sides take the payload as a `Value` and give a `Value` back;
//! - `rmcp_encode_bytes` / `rmcp_decode_bytes`: rmcp on the payload's JSON bytes, without the
//!   JSON serialising and parsing, to show how much of the above those are;
//! - `elicit_seal_typed` / `elicit_open_typed` / `elicit_seal_open_typed` and
//!   `rmcp_encode_decode_typed`: the same state as a typed `RoundState` (`asked`, `answers` of
//!   `{d, r}`, notes), what the context seals, through `seal(&binding, &state, now)` /
//!   `open::<RoundState>` and rmcp's `seal_json_with` / `open_json_with::<RoundState>`;
//!   `elicit_seal_open_raw`: the same with each answer kept as `Box<RawValue>` instead of a
//!   `Value`, as the crate's own round state keeps them (`request/round.rs`), with
//!   `rmcp_encode_decode_raw` rmcp's codec on that same raw state.
//!
//! Group `mrtr_retry_round`: one whole retry of a tool asking two forms, as a server sees it:
//! the params text with `inputResponses` for both and the `requestState` of round 1 is parsed,
//! the context built from the parsed params (`ElicitServer::context` with owned params, as the rmcp adapter
//! builds it; it opens the state), the handler run (which decodes and validates both
//! answers, then asks a third form) and the context finished (which seals the next state).
//! `retry_round` is that; `retry_round_with_response_text` also writes the result as JSON text;
//! `third_round` is the retry after it (the confirmation answered, round 2's state with both
//! earlier answers echoed), where the handler reads every carried answer again and finishes.
//! Group `mrtr_retry_round_parts` times the four steps on their own (`iter_batched` with the
//! earlier steps as setup).
//!
//! Run: `cargo bench -p elicit-runtime --bench mrtr_round -- --warm-up-time 1 --measurement-time 3`
//!
//! On a loaded machine the wall-clock ratio of the two codecs drifts from run to run; with
//! `ELICIT_BENCH_PAIRED=<rounds>` the binary instead alternates short batches of each elicit
//! routine and its rmcp counterpart (`seal_open` / `encode_decode`, `seal` / `encode`, `open` /
//! `decode`) and prints their medians and the median of the per-round ratios, which load
//! affects far less (see `support/mod.rs`).
//!
//! Instruction counts per call (independent of machine load): see `support/mod.rs`
//! (`ELICIT_BENCH_COUNT=<routine>:<n>` under `valgrind --tool=callgrind`; every routine except
//! the two `iter_batched` parts).

#[path = "mrtr_round/retry.rs"]
mod retry;
mod support;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::SystemTime;

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_runtime::state::{Binding, DEFAULT_TTL, KeyRing, StateSealer};
use rmcp::model::{RequestStateCodec, SealOptions};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

const KEY: [u8; 32] = [0x42; 32];
const TOOL: &str = "book_table";
const PRINCIPAL: &str = "user-1234";

// ---------------------------------------------------------------------------------------------
// (a) sealing and opening a state with three answers
// ---------------------------------------------------------------------------------------------

fn arguments() -> Value {
    json!({"restaurant": "Chez Rust", "city": "Paris"})
}

/// What `ElicitContext::respond` seals after three answered forms, with a fourth one asked.
fn three_answer_payload() -> Value {
    json!({
        "asked": {"confirm": "q1Yk0mJ3vXo2c8fN4tHs7A"},
        "answers": {
            "guests": {
                "d": "b2XgR5yq0wLk9ZpE3sTj1Q",
                "r": {"action": "accept", "content": {"count": 4, "note": "a table by the window"}}
            },
            "day": {
                "d": "Hc8uN2mQx7VbL4aW0eKp6g",
                "r": {"action": "accept", "content": {"date": "2026-12-24", "time": "19:30"}}
            },
            "contact": {
                "d": "Zt3oP9fD1sYr6JkC5nBv2w",
                "r": {"action": "accept", "content": {
                    "name": "Ada Lovelace",
                    "email": "ada.lovelace@analytical-engines.co.uk",
                    "phone": "+44 20 7946 0958"
                }}
            }
        },
        "x": {}
    })
}

/// The round state as a typed payload, shaped like the one `ElicitContext::respond` seals: the
/// digests of the questions asked, the answers with the digest of the question each answers,
/// and notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct RoundState {
    asked: BTreeMap<String, String>,
    answers: BTreeMap<String, Answered>,
    #[serde(rename = "x")]
    notes: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Answered {
    d: String,
    r: Value,
}

/// [`RoundState`] with each answer kept as raw JSON text, parsed only when it is used.
#[derive(Debug, Serialize, Deserialize)]
struct RawRoundState {
    asked: BTreeMap<String, String>,
    answers: BTreeMap<String, RawAnswered>,
    #[serde(rename = "x")]
    notes: BTreeMap<String, Value>,
}

#[derive(Debug, Serialize, Deserialize)]
struct RawAnswered {
    d: String,
    r: Box<RawValue>,
}

/// [`three_answer_payload`] as a [`RoundState`].
fn three_answer_round_state() -> RoundState {
    serde_json::from_value(three_answer_payload()).expect("the payload has the round state's shape")
}

/// The bytes rmcp's codec authenticates as associated data: the same binding our token carries
/// (method, target, arguments digest, principal), length-prefixed.
fn rmcp_associated_data(binding: &Binding<'_>) -> Vec<u8> {
    let mut ad = Vec::new();
    for part in [
        binding.method.as_bytes(),
        binding.target.as_bytes(),
        &binding.args_digest,
        binding.principal.unwrap_or_default().as_bytes(),
    ] {
        ad.extend_from_slice(&(part.len() as u64).to_be_bytes());
        ad.extend_from_slice(part);
    }
    ad
}

fn state_seal_open(c: &mut Criterion) {
    let payload = three_answer_payload();
    let payload_bytes = serde_json::to_vec(&payload).expect("payload is JSON");
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args).with_principal(PRINCIPAL);

    let sealer = StateSealer::new(KeyRing::new(1, KEY), "booking-server");
    let codec = RequestStateCodec::new_with_keyring("1", [("1", KEY.to_vec())])
        .expect("a 32-byte key in a one-key ring");
    let ad = rmcp_associated_data(&binding);
    let options = SealOptions::new().associated_data(&ad).ttl(DEFAULT_TTL);

    // Both round-trip the payload, both refuse another binding.
    let now = SystemTime::now();
    let token = sealer.seal(&binding, &payload, now).expect("seals");
    let opened = sealer.open::<Value>(&token, &binding, now).expect("opens");
    assert_eq!(opened.payload, payload);
    let other = Binding::tool_call(TOOL, &args).with_principal("someone-else");
    assert!(sealer.open::<Value>(&token, &other, now).is_err());
    let rmcp_token = codec.seal_json_with(&payload, &options).expect("seals");
    let rmcp_opened: Value = codec.open_json_with(&rmcp_token, &ad).expect("opens");
    assert_eq!(rmcp_opened, payload);
    assert!(
        codec
            .open_json_with::<Value>(&rmcp_token, &rmcp_associated_data(&other))
            .is_err()
    );
    let rmcp_bytes_token = codec.seal_with(&payload_bytes, &options);
    assert_eq!(
        codec.open_with(&rmcp_bytes_token, &ad).expect("opens"),
        payload_bytes
    );
    eprintln!(
        "payload: {} bytes of JSON; elicit token: {} chars; rmcp token: {} chars",
        payload_bytes.len(),
        token.len(),
        rmcp_token.len()
    );

    let mut elicit_seal =
        || sealer.seal(black_box(&binding), black_box(&payload), SystemTime::now());
    let mut elicit_open =
        || sealer.open::<Value>(black_box(&token), black_box(&binding), SystemTime::now());
    let mut elicit_seal_open = || {
        let token = sealer
            .seal(black_box(&binding), black_box(&payload), SystemTime::now())
            .expect("seals");
        sealer.open::<Value>(black_box(&token), black_box(&binding), SystemTime::now())
    };
    let mut rmcp_encode = || codec.seal_json_with(black_box(&payload), black_box(&options));
    let mut rmcp_decode = || codec.open_json_with::<Value>(black_box(&rmcp_token), black_box(&ad));
    let mut rmcp_encode_decode = || {
        let token = codec
            .seal_json_with(black_box(&payload), black_box(&options))
            .expect("seals");
        codec.open_json_with::<Value>(black_box(&token), black_box(&ad))
    };

    if let Some(rounds) = support::paired_rounds() {
        let pairs = [
            (
                ("elicit_seal_open", support::timed(&mut elicit_seal_open)),
                (
                    "rmcp_encode_decode",
                    support::timed(&mut rmcp_encode_decode),
                ),
            ),
            (
                ("elicit_seal", support::timed(&mut elicit_seal)),
                ("rmcp_encode", support::timed(&mut rmcp_encode)),
            ),
            (
                ("elicit_open", support::timed(&mut elicit_open)),
                ("rmcp_decode", support::timed(&mut rmcp_decode)),
            ),
        ];
        for (a, b) in pairs {
            support::paired(a, b, rounds);
        }
        return;
    }

    let mut group = c.benchmark_group("mrtr_state_3_answers");
    support::bench(&mut group, "elicit_seal", elicit_seal);
    support::bench(&mut group, "elicit_open", elicit_open);
    support::bench(&mut group, "elicit_seal_open", elicit_seal_open);
    support::bench(&mut group, "rmcp_encode", rmcp_encode);
    support::bench(&mut group, "rmcp_decode", rmcp_decode);
    support::bench(&mut group, "rmcp_encode_decode", rmcp_encode_decode);
    support::bench(&mut group, "rmcp_encode_bytes", || {
        codec.seal_with(black_box(&payload_bytes), black_box(&options))
    });
    support::bench(&mut group, "rmcp_decode_bytes", || {
        codec.open_with(black_box(&rmcp_bytes_token), black_box(&ad))
    });
    group.finish();
}

/// elicit's sealer and rmcp's codec with the same key, and the binding both protect.
fn codecs() -> (StateSealer, RequestStateCodec, Binding<'static>) {
    let sealer = StateSealer::new(KeyRing::new(1, KEY), "booking-server");
    let codec = RequestStateCodec::new_with_keyring("1", [("1", KEY.to_vec())])
        .expect("a 32-byte key in a one-key ring");
    (
        sealer,
        codec,
        Binding::tool_call(TOOL, &arguments()).with_principal(PRINCIPAL),
    )
}

/// elicit's `seal` then `open::<T>` of `state`.
fn elicit_round_trip<T: Serialize + DeserializeOwned>(
    sealer: &StateSealer,
    binding: &Binding<'_>,
    state: &T,
) -> T {
    let token = sealer
        .seal(black_box(binding), black_box(state), SystemTime::now())
        .expect("seals");
    sealer
        .open::<T>(black_box(&token), black_box(binding), SystemTime::now())
        .expect("opens")
        .payload
}

/// rmcp's `seal_json_with` then `open_json_with::<T>` of `state`.
fn rmcp_round_trip<T: Serialize + DeserializeOwned>(
    codec: &RequestStateCodec,
    options: &SealOptions<'_>,
    ad: &[u8],
    state: &T,
) -> T {
    let token = codec
        .seal_json_with(black_box(state), black_box(options))
        .expect("seals");
    codec
        .open_json_with::<T>(black_box(&token), black_box(ad))
        .expect("opens")
}

/// The same state as a typed [`RoundState`], sealed and opened by elicit and by rmcp's codec.
fn state_seal_open_typed(c: &mut Criterion) {
    let state = three_answer_round_state();
    let payload = three_answer_payload();
    let (sealer, codec, binding) = codecs();
    let ad = rmcp_associated_data(&binding);
    let options = SealOptions::new().associated_data(&ad).ttl(DEFAULT_TTL);
    assert_eq!(elicit_round_trip(&sealer, &binding, &state), state);
    assert_eq!(rmcp_round_trip(&codec, &options, &ad, &state), state);
    let token = sealer.seal_now(&binding, &state).expect("seals");

    let elicit_seal_typed =
        || sealer.seal(black_box(&binding), black_box(&state), SystemTime::now());
    let elicit_open_typed =
        || sealer.open::<RoundState>(black_box(&token), black_box(&binding), SystemTime::now());
    let mut elicit_seal_open_typed = || elicit_round_trip(&sealer, &binding, &state);
    let mut rmcp_encode_decode_typed = || rmcp_round_trip(&codec, &options, &ad, &state);
    // The `Value` baseline of the issue's goal, paired with the typed elicit round trip.
    let mut rmcp_encode_decode = || rmcp_round_trip(&codec, &options, &ad, &payload);

    if let Some(rounds) = support::paired_rounds() {
        let elicit = "elicit_seal_open_typed";
        support::paired(
            (elicit, support::timed(&mut elicit_seal_open_typed)),
            (
                "rmcp_encode_decode",
                support::timed(&mut rmcp_encode_decode),
            ),
            rounds,
        );
        support::paired(
            (elicit, support::timed(&mut elicit_seal_open_typed)),
            (
                "rmcp_encode_decode_typed",
                support::timed(&mut rmcp_encode_decode_typed),
            ),
            rounds,
        );
        return;
    }

    let mut group = c.benchmark_group("mrtr_state_3_answers");
    support::bench(&mut group, "elicit_seal_typed", elicit_seal_typed);
    support::bench(&mut group, "elicit_open_typed", elicit_open_typed);
    support::bench(&mut group, "elicit_seal_open_typed", elicit_seal_open_typed);
    support::bench(
        &mut group,
        "rmcp_encode_decode_typed",
        rmcp_encode_decode_typed,
    );
    group.finish();
}

/// The state with its answers kept raw ([`RawRoundState`]), against rmcp on the `Value`.
fn state_seal_open_raw(c: &mut Criterion) {
    let raw_state: RawRoundState =
        serde_json::from_value(three_answer_payload()).expect("the payload has the shape");
    let payload = three_answer_payload();
    let (sealer, codec, binding) = codecs();
    let ad = rmcp_associated_data(&binding);
    let options = SealOptions::new().associated_data(&ad).ttl(DEFAULT_TTL);
    let back = elicit_round_trip(&sealer, &binding, &raw_state);
    assert_eq!(serde_json::to_value(back).expect("JSON"), payload);

    let mut elicit_seal_open_raw = || elicit_round_trip(&sealer, &binding, &raw_state);
    let mut rmcp_encode_decode = || rmcp_round_trip(&codec, &options, &ad, &payload);
    // rmcp on the same raw state: what the codecs themselves cost on it.
    let mut rmcp_encode_decode_raw = || rmcp_round_trip(&codec, &options, &ad, &raw_state);
    if let Some(rounds) = support::paired_rounds() {
        let elicit = "elicit_seal_open_raw";
        support::paired(
            (elicit, support::timed(&mut elicit_seal_open_raw)),
            (
                "rmcp_encode_decode",
                support::timed(&mut rmcp_encode_decode),
            ),
            rounds,
        );
        support::paired(
            (elicit, support::timed(&mut elicit_seal_open_raw)),
            (
                "rmcp_encode_decode_raw",
                support::timed(&mut rmcp_encode_decode_raw),
            ),
            rounds,
        );
        return;
    }
    let mut group = c.benchmark_group("mrtr_state_3_answers");
    support::bench(&mut group, "elicit_seal_open_raw", elicit_seal_open_raw);
    support::bench(&mut group, "rmcp_encode_decode_raw", rmcp_encode_decode_raw);
    group.finish();
}

criterion_group!(
    benches,
    state_seal_open,
    state_seal_open_typed,
    state_seal_open_raw,
    retry::retry,
    retry::third_round
);
criterion_main!(benches);
