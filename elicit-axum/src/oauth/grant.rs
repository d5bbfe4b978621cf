//! The authorization code grant with PKCE, as the client sends it (RFC 6749 §4.1, RFC 7636
//! with `S256`): the authorize URL the browser is sent to, and the code traded for a token at
//! the token endpoint.
//!
//! The token request is a `POST` of `grant_type=authorization_code`, the code, the redirect URL
//! and the PKCE verifier, with the client's credentials by HTTP Basic auth (each
//! form-urlencoded first, RFC 6749 §2.3.1) or, for providers that want them there, in the body.
//! Its answer counts only as `200` with a JSON object (`Content-Type` `application/json`, or
//! none) holding `access_token` and `token_type`; anything else (a provider's error, a redirect,
//! an answer over 64 KiB or later than 10 s) fails the flow with one plain reason, the details
//! going to the log.

use axum::body::Bytes;
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body_util::Full;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::client::Http;
use super::{OAuthProvider, OAuthToken};

/// What the flow fails with when the token endpoint issues no token (the details go to the log).
pub(super) const NO_TOKEN: &str = "the provider did not issue a token";

/// A flow's PKCE pair: the verifier the server keeps (sealed in `state`), and its `S256`
/// challenge, which the browser carries to the provider.
pub(super) struct Pkce {
    pub(super) verifier: String,
    pub(super) challenge: String,
}

impl Pkce {
    /// A fresh pair: 32 random bytes, base64url (43 characters, RFC 7636 §4.1), and the
    /// base64url of the verifier's SHA-256.
    pub(super) fn new() -> Result<Pkce, String> {
        let verifier = random_text::<32>()?;
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        Ok(Pkce {
            verifier,
            challenge,
        })
    }
}

/// `N` bytes from the operating system's generator, base64url: nonces and PKCE verifiers.
pub(super) fn random_text<const N: usize>() -> Result<String, String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// `provider`'s authorize URL for a flow: its own query kept, then `response_type=code`, the
/// client id, `state`, the PKCE `challenge` (`S256`), the redirect URL and `scopes`
/// (space-separated, when there are any).
pub(super) fn authorize_url(
    provider: &OAuthProvider,
    state: &str,
    challenge: &str,
    scopes: impl Iterator<Item = String>,
) -> String {
    let base = provider.authorize_url.split('#').next().unwrap_or_default();
    let mut query = form_urlencoded::Serializer::new(String::new());
    query
        .append_pair("response_type", "code")
        .append_pair("client_id", &provider.client_id)
        .append_pair("state", state)
        .append_pair("code_challenge", challenge)
        .append_pair("code_challenge_method", "S256");
    if let Some(redirect) = &provider.redirect_url {
        query.append_pair("redirect_uri", redirect);
    }
    let scopes = scopes.collect::<Vec<_>>().join(" ");
    if !scopes.is_empty() {
        query.append_pair("scope", &scopes);
    }
    let joint = match base.split_once('?') {
        None => "?",
        Some((_, "")) => "",
        Some((_, own)) if own.ends_with('&') => "",
        Some(_) => "&",
    };
    format!("{base}{joint}{}", query.finish())
}

/// The code traded for a token at `provider`'s token endpoint, with the PKCE verifier; why
/// not goes to the log, and the flow fails with [`NO_TOKEN`].
pub(super) async fn exchange(
    provider: &OAuthProvider,
    http: &Http,
    code: &str,
    verifier: &str,
) -> Result<OAuthToken, String> {
    let answer = async {
        let answer = http.send(token_request(provider, code, verifier)?).await?;
        token_from(answer.status, &answer.headers, &answer.body)
    };
    answer.await.map_err(|why| {
        tracing::warn!(target: "elicit", provider = %provider.name.escape_debug(), error = %why.escape_debug(), "OAuth code exchange failed");
        NO_TOKEN.to_owned()
    })
}

/// The token request for `code` (RFC 6749 §4.1.3, RFC 7636 §4.5).
fn token_request(
    provider: &OAuthProvider,
    code: &str,
    verifier: &str,
) -> Result<Request<Full<Bytes>>, String> {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("grant_type", "authorization_code")
        .append_pair("code", code)
        .append_pair("code_verifier", verifier);
    if let Some(redirect) = &provider.redirect_url {
        form.append_pair("redirect_uri", redirect);
    }
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(&provider.token_url)
        .header(header::ACCEPT, "application/json")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::USER_AGENT, super::account::USER_AGENT);
    match &provider.client_secret {
        Some(secret) if !provider.credentials_in_body => {
            let encoded =
                |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
            let pair = format!("{}:{}", encoded(&provider.client_id), encoded(secret));
            let mut basic = HeaderValue::try_from(format!("Basic {}", STANDARD.encode(pair)))
                .map_err(|e| e.to_string())?;
            basic.set_sensitive(true);
            request = request.header(header::AUTHORIZATION, basic);
        }
        secret => {
            form.append_pair("client_id", &provider.client_id);
            if let Some(secret) = secret {
                form.append_pair("client_secret", secret);
            }
        }
    }
    request
        .body(Full::new(Bytes::from(form.finish())))
        .map_err(|e| format!("the token request: {e}"))
}

/// A successful token response (RFC 6749 §5.1); members not read are ignored.
#[derive(Deserialize)]
struct Issued {
    access_token: String,
    token_type: String,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    scope: Option<String>,
}

/// An error response (RFC 6749 §5.2), for the log.
#[derive(Deserialize)]
struct Refused {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The token the token endpoint's answer holds, or why there is none.
fn token_from(
    status: StatusCode,
    headers: &http::HeaderMap,
    body: &[u8],
) -> Result<OAuthToken, String> {
    if status != StatusCode::OK {
        return Err(match serde_json::from_slice::<Refused>(body) {
            Ok(refused) => match refused.error_description {
                Some(description) => format!("status {status}: {} ({description})", refused.error),
                None => format!("status {status}: {}", refused.error),
            },
            Err(_) => format!("status {status}"),
        });
    }
    if let Some(kind) = headers.get(header::CONTENT_TYPE) {
        let json = kind
            .to_str()
            .is_ok_and(|kind| kind.to_ascii_lowercase().starts_with("application/json"));
        if !json {
            return Err(format!(
                "a token response of Content-Type {kind:?}, not application/json"
            ));
        }
    }
    // GitHub answers a refused code with `200` and an error object.
    if let Ok(refused) = serde_json::from_slice::<Refused>(body) {
        return Err(format!("status {status}: {}", refused.error));
    }
    let issued =
        serde_json::from_slice::<Issued>(body).map_err(|e| format!("not a token response: {e}"))?;
    if issued.access_token.is_empty() {
        return Err("an empty access_token".to_owned());
    }
    Ok(OAuthToken {
        access_token: issued.access_token,
        // Case-insensitive (RFC 6749 §5.1): `Bearer` and `bearer` are one type.
        token_type: issued.token_type.to_ascii_lowercase(),
        refresh_token: issued.refresh_token,
        expires_in: issued.expires_in.map(std::time::Duration::from_secs),
        scopes: issued.scope.map(|scope| {
            scope
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        }),
    })
}

#[cfg(test)]
mod tests {
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
        assert_eq!(
            authorize_url(&github(), "st ate", "chal", scopes.into_iter()),
            "https://github.com/login/oauth/authorize?allow_signup=false&response_type=code&client_id=id%2B1&state=st+ate&code_challenge=chal&code_challenge_method=S256&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback&scope=repo+read%3Auser"
        );
        let plain = OAuthProvider::new("p", "https://p.example/auth#x", "https://p.example/t", "c");
        assert_eq!(
            authorize_url(&plain, "s", "c", std::iter::empty()),
            "https://p.example/auth?response_type=code&client_id=c&state=s&code_challenge=c&code_challenge_method=S256"
        );
    }

    #[test]
    fn the_pkce_challenge_is_the_verifiers_sha256() {
        let pkce = Pkce::new().unwrap();
        assert_eq!(pkce.verifier.len(), 43);
        assert_eq!(
            pkce.challenge,
            URL_SAFE_NO_PAD.encode(Sha256::digest(pkce.verifier.as_bytes()))
        );
        assert_ne!(pkce.verifier, Pkce::new().unwrap().verifier);
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn the_credentials_go_by_basic_auth_each_form_encoded_or_in_the_body() {
        let request = token_request(&github(), "the code", "v").unwrap();
        assert_eq!(request.method(), Method::POST);
        assert_eq!(request.uri(), "https://github.com/login/oauth/access_token");
        let basic = request.headers()[header::AUTHORIZATION].to_str().unwrap();
        assert_eq!(
            basic,
            format!("Basic {}", STANDARD.encode("id%2B1:se+cret%3A"))
        );
        assert_eq!(
            request.headers()[header::CONTENT_TYPE],
            "application/x-www-form-urlencoded"
        );
        assert_eq!(
            body(request),
            "grant_type=authorization_code&code=the+code&code_verifier=v&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback"
        );
        let in_body = token_request(&github().with_credentials_in_body(), "c", "v").unwrap();
        assert!(!in_body.headers().contains_key(header::AUTHORIZATION));
        assert!(body(in_body).ends_with("&client_id=id%2B1&client_secret=se+cret%3A"));
    }

    fn body(request: Request<Full<Bytes>>) -> String {
        use http_body_util::BodyExt as _;
        let bytes = pollster::block_on(request.into_body().collect())
            .unwrap()
            .to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn only_a_200_json_token_response_gives_a_token() {
        let json = |kind: &str| {
            let mut headers = http::HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(kind).unwrap());
            headers
        };
        let ok = json("application/json; charset=utf-8");
        let token = token_from(
            StatusCode::OK,
            &ok,
            br#"{"access_token":"t","token_type":"Bearer","expires_in":3600,"scope":"repo gist","refresh_token":"r"}"#,
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
        let refused = |status, headers: &http::HeaderMap, body: &[u8]| {
            token_from(status, headers, body).unwrap_err()
        };
        assert_eq!(
            refused(
                StatusCode::BAD_REQUEST,
                &ok,
                br#"{"error":"invalid_grant","error_description":"bad code"}"#
            ),
            "status 400 Bad Request: invalid_grant (bad code)"
        );
        assert_eq!(
            refused(StatusCode::OK, &ok, br#"{"error":"bad_verification_code"}"#),
            "status 200 OK: bad_verification_code"
        );
        assert_eq!(refused(StatusCode::FOUND, &ok, b""), "status 302 Found");
        assert_eq!(
            refused(
                StatusCode::OK,
                &json("text/html"),
                br#"{"access_token":"t","token_type":"bearer"}"#
            ),
            "a token response of Content-Type \"text/html\", not application/json"
        );
        assert!(
            refused(StatusCode::OK, &ok, br#"{"token_type":"bearer"}"#)
                .starts_with("not a token response: missing field `access_token`")
        );
        assert_eq!(
            refused(
                StatusCode::OK,
                &ok,
                br#"{"access_token":"","token_type":"bearer"}"#
            ),
            "an empty access_token"
        );
    }
}
