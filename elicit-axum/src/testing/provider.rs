//! A stand-in OAuth provider for tests: GitHub's and Google's endpoints (authorize with a
//! consent page, the token endpoint checking the client, the code, its redirect URL and the
//! PKCE verifier, the account endpoint), served on loopback for the server's token exchange
//! and in process for the test browser.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ::axum::Router;
use ::axum::body::Body;
use ::axum::extract::Request;
use ::axum::response::{IntoResponse, Redirect, Response};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use http::{HeaderValue, Method, StatusCode, header};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::oauth::OAuthProvider;

/// The paths the stand-in serves: GitHub's, then Google's (the same handlers).
const AUTHORIZE: [&str; 2] = ["/login/oauth/authorize", "/o/oauth2/v2/auth"];
const TOKEN: [&str; 2] = ["/login/oauth/access_token", "/token"];
const ACCOUNT: [&str; 2] = ["/user", "/v1/userinfo"];

/// A stand-in OAuth 2.0 provider, for tests only: it serves the endpoints of
/// [`OAuthProvider::github`] and [`OAuthProvider::google`] (their paths, on a loopback port),
/// so [`github`](StandInProvider::github) and [`google`](StandInProvider::google) are the ready
/// providers pointed at it ([`OAuthProvider::stand_in_at`]) and an OAuth connection's whole
/// path runs in a test: the link, the landing page's Confirm, this provider's consent page
/// (**Authorize** or **Deny**, in the test [`Browser`](super::Browser), which reaches it through
/// [`router`](StandInProvider::router)), the callback, the code traded for a token (by your
/// server, over loopback), the account endpoint, and your hook keeping the token.
///
/// Its token endpoint answers only the registered client
/// ([`CLIENT_ID`](StandInProvider::CLIENT_ID), [`CLIENT_SECRET`](StandInProvider::CLIENT_SECRET),
/// by HTTP Basic or in the body), for a code it issued (once), with the same redirect URL and
/// the verifier of the code's PKCE challenge (S256), as a real provider does; what it issued
/// is in [`issued`](StandInProvider::issued).
#[derive(Clone)]
pub struct StandInProvider {
    origin: String,
    state: Arc<State>,
}

impl std::fmt::Debug for StandInProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StandInProvider")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

/// One access token the stand-in issued ([`StandInProvider::issued`]): the module's tests
/// and the guide's testing chapter read it after a flow.
///
/// ```
/// use elicit_axum::testing::Issued;
///
/// let issued = Issued { access_token: "stand-in-token-1".into(), scopes: vec!["repo".into()] };
/// assert_eq!(issued.scopes, ["repo"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// The access token.
    pub access_token: String,
    /// The scopes it was asked (and granted) for.
    pub scopes: Vec<String>,
}

struct State {
    account: Mutex<Value>,
    /// Codes issued and not yet traded: the challenge, the redirect URL, the scopes.
    codes: Mutex<HashMap<String, Grant>>,
    issued: Mutex<Vec<Issued>>,
    /// Every token request's form, as sent.
    requests: Mutex<Vec<Vec<(String, String)>>>,
}

struct Grant {
    challenge: String,
    redirect_uri: String,
    scopes: Vec<String>,
}

impl StandInProvider {
    /// The client id the stand-in knows.
    pub const CLIENT_ID: &'static str = "stand-in-client";
    /// That client's secret.
    pub const CLIENT_SECRET: &'static str = "stand-in-secret";

    /// The stand-in, served on a fresh loopback port on the current tokio runtime, its account
    /// `{"login": "octocat", "id": 1, "sub": "1", "email": "octocat@example.com"}` (GitHub's
    /// `/user` and an OpenID Connect userinfo in one).
    ///
    /// # Panics
    ///
    /// Outside a tokio runtime, or if no loopback port can be bound.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// assert!(provider.origin().starts_with("http://127.0.0.1:"));
    /// # });
    /// ```
    pub async fn start() -> Self {
        let state = Arc::new(State {
            account: Mutex::new(json!({
                "login": "octocat", "id": 1, "sub": "1", "email": "octocat@example.com"
            })),
            codes: Mutex::default(),
            issued: Mutex::default(),
            requests: Mutex::default(),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("the stand-in provider could not bind loopback: {e}"));
        let address = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("the stand-in provider's address: {e}"));
        let provider = StandInProvider {
            origin: format!("http://{address}"),
            state,
        };
        let app = provider.router();
        tokio::spawn(async move { ::axum::serve(listener, app).await });
        provider
    }

    /// Whose account the person signs in with: what the account endpoint answers.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await
    ///     .with_account(serde_json::json!({"login": "hubot", "id": 2}));
    /// # let _ = provider;
    /// # });
    /// ```
    pub fn with_account(self, account: Value) -> Self {
        *lock(&self.state.account) = account;
        self
    }

    /// Where it is served: `http://127.0.0.1:<port>`.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// assert!(provider.origin().starts_with("http://127.0.0.1:"));
    /// # });
    /// ```
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Its endpoints as a router, for the test browser
    /// ([`Browser::site`](super::Browser::site)`(provider.origin(), provider.router())`).
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use elicit_axum::testing::Browser;
    /// let provider = StandInProvider::start().await;
    /// # let app = axum::Router::new();
    /// let browser = Browser::new("http://127.0.0.1:8765", app)
    ///     .site(provider.origin(), provider.router());
    /// # let _ = browser;
    /// # });
    /// ```
    pub fn router(&self) -> Router {
        let state = Arc::clone(&self.state);
        let serve = move |request: Request| {
            let state = Arc::clone(&state);
            async move { state.serve(request).await }
        };
        let mut router = Router::new();
        for path in AUTHORIZE.iter().chain(&TOKEN).chain(&ACCOUNT) {
            router = router.route(
                path,
                ::axum::routing::get(serve.clone()).post(serve.clone()),
            );
        }
        router
    }

    /// [`OAuthProvider::github`] with the stand-in's client, pointed at it.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// let github = provider.github();
    /// assert_eq!(github.name(), "github");
    /// # });
    /// ```
    pub fn github(&self) -> OAuthProvider {
        OAuthProvider::github(Self::CLIENT_ID, Self::CLIENT_SECRET).stand_in_at(&self.origin)
    }

    /// [`OAuthProvider::google`] with the stand-in's client and its userinfo endpoint, pointed
    /// at it.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// assert_eq!(provider.google().name(), "google");
    /// # });
    /// ```
    pub fn google(&self) -> OAuthProvider {
        OAuthProvider::google(Self::CLIENT_ID, Self::CLIENT_SECRET)
            .with_account_url("https://openidconnect.googleapis.com/v1/userinfo")
            .stand_in_at(&self.origin)
    }

    /// Every access token it issued, in order.
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// assert!(provider.issued().is_empty()); // nothing until a code is traded
    /// # });
    /// ```
    pub fn issued(&self) -> Vec<Issued> {
        lock(&self.state.issued).clone()
    }

    /// Every token request's form fields, as your server sent them (`grant_type`, `code`,
    /// `redirect_uri`, `code_verifier`, and the credentials when they go in the body).
    ///
    /// ```
    /// # use elicit_axum::testing::StandInProvider;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = StandInProvider::start().await;
    /// assert!(provider.token_requests().is_empty());
    /// # });
    /// ```
    pub fn token_requests(&self) -> Vec<Vec<(String, String)>> {
        lock(&self.state.requests).clone()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl State {
    async fn serve(&self, request: Request) -> Response {
        let path = request.uri().path().to_owned();
        let method = request.method().clone();
        let query: Vec<(String, String)> = pairs(request.uri().query().unwrap_or_default());
        if AUTHORIZE.contains(&path.as_str()) {
            return if method == Method::POST {
                let body = body_pairs(request).await;
                self.decide(&query, &body)
            } else {
                self.consent(&query)
            };
        }
        if TOKEN.contains(&path.as_str()) && method == Method::POST {
            let basic = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let body = body_pairs(request).await;
            return self.token(basic.as_deref(), body);
        }
        if ACCOUNT.contains(&path.as_str()) {
            let bearer = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            let known =
                bearer.is_some_and(|t| lock(&self.issued).iter().any(|i| i.access_token == t));
            return if known {
                json_response(StatusCode::OK, &lock(&self.account))
            } else {
                json_response(
                    StatusCode::UNAUTHORIZED,
                    &json!({"message": "Bad credentials"}),
                )
            };
        }
        StatusCode::NOT_FOUND.into_response()
    }

    /// `GET` authorize: the consent page, if the request is one a provider would take.
    fn consent(&self, query: &[(String, String)]) -> Response {
        if let Err(reason) = authorization(query) {
            return page(
                StatusCode::BAD_REQUEST,
                "Stand-in provider: refused",
                &format!("<p>{reason}</p>"),
            );
        }
        let account = lock(&self.account).clone();
        let who = account["login"]
            .as_str()
            .or(account["email"].as_str())
            .unwrap_or("you");
        let scopes = get(query, "scope").unwrap_or_default();
        let main = format!(
            "<p>Signed in as {who}.</p><p>{client} asks for access to your account (scopes: {scopes}).</p>\
             <form method=\"post\"><button type=\"submit\" name=\"decision\" value=\"authorize\" class=\"confirm\">Authorize</button>\
             <button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button></form>",
            who = escape(who),
            client = escape(get(query, "client_id").unwrap_or_default()),
            scopes = escape(if scopes.is_empty() { "none" } else { scopes }),
        );
        page(StatusCode::OK, "Authorize the application", &main)
    }

    /// `POST` authorize: back to the app with a code (or `access_denied`) and the `state`.
    fn decide(&self, query: &[(String, String)], body: &[(String, String)]) -> Response {
        let (redirect_uri, challenge) = match authorization(query) {
            Ok(found) => found,
            Err(reason) => {
                return page(
                    StatusCode::BAD_REQUEST,
                    "Stand-in provider: refused",
                    &format!("<p>{reason}</p>"),
                );
            }
        };
        let mut back = form_urlencoded::Serializer::new(String::new());
        if get(body, "decision") == Some("authorize") {
            let code = format!("stand-in-code-{}", random());
            let scopes = get(query, "scope")
                .unwrap_or_default()
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            lock(&self.codes).insert(
                code.clone(),
                Grant {
                    challenge: challenge.to_owned(),
                    redirect_uri: redirect_uri.to_owned(),
                    scopes,
                },
            );
            back.append_pair("code", &code);
        } else {
            back.append_pair("error", "access_denied");
        }
        back.append_pair("state", get(query, "state").unwrap_or_default());
        let separator = if redirect_uri.contains('?') { '&' } else { '?' };
        Redirect::to(&format!("{redirect_uri}{separator}{}", back.finish())).into_response()
    }

    /// The token endpoint.
    fn token(&self, basic: Option<&str>, form: Vec<(String, String)>) -> Response {
        lock(&self.requests).push(form.clone());
        let refuse = |error: &str| json_response(StatusCode::BAD_REQUEST, &json!({"error": error}));
        let client = match basic.and_then(|b| b.strip_prefix("Basic ")) {
            Some(encoded) => STANDARD
                .decode(encoded)
                .ok()
                .and_then(|raw| String::from_utf8(raw).ok())
                .and_then(|pair| {
                    let (id, secret) = pair.split_once(':')?;
                    Some((decoded(id), decoded(secret)))
                }),
            None => Some((
                get(&form, "client_id").unwrap_or_default().to_owned(),
                get(&form, "client_secret").unwrap_or_default().to_owned(),
            )),
        };
        if client
            != Some((
                StandInProvider::CLIENT_ID.into(),
                StandInProvider::CLIENT_SECRET.into(),
            ))
        {
            return json_response(
                StatusCode::UNAUTHORIZED,
                &json!({"error": "invalid_client"}),
            );
        }
        if get(&form, "grant_type") != Some("authorization_code") {
            return refuse("unsupported_grant_type");
        }
        let grant = get(&form, "code").and_then(|code| lock(&self.codes).remove(code));
        let Some(grant) = grant else {
            return refuse("invalid_grant");
        };
        let verified = get(&form, "code_verifier").is_some_and(|verifier| {
            URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == grant.challenge
        });
        if !verified || get(&form, "redirect_uri") != Some(grant.redirect_uri.as_str()) {
            return refuse("invalid_grant");
        }
        let access_token = format!("stand-in-token-{}", random());
        lock(&self.issued).push(Issued {
            access_token: access_token.clone(),
            scopes: grant.scopes.clone(),
        });
        json_response(
            StatusCode::OK,
            &json!({"access_token": access_token, "token_type": "bearer", "scope": grant.scopes.join(" ")}),
        )
    }
}

/// The redirect URL and the PKCE challenge of an authorization request a provider takes: the
/// stand-in's client, a code grant, S256, a state.
fn authorization(query: &[(String, String)]) -> Result<(&str, &str), &'static str> {
    if get(query, "response_type") != Some("code") {
        return Err("response_type must be code");
    }
    if get(query, "client_id") != Some(StandInProvider::CLIENT_ID) {
        return Err("unknown client_id");
    }
    if get(query, "code_challenge_method") != Some("S256") {
        return Err("PKCE with S256 is required");
    }
    if get(query, "state").is_none_or(str::is_empty) {
        return Err("no state");
    }
    let redirect = get(query, "redirect_uri").ok_or("no redirect_uri")?;
    let challenge = get(query, "code_challenge").ok_or("no code_challenge")?;
    Ok((redirect, challenge))
}

fn get<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    let mut found = pairs.iter().filter(|(n, _)| n == name);
    match (found.next(), found.next()) {
        (Some((_, value)), None) => Some(value),
        _ => None,
    }
}

fn pairs(text: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(text.as_bytes())
        .into_owned()
        .collect()
}

fn decoded(part: &str) -> String {
    pairs(&format!("x={part}"))
        .pop()
        .map(|(_, v)| v)
        .unwrap_or_default()
}

async fn body_pairs(request: Request) -> Vec<(String, String)> {
    let bytes = ::axum::body::to_bytes(request.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    pairs(&String::from_utf8_lossy(&bytes))
}

/// 128 random bits as hex, for codes and tokens.
fn random() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the OS generator: {e}"));
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    let mut response = (status, Body::from(value.to_string())).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn page(status: StatusCode, title: &str, main: &str) -> Response {
    let html = format!(
        "<!doctype html><html><head><title>{t}</title></head><body><main><h1>{t}</h1>{main}</main></body></html>",
        t = escape(title)
    );
    let mut response = (status, html).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

fn escape(text: &str) -> String {
    crate::html::Escaped(text).to_string()
}
