//! The server's elicitation settings, shared by every request.

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::state::StateSealer;
use crate::waits::{UrlWait, UrlWaits};

mod url;

pub use url::{
    DEFAULT_MAX_URL_WAITS, DEFAULT_MAX_URL_WAITS_PER_USER, DEFAULT_URL_HOLD, OriginError,
    UrlSettings,
};

/// How many times a form question whose accepted answer fails its checks is asked again before
/// the call fails with `-32602`, unless the question
/// ([`Question::reasks`](crate::Question::reasks)) or the server
/// ([`ElicitServer::with_max_reasks`](crate::ElicitServer::with_max_reasks)) says otherwise.
pub const DEFAULT_MAX_REASKS: u8 = 2;

/// The server's elicitation settings: the sealer for `requestState` (keys, audience, expiry,
/// replay guard), the server's identity, how questions are asked and URL mode's
/// [`UrlSettings`]. Cheap to clone;
/// build one at start-up and share it.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "booking-server"))
///     .with_server_info("booking-server", "1.0.0");
/// # let _ = server;
/// ```
#[derive(Clone)]
pub struct ElicitServer {
    inner: Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    sealer: StateSealer,
    server_info: Option<Value>,
    url: UrlSettings,
    strict_provenance: bool,
    principal_required: bool,
    /// Permits for requests waiting on a URL-mode page: 2025-11-25 handlers and held
    /// 2026-07-28 retries.
    url_waits: UrlWaits,
    max_reasks: u8,
}

impl fmt::Debug for ElicitServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitServer")
            .field("sealer", &self.inner.sealer)
            .field("server_info", &self.inner.server_info)
            .field("url", &self.inner.url)
            .field("strict_provenance", &self.inner.strict_provenance)
            .field("principal_required", &self.inner.principal_required)
            .field("max_reasks", &self.inner.max_reasks)
            .finish()
    }
}

impl ElicitServer {
    /// Settings that seal `requestState` with `sealer`.
    pub fn new(sealer: StateSealer) -> Self {
        ElicitServer {
            inner: Arc::new(Inner {
                sealer,
                server_info: None,
                url: UrlSettings::default(),
                strict_provenance: false,
                principal_required: false,
                url_waits: url_waits(&UrlSettings::default()),
                max_reasks: DEFAULT_MAX_REASKS,
            }),
        }
    }

    fn with(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = Inner::clone(&self.inner);
        f(&mut inner);
        ElicitServer {
            inner: Arc::new(inner),
        }
    }

    /// Adds `_meta["io.modelcontextprotocol/serverInfo"]` to every `InputRequiredResult`.
    pub fn with_server_info(self, name: &str, version: &str) -> Self {
        let info = json!({"name": name, "version": version});
        self.with(|inner| inner.server_info = Some(info))
    }

    /// URL mode's settings: the completion store (without one, URL-mode questions fail), the
    /// pages' origin, how long a retry waits for a page, the wait limits and the link fallback.
    /// Replaces any given before; the requests waiting on pages keep their places unless the
    /// wait limits changed (then a new pool starts).
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::url::UrlSettings;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar"))
    ///     .with_url(UrlSettings::in_memory());
    /// assert!(server.url_settings().store().is_some());
    /// ```
    pub fn with_url(self, settings: UrlSettings) -> Self {
        self.with(|inner| {
            let limits = |s: &UrlSettings| (s.max_waits(), s.max_waits_per_user());
            if limits(&inner.url) != limits(&settings) {
                inner.url_waits = url_waits(&settings);
            }
            inner.url = settings;
        })
    }

    /// URL mode's settings ([`UrlSettings::default`] unless [`with_url`](Self::with_url) gave
    /// some).
    pub fn url_settings(&self) -> &UrlSettings {
        &self.inner.url
    }

    /// Strict provenance for every question of this server: an answer counts only when the
    /// sealed `requestState` shows that this server asked exactly that question in the round
    /// before. Answers that arrive unasked (a one-shot call carrying `inputResponses`, answers
    /// replayed by a caching gateway, or params written by a model under prompt injection) are
    /// ignored and the question is asked for real.
    ///
    /// The cost is one more round trip for clients that answer in advance, and a client that
    /// never echoes `requestState` can never answer. The default is off, as the spec's
    /// conformance suite expects a one-shot answer to count. **Turn it on for anything that
    /// spends money or deletes data**, or per question with
    /// [`Question::strict_provenance`](crate::Question::strict_provenance).
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "payments"))
    ///     .with_strict_provenance();
    /// assert!(server.strict_provenance());
    /// ```
    pub fn with_strict_provenance(self) -> Self {
        self.with(|inner| inner.strict_provenance = true)
    }

    /// Asks a form question again at most `times` times when an accepted answer fails the
    /// form's checks (by default [`DEFAULT_MAX_REASKS`]); `0` turns re-asking off, so such an
    /// answer ends the call with `-32602` listing every bad field, as before re-asking
    /// existed. A question can say otherwise ([`Question::reasks`](crate::Question::reasks)).
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "booking-server"));
    /// assert_eq!(server.max_reasks(), elicit_runtime::form::DEFAULT_MAX_REASKS);
    /// let patient = server.with_max_reasks(5);
    /// assert_eq!(patient.max_reasks(), 5);
    /// ```
    pub fn with_max_reasks(self, times: u8) -> Self {
        self.with(|inner| inner.max_reasks = times)
    }

    /// How many times a form question is asked again after an answer fails its checks.
    pub fn max_reasks(&self) -> u8 {
        self.inner.max_reasks
    }

    /// Whether every question of this server requires strict provenance.
    pub fn strict_provenance(&self) -> bool {
        self.inner.strict_provenance
    }

    /// Refuses every request without an authenticated principal: building its context fails
    /// with `-32600` and `data.reason = "unauthenticated"` (the message names what is
    /// missing), before any state is opened or sealed and before the handler asks anything.
    ///
    /// Turn it on for every server reachable over a network. Without it, a request whose
    /// principal is `None` (an authentication layer that let it through, or a principal read
    /// from the wrong place, as a server over streamable HTTP that looks in rmcp's request
    /// extensions instead of the HTTP request's) seals its state to "no user", so its
    /// confirmations are bound to nobody; only URL mode refuses to run.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use serde_json::json;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files"))
    ///     .with_required_principal();
    /// let params = json!({
    ///     "name": "delete_file", "arguments": {"path": "notes.txt"},
    ///     "_meta": {
    ///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    ///     }
    /// });
    /// let refused = server.context("tools/call", &params).build().unwrap_err();
    /// assert_eq!(refused.error.code, -32600);
    /// assert_eq!(refused.error.data, Some(json!({"reason": "unauthenticated"})));
    /// assert!(server.context("tools/call", &params).principal("alice").build().is_ok());
    /// ```
    pub fn with_required_principal(self) -> Self {
        self.with(|inner| inner.principal_required = true)
    }

    /// Whether a request without a principal is refused.
    pub fn principal_required(&self) -> bool {
        self.inner.principal_required
    }

    /// A wait on a URL-mode page for `user` (the principal's hash), if the pool and the
    /// user's share have room.
    pub(crate) fn url_wait(&self, user: &[u8]) -> Option<UrlWait> {
        self.inner.url_waits.try_acquire(user)
    }

    /// How many requests hold a wait on a URL-mode page now: held 2026-07-28 retries and
    /// 2025-11-25 requests waiting on a page or a pushed question. A gauge for operators; a
    /// request that ends, is cancelled, or whose client goes away (its handler dropped) gives
    /// its wait back at once.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "example"));
    /// assert_eq!(server.url_waits_held(), 0);
    /// ```
    pub fn url_waits_held(&self) -> usize {
        self.inner.url_waits.held()
    }

    /// The sealer for `requestState`.
    pub fn sealer(&self) -> &StateSealer {
        &self.inner.sealer
    }

    /// `_meta["io.modelcontextprotocol/serverInfo"]` for results, if configured.
    pub(crate) fn server_info(&self) -> Option<&Value> {
        self.inner.server_info.as_ref()
    }
}

/// A pool of waits as `settings` bound it.
fn url_waits(settings: &UrlSettings) -> UrlWaits {
    UrlWaits::new(settings.max_waits(), settings.max_waits_per_user())
}
