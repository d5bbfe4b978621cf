//! A ready OAuth connection (feature `oauth`): a URL-mode flow that connects the user's account
//! at a provider (GitHub, Google, or any OAuth 2.0 authorization server), with the browser
//! binding and the code exchange built in. The application says who the browser's user is and
//! what to do with the token.
//!
//! The flow: the tool asks its `#[elicit_url]` elicitation as always; the link opens the
//! landing route's confirmation page; on Confirm the browser goes to the provider (authorization
//! code grant with PKCE), carrying a `state` sealed with the server's keys and bound to the
//! provider, the browser's user and a random nonce this origin set in a cookie; the provider
//! sends the browser back to the callback route, which opens nothing unless that same browser
//! (its cookie), the same user and an unused, unexpired `state` come back, trades the code for
//! a token (through the [`oauth2`](https://docs.rs/oauth2) crate; redirects not followed, at
//! most 64 KiB and 10 s, over rustls), and
//! gives it to [`OAuthHook::connected`], with whose account it is when the provider has an
//! account endpoint ([`Connection::account`]: GitHub's `/user`); what that returns completes
//! or fails the flow, and the tool reads it as `UrlAnswer::Completed` or `Failed`. The token
//! never passes through the MCP client or the model.
//!
//! The provider's endpoints (token, account) are asked over rustls with the Mozilla roots,
//! and through the HTTP proxy of `HTTPS_PROXY` (or `ALL_PROXY`) unless
//! `NO_PROXY` names the host, by a `CONNECT` tunnel the TLS runs inside. To use another rustls
//! crypto provider than ring (aws-lc-rs, for post-quantum key exchange), install it as the
//! process default (`rustls::crypto::CryptoProvider::install_default`) before building
//! [`OAuth`].
//!
//! Over `https` the nonce cookie is `__Host-elicit_oauth` (`Secure`, this origin only); on a
//! plain-`http` loopback callback, for development, it is `elicit_oauth`, which browsers keep
//! there. Either way it is `HttpOnly` and `SameSite=Lax`, and holds the nonces of up to four
//! flows one browser has under way at once (two tabs, a GitHub and a Google connection): each
//! callback spends its own.
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::Mutex;
//! use axum::http::request::Parts;
//! use axum::response::Redirect;
//! use elicit_axum::oauth::{Connection, OAuth, OAuthHook};
//! use elicit_runtime::ElicitServer;
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_runtime::url::UrlSettings;
//! use serde_json::{Value, json};
//!
//! /// Where the app keeps its users' GitHub tokens.
//! #[derive(Default)]
//! struct Github {
//!     tokens: Mutex<HashMap<String, String>>,
//! }
//!
//! impl OAuthHook for Github {
//!     async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
//!         self.tokens.lock().unwrap().insert(c.user().to_owned(), c.access_token().to_owned());
//!         // Whose GitHub account: `/user`, which the callback asked with the token.
//!         let login = c.account().and_then(|a| a["login"].as_str());
//!         Ok(Some(json!({"login": login, "scopes": c.token().scopes()})))
//!     }
//! }
//!
//! /// Who the browser's user is: your app's session (here a header its middleware sets).
//! fn signed_in(parts: &Parts) -> Result<String, Redirect> {
//!     let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
//!     user.map(str::to_owned).ok_or_else(|| Redirect::to("/login"))
//! }
//!
//! let url = UrlSettings::in_memory().with_origin("https://mcp.example.com")?;
//! let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "mcp.example.com"))
//!     .with_url(url);
//! // The redirect URL is https://mcp.example.com/oauth/callback: register it with GitHub.
//! let github = OAuth::github(&server, "client-id", "client-secret", signed_in, Github::default())?;
//! let app: axum::Router = github.routes();
//! # let _ = app;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The scopes asked are the provider's ([`OAuthProvider::with_scopes`], for
//! [`OAuth::new`]) and those the tool seals into the link: a `scopes` field of the
//! `#[elicit_url]` struct (`"repo read:user"`, or a list), so each tool asks for what it needs.
//! Any other provider is [`OAuth::new`] with an [`OAuthProvider`] of its endpoints.
//!
//! (`elicit_runtime::…` is `elicit_rmcp::…` for a server on rmcp: that crate re-exports the
//! core whole.)
//!
//! # Who the browser's user is
//!
//! The browser that opens the link cannot send the MCP client's bearer token, so the
//! [`BrowserUser`] given to `OAuth` says who it is, and it must name the same user the MCP
//! request was sealed to:
//!
//! * a stdio server, with one local user: [`LocalBrowser`](crate::LocalBrowser);
//! * an HTTP server whose MCP clients hold tokens from an authorization server: the
//!   `elicit-axum-auth` crate's `SignIn` (feature `signin`), which signs the browser in at that
//!   same server (OpenID Connect) and keeps the user in a sealed cookie;
//! * an app with a login of its own: a function reading its session, as above.

mod account;
mod binding;
// `callback`, `client` and `nonces`: their types are the sign-in's seam too (`crate::__private`).
pub(crate) mod callback;
pub(crate) mod client;
mod grant;
pub(crate) mod nonces;
mod provider;
mod proxy;
mod scope;
mod token;

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use ::axum::Router;
use ::axum::response::Response;
use ::axum::routing::get;
use http::request::Parts;
use serde_json::Value;

use super::LandingRoute;
use super::hook::{ConnectHook, ConnectStep, OpenedLink};
use super::texts::PageTexts;
use elicit_runtime::ElicitServer;
use elicit_runtime::state::StateSealer;
use elicit_runtime::url::LandingPage;

use crate::BrowserUser;
use crate::any_browser::AnyBrowser;
use binding::Started;
use client::ProviderClient;
use nonces::NonceCookie;
pub use provider::OAuthProvider;
pub(crate) use provider::check_url;
pub use token::{Connection, OAuthToken};

/// What the application does with a connection: keep the token the provider issued for a user
/// (who the browser's user is, is the [`BrowserUser`] given to [`OAuth::new`]).
pub trait OAuthHook: Send + Sync + 'static {
    /// The provider issued a token for the user of a flow ([`Connection`]: the user, the
    /// token, whose account it is, the link): keep it (server-side), and return what the tool
    /// handler reads (`UrlAnswer::Completed`'s `result`; never the token), or a reason the flow
    /// failed (`UrlAnswer::Failed`).
    fn connected(
        &self,
        connection: Connection<'_>,
    ) -> impl Future<Output = Result<Option<Value>, String>> + Send;
}

/// A shared hook (e.g. one the application's other routes use too).
impl<H: OAuthHook> OAuthHook for Arc<H> {
    fn connected(
        &self,
        connection: Connection<'_>,
    ) -> impl Future<Output = Result<Option<Value>, String>> + Send {
        H::connected(self, connection)
    }
}

/// Why [`OAuth::new`] refused its settings: found at start-up, not on the first connection.
///
/// ```
/// use elicit_axum::oauth::{OAuth, OAuthProvider};
/// # use elicit_runtime::ElicitServer;
/// # use elicit_runtime::state::{KeyRing, StateSealer};
/// # struct Hook;
/// # impl elicit_axum::oauth::OAuthHook for Hook {
/// #     async fn connected(&self, _: elicit_axum::oauth::Connection<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
/// # }
/// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
/// # let browser = elicit_axum::LocalBrowser::new(&server);
/// let no_callback = OAuthProvider::github("id", "secret");
/// let error = OAuth::new(&server, no_callback, browser, Hook).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "the provider github has no redirect URL: `OAuthProvider::with_redirect_url`, or the server's URL origin (`UrlSettings::with_origin`)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthError(String);

impl fmt::Display for OAuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OAuthError {}

/// The OAuth connection: a [`ConnectHook`] for the landing route (Confirm sends the browser to
/// the provider) and the provider's callback route. [`routes`](OAuth::routes) mounts both.
pub struct OAuth<H> {
    inner: Arc<Inner<H>>,
}

impl<H> Clone for OAuth<H> {
    fn clone(&self) -> Self {
        OAuth {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<H> fmt::Debug for OAuth<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("provider", &self.inner.provider)
            .finish_non_exhaustive()
    }
}

struct Inner<H> {
    provider: OAuthProvider,
    browser: AnyBrowser,
    hook: H,
    sealer: StateSealer,
    page: LandingPage,
    texts: PageTexts,
    cookie: NonceCookie,
    http: ProviderClient,
}

impl<H: OAuthHook> OAuth<H> {
    /// A connection to `provider` for the links `server` seals, for the user `browser` says
    /// the browser is, its token given to `hook`.
    /// Refuses, at start-up, a provider without a client id (an unset environment variable),
    /// without a redirect URL, or with an endpoint that is not `https` (plain `http` only on
    /// loopback).
    ///
    /// The redirect URL is the provider's ([`OAuthProvider::with_redirect_url`]) or, when it
    /// has none, `/oauth/callback` on the server's URL origin
    /// ([`UrlSettings::with_origin`](elicit_runtime::url::UrlSettings::with_origin)): register
    /// that one with the provider.
    pub fn new(
        server: &ElicitServer,
        mut provider: OAuthProvider,
        browser: impl BrowserUser,
        hook: H,
    ) -> Result<Self, OAuthError> {
        provider.settle(server, "/oauth/callback")?;
        let http = ProviderClient::new()?;
        Ok(OAuth {
            inner: Arc::new(Inner {
                cookie: binding::nonce_cookie(provider.secure()),
                provider,
                browser: AnyBrowser::new(browser),
                hook,
                sealer: server.sealer().clone(),
                page: LandingPage::new(server),
                texts: PageTexts::default(),
                http,
            }),
        })
    }

    /// A connection to GitHub ([`OAuthProvider::github`]) with the app's client id and secret;
    /// the redirect URL is `/oauth/callback` on the server's URL origin. The scopes asked are
    /// the link's `scopes` field (the [module's documentation](crate::oauth)).
    ///
    /// ```
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_runtime::url::UrlSettings;
    /// # struct Hook;
    /// # impl elicit_axum::oauth::OAuthHook for Hook {
    /// #     async fn connected(&self, _: elicit_axum::oauth::Connection<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
    /// # }
    /// use elicit_axum::LocalBrowser;
    /// use elicit_axum::oauth::OAuth;
    ///
    /// let url = UrlSettings::in_memory().with_origin("http://127.0.0.1:8765")?;
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "desk")).with_url(url);
    /// // A stdio server's one local user, who the MCP requests run as.
    /// let browser = LocalBrowser::new(&server);
    /// let github = OAuth::github(&server, "client-id", "client-secret", browser, Hook)?;
    /// let app: axum::Router = github.routes(); // `/connect` and `/oauth/callback`
    /// # let _ = app;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn github(
        server: &ElicitServer,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        browser: impl BrowserUser,
        hook: H,
    ) -> Result<Self, OAuthError> {
        Self::new(
            server,
            OAuthProvider::github(client_id, client_secret),
            browser,
            hook,
        )
    }

    /// A connection to Google ([`OAuthProvider::google`]), as [`github`](Self::github) is to
    /// GitHub.
    pub fn google(
        server: &ElicitServer,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        browser: impl BrowserUser,
        hook: H,
    ) -> Result<Self, OAuthError> {
        Self::new(
            server,
            OAuthProvider::google(client_id, client_secret),
            browser,
            hook,
        )
    }

    /// The landing route at `/connect` (its confirmation page sends the browser to the
    /// provider) and the callback route at the redirect URL's path, on one router. The landing
    /// route serves the links' origin and the redirect URL's (see
    /// [`landing_route`](OAuth::landing_route)).
    pub fn routes<S: Clone + Send + Sync + 'static>(self) -> Router<S> {
        let callback = self.callback_route();
        callback.merge(self.landing_route().into_router())
    }

    /// The landing route alone, to move or restyle it ([`LandingRoute::at`], texts), with
    /// [`callback_route`](OAuth::callback_route) mounted beside it. Its origins are the links'
    /// ([`UrlSettings::with_origin`](elicit_runtime::url::UrlSettings::with_origin)) and the
    /// redirect URL's, where this app is served: a request for any other `Host` is refused.
    pub fn landing_route(self) -> LandingRoute<Self> {
        let page = self.inner.page.clone();
        let callback = self.inner.provider.callback_origin().map(str::to_owned);
        let route = LandingRoute::new(page, self);
        match callback {
            Some(origin) if !route.origins().contains(&origin) => route.with_origin(origin),
            _ => route,
        }
    }

    /// The provider's callback route alone, at the redirect URL's path.
    pub fn callback_route<S: Clone + Send + Sync + 'static>(&self) -> Router<S> {
        let path = self
            .inner
            .provider
            .callback_path()
            .unwrap_or("/oauth/callback");
        let oauth = self.clone();
        Router::new().route(
            path,
            get(move |parts: Parts| async move { callback::serve(&oauth.inner, parts).await }),
        )
    }
}

impl<H: OAuthHook> ConnectHook for OAuth<H> {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.inner.browser.subject(parts).await
    }

    /// Confirmed: the browser goes to the provider with a sealed `state` and PKCE, and gets
    /// the nonce cookie the callback checks. Nothing is recorded yet.
    async fn connect(&self, link: &OpenedLink, parts: &Parts) -> ConnectStep {
        let user = match self.inner.browser.subject(parts).await {
            Ok(user) => user,
            Err(response) => return ConnectStep::respond(response),
        };
        let inner = &self.inner;
        let nonce = oauth2::CsrfToken::new_random().into_secret();
        let (_, verifier) = oauth2::PkceCodeChallenge::new_random_sha256();
        let started = Started {
            handle: link.handle().to_owned(),
            verifier: verifier.into_secret(),
        };
        let state =
            match binding::seal(&inner.sealer, &inner.provider.name, &user, &nonce, &started) {
                Ok(state) => state,
                Err(reason) => {
                    return ConnectStep::fail(format!(
                        "the OAuth state could not be sealed: {reason}"
                    ));
                }
            };
        let max_age = link
            .opened()
            .expires_at()
            .duration_since(std::time::SystemTime::now())
            .map_or(0, |left| left.as_secs());
        let cookie = inner.cookie.add(parts, &nonce, max_age);
        let scopes = inner.provider.scopes_for(link.state());
        let sent = (inner.provider).authorize_redirect(&state, &started.verifier, scopes, &cookie);
        let response = match sent {
            Ok(response) => response,
            Err(reason) => return ConnectStep::fail(reason),
        };
        tracing::info!(target: "elicit", id = link.id(), provider = %inner.provider.name.escape_debug(), "landing page sent the browser to the OAuth provider");
        ConnectStep::respond(response)
    }
}
