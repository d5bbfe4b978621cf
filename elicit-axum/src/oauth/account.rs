//! Whose account a token is: the provider's account endpoint (GitHub's `/user`, an OpenID
//! Connect userinfo endpoint), asked once after the code exchange.

use oauth2::reqwest::header::{ACCEPT, USER_AGENT};
use serde_json::Value;

/// The most of an account answer read: a user object is a few KiB.
const LIMIT: usize = 64 * 1024;

/// What the flow fails with when the endpoint gives no account (the details go to the log).
pub(super) const NO_ACCOUNT: &str = "the provider did not say whose account this is";

/// The JSON object `url` answers for `token`, over `http` (no redirects, its timeout).
pub(super) async fn fetch(
    http: &oauth2::reqwest::Client,
    provider: &str,
    url: &str,
    token: &str,
) -> Result<Value, String> {
    get_json(http, url, Some(token)).await.map_err(|why| {
        tracing::warn!(target: "elicit", provider = %provider.escape_debug(), error = %why.escape_debug(), "OAuth account endpoint gave no account");
        NO_ACCOUNT.to_owned()
    })
}

/// The JSON object `url` answers (with `token` as a bearer token, if any), or why not: at most
/// [`LIMIT`] bytes, a success status, no redirects (the client follows none).
pub(super) async fn get_json(
    http: &oauth2::reqwest::Client,
    url: &str,
    token: Option<&str>,
) -> Result<Value, String> {
    let mut request = http
        .get(url)
        .header(ACCEPT, "application/json")
        // GitHub's API refuses a request without one.
        .header(
            USER_AGENT,
            concat!("elicit-axum/", env!("CARGO_PKG_VERSION")),
        );
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let mut response = request
        .send()
        .await
        .map_err(|e| e.without_url().to_string())?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("status {status}"));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| e.without_url().to_string())?
    {
        if body.len() + chunk.len() > LIMIT {
            return Err(format!("an answer over {LIMIT} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(object) if object.is_object() => Ok(object),
        Ok(_) => Err("not a JSON object".to_owned()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}
