//! Who the browser's user is for a server with one local user (a stdio server on the person's
//! own machine, whose landing page listens on loopback): that user, and each link belongs to
//! the first browser that opens it.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use ::axum::response::{IntoResponse, Redirect, Response};
use http::request::Parts;
use http::{HeaderValue, Method, StatusCode, header};
use serde_json::json;

use super::cookie::RouteCookie;
use super::expiring::Expiring;
use super::route::handle_in;
use super::texts::PageTexts;
use elicit_runtime::state::{Binding, StateSealer, args_digest};
use elicit_runtime::url::{LandingPage, PageError};
use elicit_runtime::{ElicitServer, LOCAL_PRINCIPAL};

/// The query parameter the claim redirect adds, so a browser that keeps no cookies is told so
/// instead of being redirected again.
const CLAIMED_PARAM: &str = "elicit_browser";

/// The browser user of a server with one local user: [`subject`](LocalBrowser::subject) is
/// that user for the browser that opened the link first, and nobody for any other browser.
///
/// That user is [`LOCAL_PRINCIPAL`](elicit_runtime::LOCAL_PRINCIPAL), the principal
/// `elicit_rmcp::Principal::local()` (and so `ElicitHandler::local`) gives the server's MCP
/// requests: the page and the tools name the user in one place. A link asked under any other
/// principal is refused with the uniform page, and the server logs an error (target `elicit`)
/// saying that its requests do not run as `Principal::local()`.
///
/// A stdio server has no sign-in: the person who runs it is its only user, and its landing page
/// on loopback cannot tell one local browser from another. Without this, any browser profile
/// (or any local program) holding the link could confirm it, and in an OAuth flow connect its
/// own account to the person's tool. With it, the first browser to open a link gets a cookie
/// (sealed with the server's keys, unguessable, `HttpOnly`, `SameSite=Lax`; `__Host-` and
/// `Secure` when the links' origin, `UrlSettings::with_origin`, is https), the link's flow is
/// tied to that cookie, and
/// every other browser that opens it, before or after Confirm, gets the uniform refusal. A
/// browser that keeps no cookies is told it needs them.
///
/// It is a [`BrowserUser`](crate::BrowserUser): pass it to `oauth::OAuth` (feature `oauth`)
/// as the browser user, or call it from a [`ConnectHook`](crate::ConnectHook)'s `subject`:
///
/// ```
/// use axum::http::request::Parts;
/// use axum::response::Response;
/// use elicit_axum::{ConnectHook, ConnectStep, LocalBrowser, OpenedLink};
/// # use elicit_runtime::ElicitServer;
/// # use elicit_runtime::state::{KeyRing, StateSealer};
///
/// struct Connect {
///     local: LocalBrowser,
/// }
///
/// impl ConnectHook for Connect {
///     async fn subject(&self, parts: &Parts) -> Result<String, Response> {
///         self.local.subject(parts).await
///     }
///     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep {
///         ConnectStep::complete(None)
///     }
/// }
///
/// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "local"));
/// // For the server whose requests run as `Principal::local()`.
/// let hook = Connect { local: LocalBrowser::new(&server) };
/// # let _ = hook;
/// ```
///
/// It is cheap to clone (one `Arc`): the clones share the claims.
#[derive(Clone)]
pub struct LocalBrowser(Arc<Local>);

/// What a [`LocalBrowser`] holds.
struct Local {
    principal: String,
    page: LandingPage,
    sealer: StateSealer,
    cookie: RouteCookie,
    texts: PageTexts,
    /// Each flow's browser (the id of its sealed cookie) and when the flow's link expires.
    claims: Mutex<Claims>,
}

/// Each flow's browser, kept until the flow's link expires.
type Claims = Expiring<[u8; 16]>;

impl fmt::Debug for LocalBrowser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalBrowser")
            .field("principal", &self.0.principal)
            .field("cookie", &self.0.cookie)
            .finish_non_exhaustive()
    }
}

/// The binding a browser's cookie is sealed to: no MCP request has its method.
fn binding(principal: &str) -> Binding<'_> {
    Binding {
        method: "local/browser",
        target: "",
        args_digest: args_digest(&json!(null)),
        principal: Some(principal),
    }
}

impl LocalBrowser {
    /// The browser user for links `server` seals, asked by requests that run as
    /// `Principal::local()` ([`LOCAL_PRINCIPAL`](elicit_runtime::LOCAL_PRINCIPAL)).
    pub fn new(server: &ElicitServer) -> Self {
        let page = LandingPage::new(server);
        LocalBrowser(Arc::new(Local {
            cookie: RouteCookie::new(
                "elicit_browser",
                "__Host-elicit_browser",
                page.url_origin().is_some_and(|o| o.starts_with("https://")),
            ),
            principal: LOCAL_PRINCIPAL.to_owned(),
            page,
            sealer: server.sealer().clone(),
            texts: PageTexts::default(),
            claims: Mutex::default(),
        }))
    }

    /// The local user, for the browser a link belongs to; the response to give any other.
    ///
    /// For a request that names a link (`?elicitation=…`): the first browser to open it claims
    /// its flow (a browser without the cookie is first redirected to the same URL with it);
    /// after that only that browser is the user. For a request that names none (an OAuth
    /// callback): the user is a browser that holds a claim.
    pub async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.0.subject(parts).await
    }
}

/// What `oauth::OAuth` (feature `oauth`) asks: [`LocalBrowser::subject`].
impl crate::BrowserUser for LocalBrowser {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.0.subject(parts).await
    }
}

impl Local {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        let browser = self.browser(parts);
        let Ok(handle) = handle_in(parts) else {
            let claimed = browser.is_some_and(|id| {
                let claims = self.claims.lock().unwrap_or_else(|p| p.into_inner());
                claims.values().any(|owner| *owner == id)
            });
            return if claimed {
                Ok(self.principal.clone())
            } else {
                Err(self.refused(StatusCode::FORBIDDEN, "a browser without a claim"))
            };
        };
        // A handle the page would refuse anyway is left to the route's uniform refusal (which
        // also refuses a recorded flow: no store round trip here).
        let opened = match self.page.peek(&handle, &self.principal) {
            Ok(opened) => opened,
            Err(PageError::WrongSubject) => {
                // Sealed with this server's keys for another user: on a server with one local
                // user, its MCP requests run under another principal, and no link will ever open.
                tracing::error!(
                    target: "elicit",
                    "a link of this server was asked for another principal than LocalBrowser's: run the MCP requests as Principal::local() (ElicitHandler::local does)"
                );
                return Ok(self.principal.clone());
            }
            Err(_) => return Ok(self.principal.clone()),
        };
        let Some(browser) = browser else {
            return Err(self.claim_cookie(parts));
        };
        let mut claims = self.claims.lock().unwrap_or_else(|p| p.into_inner());
        let (owner, _) = claims.first(opened.id(), browser, opened.expires_at(), SystemTime::now());
        if owner == browser {
            Ok(self.principal.clone())
        } else {
            Err(self.refused(StatusCode::NOT_FOUND, "a link another browser opened first"))
        }
    }

    /// The id of the browser's cookie, if it carries a valid one.
    fn browser(&self, parts: &Parts) -> Option<[u8; 16]> {
        let token = self.cookie.read(parts)?;
        let opened = self
            .sealer
            .open_now::<serde_json::Value>(token, &binding(&self.principal))
            .ok()?;
        Some(opened.id)
    }

    /// A browser without the cookie: back to the same URL with one (a `GET`), or refused (a
    /// form cannot come from the browser that opened the page without it).
    fn claim_cookie(&self, parts: &Parts) -> Response {
        let query = parts.uri.query().unwrap_or_default();
        let marked =
            form_urlencoded::parse(query.as_bytes()).any(|(name, _)| name == CLAIMED_PARAM);
        if parts.method != Method::GET {
            return self.refused(
                StatusCode::FORBIDDEN,
                "a form from a browser without the cookie",
            );
        }
        if marked {
            tracing::warn!(target: "elicit", status = 403, "landing page met a local browser that keeps no cookies");
            let mut page = self.texts.failed_page(
                Some("Cookies are needed"),
                Some("This page ties the link to your browser with a cookie. Allow cookies for it, then open the link again."),
            );
            *page.status_mut() = StatusCode::FORBIDDEN;
            return page;
        }
        let Ok(token) = self.sealer.seal_now(&binding(&self.principal), &json!({})) else {
            return self.refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "the cookie could not be sealed",
            );
        };
        let cookie = self.cookie.set(&token, None);
        let back = format!("{}?{query}&{CLAIMED_PARAM}=1", parts.uri.path());
        let mut response = Redirect::to(&back).into_response();
        let headers = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            headers.insert(header::SET_COOKIE, value);
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        response
    }

    fn refused(&self, status: StatusCode, reason: &str) -> Response {
        tracing::warn!(target: "elicit", status = status.as_u16(), reason, "landing page refused a local browser");
        self.texts.refused_page(status)
    }
}
