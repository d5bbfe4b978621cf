//! A ready landing route for axum: mount it on the app that serves MCP, and the links
//! URL-mode elicitations send finish their flows. Built on the core's public
//! `elicit_runtime::url::LandingPage`, so a page on another framework can do the same.
//!
//! Beside it, `oauth` (feature `oauth`) is a ready OAuth connection on the landing route, and
//! [`SecretPage`] a ready page on which a person types secrets the model must never see (an
//! API key: the spec's `set_api_key`), behind the same checks. Each page asks one question
//! of your app, who the browser's user is ([`BrowserUser`]): your login plugs in there.
//!
//! The MCP endpoint's own authentication (the bearer check and the protected resource
//! metadata the MCP authorization spec asks for) is not here: it is the `elicit-axum-auth`
//! crate, reviewed and versioned apart, or any layer of your own that leaves the user in the
//! request.
//!
//! # The contract
//!
//! * **The link.** `#[elicit_url]` with `url = "https://app.example.com/connect"` sends
//!   clients `https://app.example.com/connect?elicitation=<handle>` (the parameter is appended
//!   to a query the URL already has; [`UrlSettings::with_origin`] swaps the origin, e.g. for
//!   a loopback port in development). Mount the route at that path ([`LandingRoute::at`]; the
//!   default is `/connect`). A URL that puts `{handle}` in its path is not served by this
//!   route: use [`LandingPage`] in a handler of your own.
//! * **Who.** The route asks your [`ConnectHook::subject`] who the browser's user is (a session
//!   cookie, an auth header). It must name the same principal the MCP request that asked was
//!   authenticated as: the handle binds that principal (hashed), and a handle opened by anyone
//!   else is refused and its flow left untouched, so a link sent to another user (the
//!   phishing case) finishes nothing. No user: answer with a sign-in redirect from the hook.
//! * **`GET` asks, it never records.** Opening the link shows a confirmation page: which
//!   server asks ([`PageTexts::with_server_name`], default the sealer's audience), what for
//!   (the elicitation's message, sealed in the handle), the account it is for, and Confirm and
//!   Cancel. A link preview, a prefetch, or another site's `<img>` carrying the user's cookie
//!   finishes nothing.
//! * **Only for the route's own host.** The route's origins are the links' origin
//!   ([`UrlSettings::with_origin`]) and any set with [`LandingRoute::with_origin`]. With
//!   one, every request whose `Host` is not one of theirs (missing, or another name for the
//!   same address, as DNS rebinding sends it) is refused, with the uniform 404, before
//!   anything else. `localhost`, `127.0.0.1` and `[::1]` stand for one another on the same
//!   port, so loopback development works under any of them. Without an origin, the route
//!   cannot tell its own host: it serves only the loopback names (`localhost`, `127.0.0.1`,
//!   `[::1]`, any port), which is right for a local server's page and refuses every other
//!   `Host`; a server reached under any other name needs its origin set.
//! * **Only the page's own `POST` records.** The form carries a CSRF token
//!   ([`LandingPage::confirmation_token`]): sealed under the server's keys over the handle
//!   (the link's own, not just its flow), its expiry and the browser's user, so it is good for
//!   that link and that user only, until the link expires, and checked in constant time
//!   ([`LandingPage::open_confirmed`]). A later link of the same flow (asked again, or the
//!   same call through the link fallback made later) needs its own page's token. Before anything else, a
//!   `POST` that is not from the route's own origin is refused with 403: `Sec-Fetch-Site`
//!   must be `same-origin` when present, `Origin` must be the route's own when present (one of
//!   its origins, or, without any, the request's `Host`; `null` only with `Sec-Fetch-Site:
//!   same-origin`, which is what a browser sends for our own form under `Referrer-Policy:
//!   no-referrer`), and a `POST` with neither header is refused.
//! * **Confirm, then complete or fail.** On Confirm your [`ConnectHook::connect`] sees the
//!   bound state ([`OpenedLink`]) and returns a [`ConnectStep`]: complete (with an optional
//!   JSON result the tool handler gets), fail (with a reason the handler gets), refuse, or a
//!   response of your own (e.g. a redirect to an OAuth provider, which the ready
//!   `oauth` module, feature `oauth`, does with its callback: the browser binding, PKCE and
//!   the code exchange built in; see the guide's `oauth_on_axum` recipe). Until
//!   something is recorded, a client's `accept` authorizes nothing: on 2026-07-28 its retry
//!   is held (up to `UrlSettings::hold`) and then asked the same link again, and on
//!   2025-11-25 the handler waits until the link expires.
//! * **Cancel records a failure**, so the tool learns at once rather than at expiry: the
//!   handler reads `UrlAnswer::Failed` with the reason "the user cancelled on the
//!   confirmation page". It needs the same token as Confirm, so another site cannot cancel a
//!   user's flow either.
//! * **Expiry.** A handle lives as long as the server's `requestState` ([`StateSealer::with_ttl`]);
//!   after that it is refused and the handler reads `UrlAnswer::Expired`.
//! * **Once.** A flow records one outcome: the first completion or failure wins, and opening or
//!   recording again is refused until the handle expires. The handler, too, reads it once
//!   (unless the server opted out with [`UrlSettings::with_reusable_completions`]).
//!
//! # Refusals
//!
//! Every refusal a requester can provoke with a handle, a token, a form or a `Host` reads the
//! same: a missing, forged, expired, another user's, another kind's or finished handle, a
//! missing, wrong or expired token, and a request for another host all answer **404 with one
//! page** ([`PageError`]'s uniform text), so the
//! status and the body tell an attacker nothing about a handle. A cross-site `POST` answers 403
//! with the same page, decided from its headers alone. Only the server's own failures differ
//! (503 the store failed, 500 no store configured: "try again later"). The precise
//! [`PageError::reason`] is logged as a `tracing` event (target `elicit`; values escaped),
//! never the handle, the token or the user.
//!
//! Pages are minimal HTML with one inline stylesheet, every text escaped, no script, with
//! `Cache-Control: no-store`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` and a
//! CSP that loads nothing, runs nothing and forbids framing; texts are [`PageTexts`]. `HEAD`
//! answers 405 and records nothing.
//!
//! # Example
//!
//! The whole flow, with a scripted client standing in for the MCP client and the browser:
//!
//! ```
//! use axum::body::Body;
//! use axum::http::{Request, StatusCode, request::Parts};
//! use axum::response::{IntoResponse, Response};
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_testing::TestClient;
//! use elicit_axum::{ConnectHook, ConnectStep, OpenedLink, landing_routes};
//! use elicit_runtime::url::{LandingPage, UrlSettings};
//! use elicit_runtime::{ElicitServer, Reply, UrlAnswer, elicit_url};
//! use pollster::block_on;
//! use serde_json::json;
//! use tower::ServiceExt;
//!
//! #[elicit_url(message = "Connect your account", url = "https://app.example.com/connect")]
//! struct ConnectAccount {
//!     service: String,
//! }
//!
//! /// The app's auth middleware puts the signed-in user in `x-user`.
//! struct Connect;
//!
//! impl ConnectHook for Connect {
//!     async fn subject(&self, parts: &Parts) -> Result<String, Response> {
//!         let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
//!         user.map(str::to_owned).ok_or_else(|| StatusCode::UNAUTHORIZED.into_response())
//!     }
//!     async fn connect(&self, link: &OpenedLink, _parts: &Parts) -> ConnectStep {
//!         let service = link.state()["service"].as_str().unwrap_or_default();
//!         ConnectStep::complete(Some(json!({ "account": format!("alice@{service}") })))
//!     }
//! }
//!
//! // The links' origin, where the route is served: requests for any other host are refused.
//! let url = UrlSettings::in_memory().with_origin("https://app.example.com")?;
//! let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app")).with_url(url);
//! let app = landing_routes(LandingPage::new(&server), Connect);
//!
//! // alice calls a tool that asks; her client gets the link.
//! let client = TestClient::new(server.clone()).principal("alice");
//! let call = client.tool_params("connect", json!({}));
//! let mut handler = async |cx: &mut elicit_runtime::ElicitContext| {
//!     ConnectAccount { service: "github".into() }.ask(cx).await
//! };
//! let Ok(Reply::InputRequired(ask)) = block_on(client.round("tools/call", &call, &mut handler))
//! else { panic!("the first round asks") };
//! let request = serde_json::to_value(&ask.input_requests().unwrap()["connect_account"]).unwrap();
//! let link = request["params"]["url"].as_str().unwrap();
//! let path = link.strip_prefix("https://app.example.com").unwrap();
//! assert!(path.starts_with("/connect?elicitation="));
//!
//! // alice's browser opens it: a confirmation page, nothing recorded yet.
//! let get = Request::get(path).header("host", "app.example.com").header("x-user", "alice");
//! let page = block_on(app.clone().oneshot(get.body(Body::empty())?))?;
//! assert_eq!(page.status(), StatusCode::OK);
//! let html = block_on(axum::body::to_bytes(page.into_body(), 1 << 16)).unwrap();
//! let html = String::from_utf8(html.to_vec()).unwrap();
//! assert!(html.contains("Connect your account") && html.contains("alice"));
//! let token = html.split("name=\"token\" value=\"").nth(1).unwrap();
//! let token = &token[..token.find('"').unwrap()];
//!
//! // She presses Confirm: her browser posts the form back, from the page's own origin.
//! let confirm = Request::post(path)
//!     .header("host", "app.example.com")
//!     .header("x-user", "alice")
//!     .header("sec-fetch-site", "same-origin")
//!     .header("content-type", "application/x-www-form-urlencoded")
//!     .body(Body::from(format!("token={token}&decision=confirm")))
//!     .unwrap();
//! assert_eq!(block_on(app.clone().oneshot(confirm)).unwrap().status(), StatusCode::OK);
//!
//! // Her client accepts and retries: the handler sees the completion.
//! let mut retry = call.clone();
//! retry["requestState"] = ask.request_state().unwrap().into();
//! retry["inputResponses"] = json!({"connect_account": {"action": "accept"}});
//! let Ok(Reply::Result(UrlAnswer::Completed { result, .. })) =
//!     block_on(client.round("tools/call", &retry, &mut handler))
//! else { panic!("completed") };
//! assert_eq!(result, Some(json!({"account": "alice@github"})));
//!
//! // The link is spent: the uniform refusal.
//! let again = Request::get(path).header("host", "app.example.com").header("x-user", "alice");
//! assert_eq!(block_on(app.clone().oneshot(again.body(Body::empty())?))?.status(), StatusCode::NOT_FOUND);
//!
//! // A page of hers fetched under another name for the server's address (DNS rebinding):
//! // refused before anything is looked up.
//! let rebound = Request::get(path).header("host", "evil.example").header("x-user", "alice");
//! assert_eq!(block_on(app.oneshot(rebound.body(Body::empty())?))?.status(), StatusCode::NOT_FOUND);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`UrlSettings::with_origin`]: elicit_runtime::url::UrlSettings::with_origin
//! [`UrlSettings::with_reusable_completions`]: elicit_runtime::url::UrlSettings::with_reusable_completions
//! [`StateSealer::with_ttl`]: elicit_runtime::state::StateSealer::with_ttl
//! [`PageError`]: elicit_runtime::url::PageError
//! [`PageError::reason`]: elicit_runtime::url::PageError::reason
//! [`LandingPage::complete_raw`]: elicit_runtime::url::LandingPage::complete_raw
//! [`LandingPage::confirmation_token`]: elicit_runtime::url::LandingPage::confirmation_token
//! [`LandingPage::open_confirmed`]: elicit_runtime::url::LandingPage::open_confirmed

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod __private;
mod any_browser;
mod browser;
mod confirm;
mod cookie;
mod expiring;
mod form;
mod hook;
mod html;
mod local;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub mod oauth;
mod origin;
mod route;
mod secret;
mod secret_page;
mod spent;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
mod texts;
mod visible;

// The body of the `landing_route` fuzz target, outside `src/` and outside the published
// package: compiled only with `--cfg fuzzing` (cargo-fuzz sets it; `./scripts/test` replays the
// corpus with it).
#[cfg(fuzzing)]
#[doc(hidden)]
#[path = "../fuzz_targets/mod.rs"]
pub mod fuzz_targets;

use std::sync::Arc;

use ::axum::Router;
use ::axum::extract::Request;
use ::axum::routing::get;
use http::{HeaderValue, StatusCode, header};

pub use browser::BrowserUser;
pub use hook::{ConnectHook, ConnectStep, OpenedLink};
pub use local::LocalBrowser;
pub use secret::{Secret, SecretField};
pub use secret_page::{SecretEntry, SecretHook, SecretPage};
pub use texts::PageTexts;

use elicit_runtime::url::LandingPage;
use route::Route;

/// The landing route at `/connect` with the default [`PageTexts`]: `GET
/// /connect?elicitation=<handle>` shows the confirmation page, whose form `POST`s back to the
/// same URL (see [the module](self) for the contract).
///
/// Merge it into the app that serves MCP, e.g. beside rmcp's streamable HTTP service:
/// `landing_routes(page, hook).nest_service("/mcp", mcp)`.
///
/// ```
/// use axum::body::Body;
/// use axum::http::{Request, StatusCode, request::Parts};
/// use axum::response::Response;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_axum::{ConnectHook, ConnectStep, OpenedLink, landing_routes};
/// use elicit_runtime::url::{LandingPage, UrlSettings};
/// use elicit_runtime::ElicitServer;
/// use tower::ServiceExt;
///
/// struct Connect;
///
/// impl ConnectHook for Connect {
///     async fn subject(&self, _parts: &Parts) -> Result<String, Response> {
///         Ok("alice".into())
///     }
///     async fn connect(&self, _link: &OpenedLink, _parts: &Parts) -> ConnectStep {
///         ConnectStep::complete(None)
///     }
/// }
///
/// let url = UrlSettings::in_memory().with_origin("https://app.example.com")?;
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app")).with_url(url);
/// let app = landing_routes(LandingPage::new(&server), Connect);
///
/// // A link without a handle is refused, with the one page every refusal shows.
/// let request = Request::get("/connect").header("host", "app.example.com");
/// let request = request.body(Body::empty()).unwrap();
/// let response = pollster::block_on(app.oneshot(request)).unwrap();
/// assert_eq!(response.status(), StatusCode::NOT_FOUND);
/// # Ok::<(), elicit_runtime::url::OriginError>(())
/// ```
pub fn landing_routes<S>(page: LandingPage, hook: impl ConnectHook) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    LandingRoute::new(page, hook).into_router()
}

/// The landing route, configured: its path, its own origin and its pages' texts.
///
/// ```
/// use axum::http::request::Parts;
/// use axum::response::Response;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink, PageTexts};
/// use elicit_runtime::url::{LandingPage, UrlSettings};
/// use elicit_runtime::ElicitServer;
///
/// struct Connect;
///
/// impl ConnectHook for Connect {
///     async fn subject(&self, _parts: &Parts) -> Result<String, Response> {
///         Ok("alice".into())
///     }
///     async fn connect(&self, _link: &OpenedLink, _parts: &Parts) -> ConnectStep {
///         ConnectStep::complete(None)
///     }
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"))
///     .with_url(UrlSettings::in_memory());
/// let app: axum::Router = LandingRoute::new(LandingPage::new(&server), Connect)
///     .at("/oauth/connect")
///     .with_texts(PageTexts::default().with_close_hint("You can close this tab."))
///     .into_router();
/// # let _ = app;
/// ```
pub struct LandingRoute<H> {
    path: String,
    route: Route<H>,
}

impl<H> std::fmt::Debug for LandingRoute<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LandingRoute")
            .field("path", &self.path)
            .field("texts", &self.route.texts)
            .finish_non_exhaustive()
    }
}

impl<H: ConnectHook> LandingRoute<H> {
    /// The route of `page` (the server's keys and completion store) with `hook`, at
    /// `/connect`, with the default texts.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let route = LandingRoute::new(LandingPage::new(&server), Connect);
    /// assert_eq!(route.path(), "/connect");
    /// ```
    pub fn new(page: LandingPage, hook: H) -> Self {
        // The links' origin is where the route is served: its `Host` is checked against it.
        let origins = page.url_origin().map(str::to_owned).into_iter().collect();
        LandingRoute {
            path: "/connect".to_owned(),
            route: Route {
                page,
                hook,
                texts: PageTexts::default(),
                origins,
                spent: spent::Spent::default(),
            },
        }
    }

    /// Serves at `path` instead (the path of the elicitation's `url`). It must start with `/`
    /// ([`into_router`](LandingRoute::into_router) panics otherwise, as axum does).
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let route = LandingRoute::new(LandingPage::new(&server), Connect).at("/github/connect");
    /// assert_eq!(route.path(), "/github/connect");
    /// ```
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// An origin the route is served under (`scheme://host[:port]`, as browsers send it in
    /// `Origin`), besides the links' origin
    /// ([`UrlSettings::with_origin`](elicit_runtime::url::UrlSettings::with_origin), which
    /// the route takes from its page). Call it once per origin.
    ///
    /// With any origin (this or the links'), a request whose `Host` is none of theirs is refused
    /// (the uniform 404: DNS rebinding), and a `POST`'s `Origin` must be one of them (403).
    /// Behind a proxy that rewrites `Host` (nginx's default sends the upstream's address), add
    /// the origin the proxy forwards to as well, e.g. `http://10.0.0.7:8080`, or every request is
    /// refused. Without any origin, only loopback hosts are served (`localhost`, `127.0.0.1`,
    /// `[::1]`, any port) and a `POST`'s `Origin` must match its own `Host` header.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let route = LandingRoute::new(LandingPage::new(&server), Connect)
    ///     .with_origin("https://app.example.com");
    /// assert_eq!(route.origins(), ["https://app.example.com"]);
    /// ```
    pub fn with_origin(mut self, origin: impl Into<String>) -> Self {
        let origin = origin.into();
        self.route
            .origins
            .push(origin.trim_end_matches('/').to_owned());
        self
    }

    /// The route's origins: the links' origin
    /// ([`UrlSettings::with_origin`](elicit_runtime::url::UrlSettings::with_origin)), then
    /// those set with [`with_origin`](LandingRoute::with_origin). Empty: only loopback hosts
    /// are served, and a `POST`'s `Origin` must be its `Host`.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::{LandingPage, UrlSettings};
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// assert!(LandingRoute::new(LandingPage::new(&server), Connect).origins().is_empty());
    /// let server = server.with_url(UrlSettings::default().with_origin("http://127.0.0.1:8080")?);
    /// let route = LandingRoute::new(LandingPage::new(&server), Connect)
    ///     .with_origin("http://10.0.0.7:8080");
    /// assert_eq!(route.origins(), ["http://127.0.0.1:8080", "http://10.0.0.7:8080"]);
    /// # Ok::<(), elicit_runtime::url::OriginError>(())
    /// ```
    pub fn origins(&self) -> &[String] {
        &self.route.origins
    }

    /// The pages' texts instead of the defaults.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink, PageTexts};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let route = LandingRoute::new(LandingPage::new(&server), Connect)
    ///     .with_texts(PageTexts::default().with_completed("Connected", "Your account is linked."));
    /// # let _ = route;
    /// ```
    pub fn with_texts(mut self, texts: PageTexts) -> Self {
        self.route.texts = texts;
        self
    }

    /// The path it serves.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// assert_eq!(LandingRoute::new(LandingPage::new(&server), Connect).path(), "/connect");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The router serving `GET <path>?elicitation=<handle>` (the confirmation page) and `POST`
    /// to the same URL (its form), and 405 for `HEAD`, for any app state `S`: merge or nest it
    /// into your app.
    ///
    /// # Panics
    ///
    /// If the path is not a valid axum route path (e.g. it does not start with `/`).
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
    /// # use elicit_runtime::url::LandingPage;
    /// # use elicit_runtime::ElicitServer;
    /// # struct Connect;
    /// # impl ConnectHook for Connect {
    /// #     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    /// #     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// #[derive(Clone)]
    /// struct AppState;
    ///
    /// let app: axum::Router<AppState> = axum::Router::new()
    ///     .merge(LandingRoute::new(LandingPage::new(&server), Connect).into_router());
    /// # let _ = app;
    /// ```
    pub fn into_router<S>(self) -> Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        let route = Arc::new(self.route);
        let serve = move |request: Request| {
            let route = Arc::clone(&route);
            async move { route.serve(request).await }
        };
        let post = serve.clone();
        Router::new().route(&self.path, get(serve).post(post).head(head))
    }
}

/// `HEAD` would run the `GET` handler (axum answers it so): a preview has no use for it.
async fn head() -> ::axum::response::Response {
    let mut response =
        ::axum::response::IntoResponse::into_response(StatusCode::METHOD_NOT_ALLOWED);
    let headers = response.headers_mut();
    headers.insert(header::ALLOW, HeaderValue::from_static("GET, POST"));
    html::guard_headers(headers);
    response
}
