//! Who the browser's user is on an HTTP server whose MCP clients hold tokens from an
//! authorization server: the browser signs in at that same server (authorization code grant
//! with PKCE; the user is a claim of its userinfo answer, `sub` by default), and a sealed
//! session cookie keeps the user for a while. What the MCP spec's "connect" pattern asks: the
//! page compares the browser session's subject with the one the MCP request was made as.
//!
//! The grant is elicit-axum's, as its OAuth connections run it: the provider settled and
//! checked, the redirect, the callback's query, the nonce cookie's check of the sealed
//! `state`, the code exchange and the userinfo question: elicit-axum's hidden seam
//! (`elicit_axum::__private`), which is why this crate pins elicit-axum's exact version.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use ::axum::Router;
use ::axum::response::{IntoResponse, Redirect, Response};
use ::axum::routing::get;
use elicit_axum::__private::{
    self as seam, CallbackQuery, NonceCookie, ProviderClient, RouteCookie,
};
use elicit_axum::oauth::OAuthProvider;
use elicit_axum::{BrowserUser, PageTexts};
use elicit_runtime::ElicitServer;
use elicit_runtime::state::{Binding, StateSealer, args_digest};
use http::request::Parts;
use http::{HeaderValue, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::SignInError;

/// How long a sign-in lasts unless [`SignIn::with_session_lifetime`] says otherwise.
const SESSION_LIFETIME: Duration = Duration::from_secs(60 * 60);

/// The longest subject kept: an identifier, not a document.
const MAX_SUBJECT: usize = 256;

/// What the sign-in fails with when the userinfo answer names nobody: the words of
/// `ProviderClient::account`'s own failure (the details go to the log).
const NO_ACCOUNT: &str = "the provider did not say whose account this is";

/// The browser's sign-in at your authorization server: a [`BrowserUser`] for
/// `elicit_axum::oauth::OAuth` (or any page of elicit-axum's, the secret page too) on an HTTP
/// server whose bearer tokens that server issues.
///
/// A browser without a session is sent to the provider's authorize endpoint (code grant with
/// PKCE, `state` sealed with the server's keys and bound to a nonce cookie of this origin,
/// `elicit_signin` (`__Host-elicit_signin` over https), so another browser's code signs nobody
/// in: login CSRF). The browser's sign-ins under way (two tabs, or pages another site makes it
/// open) share that one nonce, each with its own single-use `state`, so none pushes another
/// out; the cookie ends with its `Max-Age`, the server's link lifetime. On the way back
/// ([`routes`](SignIn::routes), `/signin/callback` by default) the code is traded, the
/// provider's userinfo endpoint ([`OAuthProvider::with_account_url`]) is asked who the token
/// is for, and its `sub` ([`with_subject_claim`](SignIn::with_subject_claim)) is the user,
/// kept in a sealed, `HttpOnly`, `SameSite=Lax` cookie (`__Host-elicit_session` over https,
/// `elicit_session` on `http` loopback) for an hour
/// ([`with_session_lifetime`](SignIn::with_session_lifetime)); then the browser is back on
/// the page it asked for. That user must be the principal the MCP request was made as: the
/// subject your bearer check (e.g. [`VerifyToken`](crate::VerifyToken)) gives the same
/// person's bearer token.
///
/// ```
/// use elicit_axum::oauth::OAuthProvider;
/// use elicit_axum_auth::SignIn;
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::UrlSettings;
///
/// let url = UrlSettings::in_memory().with_origin("https://mcp.example.com")?;
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "mcp.example.com"))
///     .with_url(url);
/// // Your authorization server, and this app's registration there (or, from its metadata:
/// // `elicit_axum_auth::discover("https://auth.example.com", "mcp-server").await?`).
/// let issuer = OAuthProvider::new(
///     "auth.example.com",
///     "https://auth.example.com/authorize",
///     "https://auth.example.com/token",
///     "mcp-server",
/// )
/// .with_client_secret("client-secret")
/// .with_account_url("https://auth.example.com/userinfo");
/// // The redirect URL is https://mcp.example.com/signin/callback: register it there.
/// let sign_in = SignIn::new(&server, issuer)?;
/// let app: axum::Router = sign_in.routes();
/// // `sign_in.clone()` is the browser user of `OAuth::github(&server, …, sign_in, hook)`.
/// # let _ = app;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// It is cheap to clone (one `Arc`).
#[derive(Clone)]
pub struct SignIn {
    inner: Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    provider: OAuthProvider,
    /// Its userinfo endpoint, which says who signed in.
    userinfo: String,
    claim: String,
    /// Seals the sign-in's `state` (the server's sealer: its lifetime, its replay guard).
    sealer: StateSealer,
    /// Seals the session cookie (no replay guard: it is shown on every page).
    sessions: StateSealer,
    nonce: NonceCookie,
    session: RouteCookie,
    texts: PageTexts,
    http: ProviderClient,
}

impl fmt::Debug for SignIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignIn")
            .field("provider", &self.inner.provider)
            .field("claim", &self.inner.claim)
            .field("session_lifetime", &self.inner.sessions.ttl())
            .finish_non_exhaustive()
    }
}

/// What the sealed `state` of a sign-in carries.
#[derive(Serialize, Deserialize)]
struct Started {
    /// Where the browser goes back to: a path on this origin.
    #[serde(rename = "n")]
    next: String,
    /// The PKCE verifier the code is traded with.
    #[serde(rename = "v")]
    verifier: String,
}

/// What the session cookie carries.
#[derive(Serialize, Deserialize)]
struct Session {
    #[serde(rename = "s")]
    subject: String,
}

impl SignIn {
    /// Browsers sign in at `provider`, for the pages of the links `server` seals. Refuses, at
    /// start-up, a provider without a userinfo endpoint ([`OAuthProvider::with_account_url`])
    /// and whatever `elicit_axum::oauth::OAuth::new` refuses. The redirect URL is the
    /// provider's or `/signin/callback` on the server's URL origin; the scopes are the
    /// provider's, `openid` when it has none.
    ///
    /// ```
    /// # use elicit_axum::oauth::OAuthProvider;
    /// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
    /// #     elicit_runtime::state::KeyRing::generate(), "app"));
    /// let no_userinfo = OAuthProvider::google("id", "secret")
    ///     .with_redirect_url("https://mcp.example.com/signin/callback");
    /// assert_eq!(
    ///     elicit_axum_auth::SignIn::new(&server, no_userinfo).unwrap_err().to_string(),
    ///     "the sign-in at google needs its userinfo endpoint, to learn who signed in: `OAuthProvider::with_account_url`"
    /// );
    /// ```
    pub fn new(server: &ElicitServer, mut provider: OAuthProvider) -> Result<Self, SignInError> {
        seam::settle(&mut provider, server, "/signin/callback")?;
        let Some(userinfo) = seam::account_url(&provider).map(str::to_owned) else {
            return Err(SignInError(format!(
                "the sign-in at {} needs its userinfo endpoint, to learn who signed in: `OAuthProvider::with_account_url`",
                provider.name()
            )));
        };
        if seam::scopes(&provider).is_empty() {
            provider = provider.with_scopes(["openid"]);
        }
        let secure = seam::secure(&provider);
        let sealer = server.sealer().clone();
        Ok(SignIn {
            inner: Arc::new(Inner {
                provider,
                userinfo,
                claim: "sub".to_owned(),
                sessions: sealer
                    .clone()
                    .without_replay_guard()
                    .with_ttl(SESSION_LIFETIME),
                sealer,
                nonce: NonceCookie::new(RouteCookie::new(
                    "elicit_signin",
                    "__Host-elicit_signin",
                    secure,
                )),
                session: RouteCookie::new("elicit_session", "__Host-elicit_session", secure),
                texts: PageTexts::default(),
                http: ProviderClient::new()?,
            }),
        })
    }

    /// Browsers sign in at the authorization server whose issuer identifier is `issuer`, its
    /// endpoints read from its metadata ([`discover`](crate::discover)), this app registered
    /// there as `client_id` with `client_secret`: what [`new`](SignIn::new) does with that
    /// provider. Refuses, at start-up, what either refuses (an issuer whose metadata lists no
    /// `userinfo_endpoint` among them).
    ///
    /// ```no_run
    /// use elicit_axum_auth::SignIn;
    /// # async fn run(server: elicit_runtime::ElicitServer) -> Result<(), Box<dyn std::error::Error>> {
    /// let secret = std::env::var("AUTH_CLIENT_SECRET")?;
    /// let sign_in = SignIn::discover(&server, "https://auth.example.com", "mcp-server", secret).await?;
    /// # let _ = sign_in;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn discover(
        server: &ElicitServer,
        issuer: &str,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Self, SignInError> {
        let provider = crate::discover(issuer, client_id).await?;
        SignIn::new(server, provider.with_client_secret(client_secret))
    }

    /// The userinfo claim that names the user (`sub` unless set): the same identifier your
    /// bearer check gives the MCP request.
    ///
    /// ```
    /// # use elicit_axum::oauth::OAuthProvider;
    /// # use elicit_axum_auth::SignIn;
    /// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
    /// #     elicit_runtime::state::KeyRing::generate(), "app"));
    /// let github = OAuthProvider::github("id", "secret")
    ///     .with_redirect_url("https://mcp.example.com/signin/callback");
    /// let sign_in = SignIn::new(&server, github)?.with_subject_claim("login");
    /// # let _ = sign_in;
    /// # Ok::<(), elicit_axum_auth::SignInError>(())
    /// ```
    #[must_use]
    pub fn with_subject_claim(mut self, claim: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.inner).claim = claim.into();
        self
    }

    /// How long a browser stays signed in (an hour unless set; at most a day).
    ///
    /// ```
    /// # use elicit_axum::oauth::OAuthProvider;
    /// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
    /// #     elicit_runtime::state::KeyRing::generate(), "app"));
    /// # let issuer = OAuthProvider::github("id", "secret")
    /// #     .with_redirect_url("https://mcp.example.com/signin/callback");
    /// let workday = std::time::Duration::from_secs(8 * 60 * 60);
    /// let sign_in = elicit_axum_auth::SignIn::new(&server, issuer)?.with_session_lifetime(workday);
    /// # let _ = sign_in;
    /// # Ok::<(), elicit_axum_auth::SignInError>(())
    /// ```
    #[must_use]
    pub fn with_session_lifetime(mut self, lifetime: Duration) -> Self {
        let inner = Arc::make_mut(&mut self.inner);
        inner.sessions = inner.sessions.clone().with_ttl(lifetime);
        self
    }

    /// The redirect URL to register at the provider: the provider's, or `/signin/callback` on
    /// the server's URL origin.
    ///
    /// ```
    /// # use elicit_axum::oauth::OAuthProvider;
    /// # use elicit_axum_auth::SignIn;
    /// # use elicit_runtime::url::UrlSettings;
    /// # let url = UrlSettings::in_memory().with_origin("https://mcp.example.com")?;
    /// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
    /// #     elicit_runtime::state::KeyRing::generate(), "app")).with_url(url);
    /// # let issuer = OAuthProvider::new("auth", "https://auth.example.com/authorize",
    /// #     "https://auth.example.com/token", "mcp-server")
    /// #     .with_account_url("https://auth.example.com/userinfo");
    /// let sign_in = SignIn::new(&server, issuer)?;
    /// assert_eq!(sign_in.redirect_url(), "https://mcp.example.com/signin/callback");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redirect_url(&self) -> &str {
        seam::redirect_url(&self.inner.provider).unwrap_or_default()
    }

    /// The callback route, at the redirect URL's path (`/signin/callback` by default). Mount
    /// it on the app beside the pages whose browser user this is.
    ///
    /// ```
    /// # use elicit_axum::oauth::OAuthProvider;
    /// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
    /// #     elicit_runtime::state::KeyRing::generate(), "app"));
    /// # let issuer = OAuthProvider::github("id", "secret")
    /// #     .with_redirect_url("https://mcp.example.com/signin/callback");
    /// let sign_in = elicit_axum_auth::SignIn::new(&server, issuer)?;
    /// let app: axum::Router = sign_in.routes();
    /// # let _ = app;
    /// # Ok::<(), elicit_axum_auth::SignInError>(())
    /// ```
    pub fn routes<S: Clone + Send + Sync + 'static>(&self) -> Router<S> {
        let path = self
            .inner
            .provider
            .callback_path()
            .unwrap_or("/signin/callback");
        let inner = Arc::clone(&self.inner);
        Router::new().route(
            path,
            get(move |parts: Parts| async move { inner.callback(parts).await }),
        )
    }
}

/// The signed-in user, or a redirect to sign in (and back here).
impl BrowserUser for SignIn {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        let inner = &self.inner;
        if let Some(subject) = inner.session(parts) {
            return Ok(subject);
        }
        Err(inner.sign_in(parts))
    }
}

impl Inner {
    /// The binding of a sign-in's `state` to the browser's `nonce`.
    fn started_binding<'a>(&'a self, nonce: &str) -> Binding<'a> {
        Binding {
            method: "oauth/signin",
            target: self.provider.name(),
            args_digest: args_digest(&json!(nonce)),
            principal: None,
        }
    }

    /// The binding of a session cookie.
    fn session_binding(&self) -> Binding<'_> {
        Binding {
            method: "oauth/session",
            target: self.provider.name(),
            args_digest: args_digest(&json!(null)),
            principal: None,
        }
    }

    /// The user of the browser's session cookie, if it holds an unexpired one of ours.
    fn session(&self, parts: &Parts) -> Option<String> {
        let cookie = self.session.read(parts)?;
        let opened = self
            .sessions
            .open_now::<Session>(cookie, &self.session_binding())
            .ok()?;
        Some(opened.payload.subject)
    }

    /// The redirect to the provider, coming back to the page `parts` asked for.
    fn sign_in(&self, parts: &Parts) -> Response {
        let next = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        // Any `GET` gets here, another site's forced navigations too: they share the nonce of
        // the browser's sign-in under way rather than push it out.
        let fresh = oauth2::CsrfToken::new_random().into_secret();
        let (_, verifier) = oauth2::PkceCodeChallenge::new_random_sha256();
        let max_age = self.sealer.ttl().as_secs();
        let (nonce, cookie) = self.nonce.shared(parts, fresh, max_age);
        let started = Started {
            next: next.to_owned(),
            verifier: verifier.into_secret(),
        };
        let state = match self
            .sealer
            .seal_now(&self.started_binding(&nonce), &started)
        {
            Ok(state) => state,
            Err(e) => {
                let reason = format!("the sign-in state could not be sealed: {e}");
                return self.failed(&reason);
            }
        };
        let scopes = seam::scopes(&self.provider).iter().cloned();
        let verifier = &started.verifier;
        let sent = seam::authorize_redirect(&self.provider, &state, verifier, scopes, &cookie);
        let response = match sent {
            Ok(response) => response,
            Err(reason) => return self.failed(&reason),
        };
        tracing::info!(target: "elicit", provider = %self.provider.name().escape_debug(), "browser sent to sign in");
        response
    }

    /// `GET <callback>?code=…&state=…`: only the browser that was sent, with an unused
    /// `state`, signs in; then it goes back where it was.
    async fn callback(&self, parts: Parts) -> Response {
        let query = CallbackQuery::of(&parts);
        let Some(state) = query.state.filter(|s| !s.is_empty()) else {
            return self.refused("no state");
        };
        // The nonce of this sign-in, among those of the browser's sign-ins under way; a
        // callback the browser did not start (login CSRF) has none.
        let bound = |nonce: &str| self.started_binding(nonce);
        let redeemed = self
            .nonce
            .redeem::<Started>(&parts, &self.sealer, &state, bound);
        let (started, _) = match redeemed.await {
            Ok(started) => started,
            Err(reason) => return self.refused(&format!("state refused: {reason}")),
        };
        let code = match (query.code.filter(|c| !c.is_empty()), query.error) {
            (Some(code), None) => code,
            (_, Some(_)) => {
                let reason = "the sign-in was not completed at the provider";
                return self.failed(reason);
            }
            (None, None) => return self.failed("the provider sent no code"),
        };
        let subject = async {
            let http = &self.http;
            let token = http
                .exchange(&self.provider, &code, &started.verifier)
                .await?;
            let name = self.provider.name();
            let account = http.account(name, &self.userinfo, token.access_token());
            let account = account.await?;
            // A string, or a number (GitHub's `id`).
            let subject = match account.get(&self.claim) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            if subject.is_empty() || subject.len() > MAX_SUBJECT {
                return Err(NO_ACCOUNT.to_owned());
            }
            Ok(subject)
        };
        let subject = match subject.await {
            Ok(subject) => subject,
            Err(reason) => return self.failed(&reason),
        };
        let session = Session { subject };
        let sealed = match self.sessions.seal_now(&self.session_binding(), &session) {
            Ok(sealed) => sealed,
            Err(e) => {
                let reason = format!("the session could not be sealed: {e}");
                return self.failed(&reason);
            }
        };
        let mut response = Redirect::to(local_path(&started.next)).into_response();
        let max_age = self.sessions.ttl().as_secs();
        set_cookie(&mut response, &self.session.set(&sealed, Some(max_age)));
        tracing::info!(target: "elicit", provider = %self.provider.name().escape_debug(), "browser signed in");
        response
    }

    /// The uniform refusal (403) of a callback this browser did not start: the reason goes to
    /// the log only, and the nonce cookie stays (a forged callback must not end a real one).
    fn refused(&self, reason: &str) -> Response {
        tracing::warn!(target: "elicit", status = 403, reason = %reason.escape_debug(), "sign-in callback refused");
        seam::refused_page(&self.texts, StatusCode::FORBIDDEN)
    }

    /// A sign-in that did not complete: the reason on the page. The nonce cookie stays: the
    /// browser's other sign-ins under way share it, and it ends with its `Max-Age`.
    fn failed(&self, reason: &str) -> Response {
        tracing::warn!(target: "elicit", reason = %reason.escape_debug(), "sign-in failed");
        let reason = sentence(reason);
        let mut response = seam::failed_page(&self.texts, Some("Sign-in failed"), Some(&reason));
        *response.status_mut() = StatusCode::FORBIDDEN;
        response
    }
}

/// A reason as the page shows it: capitalized, ending with a full stop.
fn sentence(reason: &str) -> String {
    let (first, rest) = reason.split_at(reason.chars().next().map_or(0, char::len_utf8));
    let stop = if reason.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("{}{rest}{stop}", first.to_uppercase())
}

/// `next` if it is a path on this origin, else `/`: never a redirect elsewhere.
fn local_path(next: &str) -> &str {
    let local = next.starts_with('/') && !next.starts_with("//") && !next.contains('\\');
    if local { next } else { "/" }
}

/// Appends `Set-Cookie: cookie` and `Cache-Control: no-store` to `response`.
fn set_cookie(response: &mut Response, cookie: &str) {
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(cookie) {
        headers.append(header::SET_COOKIE, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

#[cfg(test)]
mod tests {
    use super::{local_path, sentence};

    #[test]
    fn the_way_back_is_a_path_on_this_origin() {
        assert_eq!(
            local_path("/connect?elicitation=x"),
            "/connect?elicitation=x"
        );
        assert_eq!(local_path("//evil.example"), "/");
        assert_eq!(local_path("/\\evil.example"), "/");
        assert_eq!(local_path("https://evil.example"), "/");
        assert_eq!(local_path(""), "/");
    }

    #[test]
    fn a_reason_reads_as_a_sentence() {
        assert_eq!(
            sentence("the provider sent no code"),
            "The provider sent no code."
        );
        assert_eq!(sentence("done."), "Done.");
        assert_eq!(sentence(""), ".");
    }
}
