//! Bearer-token authentication for an MCP endpoint on axum, as the MCP authorization spec has
//! it: the token checked on every request, the user it names left in the request for the
//! principal, refusals with the `WWW-Authenticate` challenge that points clients at the
//! resource's metadata (RFC 6750 §3, RFC 9728 §5.1), and that metadata document served
//! (RFC 9728 §3).
//!
//! **Reviewed and versioned apart.** This crate is generic web authentication, not
//! elicitation: it has its own version line and its own review, and the elicitation crates'
//! 1.0 (`elicit-rmcp`, `elicit-runtime`, `elicit-axum`, …) does not cover it. Without its
//! `signin` feature it depends on no elicit crate. An elicit server needs only that its MCP
//! requests carry their user (over rmcp: `elicit_rmcp::Principal::from_http_extension`), and
//! that its pages find the same user for the browser (`elicit_axum::BrowserUser`): this crate,
//! another authentication layer or your company's SSO serve it the same way.
//!
//! You bring the check itself ([`VerifyToken`]): look the token up, or validate a JWT from
//! your authorization server. Whatever it accepts, it must have been issued **for this
//! server** (its audience is the resource URL): refuse a token minted for another service,
//! and never pass the token on to another API (the spec forbids token passthrough).
//!
//! ```
//! use axum::Router;
//! use axum::body::Body;
//! use axum::http::{Request, StatusCode};
//! use axum::routing::get;
//! use elicit_axum_auth::{Authenticated, BearerAuth, VerifyToken};
//! use tower::ServiceExt;
//!
//! /// Your token check: a table here, your authorization server's JWT in production.
//! struct Tokens;
//!
//! impl VerifyToken for Tokens {
//!     async fn verify(&self, token: &str) -> Option<Authenticated> {
//!         (token == "alice-token").then(|| Authenticated::new("alice"))
//!     }
//! }
//!
//! let auth = BearerAuth::new("https://desk.example.com/mcp", Tokens)?
//!     .with_authorization_server("https://auth.example.com")?;
//! // What is behind reads the user; over rmcp, `Principal::from_http_extension` does.
//! let mcp = Router::new().route("/mcp", get(|user: axum::Extension<Authenticated>| async move {
//!     user.subject().to_owned()
//! }));
//! // Only MCP behind the check; merge the connect page and the sign-in beside it.
//! let app = auth.protect(mcp);
//!
//! let call = |token: Option<&str>| {
//!     let mut request = Request::get("/mcp");
//!     if let Some(token) = token {
//!         request = request.header("authorization", format!("Bearer {token}"));
//!     }
//!     pollster::block_on(app.clone().oneshot(request.body(Body::empty()).unwrap())).unwrap()
//! };
//! assert_eq!(call(Some("alice-token")).status(), StatusCode::OK);
//! let refused = call(None);
//! assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
//! assert_eq!(
//!     refused.headers()["www-authenticate"],
//!     r#"Bearer resource_metadata="https://desk.example.com/.well-known/oauth-protected-resource/mcp""#
//! );
//! # Ok::<(), elicit_axum_auth::BearerError>(())
//! ```
//!
//! # The browser's sign-in (feature `signin`)
//!
//! The browser that opens an elicitation link carries no bearer token, so elicit-axum's pages
//! ask who its user is (`elicit_axum::BrowserUser`). `SignIn` answers for a server whose
//! tokens an authorization server issues: the browser signs in at that same server (the
//! authorization code grant with PKCE, then its userinfo endpoint's `sub`), and a sealed
//! cookie keeps the user, the same subject your [`VerifyToken`] gives that person's bearer
//! token. `discover` reads the server's endpoints from its metadata.
//!
#![cfg_attr(feature = "signin", doc = "```")]
#![cfg_attr(not(feature = "signin"), doc = "```ignore")]
//! use elicit_axum::oauth::{OAuth, OAuthProvider};
//! use elicit_axum_auth::SignIn;
//! use elicit_runtime::ElicitServer;
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_runtime::url::UrlSettings;
//! # struct Github;
//! # impl elicit_axum::oauth::OAuthHook for Github {
//! #     async fn connected(&self, _: elicit_axum::oauth::Connection<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
//! # }
//!
//! let url = UrlSettings::in_memory().with_origin("https://mcp.example.com")?;
//! let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "mcp.example.com"))
//!     .with_url(url);
//! // Your authorization server, this app registered there (or `discover(issuer, id).await?`).
//! let issuer = OAuthProvider::new(
//!     "auth.example.com",
//!     "https://auth.example.com/authorize",
//!     "https://auth.example.com/token",
//!     "mcp-server",
//! )
//! .with_client_secret("client-secret")
//! .with_account_url("https://auth.example.com/userinfo");
//! // Back at https://mcp.example.com/signin/callback: register it there.
//! let sign_in = SignIn::new(&server, issuer)?;
//! // The browser's user of an OAuth connection (or a `SecretPage`): signed in on the way.
//! let github = OAuth::github(&server, "client-id", "client-secret", sign_in.clone(), Github)?;
//! let browsers: axum::Router = github.routes().merge(sign_in.routes());
//! # let _ = browsers;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "signin")]
mod discovery;
mod header;
mod metadata;
#[cfg(feature = "signin")]
mod signin;
mod url;

#[cfg(feature = "signin")]
#[cfg_attr(docsrs, doc(cfg(feature = "signin")))]
pub use discovery::discover;
#[cfg(feature = "signin")]
#[cfg_attr(docsrs, doc(cfg(feature = "signin")))]
pub use signin::SignIn;

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use ::axum::Router;
use ::axum::extract::{Request, State};
use ::axum::middleware::Next;
use ::axum::response::{IntoResponse, Response};
use ::axum::routing::get;
use http::{HeaderValue, header as h};

use header::{Credentials, Refusal};
use metadata::Resource;

/// Your check of an access token: whose it is.
///
/// Return whose a token issued for this server is ([`Authenticated::new`] with the user's
/// stable id, the token's `sub`, and [`with_scopes`](Authenticated::with_scopes) its granted
/// scopes when [`BearerAuth::with_scopes`] requires some), or `None` for one that is unknown,
/// expired, revoked, or issued for another resource. The subject is what the principal is,
/// so it must be the same string the landing page's `elicit_axum::BrowserUser` finds for
/// that user's browser (with this crate's `SignIn`, feature `signin`, the same `sub`).
///
/// The token reaching it is one `Authorization: Bearer` header's, of RFC 6750's syntax
/// (anything else was refused with `400`), and still attacker-controlled: look it up by its
/// hash or compare it in constant time, and never log it.
///
/// ```
/// use elicit_axum_auth::{Authenticated, VerifyToken};
///
/// struct Tokens;
///
/// impl VerifyToken for Tokens {
///     async fn verify(&self, token: &str) -> Option<Authenticated> {
///         let alice = Authenticated::new("alice").with_scopes(["deploy"]);
///         (token == "alice-token").then_some(alice)
///     }
/// }
/// let alice = pollster::block_on(Tokens.verify("alice-token")).unwrap();
/// assert_eq!((alice.subject(), alice.scopes()), ("alice", &["deploy".to_owned()][..]));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a token check: `BearerAuth` needs a `VerifyToken`",
    label = "this does not implement `elicit_axum_auth::VerifyToken`",
    note = "implement it: `impl VerifyToken for {Self} {{ async fn verify(&self, token: &str) -> Option<Authenticated> {{ … }} }}`"
)]
pub trait VerifyToken: Send + Sync + 'static {
    /// Whose `token` is, or `None` to refuse it.
    fn verify(&self, token: &str) -> impl Future<Output = Option<Authenticated>> + Send;
}

/// The user a request's bearer token names, and the scopes it grants: what
/// [`VerifyToken::verify`] gives and [`BearerAuth`] leaves in the request's extensions for
/// what it protects (over rmcp:
/// `Principal::from_http_extension(|user: &Authenticated| Some(user.subject().to_owned()))`).
///
/// ```
/// use elicit_axum_auth::Authenticated;
///
/// fn greet(user: &Authenticated) -> String {
///     format!("hello {}", user.subject())
/// }
/// # let _ = greet;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authenticated {
    subject: String,
    scopes: Vec<String>,
}

impl Authenticated {
    /// The token's user, `subject` (its stable id: the token's `sub`), with no scopes. An
    /// empty subject names no one: the token is refused.
    ///
    /// ```
    /// let alice = elicit_axum_auth::Authenticated::new("alice");
    /// assert_eq!((alice.subject(), alice.scopes()), ("alice", &[][..]));
    /// ```
    pub fn new(subject: impl Into<String>) -> Self {
        Authenticated {
            subject: subject.into(),
            scopes: Vec::new(),
        }
    }

    /// The scopes the token grants (a JWT's `scope`, split at spaces; an introspection
    /// answer's).
    ///
    /// ```
    /// let alice = elicit_axum_auth::Authenticated::new("alice").with_scopes("deploy read".split(' '));
    /// assert_eq!(alice.scopes(), ["deploy", "read"]);
    /// ```
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Who the token belongs to.
    ///
    /// ```
    /// assert_eq!(elicit_axum_auth::Authenticated::new("alice").subject(), "alice");
    /// ```
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes the token grants, as [`VerifyToken::verify`] gave them.
    ///
    /// ```
    /// let bob = elicit_axum_auth::Authenticated::new("bob").with_scopes(["read"]);
    /// assert_eq!(bob.scopes(), ["read"]);
    /// ```
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }
}

/// A [`BearerAuth`] that cannot be built, and why (the URL or scope at fault, in words).
///
/// ```
/// # struct Tokens;
/// # impl elicit_axum_auth::VerifyToken for Tokens {
/// #     async fn verify(&self, _: &str) -> Option<elicit_axum_auth::Authenticated> { None }
/// # }
/// let error = elicit_axum_auth::BearerAuth::new("https://desk.example.com/mcp", Tokens)
///     .and_then(|auth| auth.with_scopes(["two words"]))
///     .err()
///     .unwrap();
/// assert_eq!(
///     error.to_string(),
///     r#"the scope "two words" is not a scope token (RFC 6749: printable ASCII, no space, quote or backslash)"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BearerError(String);

impl fmt::Display for BearerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BearerError {}

/// Why a [`SignIn`] (or [`discover`]) refused its settings: found at start-up, not on the
/// first sign-in (the provider, the issuer's metadata, in words).
///
/// ```
/// # use elicit_axum::oauth::OAuthProvider;
/// # let server = elicit_runtime::ElicitServer::new(elicit_runtime::state::StateSealer::new(
/// #     elicit_runtime::state::KeyRing::generate(), "app"));
/// let no_redirect = OAuthProvider::github("id", "secret");
/// let error = elicit_axum_auth::SignIn::new(&server, no_redirect).unwrap_err();
/// assert!(error.to_string().starts_with("the provider github has no redirect URL"));
/// ```
#[cfg(feature = "signin")]
#[cfg_attr(docsrs, doc(cfg(feature = "signin")))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInError(String);

#[cfg(feature = "signin")]
impl fmt::Display for SignInError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(feature = "signin")]
impl std::error::Error for SignInError {}

/// elicit-axum's refusal of the provider's settings, in its words.
#[cfg(feature = "signin")]
impl From<elicit_axum::oauth::OAuthError> for SignInError {
    fn from(error: elicit_axum::oauth::OAuthError) -> Self {
        SignInError(error.to_string())
    }
}

/// Bearer-token authentication for the routes it [protects](BearerAuth::protect), with the
/// resource's metadata document (see [the crate](crate)).
///
/// On each request: no `Authorization` answers **401** with
/// `WWW-Authenticate: Bearer resource_metadata="…"` (and `scope="…"` when scopes are set); a
/// malformed one (two headers, another scheme, a token outside RFC 6750's syntax) **400**
/// `error="invalid_request"`; a token your [`VerifyToken`] refuses **401**
/// `error="invalid_token"`; one without every scope [`with_scopes`](Self::with_scopes) names
/// **403** `error="insufficient_scope"` (the client may ask the user for them and retry); an
/// accepted one goes on with its [`Authenticated`] user in the
/// request's extensions. Refusals carry `Cache-Control: no-store` and a one-line body. The
/// metadata document is served with `Access-Control-Allow-Origin: *` (it is public).
///
/// ```
/// use elicit_axum_auth::{Authenticated, BearerAuth, VerifyToken};
///
/// struct Tokens;
/// impl VerifyToken for Tokens {
///     async fn verify(&self, _token: &str) -> Option<Authenticated> {
///         None
///     }
/// }
///
/// // Plain http only on loopback, for development.
/// assert!(BearerAuth::new("http://127.0.0.1:8765/mcp", Tokens).is_ok());
/// let err = BearerAuth::new("http://desk.example.com/mcp", Tokens).err().unwrap();
/// assert!(err.to_string().contains("must be https://"));
/// ```
pub struct BearerAuth<V> {
    verify: V,
    resource: Resource,
    issuers: Vec<String>,
    scopes: Vec<String>,
}

impl<V> fmt::Debug for BearerAuth<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerAuth")
            .field("resource", &self.resource.url)
            .field("authorization_servers", &self.issuers)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl<V: VerifyToken> BearerAuth<V> {
    /// Authentication for the resource at `resource` (the MCP endpoint's URL, e.g.
    /// `https://desk.example.com/mcp`: the audience your tokens are issued for), checking
    /// tokens with `verify`. The URL must be `https` (`http` only on `localhost`,
    /// `127.0.0.1` or `[::1]`), without query or fragment.
    ///
    /// ```
    /// # struct Tokens;
    /// # impl elicit_axum_auth::VerifyToken for Tokens {
    /// #     async fn verify(&self, _: &str) -> Option<elicit_axum_auth::Authenticated> { None }
    /// # }
    /// use elicit_axum_auth::BearerAuth;
    ///
    /// let auth = BearerAuth::new("https://desk.example.com/mcp", Tokens)?;
    /// assert!(BearerAuth::new("https://desk.example.com/mcp?x=1", Tokens).is_err());
    /// # let _ = auth;
    /// # Ok::<(), elicit_axum_auth::BearerError>(())
    /// ```
    pub fn new(resource: &str, verify: V) -> Result<Self, BearerError> {
        Ok(BearerAuth {
            verify,
            resource: metadata::resource(resource)?,
            issuers: Vec::new(),
            scopes: Vec::new(),
        })
    }

    /// Names an authorization server (its issuer URL) in the metadata document, where MCP
    /// clients look for where to get a token. Name yours when clients get their tokens by
    /// OAuth themselves (the MCP authorization flow: discovery, then the authorization
    /// server's own metadata); leave it out when tokens are handed out otherwise (an API key
    /// in the client's configuration): the document then names only the resource.
    ///
    /// ```
    /// # struct Tokens;
    /// # impl elicit_axum_auth::VerifyToken for Tokens {
    /// #     async fn verify(&self, _: &str) -> Option<elicit_axum_auth::Authenticated> { None }
    /// # }
    /// use elicit_axum_auth::BearerAuth;
    ///
    /// let auth = BearerAuth::new("https://desk.example.com/mcp", Tokens)?
    ///     .with_authorization_server("https://auth.example.com")?;
    /// # let _ = auth;
    /// # Ok::<(), elicit_axum_auth::BearerError>(())
    /// ```
    pub fn with_authorization_server(mut self, issuer: &str) -> Result<Self, BearerError> {
        self.issuers.push(metadata::issuer(issuer)?);
        Ok(self)
    }

    /// The scopes a token needs here: required of every request (a token whose
    /// [`Authenticated::scopes`] lack one is refused with 403 `insufficient_scope`), named
    /// in the challenge's `scope` so the client asks for them, and listed as
    /// `scopes_supported` in the metadata document.
    ///
    /// ```
    /// # struct Tokens;
    /// # impl elicit_axum_auth::VerifyToken for Tokens {
    /// #     async fn verify(&self, _: &str) -> Option<elicit_axum_auth::Authenticated> { None }
    /// # }
    /// use elicit_axum_auth::BearerAuth;
    ///
    /// let auth = BearerAuth::new("https://desk.example.com/mcp", Tokens)?
    ///     .with_scopes(["deploy", "repos:read"])?;
    /// # let _ = auth;
    /// # Ok::<(), elicit_axum_auth::BearerError>(())
    /// ```
    pub fn with_scopes<'a>(
        mut self,
        scopes: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, BearerError> {
        for scope in scopes {
            self.scopes.push(metadata::scope(scope)?);
        }
        Ok(self)
    }

    /// `router` behind the token check, merged with the metadata document's route (which
    /// is not behind it: clients read it before they have a token). Put only the MCP
    /// endpoint in `router`; merge what browsers open (the connect page, the OAuth callback,
    /// your sign-in) into the result, outside the check: a browser has no bearer token.
    ///
    /// ```
    /// # struct Tokens;
    /// # impl elicit_axum_auth::VerifyToken for Tokens {
    /// #     async fn verify(&self, _: &str) -> Option<elicit_axum_auth::Authenticated> { None }
    /// # }
    /// use elicit_axum_auth::BearerAuth;
    ///
    /// let mcp = axum::Router::new().route("/mcp", axum::routing::post(|| async { "ok" }));
    /// let connect = axum::Router::new().route("/connect", axum::routing::get(|| async { "page" }));
    /// let app: axum::Router = BearerAuth::new("https://desk.example.com/mcp", Tokens)?
    ///     .protect(mcp)
    ///     .merge(connect);
    /// # let _ = app;
    /// # Ok::<(), elicit_axum_auth::BearerError>(())
    /// ```
    pub fn protect<S>(self, router: Router<S>) -> Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        let document = metadata::document(&self.resource, &self.issuers, &self.scopes);
        let path = self.resource.metadata_path.clone();
        let check = Arc::new(Check {
            required: self.scopes,
            metadata_url: self.resource.metadata_url,
            verify: self.verify,
        });
        let document = Arc::new(document.to_string());
        router
            .layer(::axum::middleware::from_fn_with_state(
                check,
                authenticate::<V>,
            ))
            .route(&path, get(move || metadata_response(document.clone())))
    }
}

/// What the middleware needs on each request.
struct Check<V> {
    verify: V,
    metadata_url: String,
    required: Vec<String>,
}

async fn authenticate<V: VerifyToken>(
    State(check): State<Arc<Check<V>>>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let refusal = match header::credentials(&parts) {
        Credentials::Missing => Refusal::Missing,
        Credentials::Malformed => Refusal::InvalidRequest,
        Credentials::Token(token) => match check.verify.verify(token).await {
            Some(user) if user.subject.is_empty() => Refusal::InvalidToken,
            Some(user) if !check.required.iter().all(|s| user.scopes.contains(s)) => {
                Refusal::InsufficientScope
            }
            Some(user) => {
                parts.extensions.insert(user);
                return next.run(Request::from_parts(parts, body)).await;
            }
            None => Refusal::InvalidToken,
        },
    };
    tracing::debug!(target: "elicit", ?refusal, "bearer token refused");
    let (status, error, text) = refusal.answer();
    let challenge = header::challenge(error, &check.metadata_url, &check.required);
    let mut response = (status, text).into_response();
    let headers = response.headers_mut();
    // Every part was checked to be visible ASCII without quotes.
    if let Ok(challenge) = HeaderValue::from_str(&challenge) {
        headers.insert(h::WWW_AUTHENTICATE, challenge);
    }
    headers.insert(h::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The metadata document: public, so any origin may read it (an MCP client in a browser
/// fetches it from its own origin before it has a token).
async fn metadata_response(document: Arc<String>) -> Response {
    let headers = [
        (h::CONTENT_TYPE, "application/json"),
        (h::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
    ];
    (headers, document.as_str().to_owned()).into_response()
}
