//! The `Authorization: Bearer` request header (RFC 6750 §2.1) and the `WWW-Authenticate`
//! challenge a refusal carries (RFC 6750 §3, with RFC 9728's `resource_metadata`).

use http::StatusCode;
use http::header::AUTHORIZATION;
use http::request::Parts;

/// What the request's `Authorization` says.
#[derive(Debug, PartialEq)]
pub(crate) enum Credentials<'a> {
    /// No `Authorization` header: the client has not authenticated yet.
    Missing,
    /// One `Bearer` header with a token of the RFC's syntax.
    Token(&'a str),
    /// Two headers, another scheme, no token, or one outside the `b64token` syntax.
    Malformed,
}

/// The bearer token of `parts`. The scheme is matched without regard to case (RFC 9110
/// §11.1); the token must be `b64token` (`1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" /
/// "/" ) *"="`), so no space, quote or control character reaches the verifier.
pub(crate) fn credentials(parts: &Parts) -> Credentials<'_> {
    let mut values = parts.headers.get_all(AUTHORIZATION).iter();
    let value = match (values.next(), values.next()) {
        (None, _) => return Credentials::Missing,
        (Some(value), None) => value,
        (Some(_), Some(_)) => return Credentials::Malformed,
    };
    let Some((scheme, token)) = value.to_str().ok().and_then(|v| v.split_once(' ')) else {
        return Credentials::Malformed;
    };
    let token = token.trim_start_matches(' ');
    if scheme.eq_ignore_ascii_case("bearer") && is_b64token(token) {
        Credentials::Token(token)
    } else {
        Credentials::Malformed
    }
}

fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// Why a request is refused, as the challenge names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Refusal {
    /// No credentials: the challenge carries no error code (RFC 6750 §3.1).
    Missing,
    /// `invalid_request` (400): a malformed `Authorization` header.
    InvalidRequest,
    /// `invalid_token` (401): unknown, expired, revoked or for another resource.
    InvalidToken,
    /// `insufficient_scope` (403): a good token without a scope the resource requires.
    InsufficientScope,
}

impl Refusal {
    /// The status, the error code of the challenge (none without credentials) and the
    /// response's one line.
    pub(crate) fn answer(self) -> (StatusCode, Option<&'static str>, &'static str) {
        match self {
            Refusal::Missing => (StatusCode::UNAUTHORIZED, None, "a bearer token is needed"),
            Refusal::InvalidRequest => (
                StatusCode::BAD_REQUEST,
                Some("invalid_request"),
                "a malformed Authorization header",
            ),
            Refusal::InvalidToken => (
                StatusCode::UNAUTHORIZED,
                Some("invalid_token"),
                "the bearer token is not valid here",
            ),
            Refusal::InsufficientScope => (
                StatusCode::FORBIDDEN,
                Some("insufficient_scope"),
                "the bearer token lacks a scope",
            ),
        }
    }
}

/// The `WWW-Authenticate` value: `Bearer resource_metadata="…"`, then `scope="…"` (the
/// required scopes, when there are any), then the error code. Every value was checked to hold
/// no `"` or `\`.
pub(crate) fn challenge(error: Option<&str>, metadata_url: &str, required: &[String]) -> String {
    let mut value = format!("Bearer resource_metadata=\"{metadata_url}\"");
    if !required.is_empty() {
        value.push_str(&format!(", scope=\"{}\"", required.join(" ")));
    }
    if let Some(error) = error {
        value.push_str(&format!(", error=\"{error}\""));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::{Credentials, credentials};

    fn parts(values: &[&str]) -> http::request::Parts {
        let mut request = http::Request::builder();
        for value in values {
            request = request.header("authorization", *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn only_one_bearer_header_of_the_rfc_syntax_is_a_token() {
        assert_eq!(credentials(&parts(&[])), Credentials::Missing);
        let cases = [
            (
                "Bearer abc-123._~+/==",
                Credentials::Token("abc-123._~+/=="),
            ),
            ("bearer abc", Credentials::Token("abc")),
            ("BEARER  abc", Credentials::Token("abc")),
            ("Bearer", Credentials::Malformed),
            ("Bearer ", Credentials::Malformed),
            ("Bearer ===", Credentials::Malformed),
            ("Bearer a=b", Credentials::Malformed),
            ("Bearer abc def", Credentials::Malformed),
            ("Bearer \"abc\"", Credentials::Malformed),
            ("Basic YWxpY2U6c2VjcmV0", Credentials::Malformed),
            ("Bearerabc", Credentials::Malformed),
        ];
        for (value, expected) in cases {
            assert_eq!(credentials(&parts(&[value])), expected, "{value:?}");
        }
        let twice = parts(&["Bearer abc", "Bearer abc"]);
        assert_eq!(credentials(&twice), Credentials::Malformed);
    }
}
