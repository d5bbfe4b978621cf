//! What ties a provider's callback to the browser that confirmed and to its flow: a random
//! nonce in a cookie of this origin (beside those of the browser's other flows under way), and the OAuth `state`, sealed with the server's keys over
//! the flow's handle and PKCE verifier, bound to the provider, the browser's user and that
//! nonce. A callback from another browser (login CSRF: an attacker's code sent to the victim's
//! browser), for another user, replayed, or after expiry opens nothing.

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
/// this user and one of this browser's `nonces`, has not expired, and was not used before (the
/// sealer's replay guard).
pub(super) async fn open<'n>(
    sealer: &StateSealer,
    provider: &str,
    user: &str,
    nonces: &[&'n str],
    state: &str,
) -> Result<(Started, &'n str), String> {
    let bound = |nonce: &str| binding(provider, user, nonce);
    redeem_for_any(sealer, nonces, state, bound).await
}

/// The payload of `state` and the nonce it is bound to, if `binding` of one of `nonces`
/// opens it, and it was not used before (the sealer's replay guard): the check of every
/// callback that comes back to the browser that started its flow.
pub(super) async fn redeem_for_any<'a, 'n, P: serde::de::DeserializeOwned>(
    sealer: &StateSealer,
    nonces: &[&'n str],
    state: &str,
    binding: impl Fn(&str) -> Binding<'a>,
) -> Result<(P, &'n str), String> {
    let mut refused = "no nonce cookie".to_owned();
    for nonce in nonces {
        match sealer.open_now::<P>(state, &binding(nonce)) {
            Ok(opened) => {
                sealer
                    .redeem(&opened, std::time::SystemTime::now())
                    .await
                    .map_err(|e| e.reason().to_owned())?;
                return Ok((opened.payload, nonce));
            }
            Err(e) => refused = e.reason().to_owned(),
        }
    }
    Err(refused)
}

/// The cookie that holds the browser's nonces (`__Host-elicit_oauth` over https).
pub(super) fn nonce_cookie(secure: bool) -> NonceCookie {
    NonceCookie(RouteCookie::new(
        "elicit_oauth",
        "__Host-elicit_oauth",
        secure,
    ))
}
