//! The server's elicitation settings, shared by every request.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::state::{CompletionStore, StateSealer};
use crate::waits::{DEFAULT_MAX_URL_WAITS_PER_USER, UrlWait, UrlWaits};

/// How many 2025-11-25 requests may wait on URL-mode pages at once unless
/// [`ElicitServer::with_max_url_waits`] says otherwise (re-exported as
/// `elicit_runtime::url::DEFAULT_MAX_URL_WAITS`).
pub const DEFAULT_MAX_URL_WAITS: usize = 256;

/// How long a 2026-07-28 retry after a URL-mode accept is held open waiting for the page,
/// unless [`ElicitServer::with_url_hold`] says otherwise (re-exported as
/// `elicit_runtime::url::DEFAULT_URL_HOLD`).
///
/// Half the TypeScript SDK's default request timeout (60 s), under the idle timeouts of common
/// proxies (60 s), and long enough that a client which accepts at once and retries up to ten
/// rounds (the Python and TypeScript SDKs' default) waits about five minutes for the person.
pub const DEFAULT_URL_HOLD: Duration = Duration::from_secs(30);

/// How many times a form question whose accepted answer fails its checks is asked again before
/// the call fails with `-32602`, unless the question
/// ([`Question::reasks`](crate::Question::reasks)) or the server
/// ([`ElicitServer::with_max_reasks`](crate::ElicitServer::with_max_reasks)) says otherwise.
pub const DEFAULT_MAX_REASKS: u8 = 2;

/// The server's elicitation settings: the sealer for `requestState` (keys, audience, expiry,
/// replay guard), the server's identity and URL mode's completion store. Cheap to clone;
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
    completions: Option<Arc<dyn CompletionStore>>,
    single_use: bool,
    strict_provenance: bool,
    principal_required: bool,
    /// Permits for requests waiting on a URL-mode page: 2025-11-25 handlers and held
    /// 2026-07-28 retries.
    url_waits: UrlWaits,
    /// How long a 2026-07-28 retry after an accept waits for the page.
    url_hold: Duration,
    url_origin: Option<String>,
    max_reasks: u8,
}

impl fmt::Debug for ElicitServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitServer")
            .field("sealer", &self.inner.sealer)
            .field("server_info", &self.inner.server_info)
            .field("completion_store", &self.inner.completions.is_some())
            .field("single_use", &self.inner.single_use)
            .field("strict_provenance", &self.inner.strict_provenance)
            .field("principal_required", &self.inner.principal_required)
            .field("max_reasks", &self.inner.max_reasks)
            .field("url_hold", &self.inner.url_hold)
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
                completions: None,
                single_use: true,
                strict_provenance: false,
                principal_required: false,
                url_waits: UrlWaits::new(DEFAULT_MAX_URL_WAITS, DEFAULT_MAX_URL_WAITS_PER_USER),
                url_hold: DEFAULT_URL_HOLD,
                url_origin: None,
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

    /// Where URL-mode pages record completions (needed for URL mode, `#[elicit_url]`). Use a shared
    /// store (e.g. Redis) when the page and the retry may reach different replicas.
    pub fn with_completion_store(self, store: Arc<dyn CompletionStore>) -> Self {
        self.with(|inner| inner.completions = Some(store))
    }

    /// Lets a URL-mode completion be read by any number of retries until it expires, instead of
    /// once (the default).
    ///
    /// Only for pages whose outcome is harmless to act on twice: with this setting, a replayed
    /// retry of a call whose sealed state is not spent (a server without a replay guard, or
    /// replicas that do not share one) finds the page's "done" again. Anything that pays,
    /// connects an account or deletes should keep the default.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "docs"));
    /// assert!(server.single_use_completions());
    /// let server = server.without_single_use_completions();
    /// assert!(!server.single_use_completions());
    /// ```
    pub fn without_single_use_completions(self) -> Self {
        self.with(|inner| inner.single_use = false)
    }

    /// Serves URL-mode pages from `origin` (`scheme://host[:port]`) instead of the origin
    /// written in `#[elicit_url]`, e.g. a landing page on an ephemeral loopback port in
    /// development. The path and query of each URL stay as declared. The origin must be
    /// `https`, or `http` on `localhost`, `127.0.0.1` or `[::1]`.
    pub fn with_url_origin(self, origin: &str) -> Result<Self, OriginError> {
        let origin = origin.trim_end_matches('/').to_owned();
        let (scheme, authority) = origin
            .split_once("://")
            .ok_or(OriginError("an origin is `scheme://host[:port]`"))?;
        if authority.is_empty() || authority.contains(['/', '?', '#', '@']) {
            return Err(OriginError(
                "an origin is `scheme://host[:port]`, without path, query or user info",
            ));
        }
        let host = authority
            .rsplit_once(':')
            .filter(|(h, p)| !h.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .map_or(authority, |(h, _)| h);
        let loopback = matches!(host, "localhost" | "127.0.0.1" | "[::1]");
        match scheme {
            "https" => {}
            "http" if loopback => {}
            _ => {
                return Err(OriginError(
                    "the origin must be https (http only on localhost, 127.0.0.1 or [::1])",
                ));
            }
        }
        Ok(self.with(|inner| inner.url_origin = Some(origin)))
    }

    /// The link for a URL template with the handle filled in.
    pub(crate) fn link(&self, template: &str, handle: &str) -> String {
        let url = template.replace("{handle}", handle);
        match (&self.inner.url_origin, url.split_once("://")) {
            (Some(origin), Some((_, rest))) => {
                let path_at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                format!("{origin}{}", &rest[path_at..])
            }
            _ => url,
        }
    }

    /// The completion store of URL mode, if configured.
    pub fn completion_store(&self) -> Option<&Arc<dyn CompletionStore>> {
        self.inner.completions.as_ref()
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

    /// At most `max` requests may wait on a URL-mode page at once (default
    /// [`DEFAULT_MAX_URL_WAITS`]): 2025-11-25 requests, each held open until the page finishes
    /// or the handle expires, and 2026-07-28 retries after an accept, each held at most
    /// [`url_hold`](Self::url_hold). Past the limit, a 2025-11-25 ask fails at once with
    /// `-32603` and `data.reason = "busy"` before any link is sent, and so does a 2026-07-28
    /// retry that would be held, so a flood of accepted-but-abandoned flows cannot pile up
    /// open requests. A form (or sampling) question pushed to a 2025-11-25 client takes a wait
    /// from the same pool while the client answers, at most for the state lifetime
    /// (`-32603`, `data.reason = "timeout"` after it).
    ///
    /// When the pool is full, a user holding at least two waits fewer than the busiest user
    /// takes that user's oldest wait instead of being refused: the held retry it belonged to
    /// asks its question again, and a 2025-11-25 wait ends `busy`. So many accounts that never
    /// answer cannot keep everyone else out for a whole state lifetime.
    ///
    /// More than tokio's semaphore can count (`Semaphore::MAX_PERMITS`, `usize::MAX >> 3`)
    /// is that many: any `max` is safe.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "srv"));
    /// assert_eq!(server.clone().with_max_url_waits(16).max_url_waits(), 16);
    /// assert_eq!(server.with_max_url_waits(usize::MAX).max_url_waits(), usize::MAX >> 3);
    /// ```
    pub fn with_max_url_waits(self, max: usize) -> Self {
        self.with(|inner| {
            inner.url_waits = UrlWaits::new(max, inner.url_waits.per_user());
        })
    }

    /// How many requests may wait on URL-mode pages at once.
    pub fn max_url_waits(&self) -> usize {
        self.inner.url_waits.all()
    }

    /// At most `max` of those waits may belong to one user (default
    /// [`DEFAULT_MAX_URL_WAITS_PER_USER`](crate::url::DEFAULT_MAX_URL_WAITS_PER_USER)), so one
    /// user, or one client that never answers, cannot take the whole pool: past it, that user's
    /// next ask fails with `data.reason = "busy"` while everyone else's goes on.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "payments"))
    ///     .with_max_url_waits(64)
    ///     .with_max_url_waits_per_user(2);
    /// # let _ = server;
    /// ```
    pub fn with_max_url_waits_per_user(self, max: usize) -> Self {
        self.with(|inner| {
            inner.url_waits = inner.url_waits.with_per_user(max);
        })
    }

    /// How long a 2026-07-28 retry that carries a URL-mode `accept` is held open while the page
    /// has not recorded an outcome (default [`DEFAULT_URL_HOLD`], 30 s).
    ///
    /// The retry answers as soon as the page records (within 250 ms, on any replica sharing
    /// the completion store), or when the link expires (`UrlAnswer::Expired`). If the hold
    /// passes first, the round asks the same URL question again (a link to the same flow, with
    /// the same expiry): the client shows it again, and the person may go on, or cancel. A held
    /// retry takes a wait from the same pool as 2025-11-25 waits
    /// ([`with_max_url_waits`](Self::with_max_url_waits), per user
    /// [`with_max_url_waits_per_user`](Self::with_max_url_waits_per_user)); past it, the retry
    /// fails with `data.reason = "busy"`.
    ///
    /// Keep it below the request timeout of the clients you serve (60 s in the TypeScript SDK,
    /// none by default in the Python SDK) and of any proxy in between. `Duration::ZERO` holds
    /// nothing: every retry asks again at once.
    ///
    /// ```
    /// use std::time::Duration;
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::url::DEFAULT_URL_HOLD;
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "srv"));
    /// assert_eq!(server.url_hold(), DEFAULT_URL_HOLD);
    /// let behind_a_proxy = server.with_url_hold(Duration::from_secs(20));
    /// assert_eq!(behind_a_proxy.url_hold(), Duration::from_secs(20));
    /// ```
    pub fn with_url_hold(self, hold: Duration) -> Self {
        self.with(|inner| inner.url_hold = hold)
    }

    /// How long a 2026-07-28 retry after a URL-mode accept waits for the page.
    pub fn url_hold(&self) -> Duration {
        self.inner.url_hold
    }

    /// A wait on a URL-mode page for `user` (the principal's hash), if the pool and the
    /// user's share have room.
    pub(crate) fn url_wait(&self, user: &[u8]) -> Option<UrlWait> {
        self.inner.url_waits.try_acquire(user)
    }

    /// Whether URL-mode completions are single use (the default; see
    /// [`without_single_use_completions`](Self::without_single_use_completions)).
    pub fn single_use_completions(&self) -> bool {
        self.inner.single_use
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

/// Why [`ElicitServer::with_url_origin`] refused an origin.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "my-server"));
/// let error = server.with_url_origin("http://example.com").unwrap_err();
/// assert_eq!(error.to_string(), "the origin must be https (http only on localhost, 127.0.0.1 or [::1])");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OriginError(&'static str);

impl std::fmt::Display for OriginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for OriginError {}
