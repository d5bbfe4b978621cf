//! `context_round`: a request context built from arbitrary `tools/call` params, a handler
//! asking a form, a URL elicitation and the client's roots, and the round it ends in; then the
//! client's retry with the state that round sealed.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::fixtures::{Booking, PRINCIPAL, block_on, connect_github, server};
use crate::channel::Reask;
use crate::request::round::{self, Carried, RoundState, UrlFlow};
use crate::state::Binding;
use crate::wire::INVALID_PARAMS;
use crate::{ElicitContext, ElicitForm, ElicitServer, ElicitUrl, Interrupt, Reply};

/// The handler: three questions in one round, then what the answers say.
async fn handler(cx: &mut ElicitContext) -> Result<Value, Interrupt> {
    let booking = Booking::ask(cx).await;
    let connect = connect_github().ask(cx).await;
    let roots = cx.list_roots("roots").await;
    Ok(json!({
        "booking": format!("{:?}", booking?),
        "connect": format!("{:?}", connect?),
        "roots": roots?,
    }))
}

/// One round: the context of `params` as alice, the handler, its end. `None` when the params
/// are refused; the `requestState` to retry with, when the round asks for input.
fn round(server: &ElicitServer, params: &Value) -> Option<Result<Option<String>, i64>> {
    let mut cx = server
        .context("tools/call", params)
        .principal(PRINCIPAL)
        .build()
        .ok()?;
    let result = block_on(handler(&mut cx));
    Some(match block_on(cx.respond(result)) {
        Ok(Reply::Result(value)) => {
            let _ = serde_json::to_string(&value).expect("results serialize");
            Ok(None)
        }
        Ok(Reply::InputRequired(ask)) => {
            let _ = serde_json::to_string(&ask).expect("InputRequiredResult serializes");
            Ok(ask.request_state().map(str::to_owned))
        }
        // The fuzzed handlers ask forms only; a link would be a new way to end.
        Ok(Reply::Link(link)) => panic!("a form-only handler ended with a link: {link:?}"),
        Err(error) => {
            let _ = serde_json::to_string(&error).expect("errors serialize");
            Err(error.code)
        }
    })
}

/// Replaces a `requestState` given as JSON (not a string) with a state sealed now, with that
/// payload, for the request of `params` as alice. `None` if it cannot be sealed.
pub(crate) fn seal_given_state(server: &ElicitServer, params: &mut Value) -> Option<()> {
    let Some(payload) = params.get("requestState").filter(|s| !s.is_string()) else {
        return Some(());
    };
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(arguments) => arguments.clone(),
    };
    let binding = Binding::tool_call(name, &arguments).with_principal(PRINCIPAL);
    let sealer = server.sealer();
    let token = match described_round(payload) {
        // The context's own binary layout, for a description of a round state.
        Some(state) => sealer
            .seal_with(&binding, std::time::SystemTime::now(), |buf| {
                round::write(&state, buf)
            })
            .ok()?,
        // Anything else sealed as JSON, which the context must refuse as malformed.
        None => sealer.seal_now(&binding, payload).ok()?,
    };
    params["requestState"] = Value::String(token);
    Some(())
}

/// A round state described in JSON: `{"q": {key: digest}, "a": {key: {"d": digest, "r": answer}},
/// "u": {key: {"id", "exp", "done"?}}, "n": round, "r": {key: {"o": origin digest, "c": count,
/// "m": message, "d": {defaults}}}}` (the layout before it became binary, which the seeds and
/// corpus use; re-asks came later).
fn described_round(payload: &Value) -> Option<RoundState> {
    let object = payload.as_object()?;
    let texts = |v: Option<&Value>| -> Option<BTreeMap<String, String>> {
        v.map_or(Some(BTreeMap::new()), |v| {
            v.as_object()?
                .iter()
                .map(|(k, d)| Some((k.clone(), d.as_str()?.to_owned())))
                .collect()
        })
    };
    let asked = texts(object.get("q"))?;
    let mut answers = BTreeMap::new();
    for (key, carried) in entries(object, "a") {
        let carried = Carried {
            digest: carried.get("d")?.as_str()?.to_owned(),
            response: carried.get("r")?.to_string().into_boxed_str(),
        };
        answers.insert(key.clone(), carried);
    }
    let mut url_flows = BTreeMap::new();
    for (key, flow) in entries(object, "u") {
        let flow = UrlFlow {
            id: flow.get("id")?.as_str()?.to_owned(),
            exp: flow.get("exp")?.as_u64()?,
            done: match flow.get("done") {
                None => None,
                Some(done) => Some(serde_json::from_value(done.clone()).ok()?),
            },
        };
        url_flows.insert(key.clone(), flow);
    }
    let round = object
        .get("n")
        .map_or(Some(0), |n| n.as_u64().and_then(|n| u32::try_from(n).ok()))?;
    let mut reasks = BTreeMap::new();
    for (key, reask) in entries(object, "r") {
        let reask = Reask {
            origin: reask.get("o")?.as_str()?.to_owned(),
            count: u8::try_from(reask.get("c")?.as_u64()?).ok()?,
            message: reask.get("m")?.as_str()?.to_owned(),
            defaults: reask.get("d")?.as_object()?.clone(),
        };
        reasks.insert(key.clone(), reask);
    }
    Some(RoundState {
        asked: asked.into(),
        answers,
        url_flows: url_flows.into(),
        round,
        reasks,
    })
}

/// The members of the object under `key`; none when it is absent or not an object.
fn entries<'a>(
    object: &'a serde_json::Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = (&'a String, &'a Value)> {
    object
        .get(key)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

/// The input is the `params` of a `tools/call`. A `requestState` given as JSON rather than a
/// string is the payload of a state sealed now for this very request (the fuzzer cannot forge
/// a sealed one); a string is used as is.
///
/// The state a round seals opens for the client's retry of the same call, and, the server
/// having a replay guard, only once.
pub fn context_round(data: &[u8]) {
    let Ok(mut params) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let server = server();
    if seal_given_state(&server, &mut params).is_none() {
        return;
    }
    let Some(Ok(Some(state))) = round(&server, &params) else {
        return;
    };
    params["requestState"] = Value::String(state);
    let retry = round(&server, &params);
    assert!(retry.is_some(), "the retry's own state is refused");
    // Every round asks for the booking first, which redeems the state: the same state again
    // is a replay.
    let replay = round(&server, &params);
    assert_eq!(replay, Some(Err(INVALID_PARAMS)), "a replayed state");
}
