//! Not public API: the seam elicit-axum-auth's sign-in uses (its `SignIn` and `discover` run
//! the grant elicit-axum's OAuth connections run, on this origin's cookies and pages). It pins
//! this crate's exact version (`=`); not covered by semver, do not use.

use ::axum::response::Response;
use http::StatusCode;

#[cfg(feature = "oauth")]
use crate::oauth::{OAuthError, OAuthProvider};
use crate::texts::PageTexts;
#[cfg(feature = "oauth")]
use elicit_runtime::ElicitServer;

pub use crate::cookie::RouteCookie;
#[cfg(feature = "oauth")]
pub use crate::oauth::{callback::CallbackQuery, client::ProviderClient, nonces::NonceCookie};

/// The page of a flow that did not complete (status 200): `heading` and `message`, or the
/// texts' `failed` ones, and the close hint.
///
/// ```
/// let texts = elicit_axum::PageTexts::default();
/// let page = elicit_axum::__private::failed_page(&texts, Some("Sign-in failed"), None);
/// assert_eq!(page.status(), axum::http::StatusCode::OK);
/// assert_eq!(page.headers()["cache-control"], "no-store");
/// ```
pub fn failed_page(texts: &PageTexts, heading: Option<&str>, message: Option<&str>) -> Response {
    texts.failed_page(heading, message)
}

/// The one page every refusal shows, with `status`.
///
/// ```
/// use axum::http::StatusCode;
///
/// let texts = elicit_axum::PageTexts::default();
/// let page = elicit_axum::__private::refused_page(&texts, StatusCode::FORBIDDEN);
/// assert_eq!(page.status(), StatusCode::FORBIDDEN);
/// ```
pub fn refused_page(texts: &PageTexts, status: StatusCode) -> Response {
    texts.refused_page(status)
}

/// Whether `url` is an endpoint the `oauth` module takes: `https`, or plain `http` on a
/// loopback host; else why not, naming it `what`.
///
/// ```
/// use elicit_axum::__private::check_url;
///
/// assert!(check_url("the issuer", "http://127.0.0.1:9000").is_ok());
/// assert_eq!(
///     check_url("the issuer", "http://auth.example.com").unwrap_err().to_string(),
///     "the issuer must be https (http only on localhost, 127.0.0.1 or [::1]): http://auth.example.com"
/// );
/// ```
#[cfg(feature = "oauth")]
pub fn check_url(what: &str, url: &str) -> Result<(), OAuthError> {
    crate::oauth::check_url(what, url)
}

/// `provider` as `server` uses it, what `OAuth::new` does first: its redirect URL
/// `default_path` on the server's URL origin when it has none, and every setting checked.
///
/// ```
/// use elicit_axum::__private::{redirect_url, settle};
/// use elicit_axum::oauth::OAuthProvider;
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::UrlSettings;
///
/// let url = UrlSettings::in_memory().with_origin("https://mcp.example.com")?;
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app")).with_url(url);
/// let mut github = OAuthProvider::github("id", "secret");
/// settle(&mut github, &server, "/signin/callback")?;
/// assert_eq!(redirect_url(&github), Some("https://mcp.example.com/signin/callback"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "oauth")]
pub fn settle(
    provider: &mut OAuthProvider,
    server: &ElicitServer,
    default_path: &str,
) -> Result<(), OAuthError> {
    provider.settle(server, default_path)
}

/// The `303` (`Cache-Control: no-store`) sending the browser to `provider`'s authorize
/// endpoint with `state`, the PKCE challenge (`S256`) of `verifier` and `scopes`, setting
/// `set_cookie`.
///
/// ```
/// use elicit_axum::oauth::OAuthProvider;
///
/// let issuer = OAuthProvider::new("auth", "https://auth.example.com/authorize",
///     "https://auth.example.com/token", "mcp-server")
///     .with_redirect_url("https://mcp.example.com/signin/callback");
/// let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
/// let scopes = ["openid".to_owned()];
/// let sent = elicit_axum::__private::authorize_redirect(&issuer, "sealed", verifier, scopes, "n=1")?;
/// assert_eq!(sent.status(), 303);
/// assert!(sent.headers()["location"].to_str()?.contains("&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"));
/// assert_eq!(sent.headers()["set-cookie"], "n=1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "oauth")]
pub fn authorize_redirect(
    provider: &OAuthProvider,
    state: &str,
    verifier: &str,
    scopes: impl IntoIterator<Item = String>,
    set_cookie: &str,
) -> Result<Response, String> {
    provider.authorize_redirect(state, verifier, scopes, set_cookie)
}

/// The scopes `provider` asks for.
///
/// ```
/// use elicit_axum::oauth::OAuthProvider;
///
/// let google = OAuthProvider::google("id", "s").with_scopes(["openid"]);
/// assert_eq!(elicit_axum::__private::scopes(&google), ["openid"]);
/// ```
#[cfg(feature = "oauth")]
pub fn scopes(provider: &OAuthProvider) -> &[String] {
    provider.scopes()
}

/// `provider`'s account (userinfo) endpoint, if any.
///
/// ```
/// let github = elicit_axum::oauth::OAuthProvider::github("id", "s");
/// assert_eq!(elicit_axum::__private::account_url(&github), Some("https://api.github.com/user"));
/// ```
#[cfg(feature = "oauth")]
pub fn account_url(provider: &OAuthProvider) -> Option<&str> {
    provider.account_url()
}

/// `provider`'s redirect URL (this app's callback), if any.
///
/// ```
/// let github = elicit_axum::oauth::OAuthProvider::github("id", "s")
///     .with_redirect_url("https://mcp.example.com/oauth/callback");
/// let url = elicit_axum::__private::redirect_url(&github);
/// assert_eq!(url, Some("https://mcp.example.com/oauth/callback"));
/// ```
#[cfg(feature = "oauth")]
pub fn redirect_url(provider: &OAuthProvider) -> Option<&str> {
    provider.redirect_url()
}

/// Whether `provider`'s callback is served over `https` (its cookies `__Host-`, `Secure`).
///
/// ```
/// use elicit_axum::__private::secure;
///
/// let github = elicit_axum::oauth::OAuthProvider::github("id", "s");
/// assert!(!secure(&github.clone().with_redirect_url("http://127.0.0.1:8765/cb")));
/// assert!(secure(&github.with_redirect_url("https://mcp.example.com/cb")));
/// ```
#[cfg(feature = "oauth")]
pub fn secure(provider: &OAuthProvider) -> bool {
    provider.secure()
}
