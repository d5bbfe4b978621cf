//! Realistic first inputs for every target, so the fuzzer starts deep: answers a client
//! sends, the schemas servers ask with, `tools/call` params of each round, and tokens and
//! plaintexts sealed by the real sealer with the fixed test keys.

use std::time::SystemTime;

use serde_json::{Value, json};

use super::context::seal_given_state;
use super::fixtures::{
    Booking, ConnectGithub, PRINCIPAL, block_on, connect_github, now, sealer, server,
};
use super::tokens::{TOOL, binding, tool_args};
use crate::state::frame::{self, Prefix};
use crate::state::{Binding, TOKEN_PREFIX};
use crate::url::handle::{self, HANDLE_PREFIX};
use crate::{ElicitForm, ElicitUrl, Reply};
use elicit_wire::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};

/// The seed inputs of the target `name` (none for an unknown name).
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    match name {
        "form_content" => json_lines(form_contents()),
        "requested_schema" => schemas(),
        "context_round" => json_lines(params()),
        "state_open" => states(),
        "url_handle_open" => handles(),
        "landing_page_open" => json_lines(pages()),
        _ => Vec::new(),
    }
}

fn json_lines(values: Vec<Value>) -> Vec<Vec<u8>> {
    values.iter().map(|v| v.to_string().into_bytes()).collect()
}

/// A complete, valid answer to the booking form.
fn booking() -> Value {
    json!({
        "name": "Ada Lovelace", "email": "ada@example.com", "day": "2026-09-12",
        "arrival": "2026-09-12T19:30:00Z", "website": "https://ada.example.org/",
        "guests": 4, "tip": 12.5, "loyalty": -7, "seating": "indoor-window",
        "extras": ["cake", "flowers"], "reminder": false, "hours": 3
    })
}

fn with(mut content: Value, key: &str, value: Value) -> Value {
    content[key] = value;
    content
}

fn form_contents() -> Vec<Value> {
    let full = booking();
    let minimal = json!({
        "name": "Bo", "email": "b@x.io", "day": "2024-02-29", "guests": 1, "tip": 0, "extras": []
    });
    vec![
        full.clone(),
        minimal.clone(),
        with(minimal.clone(), "arrival", Value::Null),
        with(full.clone(), "guests", json!(13)),
        with(full.clone(), "guests", json!(2.0)),
        with(full.clone(), "tip", json!(-1.5)),
        with(full.clone(), "tip", json!(1e308)),
        with(
            full.clone(),
            "loyalty",
            json!(9_223_372_036_854_775_807_i64),
        ),
        with(
            full.clone(),
            "loyalty",
            json!(18_446_744_073_709_551_615_u64),
        ),
        with(full.clone(), "email", json!("not an email")),
        with(full.clone(), "day", json!("2025-02-29")),
        with(full.clone(), "arrival", json!("2026-09-12T25:00:00+02:00")),
        with(full.clone(), "website", json!("relative/path")),
        with(full.clone(), "name", json!("é")),
        with(full.clone(), "seating", json!("IndoorWindow")),
        with(full.clone(), "extras", json!(["cake", "cake"])),
        with(
            full.clone(),
            "extras",
            json!(["cake", "flowers", "high-chair"]),
        ),
        with(full.clone(), "extras", json!("cake")),
        with(full.clone(), "reminder", json!("true")),
        with(full.clone(), "hours", json!(0)),
        with(full, "unknown", json!({"deep": [1, [2, [3]]]})),
        json!({}),
        json!([]),
        json!(null),
        Value::Object(Booking::defaults_content(&Default::default())),
    ]
}

/// Schemas as servers send them (one line), each followed by an answer.
fn schemas() -> Vec<Vec<u8>> {
    let booking_schema = serde_json::to_string(Booking::requested_schema()).unwrap_or_default();
    let spec = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your name", "minLength": 1, "maxLength": 50, "default": "Ada"},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "born": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
            "score": {"type": "number", "minimum": -1.5, "maximum": 1e3},
            "ok": {"type": "boolean", "default": false},
            "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
            "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]},
            "titled": {"type": "string", "oneOf": [{"const": "x", "title": "X"}, {"const": "y", "title": "Y"}]},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["t1", "t2", "t3"]}, "default": ["t1"]},
            "titledTags": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "P"}, {"const": "q", "title": "Q"}]}}
        },
        "required": ["name", "email", "tags"]
    });
    let answers = [
        json!({"name": "Ada", "email": "a@b.co", "tags": ["t1"], "age": 31, "score": 0.5, "titled": "x", "titledTags": ["q"]}),
        json!({"name": "", "email": "nope", "tags": [], "age": 151, "score": "x", "born": "2025-13-01"}),
    ];
    let mut seeds = Vec::new();
    for schema in [booking_schema, spec.to_string()] {
        for answer in &answers {
            seeds.push(format!("{schema}\n{answer}").into_bytes());
        }
        seeds.push(format!("{schema}\n{}", booking()).into_bytes());
        seeds.push(schema.into_bytes());
    }
    for refused in [
        json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^x$"}}}),
        json!({"type": "object", "properties": {"a": {"type": "object"}}}),
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 5, "maximum": 1}}}),
        json!({"type": "object", "properties": {}, "required": ["ghost"]}),
        json!({"type": "array"}),
    ] {
        seeds.push(refused.to_string().into_bytes());
    }
    seeds.push(
        br#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"boolean"}}}"#
            .to_vec(),
    );
    seeds
}

/// `_meta` of a 2026-07-28 client that can answer all three questions.
fn meta(version: &str) -> Value {
    json!({
        META_PROTOCOL_VERSION: version,
        META_CLIENT_CAPABILITIES: {"elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}},
        "io.modelcontextprotocol/clientInfo": {"name": "fuzz-client", "version": "0.1.0"}
    })
}

fn call(responses: Option<Value>, state: Option<Value>) -> Value {
    let mut params = json!({
        "name": "book_table",
        "arguments": {"restaurant": "Chez Rust", "party": [1, 2]},
        "_meta": meta("2026-07-28"),
    });
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    if let Some(state) = state {
        params["requestState"] = state;
    }
    params
}

/// The payload of the state the round of `params` seals, as JSON (a target seals it again).
fn next_state(params: &Value) -> Option<Value> {
    let server = server();
    let mut params = params.clone();
    seal_given_state(&server, &mut params)?;
    let mut cx = server
        .context("tools/call", &params)
        .principal(PRINCIPAL)
        .build()
        .ok()?;
    let result = block_on(async {
        let booking = Booking::ask(&mut cx).await;
        let connect = connect_github().ask(&mut cx).await;
        let roots = cx.list_roots("roots").await;
        booking.and(connect).and(roots).map(|_| ())
    });
    let Ok(Reply::InputRequired(ask)) = block_on(cx.respond(result)) else {
        return None;
    };
    let args = &params["arguments"];
    let binding = Binding::tool_call("book_table", args).with_principal(PRINCIPAL);
    let token = ask.request_state()?;
    Some(
        server
            .sealer()
            .open_now::<Value>(token, &binding)
            .ok()?
            .payload,
    )
}

fn params() -> Vec<Value> {
    let accepted = json!({Booking::key(): {"action": "accept", "content": booking()}});
    let all = json!({
        Booking::key(): {"action": "accept", "content": booking()},
        ConnectGithub::KEY: {"action": "accept"},
        "roots": {"roots": [{"uri": "file:///home/ada/src", "name": "src"}]}
    });
    let first = call(None, None);
    let second = call(Some(accepted.clone()), None);
    let mut seeds = vec![
        first.clone(),
        second.clone(),
        call(Some(all.clone()), None),
        call(
            Some(json!({Booking::key(): {"action": "decline"}, "roots": {"roots": []}})),
            None,
        ),
        call(
            Some(json!({Booking::key(): {"action": "accept", "content": {"guests": 99}}})),
            None,
        ),
        call(
            Some(json!({Booking::key(): {"action": "maybe"}, "roots": 7})),
            None,
        ),
        call(
            Some(json!({ConnectGithub::KEY: {"action": "cancel"}})),
            None,
        ),
        call(
            Some(json!([])),
            Some(json!("es1.AAAAAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")),
        ),
        json!({"name": "book_table", "arguments": {}, "_meta": meta("2025-11-25")}),
        json!({"name": "book_table", "arguments": {}, "_meta": meta("2099-01-01")}),
        json!({"name": "book_table", "arguments": {}, "_meta": {META_PROTOCOL_VERSION: "2026-07-28"}}),
        json!({"name": "book_table"}),
        json!({"name": 7, "arguments": null, "_meta": meta("2026-07-28")}),
    ];
    // A re-ask: the first round answered out of range, then that re-ask's own state (which
    // carries the re-ask) retried with a corrected answer and with the same wrong one; and a
    // described state with a re-ask, as the fuzzer mutates it.
    let wrong = json!({Booking::key(): {"action": "accept", "content": {"guests": 99}}});
    if let Some(state) = next_state(&first) {
        let reasked = call(Some(wrong.clone()), Some(state));
        if let Some(state) = next_state(&reasked) {
            seeds.push(call(Some(accepted.clone()), Some(state.clone())));
            seeds.push(call(Some(wrong), Some(state)));
        }
        seeds.push(reasked);
    }
    let reask =
        json!({"o": "0", "c": 1, "m": "Please correct and send again:", "d": {"guests": 2}});
    seeds.push(call(
        Some(accepted.clone()),
        Some(json!({"q": {}, "r": {Booking::key(): reask}})),
    ));
    for asked in [first, second] {
        if let Some(state) = next_state(&asked) {
            seeds.push(call(Some(all.clone()), Some(state.clone())));
            seeds.push(call(Some(accepted.clone()), Some(state.clone())));
            let mut third = call(Some(all.clone()), Some(state));
            if let Some(state) = next_state(&third) {
                third["requestState"] = state;
                seeds.push(third);
            }
        }
    }
    seeds
}

/// Each seed both ways: the token text, and the plaintext it seals.
fn token_seeds(pick: u8, token: &str, prefix: &Prefix) -> [Vec<u8>; 2] {
    let mut text = vec![pick << 1];
    text.extend_from_slice(token.as_bytes());
    let mut plain = vec![(pick << 1) | 1];
    if let Ok(opened) = frame::open(sealer().key_ring(), prefix, token) {
        plain.extend_from_slice(opened.plaintext());
    }
    [text, plain]
}

fn state_prefix() -> &'static Prefix {
    TOKEN_PREFIX.as_bytes().try_into().expect("a 4-byte prefix")
}

fn states() -> Vec<Vec<u8>> {
    let payloads = [
        json!({"q": {"booking": "3f0a9c", "roots": "77d1e2"}, "a": {}, "n": 1}),
        json!({
            "q": {"connect_github": "9be2"},
            "a": {"booking": {"d": "3f0a9c", "r": {"action": "accept", "content": booking()}}},
            "u": {"connect_github": {"id": "Zm9v", "exp": 1_800_000_600_u64}},
            "n": 2
        }),
        json!(null),
        json!([1, "two", {"three": 3.0}]),
    ];
    let args = tool_args();
    let mut seeds = Vec::new();
    for pick in 0..4 {
        for payload in &payloads {
            let Ok(token) = sealer().seal(&binding(pick, &args), payload, now()) else {
                continue;
            };
            seeds.extend(token_seeds(pick, &token, state_prefix()));
        }
    }
    // Sealed a minute ago, and by the retired key.
    let old = crate::state::StateSealer::new(
        crate::state::KeyRing::new(1, super::fixtures::OLD_KEY),
        super::fixtures::AUDIENCE,
    );
    if let Ok(token) = old.seal(
        &binding(0, &args),
        &payloads[0],
        now() - std::time::Duration::from_secs(60),
    ) {
        seeds.extend(token_seeds(0, &token, state_prefix()));
    }
    seeds.push(b"\0es1.".to_vec());
    seeds.push(b"\0es1.AAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".to_vec());
    seeds
}

fn handles() -> Vec<Vec<u8>> {
    let args = tool_args();
    let mut seeds = Vec::new();
    let states = [
        serde_json::to_value(connect_github()).unwrap_or_default(),
        json!(null),
        json!({"scopes": ["repo", "read:org"]}),
    ];
    for (pick, state) in (0..).zip(states) {
        let bound = Binding::tool_call(TOOL, &args).with_principal(PRINCIPAL);
        let id = (pick == 1).then(|| ("flow-1".to_owned(), u64::MAX));
        if let Ok((_, token)) = handle::mint(
            &sealer(),
            &bound,
            PRINCIPAL,
            ConnectGithub::KEY,
            ConnectGithub::MESSAGE,
            &crate::url::Bound::plain(state),
            now(),
            id,
        ) {
            seeds.extend(token_seeds(pick, &token, HANDLE_PREFIX));
        }
    }
    seeds.push(b"\0eu1.".to_vec());
    seeds
}

fn pages() -> Vec<Value> {
    let state = serde_json::to_value(connect_github()).unwrap_or_default();
    let stale = handle::mint(
        &sealer(),
        &Binding::tool_call("import_issues", &json!({})).with_principal(PRINCIPAL),
        PRINCIPAL,
        ConnectGithub::KEY,
        ConnectGithub::MESSAGE,
        &crate::url::Bound::plain(state.clone()),
        SystemTime::now(),
        None,
    )
    .map(|(_, token)| token)
    .unwrap_or_default();
    vec![
        json!({}),
        json!({"subject": "mallory"}),
        json!({"subject": ""}),
        json!({"principal": "", "subject": ""}),
        json!({"key": "other_kind", "state": {"anything": [1, 2]}}),
        json!({"state": {"provider": 7}}),
        json!({"age": 700}),
        json!({"ttl": 2, "age": 1, "id": "flow-7"}),
        json!({"ttl": 86_400, "age": 86_399}),
        json!({"handle": stale, "subject": PRINCIPAL}),
        json!({"handle": "eu1.AAAAAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "subject": PRINCIPAL}),
        json!({"handle": "es1.AAAA", "subject": PRINCIPAL}),
        json!({"principal": "bob", "subject": "bob", "state": state}),
        json!({"message": "<b>Connect</b>\n\u{202e}your account"}),
        json!({"id": "flow-1", "token_for": ["flow-1", PRINCIPAL]}),
        json!({"id": "flow-1", "token_for": ["flow-2", PRINCIPAL]}),
        json!({"id": "flow-1", "token_for": ["flow-1", "mallory"]}),
        json!({"id": "flow-1", "subject": "mallory", "token_for": ["flow-1", "mallory"]}),
        json!({"token": "ec1.AAAA"}),
        json!({"token": "", "subject": ""}),
        json!({"handle": stale, "token": stale, "subject": PRINCIPAL}),
    ]
}
