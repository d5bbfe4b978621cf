//! Who the browser's user is: the one question a page that finishes a URL-mode flow asks,
//! answered apart from what the page does, so one OAuth connection serves a stdio server
//! ([`LocalBrowser`](crate::LocalBrowser)) and an HTTP one (a sign-in) alike.

use std::future::Future;

use ::axum::response::{IntoResponse, Response};
use http::request::Parts;

/// Who the browser that sent a request is: the same principal the MCP request that asked was
/// made as, or the response to give instead (a sign-in redirect, a 401).
///
/// This is the one seam between elicit's pages and your authentication: the landing route's
/// OAuth connection and the secret page ask it, and nothing else. Ready ones:
/// [`LocalBrowser`](crate::LocalBrowser) (stdio, one local user) and the `elicit-axum-auth`
/// crate's `SignIn` (the browser signs in at your authorization server). Your own login, your
/// company's SSO or another crate's sign-in plugs in the same way: a function
/// `Fn(&Parts) -> Result<String, impl IntoResponse>` (its error a redirect to your sign-in, a
/// status) or an impl of this trait. Whatever it is, the subject it gives must be the one the
/// MCP request was made as (the principal your MCP endpoint's authentication gives).
///
/// ```
/// use axum::http::request::Parts;
/// use axum::response::Redirect;
/// use elicit_axum::BrowserUser;
///
/// /// Your app's session: here a header its auth middleware sets.
/// fn signed_in(parts: &Parts) -> Result<String, Redirect> {
///     let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
///     user.map(str::to_owned).ok_or_else(|| Redirect::to("/login"))
/// }
///
/// fn takes(_: impl BrowserUser) {}
/// takes(signed_in);
/// ```
///
/// Another sign-in, as a type (here the company SSO proxy in front of the app, which sets
/// `x-sso-user` and drops any the browser sent):
///
/// ```
/// use axum::http::{StatusCode, request::Parts};
/// use axum::response::{IntoResponse, Response};
/// use elicit_axum::BrowserUser;
///
/// struct CompanySso;
///
/// impl BrowserUser for CompanySso {
///     async fn subject(&self, parts: &Parts) -> Result<String, Response> {
///         let user = parts.headers.get("x-sso-user").and_then(|v| v.to_str().ok());
///         user.map(str::to_owned).ok_or_else(|| StatusCode::UNAUTHORIZED.into_response())
///     }
/// }
///
/// let parts = axum::http::Request::get("/connect").header("x-sso-user", "alice");
/// let parts = parts.body(()).unwrap().into_parts().0;
/// assert_eq!(pollster::block_on(CompanySso.subject(&parts)).unwrap(), "alice");
/// ```
pub trait BrowserUser: Send + Sync + 'static {
    /// The browser's user, or the response to give instead. Asked on each page of a flow.
    fn subject(&self, parts: &Parts) -> impl Future<Output = Result<String, Response>> + Send;
}

/// Your login, as a function of the request.
impl<F, E> BrowserUser for F
where
    F: Fn(&Parts) -> Result<String, E> + Send + Sync + 'static,
    E: IntoResponse,
{
    fn subject(&self, parts: &Parts) -> impl Future<Output = Result<String, Response>> + Send {
        std::future::ready(self(parts).map_err(IntoResponse::into_response))
    }
}
