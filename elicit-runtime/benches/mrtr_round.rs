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
//!   `Value`, to show what building a `Value` per answer costs.
//!
//! Group `mrtr_retry_round`: one whole retry of a tool asking two forms, as a server sees it:
//! the params text with `inputResponses` for both and the `requestState` of round 1 is parsed,
//! the context built (which opens the state), the handler run (which decodes and validates both
//! answers, then asks a third form) and the context finished (which seals the next state).
//! `retry_round` is that; `retry_round_with_response_text` also writes the result as JSON text.
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

mod support;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use elicit_runtime::state::{Binding, DEFAULT_TTL, KeyRing, StateSealer};
use elicit_runtime::testing::Responses;
use elicit_runtime::wire::InputRequiredResult;
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use pollster::block_on;
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

/// What `ElicitContext::finish` seals after three answered forms, with a fourth one asked.
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

/// The round state as a typed payload, shaped like the one `ElicitContext::finish` seals: the
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
    if let Some(rounds) = support::paired_rounds() {
        support::paired(
            (
                "elicit_seal_open_raw",
                support::timed(&mut elicit_seal_open_raw),
            ),
            (
                "rmcp_encode_decode",
                support::timed(&mut rmcp_encode_decode),
            ),
            rounds,
        );
        return;
    }
    let mut group = c.benchmark_group("mrtr_state_3_answers");
    support::bench(&mut group, "elicit_seal_open_raw", elicit_seal_open_raw);
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// (b) one retry round of a tool with two forms
// ---------------------------------------------------------------------------------------------

/// How many guests, and anything we should know?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    #[elicit(max_length = 200)]
    note: Option<String>,
    /// Seating preference
    #[elicit(title = "Outside")]
    outside: bool,
}

/// Who is booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(rename_all = "camelCase")]
struct Contact {
    #[elicit(title = "Name", min_length = 2, max_length = 60)]
    full_name: String,
    #[elicit(title = "Email", format = "email", max_length = 254)]
    email: String,
    #[elicit(title = "Arrival", format = "date-time")]
    arrival: String,
    /// Budget per person in euros
    #[elicit(minimum = 0, maximum = 1000)]
    budget: f64,
}

/// Confirm the booking?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Confirm {
    confirm: bool,
}

/// Asks both forms in one round; once both are answered, asks for confirmation.
async fn book(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let a = Guests::ask(cx).await;
    let b = Contact::ask(cx).await;
    let (a, b) = (a?, b?);
    let confirmed = matches!(
        Confirm::ask(cx).await?,
        Answer::Accepted(Confirm { confirm: true })
    );
    Ok(match (a, b) {
        (Answer::Accepted(g), Answer::Accepted(c)) if confirmed => {
            format!("booked for {} ({})", g.count, c.full_name)
        }
        _ => "not booked".to_owned(),
    })
}

fn first_params() -> Value {
    json!({
        "name": TOOL,
        "arguments": arguments(),
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "bench-client", "version": "1.0.0"}
        }
    })
}

/// One request, start to end, from its params text.
fn retry_round(
    server: &ElicitServer,
    params_text: &str,
) -> Result<Reply<String>, elicit_runtime::wire::JsonRpcError> {
    let params: Value = serde_json::from_str(params_text).expect("params are JSON");
    let mut cx = server
        .context("tools/call", &params)
        .principal(PRINCIPAL)
        .build()
        .map_err(|e| e.error)?;
    let result = block_on(book(&mut cx));
    cx.finish(result)
}

fn expect_input_required(
    outcome: Result<Reply<String>, impl std::fmt::Debug>,
) -> InputRequiredResult {
    match outcome {
        Ok(Reply::InputRequired(ask)) => ask,
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn retry(c: &mut Criterion) {
    if support::paired_rounds().is_some() {
        return;
    }
    let server = ElicitServer::new(
        StateSealer::new(KeyRing::new(1, KEY), "booking-server")
            .with_ttl(Duration::from_secs(3600)),
    )
    .with_server_info("booking-server", "1.0.0");

    // Round 1, once: both forms asked, state sealed.
    let first = first_params();
    let first_text = serde_json::to_string(&first).expect("params are JSON");
    let r1 = expect_input_required(retry_round(&server, &first_text));
    let asked: Vec<&String> = r1.input_requests().expect("questions").keys().collect();
    assert_eq!(asked, ["contact", "guests"]);

    // The retry the client sends: both answered, round 1's state echoed.
    let mut params = first.clone();
    params["inputResponses"] = Responses::new()
        .accept(&Guests {
            count: 4,
            note: Some("a table by the window, please".to_owned()),
            outside: false,
        })
        .accept(&Contact {
            full_name: "Ada Lovelace".to_owned(),
            email: "ada.lovelace@analytical-engines.co.uk".to_owned(),
            arrival: "2026-12-24T19:30:00+01:00".to_owned(),
            budget: 85.5,
        })
        .into_value();
    params["requestState"] = Value::from(r1.request_state().expect("state"));
    let params_text = serde_json::to_string(&params).expect("params are JSON");

    // It decodes and validates both answers, then asks the third form and seals the next state.
    let r2 = expect_input_required(retry_round(&server, &params_text));
    let asked: Vec<&String> = r2.input_requests().expect("questions").keys().collect();
    assert_eq!(asked, ["confirm"]);
    let next_state = r2.request_state().expect("next state");
    assert_ne!(Some(next_state), r1.request_state());
    let opened = server
        .sealer()
        .open_now::<Value>(
            next_state,
            &Binding::tool_call(TOOL, &arguments()).with_principal(PRINCIPAL),
        )
        .expect("the next state opens");
    let carried: Vec<&String> = opened.payload["a"]
        .as_object()
        .expect("answers")
        .keys()
        .collect();
    assert_eq!(carried, ["contact", "guests"]);
    eprintln!(
        "retry params: {} bytes of JSON (requestState {} chars); next requestState {} chars",
        params_text.len(),
        r1.request_state().map_or(0, str::len),
        next_state.len()
    );

    let mut group = c.benchmark_group("mrtr_retry_round");
    support::bench(&mut group, "retry_round", || {
        retry_round(black_box(&server), black_box(&params_text))
    });
    support::bench(&mut group, "retry_round_with_response_text", || {
        let ask = expect_input_required(retry_round(black_box(&server), black_box(&params_text)));
        serde_json::to_string(&ask).expect("the result is JSON")
    });
    group.finish();

    let mut parts = c.benchmark_group("mrtr_retry_round_parts");
    support::bench(&mut parts, "parse_params", || {
        serde_json::from_str::<Value>(black_box(&params_text))
    });
    support::bench(&mut parts, "build_context_opens_state", || {
        server
            .context("tools/call", black_box(&params))
            .principal(PRINCIPAL)
            .build()
    });
    let built = || {
        server
            .context("tools/call", &params)
            .principal(PRINCIPAL)
            .build()
            .expect("the retry is valid")
    };
    if !support::timing() {
        parts.finish();
        return;
    }
    parts.bench_function("handler_decodes_two_asks_third", |b| {
        b.iter_batched(
            built,
            |mut cx| {
                let result = block_on(book(black_box(&mut cx)));
                (cx, result)
            },
            BatchSize::SmallInput,
        );
    });
    parts.bench_function("finish_seals_next_state", |b| {
        b.iter_batched(
            || {
                let mut cx = built();
                let result = block_on(book(&mut cx));
                (cx, result)
            },
            |(cx, result)| cx.finish(black_box(result)),
            BatchSize::SmallInput,
        );
    });
    parts.finish();
}

criterion_group!(
    benches,
    state_seal_open,
    state_seal_open_typed,
    state_seal_open_raw,
    retry
);
criterion_main!(benches);
