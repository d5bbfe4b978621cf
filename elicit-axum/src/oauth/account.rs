//! Whose account a token is: the provider's account endpoint (GitHub's `/user`, an OpenID
//! Connect userinfo endpoint), asked once after the code exchange; and any JSON document of the
//! provider's (an issuer's metadata).

use ::axum::body::Bytes;
use http::{HeaderValue, Request, header};
use http_body_util::Full;
use serde_json::Value;

use super::client::ProviderClient;

/// What the flow fails with when the endpoint gives no account (the details go to the log).
pub(super) const NO_ACCOUNT: &str = "the provider did not say whose account this is";

impl ProviderClient {
    /// Whose account `token` is: the JSON object `provider`'s account endpoint `url` (GitHub's
    /// `/user`, an OpenID Connect userinfo endpoint) answers for it. Why not goes to the log,
    /// and the error is the one plain reason the flow fails with, "the provider did not say
    /// whose account this is".
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = elicit_axum::__private::ProviderClient::new()?;
    /// let me = client.account("github", "https://api.github.com/user", "gho_token").await?;
    /// println!("{}", me["login"]);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn account(&self, provider: &str, url: &str, token: &str) -> Result<Value, String> {
        self.get_json(url, Some(token)).await.map_err(|why| {
            tracing::warn!(target: "elicit", provider = %provider.escape_debug(), error = %why.escape_debug(), "OAuth account endpoint gave no account");
            NO_ACCOUNT.to_owned()
        })
    }

    /// The JSON object `url` answers a `GET` with (with `token` as a bearer token, if any), or
    /// why not: a success status, within the client's bounds (no redirects, 64 KiB, 10 s).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = elicit_axum::__private::ProviderClient::new()?;
    /// let metadata = client
    ///     .get_json("https://auth.example.com/.well-known/openid-configuration", None)
    ///     .await?;
    /// println!("{}", metadata["token_endpoint"]);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get_json(&self, url: &str, token: Option<&str>) -> Result<Value, String> {
        let mut request = Request::get(url)
            .header(header::ACCEPT, "application/json")
            .header(header::USER_AGENT, super::client::USER_AGENT);
        if let Some(token) = token {
            let mut bearer = HeaderValue::try_from(format!("Bearer {token}"))
                .map_err(|_| "a token that is not a header value".to_owned())?;
            bearer.set_sensitive(true);
            request = request.header(header::AUTHORIZATION, bearer);
        }
        let request = request
            .body(Full::new(Bytes::new()))
            .map_err(|e| format!("the request: {e}"))?;
        let answer = self.send(request).await?;
        let status = answer.status;
        if !status.is_success() {
            return Err(format!("status {status}"));
        }
        match serde_json::from_slice::<Value>(&answer.body) {
            Ok(object) if object.is_object() => Ok(object),
            Ok(_) => Err("not a JSON object".to_owned()),
            Err(e) => Err(format!("not JSON: {e}")),
        }
    }
}
