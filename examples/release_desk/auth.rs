//! Who is calling: your identity provider, here a fake authorization server on loopback.
//!
//! It issues its users' access tokens. An MCP client sends one on `/mcp` (`Authorization:
//! Bearer alice-token`), which elicit-axum's `BearerAuth` checks with [`Issuer`]'s
//! `VerifyToken`. A browser signs in at its `/authorize` page through elicit-axum's `SignIn`
//! (the authorization code grant with PKCE, then `/userinfo`'s `sub`). Both name the same
//! user, so a connect link serves only the person whose MCP request made it. Your real one
//! (Keycloak, Auth0, Entra ID, …) is an `OAuthProvider` of its endpoints, as
//! [`Issuer::provider`] is of these.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Form, Query, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use elicit_axum::bearer::{Authenticated, VerifyToken};
use elicit_axum::oauth::OAuthProvider;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The release desk's registration at the issuer.
const CLIENT_ID: &str = "release-desk";
const CLIENT_SECRET: &str = "desk-secret";

/// The authorization server at `origin`: its users' access tokens, and the codes it gave.
#[derive(Clone)]
pub struct Issuer(Arc<Inner>);

struct Inner {
    origin: String,
    /// The desk's registered redirect URI: its `/signin/callback`.
    redirect_uri: String,
    /// Access token → user.
    tokens: HashMap<String, String>,
    /// Code → (the user's access token, the PKCE challenge). Each is traded once.
    codes: Mutex<HashMap<String, (String, String)>>,
}

impl Issuer {
    /// The issuer at `origin` of `tokens` (token, user), where the desk is registered with
    /// `redirect_uri`.
    pub fn new(origin: String, redirect_uri: String, tokens: &[(&str, &str)]) -> Self {
        let tokens = tokens.iter().map(|&(t, user)| (t.into(), user.into()));
        Issuer(Arc::new(Inner {
            origin,
            redirect_uri,
            tokens: tokens.collect(),
            codes: Mutex::default(),
        }))
    }

    /// The desk's registration here, for `SignIn`.
    pub fn provider(&self) -> OAuthProvider {
        let Inner { origin, .. } = &*self.0;
        OAuthProvider::new(
            "issuer",
            format!("{origin}/authorize"),
            format!("{origin}/token"),
            CLIENT_ID,
        )
        .with_client_secret(CLIENT_SECRET)
        .with_account_url(format!("{origin}/userinfo"))
        .with_redirect_url(&self.0.redirect_uri)
    }

    /// `/authorize` (the sign-in page and its form), `/token` and `/userinfo`.
    pub fn routes(&self) -> Router {
        Router::new()
            .route("/authorize", get(sign_in_page).post(signed_in))
            .route("/token", post(token))
            .route("/userinfo", get(userinfo))
            .with_state(self.clone())
    }

    fn user_of(&self, token: &str) -> Option<String> {
        self.0.tokens.get(token).cloned()
    }
}

/// The MCP endpoint's token check (elicit-axum's `BearerAuth` calls it on each request).
impl VerifyToken for Issuer {
    async fn verify(&self, token: &str) -> Option<Authenticated> {
        self.user_of(token).map(Authenticated::new)
    }
}

/// What `SignIn` sends the browser to `/authorize` with.
#[derive(Deserialize)]
struct Authorize {
    response_type: String,
    client_id: String,
    redirect_uri: String,
    state: String,
    code_challenge: String,
    code_challenge_method: String,
}

impl Authorize {
    /// A code grant with PKCE, for the desk, back to its registered redirect URI.
    fn is_the_desks(&self, issuer: &Issuer) -> bool {
        self.response_type == "code"
            && self.client_id == CLIENT_ID
            && self.redirect_uri == issuer.0.redirect_uri
            && self.code_challenge_method == "S256"
    }
}

/// The page where the person says who they are (a real issuer asks for a password, too).
async fn sign_in_page(State(issuer): State<Issuer>, Query(q): Query<Authorize>) -> Response {
    if !q.is_the_desks(&issuer) {
        return (StatusCode::BAD_REQUEST, "unknown client or redirect URI").into_response();
    }
    // No `action`: the form posts back to this URL, query and all.
    Html(
        "<!doctype html><title>Sign in</title><h1>Sign in to the issuer</h1>\
         <form method=post><label>User (alice or bob) <input name=user></label> \
         <button>Sign in</button></form>",
    )
    .into_response()
}

#[derive(Deserialize)]
struct SignedIn {
    user: String,
}

/// The form: a code for the user, and the browser back to the desk with it.
async fn signed_in(
    State(issuer): State<Issuer>,
    Query(q): Query<Authorize>,
    Form(form): Form<SignedIn>,
) -> Response {
    if !q.is_the_desks(&issuer) {
        return (StatusCode::BAD_REQUEST, "unknown client or redirect URI").into_response();
    }
    let Some((token, _)) = issuer.0.tokens.iter().find(|(_, user)| **user == form.user) else {
        return (StatusCode::UNAUTHORIZED, "unknown user").into_response();
    };
    let code = uuid::Uuid::new_v4().to_string();
    let grant = (token.clone(), q.code_challenge);
    issuer.0.codes.lock().unwrap().insert(code.clone(), grant);
    let back = [("code", code), ("state", q.state)];
    let back = reqwest::Url::parse_with_params(&q.redirect_uri, back).expect("a registered URL");
    Redirect::to(back.as_str()).into_response()
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: String,
    code: String,
    redirect_uri: String,
    code_verifier: String,
}

/// The code, traded once for the user's access token: by the desk (HTTP Basic), with the
/// verifier of its PKCE challenge (S256).
async fn token(
    State(issuer): State<Issuer>,
    headers: HeaderMap,
    Form(t): Form<TokenRequest>,
) -> Response {
    let desk = STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"));
    let client = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    if client.and_then(|c| c.strip_prefix("Basic ")) != Some(desk.as_str()) {
        return json_response(StatusCode::UNAUTHORIZED, json!({"error": "invalid_client"}));
    }
    let grant = issuer.0.codes.lock().unwrap().remove(&t.code);
    let s256 = URL_SAFE_NO_PAD.encode(Sha256::digest(&t.code_verifier));
    match grant {
        Some((token, challenge))
            if challenge == s256
                && t.grant_type == "authorization_code"
                && t.redirect_uri == issuer.0.redirect_uri =>
        {
            let answer = json!({"access_token": token, "token_type": "Bearer"});
            json_response(StatusCode::OK, answer)
        }
        _ => json_response(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"})),
    }
}

/// Who an access token's user is: `{"sub": "alice"}`.
async fn userinfo(State(issuer): State<Issuer>, headers: HeaderMap) -> Response {
    let bearer = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    let token = bearer.and_then(|b| b.strip_prefix("Bearer "));
    match token.and_then(|t| issuer.user_of(t)) {
        Some(user) => json_response(StatusCode::OK, json!({"sub": user})),
        None => StatusCode::UNAUTHORIZED.into_response(),
    }
}

fn json_response(status: StatusCode, body: Value) -> Response {
    let json = [(CONTENT_TYPE, "application/json")];
    (status, json, body.to_string()).into_response()
}
