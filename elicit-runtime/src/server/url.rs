//! URL mode's settings, in one value the server is given: where completions are recorded,
//! where the pages are served, how long a retry waits for a page, how many waits at once, and
//! what a client that cannot open URLs gets instead.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::state::CompletionStore;
use crate::waits::MAX_WAITS;

/// How many 2025-11-25 requests may wait on URL-mode pages at once unless
/// [`UrlSettings::with_max_waits`] says otherwise.
pub const DEFAULT_MAX_URL_WAITS: usize = 256;

/// How many waits one user may hold at once, unless [`UrlSettings::with_max_waits_per_user`]
/// says otherwise.
pub const DEFAULT_MAX_URL_WAITS_PER_USER: usize = 8;

/// How long a 2026-07-28 retry after a URL-mode accept is held open waiting for the page,
/// unless [`UrlSettings::with_hold`] says otherwise.
///
/// Half the TypeScript SDK's default request timeout (60 s), under the idle timeouts of common
/// proxies (60 s), and long enough that a client which accepts at once and retries up to ten
/// rounds (the Python and TypeScript SDKs' default) waits about five minutes for the person.
pub const DEFAULT_URL_HOLD: Duration = Duration::from_secs(30);

/// Everything URL mode needs to know, given to the server once with
/// [`ElicitServer::with_url`](crate::ElicitServer::with_url).
///
/// The one thing URL mode cannot go without is the [`CompletionStore`] your page records
/// outcomes in ([`UrlSettings::new`]); every other setting has a default that is safe for a
/// server on the open internet. A server given no settings ([`UrlSettings::default`]) has no
/// store: its URL-mode questions fail with `-32603` saying so, and the wait limits still
/// bound 2025-11-25 form questions.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::{MemoryCompletionStore, UrlSettings};
///
/// let url = UrlSettings::new(Arc::new(MemoryCompletionStore::new()))
///     .with_origin("http://127.0.0.1:8080")?
///     .with_hold(Duration::from_secs(20))
///     .with_link_fallback();
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar"))
///     .with_url(url);
/// assert_eq!(server.url_settings().hold(), Duration::from_secs(20));
/// assert!(server.url_settings().link_fallback());
/// assert!(server.url_settings().single_use());
/// # Ok::<(), elicit_runtime::url::OriginError>(())
/// ```
#[derive(Clone)]
pub struct UrlSettings {
    store: Option<Arc<dyn CompletionStore>>,
    origin: Option<String>,
    hold: Duration,
    max_waits: usize,
    max_waits_per_user: usize,
    single_use: bool,
    link_fallback: bool,
    required_error: bool,
}

impl Default for UrlSettings {
    /// No completion store (URL-mode questions fail), and every other setting at its default.
    fn default() -> Self {
        UrlSettings {
            store: None,
            origin: None,
            hold: DEFAULT_URL_HOLD,
            max_waits: DEFAULT_MAX_URL_WAITS,
            max_waits_per_user: DEFAULT_MAX_URL_WAITS_PER_USER,
            single_use: true,
            link_fallback: false,
            required_error: false,
        }
    }
}

impl fmt::Debug for UrlSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UrlSettings")
            .field("store", &self.store.is_some())
            .field("origin", &self.origin)
            .field("hold", &self.hold)
            .field("max_waits", &self.max_waits)
            .field("max_waits_per_user", &self.max_waits_per_user)
            .field("single_use", &self.single_use)
            .field("link_fallback", &self.link_fallback)
            .field("url_elicitation_required", &self.required_error)
            .finish()
    }
}

impl UrlSettings {
    /// URL mode whose pages record outcomes in `store`: in memory
    /// ([`MemoryCompletionStore`](crate::url::MemoryCompletionStore)) for one process, or a
    /// shared store (`elicit-redis`) when the page and the retry may reach different replicas.
    pub fn new(store: Arc<dyn CompletionStore>) -> Self {
        UrlSettings {
            store: Some(store),
            ..UrlSettings::default()
        }
    }

    /// URL mode whose pages record outcomes in this process's memory
    /// ([`MemoryCompletionStore`](crate::url::MemoryCompletionStore)): a server with one
    /// replica, and development. Where the page and the retry may reach different replicas,
    /// give [`new`](Self::new) a shared store (`elicit-redis`) instead; with this one such a
    /// retry never finds the page's outcome, and its link expires.
    ///
    /// ```
    /// use elicit_runtime::ElicitServer;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::url::UrlSettings;
    ///
    /// let url = UrlSettings::in_memory().with_origin("http://127.0.0.1:8080")?;
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar")).with_url(url);
    /// assert!(server.url_settings().store().is_some());
    /// # Ok::<(), elicit_runtime::url::OriginError>(())
    /// ```
    pub fn in_memory() -> Self {
        Self::new(Arc::new(elicit_state::MemoryCompletionStore::new()))
    }

    /// Serves URL-mode pages from `origin` (`scheme://host[:port]`) instead of the origin
    /// written in `#[elicit_url]`, e.g. a landing page on an ephemeral loopback port in
    /// development. The path and query of each URL stay as declared. The origin must be
    /// `https`, or `http` on `localhost`, `127.0.0.1` or `[::1]`.
    ///
    /// ```
    /// use elicit_runtime::url::UrlSettings;
    ///
    /// let error = UrlSettings::default().with_origin("http://example.com").unwrap_err();
    /// assert_eq!(error.to_string(), "the origin must be https (http only on localhost, 127.0.0.1 or [::1])");
    /// let local = UrlSettings::default().with_origin("http://localhost:3000/")?;
    /// assert_eq!(local.origin(), Some("http://localhost:3000"));
    /// # Ok::<(), elicit_runtime::url::OriginError>(())
    /// ```
    pub fn with_origin(mut self, origin: &str) -> Result<Self, OriginError> {
        self.origin = Some(checked_origin(origin)?);
        Ok(self)
    }

    /// How long a 2026-07-28 retry that carries a URL-mode `accept` is held open while the page
    /// has not recorded an outcome (default [`DEFAULT_URL_HOLD`], 30 s).
    ///
    /// The retry answers as soon as the page records (within 250 ms, on any replica sharing
    /// the completion store), or when the link expires (`UrlAnswer::Expired`). If the hold
    /// passes first, the round asks the same URL question again (a link to the same flow, with
    /// the same expiry): the client shows it again, and the person may go on, or cancel. A held
    /// retry takes a wait from the same pool as 2025-11-25 waits
    /// ([`with_max_waits`](Self::with_max_waits)); past it, the retry fails with
    /// `data.reason = "busy"`.
    ///
    /// Keep it below the request timeout of the clients you serve (60 s in the TypeScript SDK,
    /// none by default in the Python SDK) and of any proxy in between. `Duration::ZERO` holds
    /// nothing: every retry asks again at once.
    pub fn with_hold(mut self, hold: Duration) -> Self {
        self.hold = hold;
        self
    }

    /// At most `max` requests may wait on a URL-mode page at once (default
    /// [`DEFAULT_MAX_URL_WAITS`]): 2025-11-25 requests, each held open until the page finishes
    /// or the handle expires, and 2026-07-28 retries after an accept, each held at most
    /// [`hold`](Self::hold). Past the limit, a 2025-11-25 ask fails at once with `-32603` and
    /// `data.reason = "busy"` before any link is sent, and so does a 2026-07-28 retry that
    /// would be held, so a flood of accepted-but-abandoned flows cannot pile up open requests.
    /// A form (or sampling) question pushed to a 2025-11-25 client takes a wait from the same
    /// pool while the client answers, at most for the state lifetime (`-32603`,
    /// `data.reason = "timeout"` after it).
    ///
    /// When the pool is full, a newcomer takes a wait instead of being refused: a user holding
    /// at least two waits fewer than the busiest user takes that user's oldest wait, and a user
    /// holding none takes the oldest wait of the pool once it has been held 10 s. The held
    /// retry it belonged to asks its question again (the person's page goes on; the client's
    /// next retry reads its outcome), and a 2025-11-25 wait ends `busy`. So neither a few
    /// accounts with many waits nor many accounts renewing one wait each can keep everyone
    /// else out. Taking and giving back a wait costs O(log n) for n waits held, and the pool
    /// keeps under 500 bytes per wait held (nothing for a free one).
    ///
    /// More than tokio's semaphore can count (`Semaphore::MAX_PERMITS`, `usize::MAX >> 3`)
    /// is that many: any `max` is safe.
    ///
    /// ```
    /// use elicit_runtime::url::UrlSettings;
    ///
    /// assert_eq!(UrlSettings::default().with_max_waits(16).max_waits(), 16);
    /// assert_eq!(UrlSettings::default().with_max_waits(usize::MAX).max_waits(), usize::MAX >> 3);
    /// ```
    pub fn with_max_waits(mut self, max: usize) -> Self {
        self.max_waits = max.min(MAX_WAITS);
        self
    }

    /// At most `max` of those waits may belong to one user (default
    /// [`DEFAULT_MAX_URL_WAITS_PER_USER`]), so one user, or one client that never answers,
    /// cannot take the whole pool: past it, that user's next ask fails with
    /// `data.reason = "busy"` while everyone else's goes on.
    pub fn with_max_waits_per_user(mut self, max: usize) -> Self {
        self.max_waits_per_user = max;
        self
    }

    /// Lets a URL-mode completion be read by any number of retries until it expires, instead of
    /// once (the default).
    ///
    /// Only for pages whose outcome is harmless to act on twice: with this setting, a replayed
    /// retry of a call whose sealed state is not spent (a server without a replay guard, or
    /// replicas that do not share one) finds the page's "done" again. Anything that pays,
    /// connects an account or deletes should keep the default. A completion found through the
    /// link fallback is single use whatever this says.
    pub fn with_reusable_completions(mut self) -> Self {
        self.single_use = false;
        self
    }

    /// Where the client did not declare URL mode, a URL question asked in a `tools/call` ends
    /// the call with the link as its ordinary text result ([`UrlLink`](crate::url::UrlLink): a
    /// sentence the model relays, "open … then ask me to continue"), and the same call by the
    /// same user with the same arguments, made once the page finished, goes on with what it
    /// recorded: `Completed` or `Failed`, or the link again while the page has not been used.
    /// This is how an account gets connected from clients that show forms only (Claude Code,
    /// Codex by default). Off by default: such a question fails with the missing-capability
    /// error naming `elicitation.url`.
    ///
    /// The flow is bound exactly as a URL-mode flow (principal, tool, arguments, audience,
    /// expiry) and its completion is single use. With Redis as the completion store it works
    /// across replicas. Prompts and resources have no result to carry a link: there the
    /// question fails as without this setting.
    pub fn with_link_fallback(mut self) -> Self {
        self.link_fallback = true;
        self
    }

    /// On 2025-11-25, a URL question ends the call with `URLElicitationRequiredError`
    /// (`-32042`) carrying the link, instead of sending `elicitation/create` and waiting for
    /// the page; the client retries the call after the person finished, and the retry (same
    /// user, tool and arguments) goes on with what the page recorded. For servers that cannot
    /// keep a request open (stateless HTTP, no channel back to the client). On 2026-07-28,
    /// where `-32042` does not exist, questions go out in rounds as always.
    pub fn with_url_elicitation_required(mut self) -> Self {
        self.required_error = true;
        self
    }

    /// The completion store, if one was given.
    pub fn store(&self) -> Option<&Arc<dyn CompletionStore>> {
        self.store.as_ref()
    }

    /// The origin pages are served from instead of the declared one, if set.
    pub fn origin(&self) -> Option<&str> {
        self.origin.as_deref()
    }

    /// How long a 2026-07-28 retry after a URL-mode accept waits for the page.
    pub fn hold(&self) -> Duration {
        self.hold
    }

    /// How many requests may wait on URL-mode pages at once.
    pub fn max_waits(&self) -> usize {
        self.max_waits
    }

    /// How many of those waits one user may hold.
    pub fn max_waits_per_user(&self) -> usize {
        self.max_waits_per_user
    }

    /// Whether a completion is read by one retry only (the default).
    pub fn single_use(&self) -> bool {
        self.single_use
    }

    /// Whether a client without URL mode gets the link as the tool's result.
    pub fn link_fallback(&self) -> bool {
        self.link_fallback
    }

    /// Whether a 2025-11-25 URL question ends the call with `-32042`.
    pub fn url_elicitation_required(&self) -> bool {
        self.required_error
    }

    /// The link for a URL template with the handle filled in.
    pub(crate) fn link(&self, template: &str, handle: &str) -> String {
        let url = template.replace("{handle}", handle);
        match (&self.origin, url.split_once("://")) {
            (Some(origin), Some((_, rest))) => {
                let path_at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                format!("{origin}{}", &rest[path_at..])
            }
            _ => url,
        }
    }
}

/// `origin` without a trailing slash, if it is `scheme://host[:port]` on https (or http on
/// loopback).
fn checked_origin(origin: &str) -> Result<String, OriginError> {
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
        "https" => Ok(origin),
        "http" if loopback => Ok(origin),
        _ => Err(OriginError(
            "the origin must be https (http only on localhost, 127.0.0.1 or [::1])",
        )),
    }
}

/// Why [`UrlSettings::with_origin`] refused an origin.
///
/// ```
/// use elicit_runtime::url::UrlSettings;
///
/// let error = UrlSettings::default().with_origin("https://example.com/connect").unwrap_err();
/// assert_eq!(error.to_string(), "an origin is `scheme://host[:port]`, without path, query or user info");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OriginError(&'static str);

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for OriginError {}
