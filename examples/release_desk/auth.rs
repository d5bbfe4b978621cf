//! Who is calling: a bearer token on the MCP endpoint, a signed-in session in the browser.
//!
//! Both stand in for your identity provider. The MCP client sends `Authorization: Bearer …`;
//! the middleware puts the token's [`User`] into the request, where
//! `Principal::from_http_extension` reads it. The browser that opens a connect link is signed
//! in to this app (a session cookie set by `/signin`), and the OAuth hook's `subject` reads
//! that session: the flow goes on only when both are the same user.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Form, Request, State};
use axum::http::header::{AUTHORIZATION, SET_COOKIE, WWW_AUTHENTICATE};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

/// The user an access token belongs to: what the middleware leaves in the request.
#[derive(Clone, Debug)]
pub struct User(pub String);

/// Access tokens and browser sessions, by user.
#[derive(Clone, Default)]
pub struct Accounts {
    tokens: Arc<HashMap<String, String>>,
    sessions: Arc<Mutex<HashMap<String, String>>>,
}

impl Accounts {
    /// Accounts whose access tokens are `tokens` (token, user).
    pub fn new<'a>(tokens: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let tokens = tokens
            .into_iter()
            .map(|(token, user)| (token.to_owned(), user.to_owned()));
        Accounts {
            tokens: Arc::new(tokens.collect()),
            sessions: Arc::default(),
        }
    }

    fn user_of_token(&self, token: &str) -> Option<String> {
        self.tokens.get(token).cloned()
    }

    /// The signed-in user of the browser that sent `parts`.
    pub fn signed_in(&self, parts: &Parts) -> Option<String> {
        let session = cookie(parts, "session")?;
        self.sessions.lock().unwrap().get(session).cloned()
    }
}

/// The bearer-token middleware of the MCP endpoint: a request without a known token gets
/// `401` with `WWW-Authenticate: Bearer`, as the MCP authorization spec has it.
pub async fn bearer(
    State(accounts): State<Accounts>,
    mut request: Request,
    next: Next,
) -> Response {
    let token = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    match token.and_then(|token| accounts.user_of_token(token)) {
        Some(user) => {
            request.extensions_mut().insert(User(user));
            next.run(request).await
        }
        None => (
            StatusCode::UNAUTHORIZED,
            [(WWW_AUTHENTICATE, "Bearer")],
            "a bearer token is needed",
        )
            .into_response(),
    }
}

/// `/signin`: the browser's sign-in (a form taking the access token; your login page).
pub fn signin_routes(accounts: Accounts) -> Router {
    Router::new()
        .route("/signin", get(signin_page).post(signin))
        .with_state(accounts)
}

async fn signin_page() -> Html<&'static str> {
    Html(
        "<!doctype html><title>Sign in</title><form method=post>\
         <label>Access token <input name=token type=password></label>\
         <button>Sign in</button></form>",
    )
}

#[derive(Deserialize)]
struct SignIn {
    token: String,
    /// Where to go next: a path on this app (the connect link that sent the browser here).
    #[serde(default)]
    next: Option<String>,
}

async fn signin(State(accounts): State<Accounts>, Form(form): Form<SignIn>) -> Response {
    let Some(user) = accounts.user_of_token(&form.token) else {
        return (StatusCode::UNAUTHORIZED, "unknown token").into_response();
    };
    let session = uuid::Uuid::new_v4().to_string();
    accounts
        .sessions
        .lock()
        .unwrap()
        .insert(session.clone(), user);
    // Only a path on this app: never an open redirect.
    let next = form
        .next
        .filter(|next| next.starts_with('/') && !next.starts_with("//"))
        .unwrap_or_else(|| "/signin".to_owned());
    let cookie = format!("session={session}; Path=/; HttpOnly; SameSite=Lax");
    let mut response = Redirect::to(&next).into_response();
    let cookie = HeaderValue::from_str(&cookie).expect("a uuid is a header value");
    response.headers_mut().insert(SET_COOKIE, cookie);
    response
}

/// A cookie of the request, by name.
fn cookie<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    let cookies = parts.headers.get("cookie")?.to_str().ok()?;
    cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
}
