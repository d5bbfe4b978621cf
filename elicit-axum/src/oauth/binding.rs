//! What ties a provider's callback to the browser that confirmed and to its flow: a random
//! nonce in a cookie of this origin (beside those of the browser's other flows under way), and the OAuth `state`, sealed with the server's keys over
//! the flow's handle and PKCE verifier, bound to the provider, the browser's user and that
//! nonce. A callback from another browser (login CSRF: an attacker's code sent to the victim's
//! browser), for another user, replayed, or after expiry opens nothing.

use http::request::Parts;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::nonces::NonceCookie;
use crate::cookie::RouteCookie;
use elicit_runtime::state::{Binding, StateSealer, args_digest};

/// The method a sealed `state` is bound to: no MCP request has it.
const METHOD: &str = "oauth/callback";

/// What the sealed `state` carries.
#[derive(Serialize, Deserialize)]
pub(super) struct Started {
    /// The flow's handle, to open it again on the callback.
    #[serde(rename = "h")]
    pub handle: String,
    /// The PKCE verifier the code is traded with.
    #[serde(rename = "v")]
    pub verifier: String,
}

/// The binding of a `state` for `provider`, `user` and the browser's `nonce`.
fn binding<'a>(provider: &'a str, user: &'a str, nonce: &str) -> Binding<'a> {
    Binding {
        method: METHOD,
        target: provider,
        args_digest: args_digest(&json!(nonce)),
        principal: Some(user),
    }
}

/// The sealed `state` for a flow started by `user` in the browser holding `nonce`.
pub(super) fn seal(
    sealer: &StateSealer,
    provider: &str,
    user: &str,
    nonce: &str,
    started: &Started,
) -> Result<String, String> {
    sealer
        .seal_now(&binding(provider, user, nonce), started)
        .map_err(|e| e.to_string())
}

/// The flow `state` started and the nonce it is bound to, if it was sealed for this provider,
/// this user and one of the nonces of this browser's `cookie`, has not expired, and was not
/// used before (the sealer's replay guard).
pub(super) async fn open<'p>(
    sealer: &StateSealer,
    provider: &str,
    user: &str,
    cookie: NonceCookie,
    parts: &'p Parts,
    state: &str,
) -> Result<(Started, &'p str), String> {
    let bound = |nonce: &str| binding(provider, user, nonce);
    cookie.redeem(parts, sealer, state, bound).await
}

/// The cookie that holds the browser's nonces (`__Host-elicit_oauth` over https).
pub(super) fn nonce_cookie(secure: bool) -> NonceCookie {
    NonceCookie::new(RouteCookie::new(
        "elicit_oauth",
        "__Host-elicit_oauth",
        secure,
    ))
}
