//! Who is calling: a bearer token on the MCP endpoint, a signed-in session in the browser.
//!
//! Both stand in for your identity provider. The MCP client sends `Authorization: Bearer …`,
//! which elicit-axum's `BearerAuth` checks with [`Accounts`]' `VerifyToken`. The browser that
//! opens a connect link is signed in to this app (a session cookie set by `/signin`), and the
//! OAuth hook's `subject` reads that session: the flow goes on only when both are the same
//! user.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Form, State};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use elicit_axum::bearer::{Authenticated, VerifyToken};
use serde::Deserialize;

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

    /// The signed-in user of the browser that sent `parts`, or the sign-in page (which
    /// comes back to the link once signed in).
    #[allow(clippy::result_large_err)] // what `OAuthHook::subject` returns
    pub fn browser_user(&self, parts: &Parts) -> Result<String, Response> {
        let session = cookie(parts, "session");
        let user = session.and_then(|s| self.sessions.lock().unwrap().get(s).cloned());
        user.ok_or_else(|| sign_in_first(parts))
    }
}

/// The MCP endpoint's token check (elicit-axum's `BearerAuth` calls it on each request).
impl VerifyToken for Accounts {
    async fn verify(&self, token: &str) -> Option<Authenticated> {
        self.user_of_token(token).map(Authenticated::new)
    }
}

/// The page for a browser that is not signed in: sign in, then back to the link.
fn sign_in_first(parts: &Parts) -> Response {
    let back = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let back = back
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    let page = format!(
        "<!doctype html><title>Sign in</title><p>Sign in to connect GitHub.</p>\
         <form method=post action=/signin><input type=hidden name=next value=\"{back}\">\
         <label>Access token <input name=token type=password></label><button>Sign in</button></form>"
    );
    (StatusCode::UNAUTHORIZED, Html(page)).into_response()
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

async fn signin(
    State(accounts): State<Accounts>,
    headers: HeaderMap,
    Form(form): Form<SignIn>,
) -> Response {
    // Only this app's own form signs a browser in (no login CSRF from another site).
    if !from_own_page(&headers) {
        return (StatusCode::FORBIDDEN, "sign in from this app's page").into_response();
    }
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
    // Plain http on loopback, for development; over https: `__Host-session=…; Secure`.
    let cookie = format!("session={session}; Path=/; HttpOnly; SameSite=Lax");
    let mut response = Redirect::to(&next).into_response();
    let cookie = HeaderValue::from_str(&cookie).expect("a uuid is a header value");
    response.headers_mut().insert(SET_COOKIE, cookie);
    response
}

/// Whether a `POST` comes from this app's own page: `Sec-Fetch-Site: same-origin`, or, from
/// a browser that sends none, an `Origin` whose host is the request's `Host`.
fn from_own_page(headers: &HeaderMap) -> bool {
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    match (header("sec-fetch-site"), header("origin"), header("host")) {
        (Some(site), _, _) => site == "same-origin",
        (None, Some(origin), Some(host)) => {
            origin.split_once("://").is_some_and(|(_, o)| o == host)
        }
        _ => false,
    }
}

/// A cookie of the request, by name.
fn cookie<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    let cookies = parts.headers.get("cookie")?.to_str().ok()?;
    cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
}
