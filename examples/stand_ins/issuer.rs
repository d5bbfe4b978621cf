//! Who is calling: your identity provider, here a fake authorization server on loopback.
//!
//! It issues its users' access tokens. An MCP client sends one on `/mcp` (`Authorization:
//! Bearer alice-token`), which elicit-axum-auth's `BearerAuth` checks with [`Issuer`]'s
//! `VerifyToken`. A browser signs in at its `/authorize` page through elicit-axum-auth's `SignIn`
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
use elicit_axum::oauth::OAuthProvider;
use elicit_axum_auth::{Authenticated, VerifyToken};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The release desk's registration at the issuer.
const CLIENT_ID: &str = "release-desk";
/// Its secret (from configuration in a real app; it never leaves the server).
const CLIENT_SECRET: &str = "desk-secret";

/// The authorization server at `origin`: its users' MCP access tokens, the codes it gave,
/// and the tokens its sign-ins issued.
#[derive(Clone)]
pub(crate) struct Issuer(Arc<Inner>);

struct Inner {
    origin: String,
    /// The desk's registered redirect URI: its `/signin/callback`.
    redirect_uri: String,
    /// The MCP access tokens, by their SHA-256 (a token is never kept or compared in clear) →
    /// user.
    tokens: HashMap<Vec<u8>, String>,
    /// Code → (user, the PKCE challenge). Each is traded once.
    codes: Mutex<HashMap<String, (String, String)>>,
    /// The tokens the sign-ins got → user: good at `/userinfo` only, never on `/mcp`.
    signins: Mutex<HashMap<String, String>>,
}

/// How a token is kept and looked up.
fn digest(token: &str) -> Vec<u8> {
    Sha256::digest(token).to_vec()
}

impl Issuer {
    /// The issuer at `origin` of `tokens` (token, user), where the desk is registered with
    /// `redirect_uri`.
    pub(crate) fn new(origin: String, redirect_uri: String, tokens: &[(&str, &str)]) -> Self {
        let tokens = tokens.iter().map(|&(t, user)| (digest(t), user.into()));
        Issuer(Arc::new(Inner {
            origin,
            redirect_uri,
            tokens: tokens.collect(),
            codes: Mutex::default(),
            signins: Mutex::default(),
        }))
    }

    /// The desk's registration here, for `SignIn`.
    pub(crate) fn provider(&self) -> OAuthProvider {
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
    pub(crate) fn routes(&self) -> Router {
        Router::new()
            .route("/authorize", get(sign_in_page).post(signed_in))
            .route("/token", post(token))
            .route("/userinfo", get(userinfo))
            .with_state(self.clone())
    }
}

/// The MCP endpoint's token check (elicit-axum-auth's `BearerAuth` calls it on each request). A
/// real issuer's JWT: check its signature, expiry and that its `aud` is this desk's `/mcp`.
impl VerifyToken for Issuer {
    async fn verify(&self, token: &str) -> Option<Authenticated> {
        self.0.tokens.get(&digest(token)).map(Authenticated::new)
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
    if !issuer.0.tokens.values().any(|user| *user == form.user) {
        return (StatusCode::UNAUTHORIZED, "unknown user").into_response();
    }
    let code = uuid::Uuid::new_v4().to_string();
    let grant = (form.user, q.code_challenge);
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

/// The code, traded once for a token of the sign-in's own (not the user's MCP token): by the
/// desk (HTTP Basic), with the verifier of its PKCE challenge (S256).
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
        Some((user, challenge))
            if challenge == s256
                && t.grant_type == "authorization_code"
                && t.redirect_uri == issuer.0.redirect_uri =>
        {
            let token = uuid::Uuid::new_v4().to_string();
            issuer.0.signins.lock().unwrap().insert(token.clone(), user);
            let answer = json!({"access_token": token, "token_type": "Bearer"});
            json_response(StatusCode::OK, answer)
        }
        _ => json_response(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"})),
    }
}

/// Who a sign-in's token is for: `{"sub": "alice"}`.
async fn userinfo(State(issuer): State<Issuer>, headers: HeaderMap) -> Response {
    let bearer = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    let token = bearer.and_then(|b| b.strip_prefix("Bearer "));
    let signins = issuer.0.signins.lock().unwrap();
    match token.and_then(|t| signins.get(t).cloned()) {
        Some(user) => json_response(StatusCode::OK, json!({"sub": user})),
        None => StatusCode::UNAUTHORIZED.into_response(),
    }
}

fn json_response(status: StatusCode, body: Value) -> Response {
    let json = [(CONTENT_TYPE, "application/json")];
    (status, json, body.to_string()).into_response()
}
