//! A fake OAuth provider on loopback, standing in for GitHub: it approves every authorization
//! at once, then trades the code for a token and the token for the user's login.

use axum::Router;
use axum::extract::{Form, Query};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use elicit_axum::oauth::OAuthProvider;
use serde::Deserialize;
use serde_json::{Value, json};

/// This provider, as `OAuthProvider::github(client_id, client_secret)` is GitHub itself: the
/// scopes come from the link, the callback is `/oauth/callback` on the server's URL origin,
/// and `/user` says whose account a token is (`Connection::account`).
pub(crate) fn fake_github(provider: &str) -> OAuthProvider {
    OAuthProvider::new(
        "github",
        format!("{provider}/authorize"),
        format!("{provider}/token"),
        CLIENT_ID,
    )
    .with_client_secret(CLIENT_SECRET)
    .with_credentials_in_body()
    .with_account_url(format!("{provider}/user"))
}

/// The OAuth client the app is registered as.
pub(crate) const CLIENT_ID: &str = "elicit-example";
/// Its secret (from configuration in a real app; it never leaves the server).
pub(crate) const CLIENT_SECRET: &str = "example-secret";
/// The access token the provider issues.
const ACCESS_TOKEN: &str = "gho_example_token";

/// The provider's routes: `/authorize`, `/token` and `/user`.
pub(crate) fn routes() -> Router {
    Router::new()
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/user", get(user))
}

#[derive(Deserialize)]
struct Authorize {
    client_id: String,
    redirect_uri: String,
    scope: String,
    state: String,
}

/// A real provider signs the user in and asks for consent here; this one approves at once.
async fn authorize(Query(q): Query<Authorize>) -> Response {
    if q.client_id != CLIENT_ID {
        return (StatusCode::BAD_REQUEST, "unknown client").into_response();
    }
    let code = format!("code-{}", q.scope);
    Redirect::to(&format!("{}?code={code}&state={}", q.redirect_uri, q.state)).into_response()
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: String,
    code: String,
    client_id: String,
    client_secret: String,
}

async fn token(Form(t): Form<TokenRequest>) -> Response {
    let known = t.client_id == CLIENT_ID && t.client_secret == CLIENT_SECRET;
    if t.grant_type != "authorization_code" || !known || !t.code.starts_with("code-") {
        return json_response(StatusCode::BAD_REQUEST, json!({"error": "invalid_grant"}));
    }
    let scope = &t.code["code-".len()..];
    let token = json!({"access_token": ACCESS_TOKEN, "token_type": "bearer", "scope": scope});
    json_response(StatusCode::OK, token)
}

async fn user(headers: HeaderMap) -> Response {
    let bearer = headers.get("authorization").and_then(|v| v.to_str().ok());
    if bearer != Some(&format!("Bearer {ACCESS_TOKEN}")) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    json_response(StatusCode::OK, json!({"login": "octocat"}))
}

fn json_response(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
