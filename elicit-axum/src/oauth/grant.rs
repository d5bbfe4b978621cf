//! The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636 with `S256`), by the
//! [`oauth2`] crate: the redirect that sends the browser to the authorize endpoint, and the
//! code traded for a token at the token endpoint, over our [`ProviderClient`] (its
//! `AsyncHttpClient`).
//!
//! What is ours is the glue: the provider's settings as an `oauth2` client, the token as
//! [`OAuthToken`], and one plain reason when there is none ([`NO_TOKEN`]: a provider's error,
//! GitHub's `200` with an error object, an answer that is not a JSON token response, a redirect,
//! an answer over 64 KiB or later than 10 s), the details going to the log.

use oauth2::basic::{BasicClient, BasicErrorResponse, BasicRequestTokenError};
use oauth2::{
    AsyncHttpClient, AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken,
    EndpointNotSet, EndpointSet, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
    TokenResponse, TokenUrl,
};

use ::axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use super::client::{Oauth2Client, ProviderClient};
use super::{OAuthProvider, OAuthToken};

/// What the flow fails with when the token endpoint issues no token (the details go to the log).
pub(super) const NO_TOKEN: &str = "the provider did not issue a token";

/// The provider's client, as `oauth2` types it: authorize and token endpoints set.
type Client = BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

/// `provider`'s client (its URLs were checked by `OAuthProvider::settle`): its credentials
/// by HTTP Basic auth, or in the body for providers that want them there.
fn client(provider: &OAuthProvider) -> Result<Client, String> {
    let mut client = BasicClient::new(ClientId::new(provider.client_id.clone()))
        .set_auth_uri(
            AuthUrl::new(provider.authorize_url.clone())
                .map_err(|e| format!("the authorize URL: {e}"))?,
        )
        .set_token_uri(
            TokenUrl::new(provider.token_url.clone()).map_err(|e| format!("the token URL: {e}"))?,
        );
    if let Some(redirect) = &provider.redirect_url {
        client = client.set_redirect_uri(
            RedirectUrl::new(redirect.clone()).map_err(|e| format!("the redirect URL: {e}"))?,
        );
    }
    if let Some(secret) = &provider.client_secret {
        client = client.set_client_secret(ClientSecret::new(secret.clone()));
    }
    if provider.credentials_in_body {
        client = client.set_auth_type(AuthType::RequestBody);
    }
    Ok(client)
}

/// `provider`'s authorize URL for a flow: its own query kept, then `response_type=code`, the
/// client id, `state`, the PKCE `challenge` (`S256`), the redirect URL and `scopes`.
fn authorize_url(
    provider: &OAuthProvider,
    state: &str,
    challenge: PkceCodeChallenge,
    scopes: impl Iterator<Item = String>,
) -> Result<String, String> {
    let state = CsrfToken::new(state.to_owned());
    let (url, _) = client(provider)?
        .authorize_url(|| state)
        .add_scopes(scopes.map(Scope::new))
        .set_pkce_challenge(challenge)
        .url();
    Ok(url.into())
}

impl ProviderClient {
    /// The authorization code `code` traded for a token at `provider`'s token endpoint, with
    /// the PKCE `verifier` the flow started with (its client credentials by HTTP Basic auth,
    /// or in the body: [`OAuthProvider::with_credentials_in_body`]). Why not goes to the log,
    /// and the error is the one plain reason the flow fails with, "the provider did not issue
    /// a token" (a provider's error, GitHub's `200` with an error object, an answer that is no
    /// JSON token response, a redirect, an answer over 64 KiB or later than 10 s).
    ///
    /// ```no_run
    /// # async fn run(provider: elicit_axum::oauth::OAuthProvider, code: &str, verifier: &str)
    /// #     -> Result<(), Box<dyn std::error::Error>> {
    /// let client = elicit_axum::__private::ProviderClient::new()?;
    /// let token = client.exchange(&provider, code, verifier).await?;
    /// println!("{:?}", token.scopes());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn exchange(
        &self,
        provider: &OAuthProvider,
        code: &str,
        verifier: &str,
    ) -> Result<OAuthToken, String> {
        let client = Oauth2Client(self.clone());
        trade(provider, &client, code, verifier).await.map_err(|why| {
            tracing::warn!(target: "elicit", provider = %provider.name.escape_debug(), error = %why.escape_debug(), "OAuth code exchange failed");
            NO_TOKEN.to_owned()
        })
    }
}

impl OAuthProvider {
    /// The redirect (`303`, `Cache-Control: no-store`) that sends the browser to this
    /// provider's authorize endpoint: the authorization code grant with `state`, the PKCE
    /// challenge (`S256`) of `verifier`, the redirect URL and `scopes`, setting `set_cookie`
    /// (the browser's nonces: [`NonceCookie`](super::NonceCookie)). How [`OAuth`](super::OAuth)
    /// starts a connection, and elicit-axum-auth's sign-in too (`crate::__private`): the
    /// verifier sealed into `state`, the code traded with it on the way back
    /// ([`ProviderClient::exchange`]).
    pub(crate) fn authorize_redirect(
        &self,
        state: &str,
        verifier: &str,
        scopes: impl IntoIterator<Item = String>,
        set_cookie: &str,
    ) -> Result<Response, String> {
        let verifier = PkceCodeVerifier::new(verifier.to_owned());
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&verifier);
        let authorize = authorize_url(self, state, challenge, scopes.into_iter())?;
        let location = HeaderValue::try_from(authorize)
            .map_err(|_| format!("the authorize URL of {} is not a header value", self.name))?;
        let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response();
        let headers = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(set_cookie) {
            headers.insert(header::SET_COOKIE, value);
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Ok(response)
    }
}

/// [`exchange`] through any of `oauth2`'s clients (the tests give it canned answers).
async fn trade<C: for<'c> AsyncHttpClient<'c>>(
    provider: &OAuthProvider,
    http: &C,
    code: &str,
    verifier: &str,
) -> Result<OAuthToken, String> {
    let client = client(provider)?;
    let issued = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .set_pkce_verifier(PkceCodeVerifier::new(verifier.to_owned()))
        .request_async(http)
        .await
        .map_err(|e| refusal(&e))?;
    let access_token = issued.access_token().secret();
    if access_token.is_empty() {
        return Err("an empty access_token".to_owned());
    }
    Ok(OAuthToken {
        access_token: access_token.clone(),
        // Case-insensitive (RFC 6749 §5.1): `Bearer` and `bearer` are one type.
        token_type: issued.token_type().as_ref().to_ascii_lowercase(),
        refresh_token: issued.refresh_token().map(|t| t.secret().clone()),
        expires_in: issued.expires_in(),
        scopes: issued
            .scopes()
            .map(|scopes| scopes.iter().map(|s| s.to_string()).collect()),
    })
}

/// Why the token endpoint gave no token, for the log: the provider's own words when it said
/// any (GitHub refuses a code with `200` and an error object, which `oauth2` reads as a token
/// response missing its `access_token`).
fn refusal<E: std::error::Error>(error: &BasicRequestTokenError<E>) -> String {
    match error {
        oauth2::RequestTokenError::ServerResponse(refused) => format!("refused: {refused}"),
        oauth2::RequestTokenError::Request(e) => e.to_string(),
        oauth2::RequestTokenError::Parse(e, body) => {
            match serde_json::from_slice::<BasicErrorResponse>(body) {
                Ok(refused) => format!("refused: {refused}"),
                Err(_) => format!("not a token response: {e}"),
            }
        }
        oauth2::RequestTokenError::Other(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use oauth2::{HttpRequest, HttpResponse};

    use super::*;

    fn github() -> OAuthProvider {
        OAuthProvider::new(
            "github",
            "https://github.com/login/oauth/authorize?allow_signup=false",
            "https://github.com/login/oauth/access_token",
            "id+1",
        )
        .with_client_secret("se cret:")
        .with_redirect_url("https://app.example.com/oauth/callback")
    }

    #[test]
    fn the_authorize_url_keeps_its_query_and_adds_the_flows() {
        let scopes = ["repo".to_owned(), "read:user".to_owned()];
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".to_owned(),
        ));
        assert_eq!(
            authorize_url(&github(), "st ate", challenge, scopes.into_iter()).unwrap(),
            // RFC 7636 appendix B's challenge.
            "https://github.com/login/oauth/authorize?allow_signup=false&response_type=code&client_id=id%2B1&state=st+ate&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback&scope=repo+read%3Auser"
        );
    }

    /// The token request `provider` sends for code `c`, and the token `answer` gives.
    fn trade_with(
        provider: &OAuthProvider,
        status: StatusCode,
        kind: &str,
        answer: &str,
    ) -> (HttpRequest, Result<OAuthToken, String>) {
        let sent = std::sync::Mutex::new(None);
        let http = |request: HttpRequest| {
            *sent.lock().unwrap() = Some(request);
            let mut response = HttpResponse::new(answer.as_bytes().to_vec());
            *response.status_mut() = status;
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_str(kind).unwrap());
            async { Ok::<_, Infallible>(response) }
        };
        let token = pollster::block_on(trade(provider, &http, "the code", &"v".repeat(43)));
        (sent.into_inner().unwrap().unwrap(), token)
    }

    const JSON: &str = "application/json; charset=utf-8";

    #[test]
    fn the_credentials_go_by_basic_auth_each_form_encoded_or_in_the_body() {
        use base64::Engine as _;
        let ok = r#"{"access_token":"t","token_type":"bearer"}"#;
        let (request, _) = trade_with(&github(), StatusCode::OK, JSON, ok);
        assert_eq!(request.method(), http::Method::POST);
        assert_eq!(request.uri(), "https://github.com/login/oauth/access_token");
        let basic = base64::engine::general_purpose::STANDARD.encode("id%2B1:se+cret%3A");
        assert_eq!(
            request.headers()[header::AUTHORIZATION],
            format!("Basic {basic}").as_str()
        );
        let body = String::from_utf8(request.body().clone()).unwrap();
        assert!(body.starts_with("grant_type=authorization_code&code=the+code"));
        assert!(body.contains(&format!("&code_verifier={}", "v".repeat(43))));
        assert!(body.contains("&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback"));
        assert!(!body.contains("client_"));
        let (in_body, _) = trade_with(
            &github().with_credentials_in_body(),
            StatusCode::OK,
            JSON,
            ok,
        );
        assert!(!in_body.headers().contains_key(header::AUTHORIZATION));
        let body = String::from_utf8(in_body.body().clone()).unwrap();
        assert!(body.contains("&client_id=id%2B1&client_secret=se+cret%3A"));
    }

    #[test]
    fn only_a_200_json_token_response_gives_a_token() {
        let answer = |status, kind, body| trade_with(&github(), status, kind, body).1;
        let token = answer(
            StatusCode::OK,
            JSON,
            r#"{"access_token":"t","token_type":"Bearer","expires_in":3600,"scope":"repo gist","refresh_token":"r"}"#,
        )
        .unwrap();
        assert_eq!(token.access_token(), "t");
        assert_eq!(token.token_type(), "bearer");
        assert_eq!(
            token.expires_in(),
            Some(std::time::Duration::from_secs(3600))
        );
        assert_eq!(
            token.scopes(),
            Some(&["repo".to_owned(), "gist".to_owned()][..])
        );
        assert_eq!(token.refresh_token(), Some("r"));
        let refused = |status, kind, body| answer(status, kind, body).unwrap_err();
        assert_eq!(
            refused(
                StatusCode::BAD_REQUEST,
                JSON,
                r#"{"error":"invalid_grant","error_description":"bad code"}"#
            ),
            "refused: invalid_grant: bad code"
        );
        // GitHub's refusal of a code.
        assert_eq!(
            refused(StatusCode::OK, JSON, r#"{"error":"bad_verification_code"}"#),
            "refused: bad_verification_code"
        );
        assert_eq!(
            refused(StatusCode::FOUND, JSON, ""),
            "server returned empty error response"
        );
        assert_eq!(
            refused(
                StatusCode::OK,
                "text/html",
                r#"{"access_token":"t","token_type":"bearer"}"#
            ),
            "unexpected response Content-Type: \"text/html\", should be `application/json`"
        );
        assert!(
            refused(StatusCode::OK, JSON, r#"{"token_type":"bearer"}"#)
                .starts_with("not a token response: missing field `access_token`")
        );
        assert_eq!(
            refused(
                StatusCode::OK,
                JSON,
                r#"{"access_token":"","token_type":"bearer"}"#
            ),
            "an empty access_token"
        );
    }
}
