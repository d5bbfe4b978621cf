//! Hostile requests: deterministic pseudo-random JSON in every field of a `tools/call` (its
//! `_meta`, protocol version, client capabilities, `inputResponses` and each response,
//! `requestState`, `arguments`, `name`), run through a context and a handler asking two forms.
//! Nothing may panic, and every failure must be a JSON-RPC error with code -32602, -32021 or
//! -32603.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::tasks::TaskInput;
use elicit_runtime::testing::block_on;
use elicit_runtime::wire::{ClientCapabilities, InputRequest, JsonRpcError, TasksUpdateParams};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, Elicitation, Interrupt, Outcome};
use serde_json::{Map, Value, json};

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    #[elicit(max_length = 20)]
    note: Option<String>,
}

const ITERATIONS: usize = 5_000;
const ALLOWED: [i64; 3] = [-32602, -32021, -32603];
const TOOL: &str = "book_table";

// ---------------------------------------------------------------------------------------------
// A deterministic generator
// ---------------------------------------------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const STRINGS: &[&str] = &[
    "",
    "2026-07-28",
    "2025-11-25",
    "2024-11-05",
    "2099-12-31",
    "1999-01-01",
    "2026-13-45",
    "form",
    "url",
    "accept",
    "decline",
    "cancel",
    "day",
    "guests",
    "book_table",
    "tools/call",
    "es1.",
    "es1.AAAA",
    "es1.!!!",
    "v1.AEAD",
    "null",
    "\u{0}",
    "é\u{301}🦀",
    "\\\"",
    "2026-12-24",
    "a@b.c",
];

const KEYS: &[&str] = &[
    "action",
    "content",
    "count",
    "note",
    "date",
    "elicitation",
    "form",
    "url",
    "sampling",
    "roots",
    "role",
    "model",
    "day",
    "guests",
    "_meta",
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/logLevel",
    "inputResponses",
    "requestState",
    "x",
    "",
];

fn random_string(rng: &mut XorShift) -> String {
    match rng.below(4) {
        0 => {
            let len = rng.below(12);
            (0..len)
                .map(|_| char::from_u32(rng.below(0x250) as u32).unwrap_or('?'))
                .collect()
        }
        1 => "x".repeat(rng.below(3) * 40),
        _ => (*rng.pick(STRINGS)).to_owned(),
    }
}

fn random_number(rng: &mut XorShift) -> Value {
    match rng.below(9) {
        0 => json!(0),
        1 => json!(rng.below(30) as i64 - 5),
        2 => json!(i64::MIN),
        3 => json!(u64::MAX),
        4 => json!(-0.0),
        5 => json!(1.5),
        6 => json!(1e308),
        7 => json!(-1e-300),
        _ => json!(rng.next() as f64 / 3.0),
    }
}

/// Shapes close to what the library looks for, so the fuzz gets past the first checks.
fn plausible(rng: &mut XorShift, depth: usize) -> Value {
    match rng.below(9) {
        0 => json!({"action": rng.pick(&["accept", "decline", "cancel", "maybe"])}),
        1 => {
            json!({"action": "accept", "content": {"count": random_value(rng, depth), "note": random_value(rng, depth)}})
        }
        2 => json!({"action": "accept", "content": {"date": random_value(rng, depth)}}),
        3 => json!({"action": "accept", "content": {"count": rng.below(14), "date": "2026-02-28"}}),
        4 => json!({"elicitation": {}}),
        5 => json!({"elicitation": {(*rng.pick(&["form", "url"])): random_value(rng, depth)}}),
        6 => json!({"sampling": {}, "roots": random_value(rng, depth)}),
        7 => json!({"roots": random_value(rng, depth)}),
        _ => json!({"role": "assistant", "content": random_value(rng, depth)}),
    }
}

fn random_value(rng: &mut XorShift, depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 8 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => random_number(rng),
        3 | 4 => Value::String(random_string(rng)),
        5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        6 => {
            let mut map = Map::new();
            for _ in 0..rng.below(5) {
                let key = if rng.chance(80) {
                    (*rng.pick(KEYS)).to_owned()
                } else {
                    random_string(rng)
                };
                map.insert(key, random_value(rng, depth - 1));
            }
            Value::Object(map)
        }
        _ => plausible(rng, depth - 1),
    }
}

/// Inserts `key: value` if `target` is an object (never panics on other values).
fn set(target: &mut Value, key: &str, value: Value) {
    if let Some(map) = target.as_object_mut() {
        map.insert(key.to_owned(), value);
    }
}

fn remove(target: &mut Value, key: &str) {
    if let Some(map) = target.as_object_mut() {
        map.remove(key);
    }
}

fn get_mut<'a>(target: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    target.as_object_mut().and_then(|m| m.get_mut(key))
}

/// Changes one character of a token.
fn mutate_token(rng: &mut XorShift, token: &str) -> String {
    let mut bytes: Vec<char> = token.chars().collect();
    if bytes.is_empty() {
        return String::new();
    }
    match rng.below(3) {
        0 => {
            let i = rng.below(bytes.len());
            bytes[i] = *rng.pick(&['A', 'z', '-', '_', '0', '.', '=']);
        }
        1 => bytes.truncate(rng.below(bytes.len())),
        _ => bytes.extend("AAAA".chars()),
    }
    bytes.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// The server side
// ---------------------------------------------------------------------------------------------

/// A 2025-11-25 peer whose replies are arbitrary JSON.
struct RandomPeer(Mutex<XorShift>);

impl LegacyPeer for RandomPeer {
    fn request<'a>(
        &'a self,
        _request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        let reply = {
            let mut rng = self.0.lock().unwrap();
            random_value(&mut rng, 3)
        };
        Box::pin(async move { Ok(reply) })
    }
}

async fn two_forms(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let day = Day::ask(cx).await;
    let guests = Guests::ask(cx).await;
    let (day, guests) = (day?, guests?);
    Ok(format!("{day:?} {guests:?}"))
}

async fn two_forms_in_sequence(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let Answer::Accepted(day) = Day::ask(cx).await? else {
        return Ok("no day".into());
    };
    let guests = Guests::question()
        .message(format!("Guests on {}?", day.date))
        .ask(cx)
        .await?;
    Ok(format!("{day:?} {guests:?}"))
}

async fn forms_and_more(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let day = Day::ask_if_supported(cx).await;
    let sample = cx
        .sample("s", json!({"messages": [], "maxTokens": 1}))
        .await;
    let roots = cx.list_roots("r").await;
    let guests = Guests::ask(cx).await;
    Ok(format!(
        "{:?} {:?} {:?} {:?}",
        day?, sample?, roots?, guests?
    ))
}

fn base_params() -> Value {
    json!({
        "name": TOOL,
        "arguments": {"restaurant": "Chez Rust"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}}
        }
    })
}

/// Mutates every field of `params` with some probability.
fn hostile_params(rng: &mut XorShift, tokens: &[String]) -> Value {
    let mut params = base_params();
    // A retry, most of the time with a real state and plausible answers.
    if rng.chance(70) {
        if !tokens.is_empty() && rng.chance(70) {
            let token = rng.pick(tokens).clone();
            let token = if rng.chance(20) {
                mutate_token(rng, &token)
            } else {
                token
            };
            set(&mut params, "requestState", Value::String(token));
        }
        let mut responses = json!({
            "day": {"action": "accept", "content": {"date": "2026-12-24"}},
            "guests": {"action": "accept", "content": {"count": 3}}
        });
        for key in ["day", "guests", "s", "r", "other"] {
            match rng.below(4) {
                0 => remove(&mut responses, key),
                1 => set(&mut responses, key, random_value(rng, 3)),
                2 => set(&mut responses, key, plausible(rng, 2)),
                _ => {}
            }
        }
        set(&mut params, "inputResponses", responses);
    }
    let p = 15;
    if rng.chance(p) {
        set(&mut params, "name", random_value(rng, 2));
    }
    if rng.chance(p) {
        set(&mut params, "arguments", random_value(rng, 3));
    }
    if rng.chance(p) {
        set(&mut params, "requestState", random_value(rng, 2));
    }
    if rng.chance(p) {
        set(&mut params, "inputResponses", random_value(rng, 4));
    }
    if let Some(responses) = get_mut(&mut params, "inputResponses") {
        for key in ["day", "guests"] {
            if rng.chance(p) {
                set(responses, key, random_value(rng, 3));
            }
        }
    }
    if let Some(meta) = get_mut(&mut params, "_meta") {
        if rng.chance(p) {
            set(
                meta,
                "io.modelcontextprotocol/protocolVersion",
                random_value(rng, 1),
            );
        }
        if rng.chance(p) {
            set(
                meta,
                "io.modelcontextprotocol/clientCapabilities",
                random_value(rng, 3),
            );
        }
        if rng.chance(10) {
            set(
                meta,
                "io.modelcontextprotocol/clientInfo",
                random_value(rng, 2),
            );
        }
        if rng.chance(10) {
            set(
                meta,
                "io.modelcontextprotocol/logLevel",
                random_value(rng, 1),
            );
        }
        if rng.chance(5) {
            remove(meta, "io.modelcontextprotocol/protocolVersion");
        }
        if rng.chance(5) {
            remove(meta, "io.modelcontextprotocol/clientCapabilities");
        }
    }
    if rng.chance(10) {
        set(&mut params, "_meta", random_value(rng, 3));
    }
    if rng.chance(3) {
        remove(&mut params, "_meta");
    }
    if rng.chance(2) {
        params = random_value(rng, 3);
    }
    params
}

/// What one hostile request led to, in words, or the violation.
fn check(outcome: Result<Outcome<String>, JsonRpcError>) -> Result<Option<String>, String> {
    match outcome {
        Ok(Outcome::Complete(_)) => Ok(None),
        Ok(Outcome::InputRequired(ask)) => {
            let value =
                serde_json::to_value(&ask).map_err(|e| format!("unserializable result: {e}"))?;
            if value["resultType"] != "input_required" {
                return Err(format!("bad resultType in {value}"));
            }
            let requests = ask.input_requests().map(|r| r.len()).unwrap_or(0);
            let state = ask.request_state().map(str::to_owned);
            if requests == 0 && state.is_none() {
                return Err(format!(
                    "an input_required result with nothing in it: {value}"
                ));
            }
            if let Some(keys) = ask.input_requests()
                && let Some(stray) = keys
                    .keys()
                    .find(|k| !["day", "guests", "s", "r"].contains(&k.as_str()))
            {
                return Err(format!("unexpected key {stray} in {value}"));
            }
            match state {
                Some(s) if s.starts_with("es1.") => Ok(Some(s)),
                Some(s) => Err(format!("state without the es1 prefix: {s}")),
                None => Ok(None),
            }
        }
        Err(e) if ALLOWED.contains(&e.code) => {
            serde_json::to_value(&e).map_err(|err| format!("unserializable error: {err}"))?;
            Ok(None)
        }
        Err(e) => Err(format!("error code outside {ALLOWED:?}: {e:?}")),
    }
}

fn run_one(
    server: &Elicitation,
    rng: &mut XorShift,
    tokens: &[String],
) -> (Value, Result<Option<String>, String>) {
    let params = hostile_params(rng, tokens);
    let method = *rng.pick(&[
        "tools/call",
        "tools/call",
        "tools/call",
        "prompts/get",
        "resources/read",
        "ping",
    ]);
    let principal = if rng.chance(10) { Some("alice") } else { None };
    let legacy = rng.chance(15);
    let handler = rng.below(3);
    let peer_seed = rng.next() | 1;

    let mut builder = server.context(method, &params).principal(principal);
    if legacy {
        let caps: ClientCapabilities = serde_json::from_value(random_value(rng, 2))
            .unwrap_or_else(|_| ClientCapabilities::default());
        let caps = if rng.chance(50) {
            serde_json::from_value(json!({"elicitation": {}, "sampling": {}, "roots": {}})).unwrap()
        } else {
            caps
        };
        let peer = rng
            .chance(80)
            .then(|| Arc::new(RandomPeer(Mutex::new(XorShift(peer_seed)))) as Arc<dyn LegacyPeer>);
        builder = builder.legacy(caps, peer);
    }
    let mut cx = match builder.build() {
        Ok(cx) => cx,
        Err(e) => {
            let verdict = if ALLOWED.contains(&e.error.code) {
                Ok(None)
            } else {
                Err(format!("build error code outside {ALLOWED:?}: {e:?}"))
            };
            return (params, verdict);
        }
    };
    let result = block_on(async {
        match handler {
            0 => two_forms(&mut cx).await,
            1 => two_forms_in_sequence(&mut cx).await,
            _ => forms_and_more(&mut cx).await,
        }
    });
    (params, check(cx.finish(result)))
}

#[test]
fn hostile_tool_calls_never_panic_and_fail_with_known_codes() {
    let server = Elicitation::new(StateSealer::new(
        KeyRing::new(1, [0x5A; 32]),
        "hostile-server",
    ))
    .with_server_info("hostile-server", "0");
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // Real states for the base request, fed forward as the fuzz finds new rounds.
    let mut tokens: Vec<String> = Vec::new();
    let mut rounds = 0usize;
    for iteration in 0..ITERATIONS {
        let seed = rng.0;
        let outcome = catch_unwind(AssertUnwindSafe(|| run_one(&server, &mut rng, &tokens)));
        let (params, verdict) = match outcome {
            Ok(v) => v,
            Err(_) => panic!("iteration {iteration} (generator state {seed:#x}) panicked"),
        };
        match verdict {
            Ok(Some(token)) => {
                rounds += 1;
                if tokens.len() < 64 {
                    tokens.push(token);
                } else {
                    let i = rng.below(tokens.len());
                    tokens[i] = token;
                }
            }
            Ok(None) => {}
            Err(violation) => {
                panic!("iteration {iteration} (state {seed:#x}): {violation}\nparams: {params}")
            }
        }
    }
    // The fuzz must reach past the first checks: real rounds were produced and fed forward.
    assert!(rounds > 100, "only {rounds} input_required rounds");
    assert!(!tokens.is_empty());
}

#[test]
fn hostile_requests_reach_every_kind_of_outcome() {
    // The same generator, counting outcomes, to show the fuzz above is not stuck on one path.
    let server = Elicitation::new(StateSealer::new(
        KeyRing::new(1, [0x5A; 32]),
        "hostile-server",
    ));
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut tokens = Vec::new();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..1_500 {
        let params = hostile_params(&mut rng, &tokens);
        let mut cx = match server.context("tools/call", &params).build() {
            Ok(cx) => cx,
            Err(e) => {
                *seen.entry(format!("build {}", e.error.code)).or_default() += 1;
                continue;
            }
        };
        let result = block_on(two_forms(&mut cx));
        let label = match cx.finish(result) {
            Ok(Outcome::Complete(_)) => "complete".to_owned(),
            Ok(Outcome::InputRequired(ask)) => {
                if let Some(s) = ask.request_state() {
                    tokens.push(s.to_owned());
                }
                "input_required".to_owned()
            }
            Err(e) => {
                assert!(ALLOWED.contains(&e.code), "{e:?}");
                format!("error {}", e.code)
            }
        };
        *seen.entry(label).or_default() += 1;
    }
    for expected in [
        "complete",
        "input_required",
        "error -32602",
        "error -32021",
        "build -32602",
    ] {
        assert!(
            seen.get(expected).copied().unwrap_or(0) > 0,
            "never saw {expected}: {seen:?}"
        );
    }
}

#[test]
fn hostile_task_updates_never_panic() {
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    let waker = Waker::noop();
    let mut exercised = 0;
    for iteration in 0..1_000 {
        let input = TaskInput::new(serde_json::from_value(json!({"elicitation": {}})).unwrap());
        let mut ask = pin!(input.ask(Guests::question()));
        let mut cx = Context::from_waker(waker);
        assert!(ask.as_mut().poll(&mut cx).is_pending());
        // Mostly a map of responses (junk entries included), sometimes junk in its place.
        let mut responses = random_value(&mut rng, 4);
        if rng.chance(80) && !responses.is_object() {
            responses = json!({"junk": responses});
        }
        if rng.chance(60) {
            set(
                &mut responses,
                "guests",
                if rng.chance(50) {
                    plausible(&mut rng, 2)
                } else {
                    random_value(&mut rng, 3)
                },
            );
        }
        if !responses.is_object() {
            // Not an update at all: refused by the parser, nothing reaches the task.
            let raw = json!({"taskId": "t", "inputResponses": responses});
            assert!(serde_json::from_value::<TasksUpdateParams>(raw).is_err());
            continue;
        }
        let raw = json!({"taskId": "t", "inputResponses": responses});
        let update = serde_json::from_value::<TasksUpdateParams>(raw)
            .expect("an object of responses parses");
        exercised += 1;
        let answered = update.input_responses.get("guests").is_some();
        let ack = serde_json::to_value(input.update(&update)).unwrap();
        assert_eq!(ack, json!({"resultType": "complete"}));
        match ask.as_mut().poll(&mut cx) {
            Poll::Pending => assert!(
                !answered,
                "iteration {iteration}: answered but still pending"
            ),
            Poll::Ready(result) => {
                assert!(
                    answered,
                    "iteration {iteration}: resolved without an answer: {result:?}"
                );
                if let Err(e) = result {
                    let code = e.as_error().map(|e| e.code);
                    assert_eq!(code, Some(-32602), "iteration {iteration}: {e:?}");
                }
            }
        }
    }
    assert!(exercised > 500, "only {exercised} updates reached the task");
}
