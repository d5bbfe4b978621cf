//! `context_round`: a request context built from arbitrary `tools/call` params, a handler
//! asking a form, a URL elicitation and the client's roots, and the round it ends in; then the
//! client's retry with the state that round sealed.

use serde_json::{Value, json};

use super::fixtures::{Booking, PRINCIPAL, block_on, connect_github, server};
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
    Some(match cx.finish(result) {
        Ok(Reply::Result(value)) => {
            let _ = serde_json::to_string(&value).expect("results serialize");
            Ok(None)
        }
        Ok(Reply::InputRequired(ask)) => {
            let _ = serde_json::to_string(&ask).expect("InputRequiredResult serializes");
            Ok(ask.request_state().map(str::to_owned))
        }
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
    let token = server.sealer().seal_now(&binding, payload).ok()?;
    params["requestState"] = Value::String(token);
    Some(())
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
