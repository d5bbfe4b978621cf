//! Strategies for hostile requests: arbitrary JSON biased towards the shapes the library looks
//! for (so the fuzz gets past the first checks), and what to do to each field of a `tools/call`.

use proptest::bool::weighted as chance;
use proptest::collection::vec;
use proptest::option::weighted as maybe;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::{Map, Value, json};

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

const ACTIONS: &[&str] = &["accept", "decline", "cancel", "maybe"];
const MODES: &[&str] = &["form", "url"];
const TOKEN_CHARS: &[char] = &['A', 'z', '-', '_', '0', '.', '='];
/// `tools/call` three times as often as each other method.
const METHODS: &[&str] = &[
    "tools/call",
    "tools/call",
    "tools/call",
    "prompts/get",
    "resources/read",
    "ping",
];
/// The responses a retry carries, or edits: the two forms, a sampling, a roots list, a stray.
pub(super) const RESPONSE_KEYS: [&str; 5] = ["day", "guests", "s", "r", "other"];

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => vec(proptest::char::range('\u{0}', '\u{24f}'), 0..12).prop_map(String::from_iter),
        1 => (0usize..3).prop_map(|n| "x".repeat(n * 40)),
        2 => select(STRINGS).prop_map(str::to_owned),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        (-5i64..25).prop_map(Value::from),
        Just(json!(i64::MIN)),
        Just(json!(u64::MAX)),
        Just(json!(-0.0)),
        Just(json!(1.5)),
        Just(json!(1e308)),
        Just(json!(-1e-300)),
        // Not finite becomes `null`, as `serde_json` has it.
        any::<f64>().prop_map(Value::from),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![4 => select(KEYS).prop_map(str::to_owned), 1 => string()]
}

/// An object of up to four entries, mostly under keys the library knows.
pub(super) fn object(depth: u32) -> BoxedStrategy<Value> {
    vec((key(), value(depth)), 0..5)
        .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>()))
        .boxed()
}

/// Any JSON nested at most `depth` deep, a third of the containers of a plausible shape.
pub(super) fn value(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => number(),
        2 => string().prop_map(Value::String),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        5 => leaf,
        1 => vec(value(depth - 1), 0..4).prop_map(Value::Array),
        1 => object(depth - 1),
        1 => plausible(depth - 1),
    ]
    .boxed()
}

/// Shapes close to what the library looks for: responses, capabilities, sampling results.
pub(super) fn plausible(depth: u32) -> BoxedStrategy<Value> {
    let any = value(depth);
    prop_oneof![
        select(ACTIONS).prop_map(|action| json!({"action": action})),
        (any.clone(), any.clone()).prop_map(
            |(count, note)| json!({"action": "accept", "content": {"count": count, "note": note}})
        ),
        any.clone()
            .prop_map(|date| json!({"action": "accept", "content": {"date": date}})),
        (0u8..14).prop_map(
            |count| json!({"action": "accept", "content": {"count": count, "date": "2026-02-28"}})
        ),
        Just(json!({"elicitation": {}})),
        (select(MODES), any.clone()).prop_map(|(mode, v)| json!({"elicitation": {(mode): v}})),
        any.clone()
            .prop_map(|roots| json!({"sampling": {}, "roots": roots})),
        any.clone().prop_map(|roots| json!({"roots": roots})),
        any.prop_map(|content| json!({"role": "assistant", "content": content})),
    ]
    .boxed()
}

/// One change to a token.
#[derive(Debug, Clone)]
pub(super) enum TokenEdit {
    Replace(Index, char),
    Truncate(Index),
    Append,
}

impl TokenEdit {
    pub(super) fn apply(&self, token: &str) -> String {
        let mut chars: Vec<char> = token.chars().collect();
        if chars.is_empty() {
            return String::new();
        }
        let len = chars.len();
        match self {
            TokenEdit::Replace(i, c) => chars[i.index(len)] = *c,
            TokenEdit::Truncate(i) => chars.truncate(i.index(len)),
            TokenEdit::Append => chars.extend("AAAA".chars()),
        }
        chars.into_iter().collect()
    }
}

fn token_edit() -> impl Strategy<Value = TokenEdit> {
    prop_oneof![
        (any::<Index>(), select(TOKEN_CHARS)).prop_map(|(i, c)| TokenEdit::Replace(i, c)),
        any::<Index>().prop_map(TokenEdit::Truncate),
        Just(TokenEdit::Append),
    ]
}

/// What a retry does to one of the plausible responses it starts from.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    Keep,
    Remove,
    Set(Value),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        Just(Edit::Keep),
        Just(Edit::Remove),
        value(3).prop_map(Edit::Set),
        plausible(2).prop_map(Edit::Set),
    ]
}

/// A retry: most of the time a real state of an earlier round (sometimes changed), and edits of
/// plausible answers, one per [`RESPONSE_KEYS`].
#[derive(Debug, Clone)]
pub(super) struct Retry {
    pub(super) state: Option<(Index, Option<TokenEdit>)>,
    pub(super) responses: [Edit; 5],
}

/// Replacements of a request's fields, each applied with a small probability.
#[derive(Debug, Clone)]
pub(super) struct Fields {
    pub(super) name: Option<Value>,
    pub(super) arguments: Option<Value>,
    pub(super) request_state: Option<Value>,
    pub(super) input_responses: Option<Value>,
    pub(super) day: Option<Value>,
    pub(super) guests: Option<Value>,
}

/// Replacements and removals in `_meta`.
#[derive(Debug, Clone)]
pub(super) struct Meta {
    pub(super) version: Option<Value>,
    pub(super) capabilities: Option<Value>,
    pub(super) client_info: Option<Value>,
    pub(super) log_level: Option<Value>,
    pub(super) drop_version: bool,
    pub(super) drop_capabilities: bool,
}

/// Replacements of the whole `_meta`, or of the whole `params`.
#[derive(Debug, Clone)]
pub(super) struct Whole {
    pub(super) meta: Option<Value>,
    pub(super) drop_meta: bool,
    pub(super) params: Option<Value>,
}

/// The `params` of one hostile `tools/call`: a retry (70%) and changes to every field.
#[derive(Debug, Clone)]
pub(super) struct Params {
    pub(super) retry: Option<Retry>,
    pub(super) fields: Fields,
    pub(super) meta: Meta,
    pub(super) whole: Whole,
}

fn retry() -> impl Strategy<Value = Retry> {
    let state = maybe(0.7, (any::<Index>(), maybe(0.2, token_edit())));
    (state, proptest::array::uniform5(edit()))
        .prop_map(|(state, responses)| Retry { state, responses })
}

fn fields() -> impl Strategy<Value = Fields> {
    let p = 0.15;
    (
        maybe(p, value(2)),
        maybe(p, value(3)),
        maybe(p, value(2)),
        maybe(p, value(4)),
        maybe(p, value(3)),
        maybe(p, value(3)),
    )
        .prop_map(
            |(name, arguments, request_state, input_responses, day, guests)| Fields {
                name,
                arguments,
                request_state,
                input_responses,
                day,
                guests,
            },
        )
}

fn meta() -> impl Strategy<Value = Meta> {
    (
        maybe(0.15, value(1)),
        maybe(0.15, value(3)),
        maybe(0.1, value(2)),
        maybe(0.1, value(1)),
        chance(0.05),
        chance(0.05),
    )
        .prop_map(
            |(version, capabilities, client_info, log_level, drop_version, drop_capabilities)| {
                Meta {
                    version,
                    capabilities,
                    client_info,
                    log_level,
                    drop_version,
                    drop_capabilities,
                }
            },
        )
}

fn whole() -> impl Strategy<Value = Whole> {
    (maybe(0.1, value(3)), chance(0.03), maybe(0.02, value(3))).prop_map(
        |(meta, drop_meta, params)| Whole {
            meta,
            drop_meta,
            params,
        },
    )
}

pub(super) fn params() -> impl Strategy<Value = Params> {
    (maybe(0.7, retry()), fields(), meta(), whole()).prop_map(|(retry, fields, meta, whole)| {
        Params {
            retry,
            fields,
            meta,
            whole,
        }
    })
}

/// How a 2025-11-25 client connects: its capabilities and the replies of its peer, if any.
#[derive(Debug, Clone)]
pub(super) struct Legacy {
    pub(super) capabilities: Value,
    pub(super) all_capabilities: bool,
    pub(super) peer: Option<Vec<Value>>,
}

/// One hostile call: its params, method, principal, era and which handler runs.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub(super) params: Params,
    pub(super) method: &'static str,
    pub(super) alice: bool,
    pub(super) legacy: Option<Legacy>,
    pub(super) handler: u8,
}

fn legacy() -> impl Strategy<Value = Legacy> {
    // At most four requests reach the peer (two forms, a sampling, a roots list).
    (value(2), chance(0.5), maybe(0.8, vec(value(3), 4))).prop_map(
        |(capabilities, all_capabilities, peer)| Legacy {
            capabilities,
            all_capabilities,
            peer,
        },
    )
}

pub(super) fn call() -> impl Strategy<Value = Call> {
    (
        params(),
        select(METHODS),
        chance(0.1),
        maybe(0.15, legacy()),
        0u8..3,
    )
        .prop_map(|(params, method, alice, legacy, handler)| Call {
            params,
            method,
            alice,
            legacy,
            handler,
        })
}

impl Params {
    /// Applies the changes to `base`, picking the retry's state from `tokens` (the states of
    /// earlier rounds).
    pub(super) fn build(&self, base: Value, tokens: &[String]) -> Value {
        let mut params = base;
        if let Some(retry) = &self.retry {
            if let Some((i, edit)) = &retry.state
                && !tokens.is_empty()
            {
                let token = &tokens[i.index(tokens.len())];
                let token = edit
                    .as_ref()
                    .map_or_else(|| token.clone(), |e| e.apply(token));
                set(&mut params, "requestState", Value::String(token));
            }
            let mut responses = json!({
                "day": {"action": "accept", "content": {"date": "2026-12-24"}},
                "guests": {"action": "accept", "content": {"count": 3}}
            });
            for (key, edit) in RESPONSE_KEYS.iter().zip(&retry.responses) {
                match edit {
                    Edit::Keep => {}
                    Edit::Remove => remove(&mut responses, key),
                    Edit::Set(value) => set(&mut responses, key, value.clone()),
                }
            }
            set(&mut params, "inputResponses", responses);
        }
        self.fields.apply(&mut params);
        if let Some(meta) = get_mut(&mut params, "_meta") {
            self.meta.apply(meta);
        }
        if let Some(meta) = &self.whole.meta {
            set(&mut params, "_meta", meta.clone());
        }
        if self.whole.drop_meta {
            remove(&mut params, "_meta");
        }
        self.whole.params.clone().unwrap_or(params)
    }
}

impl Fields {
    fn apply(&self, params: &mut Value) {
        let replace = [
            ("name", &self.name),
            ("arguments", &self.arguments),
            ("requestState", &self.request_state),
            ("inputResponses", &self.input_responses),
        ];
        for (key, value) in replace {
            if let Some(value) = value {
                set(params, key, value.clone());
            }
        }
        if let Some(responses) = get_mut(params, "inputResponses") {
            for (key, value) in [("day", &self.day), ("guests", &self.guests)] {
                if let Some(value) = value {
                    set(responses, key, value.clone());
                }
            }
        }
    }
}

impl Meta {
    fn apply(&self, meta: &mut Value) {
        let replace = [
            ("io.modelcontextprotocol/protocolVersion", &self.version),
            (
                "io.modelcontextprotocol/clientCapabilities",
                &self.capabilities,
            ),
            ("io.modelcontextprotocol/clientInfo", &self.client_info),
            ("io.modelcontextprotocol/logLevel", &self.log_level),
        ];
        for (key, value) in replace {
            if let Some(value) = value {
                set(meta, key, value.clone());
            }
        }
        if self.drop_version {
            remove(meta, "io.modelcontextprotocol/protocolVersion");
        }
        if self.drop_capabilities {
            remove(meta, "io.modelcontextprotocol/clientCapabilities");
        }
    }
}

/// Inserts `key: value` if `target` is an object (never panics on other values).
pub(super) fn set(target: &mut Value, key: &str, value: Value) {
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
