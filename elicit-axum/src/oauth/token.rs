//! What the provider issued, and what [`OAuthHook::connected`](super::OAuthHook::connected) is
//! given: the token, the user it was issued for, and the link of the flow.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use crate::hook::OpenedLink;

/// A token the provider issued. `Debug` shows no secret.
#[derive(Clone)]
pub struct OAuthToken {
    pub(super) access_token: String,
    pub(super) token_type: String,
    pub(super) refresh_token: Option<String>,
    pub(super) expires_in: Option<Duration>,
    pub(super) scopes: Option<Vec<String>>,
}

impl fmt::Debug for OAuthToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthToken")
            .field("token_type", &self.token_type)
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "…"))
            .field("expires_in", &self.expires_in)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl OAuthToken {
    /// The access token.
    pub fn access_token(&self) -> &str {
        &self.access_token
    }
    /// Its type, lowercased (`bearer`: RFC 6749 has token types compared without case).
    pub fn token_type(&self) -> &str {
        &self.token_type
    }
    /// The refresh token, if the provider issued one.
    pub fn refresh_token(&self) -> Option<&str> {
        self.refresh_token.as_deref()
    }
    /// How long the access token lives, if the provider said.
    pub fn expires_in(&self) -> Option<Duration> {
        self.expires_in
    }
    /// The scopes granted, if the provider said (they may be fewer than asked).
    pub fn scopes(&self) -> Option<&[String]> {
        self.scopes.as_deref()
    }
}

/// A finished connection, given to [`OAuthHook::connected`](super::OAuthHook::connected): the
/// provider issued [`token`](Self::token) for [`user`](Self::user) (the browser's user, the
/// same the MCP request was sealed to) in the flow of [`link`](Self::link). `Debug` shows no
/// secret.
///
/// ```
/// use elicit_axum::oauth::Connection;
///
/// /// The row the application keeps: whose token, for which elicitation.
/// fn row(connection: &Connection<'_>) -> (String, String, String) {
///     let user = connection.user().to_owned();
///     let kind = connection.link().key().to_owned();
///     (user, kind, connection.access_token().to_owned())
/// }
/// ```
#[derive(Debug)]
pub struct Connection<'a> {
    pub(super) user: &'a str,
    pub(super) token: OAuthToken,
    pub(super) account: Option<Value>,
    pub(super) link: &'a OpenedLink,
}

impl<'a> Connection<'a> {
    /// The user the token was issued for.
    pub fn user(&self) -> &'a str {
        self.user
    }
    /// The token the provider issued.
    pub fn token(&self) -> &OAuthToken {
        &self.token
    }
    /// Whose account the token is, as the provider's account endpoint answered
    /// ([`OAuthProvider::with_account_url`](super::OAuthProvider::with_account_url); GitHub's
    /// `/user` with [`OAuthProvider::github`](super::OAuthProvider::github): `login`, `id`, …);
    /// `None` when the provider has no account endpoint.
    pub fn account(&self) -> Option<&Value> {
        self.account.as_ref()
    }
    /// The access token (the token's [`access_token`](OAuthToken::access_token)).
    pub fn access_token(&self) -> &str {
        self.token.access_token()
    }
    /// The link of the flow: its key, and the state the tool sealed into it
    /// ([`OpenedLink::state_as`]).
    pub fn link(&self) -> &'a OpenedLink {
        self.link
    }
    /// The token, owned (to keep it).
    pub fn into_token(self) -> OAuthToken {
        self.token
    }
}
