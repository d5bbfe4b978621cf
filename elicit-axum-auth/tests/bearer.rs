//! `elicit_axum_auth`: what a client sees with no token, a malformed one, a refused one
//! and a good one, and the metadata document it reads first.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::post;
use axum::{Extension, Router};
use elicit_axum_auth::{Authenticated, BearerAuth, VerifyToken};
use pollster::block_on;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Two users' tokens (bob's without `deploy`); `""` names no one (an empty subject is
/// refused too).
struct Tokens;

impl VerifyToken for Tokens {
    async fn verify(&self, token: &str) -> Option<Authenticated> {
        match token {
            "alice-token" => {
                Some(Authenticated::new("alice").with_scopes(["deploy", "repos:read"]))
            }
            "bob-token" => Some(Authenticated::new("bob").with_scopes(["repos:read"])),
            "nobody-token" => Some(Authenticated::new("")),
            _ => None,
        }
    }
}

fn app(auth: BearerAuth<Tokens>) -> Router {
    let mcp = Router::new().route(
        "/mcp",
        post(|Extension(user): Extension<Authenticated>| async move { user.subject().to_owned() }),
    );
    auth.protect(mcp)
}

fn desk() -> Router {
    app(BearerAuth::new("https://desk.example.com/mcp", Tokens).unwrap())
}

/// Status, `WWW-Authenticate`, `Cache-Control` and body of `request` on `app`.
fn send(
    app: &Router,
    request: Request<Body>,
) -> (StatusCode, Option<String>, Option<String>, String) {
    let response = block_on(app.clone().oneshot(request)).unwrap();
    let header = |name: &str| {
        let value = response.headers().get(name)?;
        Some(value.to_str().unwrap().to_owned())
    };
    let (challenge, cache) = (header("www-authenticate"), header("cache-control"));
    let status = response.status();
    let body = block_on(axum::body::to_bytes(response.into_body(), 1 << 16)).unwrap();
    (
        status,
        challenge,
        cache,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

fn call(authorization: &[&str]) -> Request<Body> {
    let mut request = Request::post("/mcp");
    for value in authorization {
        request = request.header("authorization", *value);
    }
    request.body(Body::empty()).unwrap()
}

const METADATA: &str = "https://desk.example.com/.well-known/oauth-protected-resource/mcp";

#[test]
fn a_good_token_reaches_the_route_with_its_user() {
    let app = desk();
    let (status, challenge, _, body) = send(&app, call(&["Bearer alice-token"]));
    assert_eq!(
        (status, challenge, body.as_str()),
        (StatusCode::OK, None, "alice")
    );
    let (_, _, _, body) = send(&app, call(&["bearer bob-token"]));
    assert_eq!(body, "bob");
}

#[test]
fn no_token_is_401_with_the_metadata_url_and_no_error_code() {
    let (status, challenge, cache, body) = send(&desk(), call(&[]));
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge.unwrap(),
        format!("Bearer resource_metadata=\"{METADATA}\"")
    );
    assert_eq!(cache.as_deref(), Some("no-store"));
    assert_eq!(body, "a bearer token is needed");
}

#[test]
fn a_refused_token_is_401_invalid_token() {
    let app = desk();
    let invalid = format!("Bearer resource_metadata=\"{METADATA}\", error=\"invalid_token\"");
    for token in ["Bearer mallory-token", "Bearer nobody-token"] {
        let (status, challenge, _, body) = send(&app, call(&[token]));
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token}");
        assert_eq!(challenge.as_deref(), Some(invalid.as_str()), "{token}");
        assert_eq!(body, "the bearer token is not valid here");
    }
}

/// The tokens a verifier was given.
#[derive(Clone, Default)]
struct Seen(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl VerifyToken for Seen {
    async fn verify(&self, token: &str) -> Option<Authenticated> {
        self.0.lock().unwrap().push(token.to_owned());
        None
    }
}

#[test]
fn a_malformed_header_is_400_invalid_request_and_never_reaches_the_check() {
    let seen = Seen::default();
    let mcp = Router::new().route("/mcp", post(|| async { "reached" }));
    let app = BearerAuth::new("https://desk.example.com/mcp", seen.clone())
        .unwrap()
        .protect(mcp);
    let invalid = format!("Bearer resource_metadata=\"{METADATA}\", error=\"invalid_request\"");
    for authorization in [
        &["Basic YWxpY2U6c2VjcmV0"][..],
        &["Bearer alice-token extra"],
        &["Bearer"],
        &["Bearer alice-token", "Bearer alice-token"],
    ] {
        let (status, challenge, _, _) = send(&app, call(authorization));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{authorization:?}");
        assert_eq!(
            challenge.as_deref(),
            Some(invalid.as_str()),
            "{authorization:?}"
        );
    }
    assert_eq!(
        seen.0.lock().unwrap().len(),
        0,
        "no token reached the verifier"
    );
    // A well-formed one does.
    send(&app, call(&["Bearer mallory-token"]));
    assert_eq!(*seen.0.lock().unwrap(), ["mallory-token"]);
}

#[test]
fn scopes_are_named_in_the_challenge_and_the_document() {
    let auth = BearerAuth::new("http://127.0.0.1:8765/mcp", Tokens)
        .unwrap()
        .with_authorization_server("http://127.0.0.1:9000")
        .unwrap()
        .with_scopes(["deploy", "repos:read"])
        .unwrap();
    let app = app(auth);
    let (_, challenge, _, _) = send(&app, call(&["Bearer mallory-token"]));
    assert_eq!(
        challenge.unwrap(),
        "Bearer resource_metadata=\"http://127.0.0.1:8765/.well-known/oauth-protected-resource/mcp\", \
         scope=\"deploy repos:read\", error=\"invalid_token\""
    );
    let get = Request::get("/.well-known/oauth-protected-resource/mcp")
        .body(Body::empty())
        .unwrap();
    let (status, _, _, body) = send(&app, get);
    assert_eq!(status, StatusCode::OK);
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        document,
        json!({
            "resource": "http://127.0.0.1:8765/mcp",
            "authorization_servers": ["http://127.0.0.1:9000"],
            "scopes_supported": ["deploy", "repos:read"],
            "bearer_methods_supported": ["header"],
        })
    );
}

#[test]
fn a_token_without_a_required_scope_is_403_insufficient_scope() {
    let auth = || BearerAuth::new("https://desk.example.com/mcp", Tokens).unwrap();
    // Both required: bob has one of them, which is not enough.
    let both = app(auth().with_scopes(["deploy", "repos:read"]).unwrap());
    let (status, challenge, _, body) = send(&both, call(&["Bearer bob-token"]));
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        challenge.unwrap(),
        format!(
            "Bearer resource_metadata=\"{METADATA}\", scope=\"deploy repos:read\", error=\"insufficient_scope\""
        )
    );
    assert_eq!(body, "the bearer token lacks a scope");
    // alice has both; with no scopes required, bob goes through too.
    assert_eq!(send(&both, call(&["Bearer alice-token"])).0, StatusCode::OK);
    assert_eq!(
        send(&app(auth()), call(&["Bearer bob-token"])).0,
        StatusCode::OK
    );
    // What the route sees: the user and the scopes the token grants.
    let scopes = Router::new().route(
        "/mcp",
        post(|Extension(user): Extension<Authenticated>| async move { user.scopes().join(",") }),
    );
    let scopes = auth().protect(scopes);
    assert_eq!(
        send(&scopes, call(&["Bearer alice-token"])).3,
        "deploy,repos:read"
    );
}

#[test]
fn the_metadata_document_needs_no_token() {
    let get = Request::get("/.well-known/oauth-protected-resource/mcp")
        .body(Body::empty())
        .unwrap();
    let response = block_on(desk().oneshot(get)).unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let body = block_on(axum::body::to_bytes(response.into_body(), 1 << 16)).unwrap();
    let document: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        document,
        json!({"resource": "https://desk.example.com/mcp", "bearer_methods_supported": ["header"]})
    );
}

#[test]
fn a_resource_server_that_cannot_be_safe_is_refused_when_built() {
    let refused = |result: Result<BearerAuth<Tokens>, elicit_axum_auth::BearerError>| {
        result.err().unwrap().to_string()
    };
    assert_eq!(
        refused(BearerAuth::new("http://desk.example.com/mcp", Tokens)),
        "the resource URL \"http://desk.example.com/mcp\" must be https://host/… (or http:// on localhost, 127.0.0.1 or [::1])"
    );
    assert_eq!(
        refused(BearerAuth::new("https://desk.example.com/mcp?v=1", Tokens)),
        "the resource URL \"https://desk.example.com/mcp?v=1\" must have no query or fragment, and only URL characters in its path"
    );
    let auth = || BearerAuth::new("https://desk.example.com/mcp", Tokens).unwrap();
    assert_eq!(
        refused(auth().with_scopes(["repo read"])),
        "the scope \"repo read\" is not a scope token (RFC 6749: printable ASCII, no space, quote or backslash)"
    );
    assert!(
        refused(auth().with_authorization_server("http://auth.example.com")).contains("https://")
    );
}
