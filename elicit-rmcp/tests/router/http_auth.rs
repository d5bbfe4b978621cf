//! The stand-in for an authentication layer the HTTP tests put in front of `/mcp`.

use axum::body::Body;
use axum::http::{Request, header};

/// What the authentication layer inserts into the HTTP request's extensions: the user.
#[derive(Clone)]
pub(crate) struct Authenticated(pub String);

/// `Authorization: Bearer <name>` is user `<name>` (a real layer verifies a token); no header,
/// no user.
pub(crate) fn authenticate(mut request: Request<Body>) -> Request<Body> {
    let subject = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::to_owned);
    if let Some(subject) = subject {
        request.extensions_mut().insert(Authenticated(subject));
    }
    request
}
