//! The page side: the server's own connect/landing endpoint opens a handle for the browser's
//! authenticated user, then records how the out-of-band flow ended.

use std::fmt;
use std::marker::PhantomData;
use std::time::SystemTime;

use serde_json::Value;

use serde::de::DeserializeOwned;

use super::ElicitUrl;
use super::handle::{self, Claims};
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
            other => other.to_string(),
        }
    }
}

/// What a browser may be shown: a handle that is not ours and one that expired read the same,
/// and nothing names keys, sealing or the store.
impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PageError::Invalid(_) | PageError::Expired => "this link is invalid or has expired",
            PageError::WrongSubject => "this link was started by another user",
            PageError::WrongKind => "this link is for another kind of request",
            PageError::AlreadyRecorded => "this flow has already finished",
            PageError::NoStore | PageError::Store(_) => {
                "this request cannot be completed right now; try again later"
            }
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
}

/// The landing page's view of URL-mode elicitations. The `elicit-axum` crate's
/// `landing_routes` is a ready page built on it.
///
/// ```
/// use elicit_runtime::ElicitServer;
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::{LandingPage, MemoryCompletionStore, PageError};
/// use std::sync::Arc;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files-server"))
///     .with_completion_store(Arc::new(MemoryCompletionStore::new()));
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
        let (OpenedHandleKey(claims), state) = self.open_raw(handle, subject).await?;
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
        let sealer = self.server.sealer();
        let claims = handle::open(sealer, handle).map_err(PageError::Invalid)?;
        if SystemTime::now() >= claims.expires_at() {
            return Err(PageError::Expired);
        }
        // An empty subject is nobody: it never continues a flow, whoever started it.
        if subject.is_empty() || !claims.is_for(sealer, subject) {
            return Err(PageError::WrongSubject);
        }
        let store = self.server.completion_store().ok_or(PageError::NoStore)?;
        if store
            .lookup(&claims.id)
            .await
            .map_err(PageError::Store)?
            .is_some()
        {
            return Err(PageError::AlreadyRecorded);
        }
        let state = claims.s.clone();
        Ok((OpenedHandleKey(claims), state))
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
        self.record(&opened.0, Completion::Completed { result })
            .await
    }

    /// [`LandingPage::fail`] for a handle opened with [`LandingPage::open_raw`].
    pub async fn fail_raw(
        &self,
        opened: &OpenedHandleKey,
        reason: impl Into<String>,
    ) -> Result<(), PageError> {
        self.record(
            &opened.0,
            Completion::Failed {
                reason: reason.into(),
            },
        )
        .await
    }

    async fn record(&self, claims: &Claims, completion: Completion) -> Result<(), PageError> {
        let store = self.server.completion_store().ok_or(PageError::NoStore)?;
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
pub struct OpenedHandleKey(Claims);

impl fmt::Debug for OpenedHandleKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedHandleKey")
            .field("id", &self.0.id)
            .field("key", &self.0.k)
            .finish()
    }
}

impl OpenedHandleKey {
    /// The handle id.
    pub fn id(&self) -> &str {
        &self.0.id
    }
    /// The key of the elicitation the handle belongs to.
    pub fn key(&self) -> &str {
        &self.0.k
    }
}
