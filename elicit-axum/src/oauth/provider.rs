//! Which OAuth 2.0 provider a connection goes to: its endpoints, the app's client credentials,
//! the scopes, and the app's callback URL.

use std::fmt;

use serde_json::Value;

use super::OAuthError;
use elicit_runtime::ElicitServer;

/// An OAuth 2.0 authorization server the user connects an account of (authorization code grant
/// with PKCE), and this app's registration there.
///
/// ```
/// use elicit_axum::oauth::OAuthProvider;
///
/// let github = OAuthProvider::github("Iv1.8a61f9b3a7aba766", "client-secret")
///     .with_scopes(["repo", "read:user"])
///     .with_redirect_url("https://mcp.example.com/oauth/callback");
/// assert_eq!(github.name(), "github");
/// assert_eq!(github.callback_path(), Some("/oauth/callback"));
/// ```
#[derive(Clone)]
pub struct OAuthProvider {
    pub(super) name: String,
    pub(super) authorize_url: String,
    pub(super) token_url: String,
    pub(super) client_id: String,
    pub(super) client_secret: Option<String>,
    pub(super) scopes: Vec<String>,
    pub(super) redirect_url: Option<String>,
    /// The client credentials go in the token request's body instead of HTTP Basic auth.
    pub(super) credentials_in_body: bool,
    /// The endpoint that says whose account a token is (`Connection::account`).
    pub(super) account_url: Option<String>,
}

impl fmt::Debug for OAuthProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthProvider")
            .field("name", &self.name)
            .field("authorize_url", &self.authorize_url)
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("scopes", &self.scopes)
            .field("redirect_url", &self.redirect_url)
            .field("credentials_in_body", &self.credentials_in_body)
            .field("account_url", &self.account_url)
            .finish()
    }
}

impl OAuthProvider {
    /// A provider by its endpoints: `name` says which in logs and binds the flow's sealed
    /// `state` to it (any short, stable name: `"github"`, the issuer's host; two providers of
    /// one server need two names); `authorize_url` is where the browser goes, `token_url` where the server
    /// trades the code. Both must be `https` (plain `http` only on loopback, for a local fake).
    pub fn new(
        name: impl Into<String>,
        authorize_url: impl Into<String>,
        token_url: impl Into<String>,
        client_id: impl Into<String>,
    ) -> Self {
        OAuthProvider {
            name: name.into(),
            authorize_url: authorize_url.into(),
            token_url: token_url.into(),
            client_id: client_id.into(),
            client_secret: None,
            scopes: Vec::new(),
            redirect_url: None,
            credentials_in_body: false,
            account_url: None,
        }
    }

    /// GitHub (an OAuth app or a GitHub App's user authorization; the credentials go in the
    /// token request's body, as GitHub documents). The account is GitHub's
    /// `https://api.github.com/user` (its `login`, `id`, `name`), which any token may read.
    pub fn github(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        Self::new(
            "github",
            "https://github.com/login/oauth/authorize",
            "https://github.com/login/oauth/access_token",
            client_id,
        )
        .with_client_secret(client_secret)
        .with_credentials_in_body()
        .with_account_url("https://api.github.com/user")
    }

    /// Google (OAuth 2.0 for web server applications); add the scopes you need, e.g.
    /// `https://www.googleapis.com/auth/calendar.readonly`. For the account (its `sub` and
    /// `email`), ask `openid email` too and add
    /// `.with_account_url("https://openidconnect.googleapis.com/v1/userinfo")`.
    pub fn google(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        Self::new(
            "google",
            "https://accounts.google.com/o/oauth2/v2/auth",
            "https://oauth2.googleapis.com/token",
            client_id,
        )
        .with_client_secret(client_secret)
    }

    /// The app's client secret (confidential clients; sent to the token endpoint only).
    pub fn with_client_secret(mut self, secret: impl Into<String>) -> Self {
        self.client_secret = Some(secret.into());
        self
    }

    /// Sends the client id and secret as `client_id` and `client_secret` in the token
    /// request's body, for providers that do not take them by HTTP Basic auth (the default,
    /// which RFC 6749 requires every provider to accept).
    pub fn with_credentials_in_body(mut self) -> Self {
        self.credentials_in_body = true;
        self
    }

    /// The provider's endpoint that says whose account a token is: GitHub's
    /// `https://api.github.com/user` (set by [`github`](Self::github)), an OpenID Connect
    /// provider's userinfo endpoint. After the code exchange the callback asks it with the
    /// token (`GET`, `Authorization: Bearer`, redirects not followed, 10 s, at most 64 KiB) and
    /// gives the hook the JSON object as [`Connection::account`](super::Connection::account);
    /// if it does not answer with one, the flow fails with "the provider did not say whose
    /// account this is" (its words go to the log). `https` only (plain `http` on loopback).
    ///
    /// ```
    /// use elicit_axum::oauth::OAuthProvider;
    ///
    /// let google = OAuthProvider::google("client-id.apps.googleusercontent.com", "secret")
    ///     .with_scopes(["openid", "email"])
    ///     .with_account_url("https://openidconnect.googleapis.com/v1/userinfo");
    /// # let _ = google;
    /// ```
    pub fn with_account_url(mut self, url: impl Into<String>) -> Self {
        self.account_url = Some(url.into());
        self
    }

    /// **For tests**: the same provider with its authorize, token and account endpoints moved
    /// to `origin` (`scheme://host[:port]`), each keeping its path, so a test points the ready
    /// [`github`](Self::github) or [`google`](Self::google) at a stand-in provider on loopback
    /// (`elicit_axum::testing::StandInProvider`, feature `testing`) without spelling out their
    /// endpoints again. Everything else (client id and secret, where the credentials go,
    /// scopes, redirect URL) stays. Plain `http` is accepted on loopback only, as for any
    /// endpoint ([`OAuth::new`](super::OAuth::new) checks).
    ///
    /// ```
    /// use elicit_axum::oauth::OAuthProvider;
    ///
    /// let github = OAuthProvider::github("client-id", "client-secret")
    ///     .stand_in_at("http://127.0.0.1:4000");
    /// assert_eq!(
    ///     format!("{github:?}"),
    ///     "OAuthProvider { name: \"github\", \
    ///      authorize_url: \"http://127.0.0.1:4000/login/oauth/authorize\", \
    ///      token_url: \"http://127.0.0.1:4000/login/oauth/access_token\", \
    ///      client_id: \"client-id\", client_secret: Some(\"…\"), scopes: [], \
    ///      redirect_url: None, credentials_in_body: true, \
    ///      account_url: Some(\"http://127.0.0.1:4000/user\") }"
    /// );
    /// ```
    pub fn stand_in_at(mut self, origin: &str) -> Self {
        let origin = origin.trim_end_matches('/');
        let moved = |url: &str| {
            let path = url
                .split_once("://")
                .and_then(|(_, rest)| rest.find('/').map(|at| &rest[at..]))
                .unwrap_or("/");
            format!("{origin}{path}")
        };
        self.authorize_url = moved(&self.authorize_url);
        self.token_url = moved(&self.token_url);
        self.account_url = self.account_url.as_deref().map(moved);
        self
    }

    /// The scopes asked for.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// This app's callback, as registered with the provider (`https://…/oauth/callback`; plain
    /// `http` only on loopback, for development). The callback route is mounted at its path.
    pub fn with_redirect_url(mut self, url: impl Into<String>) -> Self {
        self.redirect_url = Some(url.into());
        self
    }

    /// The scopes a flow asks for: the provider's ([`with_scopes`](Self::with_scopes)), then
    /// those of the link's sealed `scopes` field, if the `#[elicit_url]` struct has one (a
    /// string of scopes separated by spaces or commas, or a list of strings), each once. What
    /// is not a scope token (RFC 6749 §3.3: printable ASCII but space, `"` and `\`) is left
    /// out.
    pub(super) fn scopes_for<'a>(&'a self, state: &'a Value) -> impl Iterator<Item = String> + 'a {
        let linked: Vec<&str> = match state.get("scopes") {
            Some(Value::String(scopes)) => scopes.split([' ', ',']).collect(),
            Some(Value::Array(scopes)) => scopes.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut seen = Vec::new();
        self.scopes
            .iter()
            .map(String::as_str)
            .chain(linked)
            .filter(|scope| super::scope::is_scope_token(scope))
            .filter(move |scope| {
                let new = !seen.contains(scope);
                if new {
                    seen.push(*scope);
                }
                new
            })
            .map(str::to_owned)
    }

    /// The provider's name.
    ///
    /// ```
    /// assert_eq!(elicit_axum::oauth::OAuthProvider::google("id", "s").name(), "google");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The scopes asked for ([`with_scopes`](Self::with_scopes)).
    pub(crate) fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The endpoint that says whose account a token is
    /// ([`with_account_url`](Self::with_account_url)), if any.
    pub(crate) fn account_url(&self) -> Option<&str> {
        self.account_url.as_deref()
    }

    /// This app's callback URL ([`with_redirect_url`](Self::with_redirect_url), or the one
    /// [`settle`](Self::settle) chose), if any.
    pub(crate) fn redirect_url(&self) -> Option<&str> {
        self.redirect_url.as_deref()
    }

    /// The path of the callback URL, where the callback route is mounted.
    pub fn callback_path(&self) -> Option<&str> {
        let url = self.redirect_url.as_deref()?;
        let rest = url.split_once("://")?.1;
        let path = &rest[rest.find('/')?..];
        Some(path.split(['?', '#']).next().unwrap_or(path))
    }

    /// The origin of the callback URL (`scheme://host[:port]`): where this app is served.
    pub(super) fn callback_origin(&self) -> Option<&str> {
        let url = self.redirect_url.as_deref()?;
        let scheme_end = url.find("://")? + 3;
        let end = url[scheme_end..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |at| scheme_end + at);
        Some(&url[..end])
    }

    /// Whether the callback is served over `https` (then the binding cookie is a `__Host-`
    /// cookie, `Secure`); `http` is loopback development.
    pub(crate) fn secure(&self) -> bool {
        self.redirect_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
    }
}

impl OAuthProvider {
    /// The provider as `server` uses it, what [`OAuth::new`](super::OAuth::new) does first:
    /// its redirect URL `default_path` on the server's URL origin when it has none, and every
    /// setting checked at start-up (a client id, a redirect URL with a path other than
    /// `/connect`, endpoints [`check_url`] takes).
    pub(crate) fn settle(
        &mut self,
        server: &ElicitServer,
        default_path: &str,
    ) -> Result<(), OAuthError> {
        if self.redirect_url.is_none() {
            self.redirect_url = server
                .url_settings()
                .origin()
                .map(|origin| format!("{origin}{default_path}"));
        }
        let name = &self.name;
        if self.client_id.trim().is_empty() {
            return Err(OAuthError(format!(
                "the provider {name} has an empty client id (is its environment variable set?)"
            )));
        }
        let Some(redirect) = self.redirect_url.as_deref() else {
            return Err(OAuthError(format!(
                "the provider {name} has no redirect URL: `OAuthProvider::with_redirect_url`, or the server's URL origin (`UrlSettings::with_origin`)"
            )));
        };
        check_url("the redirect URL", redirect)?;
        check_url("the authorize URL", &self.authorize_url)?;
        check_url("the token URL", &self.token_url)?;
        if let Some(account) = &self.account_url {
            check_url("the account URL", account)?;
        }
        match self.callback_path() {
            None | Some("/") => Err(OAuthError(format!(
                "the redirect URL needs a path for the callback route: {redirect}"
            ))),
            Some("/connect") => Err(OAuthError(format!(
                "the redirect URL's path is the landing route's (`/connect`): {redirect}"
            ))),
            Some(_) => Ok(()),
        }
    }
}

/// Whether `url` is an endpoint or callback the `oauth` module takes: `https`, or plain `http`
/// on a loopback host (`localhost`, `127.0.0.1`, `[::1]`), for development; else why not,
/// naming it `what`.
pub(crate) fn check_url(what: &str, url: &str) -> Result<(), OAuthError> {
    if crate::origin::is_secure_or_loopback(url) {
        return Ok(());
    }
    Err(OAuthError(format!(
        "{what} must be https (http only on localhost, 127.0.0.1 or [::1]): {url}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scopes(provider: &OAuthProvider, state: Value) -> Vec<String> {
        provider.scopes_for(&state).collect()
    }

    #[test]
    fn the_link_adds_its_scopes_to_the_providers_each_once() {
        let github = OAuthProvider::github("id", "secret").with_scopes(["read:user"]);
        assert_eq!(scopes(&github, json!({})), ["read:user"]);
        assert_eq!(
            scopes(&github, json!({"scopes": "repo, read:user  gist"})),
            ["read:user", "repo", "gist"]
        );
        assert_eq!(
            scopes(&github, json!({"scopes": ["repo", 7, "bad\"scope", ""]})),
            ["read:user", "repo"]
        );
        assert_eq!(scopes(&github, json!({"scopes": 3})), ["read:user"]);
    }
}
