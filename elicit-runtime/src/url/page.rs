//! The page side: the server's own connect/landing endpoint opens a handle for the browser's
//! authenticated user, then records how the out-of-band flow ended.

use std::fmt;
use std::marker::PhantomData;
use std::time::SystemTime;

use serde_json::Value;

use serde::de::DeserializeOwned;

use super::ElicitUrl;
use super::handle::{self, Claims, confirm};
use crate::server::ElicitServer;
use crate::state::{Completion, StateError, StoreError};

/// Why a landing page refuses a handle.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PageError {
    /// Not a handle of this server: tampered, truncated, wrong key, garbage.
    Invalid(StateError),
    /// The handle expired.
    Expired,
    /// The browser's user is not the user who started the elicitation (the phishing rule):
    /// show an error, never continue the flow.
    WrongSubject,
    /// The handle belongs to another kind of elicitation.
    WrongKind,
    /// The flow was already completed or failed.
    AlreadyRecorded,
    /// The confirmation token is missing, past its expiry, or is not the one
    /// [`LandingPage::confirmation_token`] gave this browser user for this very handle: a
    /// forged or cross-site request, another session's token, or the page of another link.
    Unconfirmed,
    /// No completion store is configured on the server.
    NoStore,
    /// The store failed.
    Store(StoreError),
}

impl PageError {
    /// The precise reason, for the server's logs only: which check failed, down to the sealing
    /// error or the store's message. Never show it to the browser (it would tell a forger how
    /// far a crafted handle got); show the [`Display`](fmt::Display) text instead.
    ///
    /// ```
    /// use elicit_runtime::state::StateError;
    /// use elicit_runtime::url::PageError;
    ///
    /// let forged = PageError::Invalid(StateError::UnknownKey { kid: 7 });
    /// assert_eq!(forged.to_string(), "this link is invalid or has expired");
    /// assert!(forged.reason().contains("key id 7"));
    /// ```
    pub fn reason(&self) -> String {
        match self {
            PageError::Invalid(e) => format!("invalid elicitation handle: {e}"),
            PageError::Expired => "the elicitation handle has expired".to_owned(),
            PageError::Store(e) => format!("the completion store failed: {e}"),
            PageError::NoStore => "no completion store is configured".to_owned(),
            PageError::WrongSubject => "the handle belongs to another user".to_owned(),
            PageError::WrongKind => "the handle is for another kind of elicitation".to_owned(),
            PageError::AlreadyRecorded => "the flow has already finished".to_owned(),
            PageError::Unconfirmed => {
                "the confirmation token is missing, forged, expired, or for another link or user"
                    .to_owned()
            }
        }
    }

    /// Whether the refusal is the server's (no store, or the store failed): the one kind a
    /// browser may be told apart from the others ("try again later"), since it says nothing
    /// about the handle.
    ///
    /// ```
    /// use elicit_runtime::url::PageError;
    ///
    /// assert!(PageError::NoStore.is_unavailable());
    /// assert!(!PageError::AlreadyRecorded.is_unavailable());
    /// ```
    pub fn is_unavailable(&self) -> bool {
        matches!(self, PageError::NoStore | PageError::Store(_))
    }
}

/// What a browser may be shown. Every refusal an attacker can probe with a handle reads the
/// same: forged, expired, another user's, another kind's, already finished, unconfirmed. Only
/// the server's own failures ([`PageError::is_unavailable`]) say "try again later"; nothing
/// names keys, sealing or the store.
///
/// ```
/// use elicit_runtime::url::PageError;
///
/// assert_eq!(PageError::WrongSubject.to_string(), PageError::AlreadyRecorded.to_string());
/// ```
impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PageError::NoStore | PageError::Store(_) => {
                "this request cannot be completed right now; try again later"
            }
            PageError::Invalid(_)
            | PageError::Expired
            | PageError::WrongSubject
            | PageError::WrongKind
            | PageError::AlreadyRecorded
            | PageError::Unconfirmed => "this link is invalid or has expired",
        })
    }
}

impl std::error::Error for PageError {}

/// A handle opened for the user who started it: the bound state, typed.
pub struct OpenedHandle<T> {
    claims: Claims,
    /// The state bound to the request.
    pub state: T,
    _kind: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for OpenedHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedHandle")
            .field("id", &self.claims.id)
            .field("key", &self.claims.k)
            .finish_non_exhaustive()
    }
}

impl<T> OpenedHandle<T> {
    /// The handle id (the 2025-11-25 `elicitationId`).
    pub fn id(&self) -> &str {
        &self.claims.id
    }
    /// When the handle expires.
    pub fn expires_at(&self) -> SystemTime {
        self.claims.expires_at()
    }
    /// What the confirmation page shows of the bound state, as sealed when the link was made
    /// ([`ElicitUrl::shown`](crate::ElicitUrl::shown)).
    pub fn shown(&self) -> &[super::Shown] {
        &self.claims.show
    }
}

/// The landing page's view of URL-mode elicitations. The `elicit-axum` crate's
/// `landing_routes` is a ready page built on it.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::{LandingPage, MemoryCompletionStore, PageError, UrlSettings};
/// use std::sync::Arc;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files-server"))
///     .with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())));
/// let page = LandingPage::new(&server);
/// let refused = pollster::block_on(page.open_raw("not-a-handle", "alice"));
/// assert!(matches!(refused, Err(PageError::Invalid(_))));
/// ```
#[derive(Debug, Clone)]
pub struct LandingPage {
    server: ElicitServer,
}

impl LandingPage {
    /// The landing page of `server` (same keys and completion store).
    pub fn new(server: &ElicitServer) -> Self {
        LandingPage {
            server: server.clone(),
        }
    }

    /// Opens `handle` (from the link's query) for `subject`, the browser's authenticated user.
    pub async fn open<T: ElicitUrl + DeserializeOwned>(
        &self,
        handle: &str,
        subject: &str,
    ) -> Result<OpenedHandle<T>, PageError> {
        let (OpenedHandleKey { claims, .. }, state) = self.open_raw(handle, subject).await?;
        if claims.k != T::KEY {
            return Err(PageError::WrongKind);
        }
        let state = serde_json::from_value(state).map_err(|_| PageError::WrongKind)?;
        Ok(OpenedHandle {
            claims,
            state,
            _kind: PhantomData,
        })
    }

    /// Opens `handle` without knowing its kind: the key it was asked under and the bound
    /// state as JSON. Use it to route one connect endpoint to several kinds.
    pub async fn open_raw(
        &self,
        handle: &str,
        subject: &str,
    ) -> Result<(OpenedHandleKey, Value), PageError> {
        let opened = self.peek(handle, subject)?;
        let store = self
            .server
            .url_settings()
            .store()
            .ok_or(PageError::NoStore)?;
        if store
            .lookup(&opened.claims.id)
            .await
            .map_err(PageError::Store)?
            .is_some()
        {
            return Err(PageError::AlreadyRecorded);
        }
        let state = opened.claims.s.clone();
        Ok((opened, state))
    }

    /// Checks `handle` for `subject` as [`open_raw`](Self::open_raw) does (the seal, the
    /// expiry, the user) without asking the completion store whether its flow is already
    /// recorded: which flow a link is and until when, at no store round trip. For a gate in
    /// front of the page, such as a [`BrowserUser`]-style check that runs on each of the
    /// page's requests; the page itself still opens the link with [`open`](Self::open) or
    /// `open_raw`, which refuse a recorded flow.
    ///
    /// [`BrowserUser`]: https://docs.rs/elicit-axum/latest/elicit_axum/trait.BrowserUser.html
    ///
    /// ```
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_runtime::url::{LandingPage, PageError};
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files-server"));
    /// let page = LandingPage::new(&server);
    /// assert!(matches!(page.peek("not-a-handle", "alice"), Err(PageError::Invalid(_))));
    /// ```
    pub fn peek(&self, handle: &str, subject: &str) -> Result<OpenedHandleKey, PageError> {
        let sealer = self.server.sealer();
        let claims = handle::open(sealer, handle).map_err(PageError::Invalid)?;
        if SystemTime::now() >= claims.expires_at() {
            return Err(PageError::Expired);
        }
        // An empty subject is nobody: it never continues a flow, whoever started it.
        if subject.is_empty() || !claims.is_for(sealer, subject) {
            return Err(PageError::WrongSubject);
        }
        let link = confirm::handle_digest(handle);
        Ok(OpenedHandleKey { claims, link })
    }

    /// The name of the server the handles are sealed for (its sealer's audience): which
    /// server asks, for a confirmation page.
    ///
    /// ```
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_runtime::url::LandingPage;
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files-server"));
    /// assert_eq!(LandingPage::new(&server).audience(), "files-server");
    /// ```
    pub fn audience(&self) -> &str {
        self.server.sealer().audience()
    }

    /// The origin the server's links are built with
    /// ([`UrlSettings::with_origin`](crate::url::UrlSettings::with_origin)), if one is set:
    /// where the landing page is served, so a page may refuse a request for any other host (a
    /// DNS-rebinding attacker's name for the same address).
    ///
    /// ```
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_runtime::url::{LandingPage, UrlSettings};
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files-server"));
    /// assert_eq!(LandingPage::new(&server).url_origin(), None);
    /// let server = server.with_url(UrlSettings::default().with_origin("http://127.0.0.1:8080/")?);
    /// assert_eq!(LandingPage::new(&server).url_origin(), Some("http://127.0.0.1:8080"));
    /// # Ok::<(), elicit_runtime::url::OriginError>(())
    /// ```
    pub fn url_origin(&self) -> Option<&str> {
        self.server.url_settings().origin()
    }

    /// The CSRF token of a confirmation page: put it in the page's form (a hidden field), and
    /// [`LandingPage::open_confirmed`] accepts the form's `POST` only with it. It is sealed under
    /// the server's keys (the AEAD frame of `requestState`, a prefix of its own) over the
    /// handle as the link carries it, its expiry and `subject`, so it is good for this link
    /// and this browser user only, and only until the handle expires: another link of the same
    /// flow (asked again, or a call through the link fallback made later) needs its own page's token. A
    /// page of another origin cannot read it.
    ///
    /// # Errors
    ///
    /// [`PageError::Store`] if the operating system's random number generator fails.
    pub fn confirmation_token(
        &self,
        opened: &OpenedHandleKey,
        subject: &str,
    ) -> Result<String, PageError> {
        confirm::seal(self.server.sealer(), &opened.for_link(), subject)
            .map_err(|e| PageError::Store(StoreError::new(e.to_string())))
    }

    /// [`LandingPage::open_raw`], then the confirmation `token` from the page's form must be the
    /// one [`LandingPage::confirmation_token`] gave `subject` for this very handle, and not past
    /// its expiry ([`PageError::Unconfirmed`] otherwise; compared in constant time). Record only
    /// what a handle opened this way says.
    pub async fn open_confirmed(
        &self,
        handle: &str,
        subject: &str,
        token: &str,
    ) -> Result<(OpenedHandleKey, Value), PageError> {
        let opened = self.open_raw(handle, subject).await?;
        let sealer = self.server.sealer();
        if confirm::check(
            sealer,
            &opened.0.for_link(),
            subject,
            token,
            SystemTime::now(),
        ) {
            Ok(opened)
        } else {
            Err(PageError::Unconfirmed)
        }
    }

    /// Records that the flow completed, with an optional server-side result.
    pub async fn complete<T>(
        &self,
        opened: &OpenedHandle<T>,
        result: Option<Value>,
    ) -> Result<(), PageError> {
        self.record(&opened.claims, Completion::Completed { result })
            .await
    }

    /// Records that the flow failed.
    pub async fn fail<T>(
        &self,
        opened: &OpenedHandle<T>,
        reason: impl Into<String>,
    ) -> Result<(), PageError> {
        self.record(
            &opened.claims,
            Completion::Failed {
                reason: reason.into(),
            },
        )
        .await
    }

    /// [`LandingPage::complete`] for a handle opened with [`LandingPage::open_raw`].
    pub async fn complete_raw(
        &self,
        opened: &OpenedHandleKey,
        result: Option<Value>,
    ) -> Result<(), PageError> {
        self.record(&opened.claims, Completion::Completed { result })
            .await
    }

    /// [`LandingPage::fail`] for a handle opened with [`LandingPage::open_raw`].
    pub async fn fail_raw(
        &self,
        opened: &OpenedHandleKey,
        reason: impl Into<String>,
    ) -> Result<(), PageError> {
        self.record(
            &opened.claims,
            Completion::Failed {
                reason: reason.into(),
            },
        )
        .await
    }

    async fn record(&self, claims: &Claims, completion: Completion) -> Result<(), PageError> {
        let store = self
            .server
            .url_settings()
            .store()
            .ok_or(PageError::NoStore)?;
        if store
            .record(&claims.id, completion, claims.expires_at())
            .await
            .map_err(PageError::Store)?
        {
            Ok(())
        } else {
            Err(PageError::AlreadyRecorded)
        }
    }
}

/// A handle opened by [`LandingPage::open_raw`]: its id and key.
#[derive(Clone)]
pub struct OpenedHandleKey {
    claims: Claims,
    /// The hash of the handle's text: what its page's confirmation token is bound to.
    link: [u8; 32],
}

impl fmt::Debug for OpenedHandleKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedHandleKey")
            .field("id", &self.claims.id)
            .field("key", &self.claims.k)
            .finish()
    }
}

impl OpenedHandleKey {
    /// The link its page's confirmation token is for: this handle, until its expiry.
    pub(crate) fn for_link(&self) -> confirm::ForLink {
        confirm::ForLink {
            handle: self.link,
            exp: self.claims.exp,
        }
    }

    /// The handle id.
    pub fn id(&self) -> &str {
        &self.claims.id
    }

    /// When the handle expires (the flow's link is refused after it).
    pub fn expires_at(&self) -> SystemTime {
        self.claims.expires_at()
    }
    /// The elicitation's message (`ElicitUrl::MESSAGE`) as the client was asked it: what the
    /// user is asked to do, for a confirmation page. Empty for a handle sealed before handles
    /// carried it.
    pub fn message(&self) -> &str {
        &self.claims.msg
    }
    /// The key of the elicitation the handle belongs to.
    pub fn key(&self) -> &str {
        &self.claims.k
    }
    /// What the confirmation page shows of the bound state, so the user sees what is being
    /// confirmed: the fields the author marked `#[elicit(show)]`, as sealed when the link was
    /// made ([`ElicitUrl::shown`](crate::ElicitUrl::shown)). Show each label and value whole,
    /// escaped, whitespace kept, control, bidirectional and zero-width characters made visible;
    /// a value with characters left out ([`Shown::hidden`](super::Shown::hidden)) says so, and
    /// then the page must not let the user confirm.
    ///
    /// ```
    /// # use elicit_runtime::{ElicitServer, elicit_url};
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # use elicit_runtime::url::LandingPage;
    /// #[elicit_url(message = "Connect GitHub", url = "https://example.com/connect")]
    /// struct ConnectRepo {
    ///     #[elicit(show = "Repository")]
    ///     repo: String,
    /// }
    /// # async fn page(page: &LandingPage, handle: &str, user: &str) {
    /// let Ok((opened, _state)) = page.open_raw(handle, user).await else { return };
    /// for shown in opened.shown() {
    ///     println!("{}: {}", shown.label(), shown.value()); // "Repository: octo/hello"
    /// }
    /// # }
    /// ```
    pub fn shown(&self) -> &[super::Shown] {
        &self.claims.show
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::state::{Binding, KeyRing, StateSealer};
    use crate::url::{MemoryCompletionStore, UrlSettings};
    use pollster::block_on;

    fn server() -> ElicitServer {
        ElicitServer::new(StateSealer::new(KeyRing::new(1, [11; 32]), "aud"))
            .with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())))
    }

    /// A handle for alice, continuing flow `id` until `until`, minted at `at`.
    fn link(server: &ElicitServer, id: &str, until: u64, at: SystemTime) -> (Claims, String) {
        let args = serde_json::json!({"repo": "octo/hello"});
        let binding = Binding::tool_call("connect", &args).with_principal("alice");
        let flow = Some((id.to_owned(), until));
        let state = serde_json::json!({"repo": "octo/hello"});
        handle::mint(
            server.sealer(),
            &binding,
            "alice",
            "k",
            "m",
            &crate::url::Bound::plain(state),
            at,
            flow,
        )
        .unwrap()
    }

    /// Issue 32: a token taken from the page of link A confirms neither a later link B of the
    /// same flow id once A expired, nor one while A is still open; B's own page's token does.
    #[test]
    fn a_token_from_another_link_of_the_same_flow_is_refused() {
        let server = server();
        let page = LandingPage::new(&server);
        let now = SystemTime::now();

        // Link A, open: its page gives a token.
        let (a_claims, a) = link(&server, "flow", u64::MAX, now);
        let (opened_a, _) = block_on(page.open_raw(&a, "alice")).unwrap();
        let token_a = page.confirmation_token(&opened_a, "alice").unwrap();
        assert!(block_on(page.open_confirmed(&a, "alice", &token_a)).is_ok());

        // Link B: the same flow id, minted a minute later, so it outlives A.
        let later = now + Duration::from_secs(60);
        let (b_claims, b) = link(&server, "flow", u64::MAX, later);
        assert_eq!(a_claims.id, b_claims.id);
        assert!(b_claims.exp > a_claims.exp);
        let refused = block_on(page.open_confirmed(&b, "alice", &token_a));
        assert_eq!(refused.unwrap_err(), PageError::Unconfirmed);

        // Link A once it expired (as if minted a TTL ago): its token confirms B no more than
        // it did; A itself is refused as expired.
        let ttl = server.sealer().ttl();
        let past = now - ttl - Duration::from_secs(5);
        let (old_claims, old) = link(&server, "flow", u64::MAX, past);
        assert!(old_claims.expires_at() < now);
        let old_key = OpenedHandleKey {
            link: confirm::handle_digest(&old),
            claims: old_claims,
        };
        let old_token = page.confirmation_token(&old_key, "alice").unwrap();
        assert_eq!(
            block_on(page.open_confirmed(&b, "alice", &old_token)).unwrap_err(),
            PageError::Unconfirmed
        );
        assert_eq!(
            block_on(page.open_confirmed(&old, "alice", &old_token)).unwrap_err(),
            PageError::Expired
        );

        // B's own page's token confirms B.
        let (opened_b, _) = block_on(page.open_raw(&b, "alice")).unwrap();
        let token_b = page.confirmation_token(&opened_b, "alice").unwrap();
        assert!(block_on(page.open_confirmed(&b, "alice", &token_b)).is_ok());
        assert_eq!(
            block_on(page.open_confirmed(&a, "alice", &token_b)).unwrap_err(),
            PageError::Unconfirmed
        );
    }

    /// Issue 32: the token carries its link's expiry; past it, it is refused even for the very
    /// link and user it was given for (checked at a later instant than the handle's).
    #[test]
    fn a_token_past_its_links_expiry_is_refused() {
        let server = server();
        let page = LandingPage::new(&server);
        let (_, a) = link(&server, "flow", u64::MAX, SystemTime::now());
        let (opened, _) = block_on(page.open_raw(&a, "alice")).unwrap();
        let token = page.confirmation_token(&opened, "alice").unwrap();
        let sealer = server.sealer();
        let for_a = opened.for_link();
        let expiry = opened.claims.expires_at();
        let before = expiry - Duration::from_secs(1);
        assert!(confirm::check(sealer, &for_a, "alice", &token, before));
        assert!(!confirm::check(sealer, &for_a, "alice", &token, expiry));
    }
}
