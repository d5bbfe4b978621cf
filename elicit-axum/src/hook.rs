//! What the application supplies to the landing route: who the browser user is, and what to
//! do with a handle opened for them.

use std::fmt;
use std::future::Future;

use ::axum::response::Response;
use http::request::Parts;
use serde::de::DeserializeOwned;
use serde_json::Value;

use elicit_runtime::url::{ElicitUrl, OpenedHandleKey, PageError};

use super::secret::{Secret, SecretField};

/// The application's part of the landing route (see [the module](super) for the contract).
///
/// [`subject`](ConnectHook::subject) says who the browser user is, from the request: a session
/// cookie, an `Authorization` header. It must be the same principal the MCP request that asked
/// the elicitation was authenticated as; the route refuses the handle otherwise.
/// [`connect`](ConnectHook::connect) runs when the user pressed Confirm on the confirmation
/// page (a same-origin `POST` with its token), gets the opened handle and says how the flow
/// goes on.
///
/// Both are `async`: implement them with `async fn`.
///
/// ```
/// use axum::http::request::Parts;
/// use axum::response::{IntoResponse, Redirect, Response};
/// use elicit_axum::{ConnectHook, ConnectStep, OpenedLink};
/// use serde_json::json;
///
/// /// Signed-in users carry `x-user: <name>` (set by the app's auth middleware).
/// struct Connect;
///
/// impl ConnectHook for Connect {
///     async fn subject(&self, parts: &Parts) -> Result<String, Response> {
///         match parts.headers.get("x-user").and_then(|v| v.to_str().ok()) {
///             Some(user) => Ok(user.to_owned()),
///             // Not signed in: send the browser to sign in first.
///             None => Err(Redirect::to("/login").into_response()),
///         }
///     }
///
///     async fn connect(&self, link: &OpenedLink, _parts: &Parts) -> ConnectStep {
///         let service = link.state()["service"].as_str().unwrap_or("the service");
///         ConnectStep::complete(Some(json!({ "service": service })))
///             .with_heading(format!("Connected {service}"))
///     }
/// }
/// ```
pub trait ConnectHook: Send + Sync + 'static {
    /// The browser's authenticated user, from the request's parts; or the response to give
    /// instead (e.g. a redirect to sign in, or a 401).
    ///
    /// An empty name is nobody: the route refuses every handle for it. It is asked on the
    /// confirmation page's `GET` and again on its `POST`; the CSRF token binds the two.
    fn subject(&self, parts: &Parts) -> impl Future<Output = Result<String, Response>> + Send;

    /// Called once the user confirmed (the page's own `POST`, its token checked, the handle
    /// opened for [`subject`](ConnectHook::subject)): says whether to complete the flow, fail
    /// it, or answer with a response of the application's own (e.g. a redirect to an OAuth
    /// provider). Never called on a `GET`.
    fn connect(&self, link: &OpenedLink, parts: &Parts)
    -> impl Future<Output = ConnectStep> + Send;

    /// The secrets the confirmation page asks for, one masked input each (default: none, a
    /// Confirm/Cancel page). With any, [`connect`](ConnectHook::connect) reads what was typed
    /// with [`OpenedLink::secret`], and each page's token is good for one `POST`.
    /// [`SecretPage`](crate::SecretPage) is the ready hook for this.
    ///
    /// ```
    /// # use axum::http::request::Parts;
    /// # use axum::response::Response;
    /// use elicit_axum::{ConnectHook, ConnectStep, OpenedLink, SecretField};
    ///
    /// struct ApiKey {
    ///     fields: [SecretField; 1],
    /// }
    ///
    /// impl ConnectHook for ApiKey {
    ///     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
    ///     fn secrets(&self) -> &[SecretField] {
    ///         &self.fields
    ///     }
    ///     async fn connect(&self, link: &OpenedLink, _: &Parts) -> ConnectStep {
    ///         match link.secret("api_key") {
    ///             Some(key) if key.expose().starts_with("sk-") => ConnectStep::complete(None),
    ///             _ => ConnectStep::retry("That is not an API key: it starts with sk-."),
    ///         }
    ///     }
    /// }
    /// let hook = ApiKey { fields: [SecretField::new("api_key", "API key")] };
    /// assert_eq!(hook.secrets()[0].label(), "API key");
    /// ```
    fn secrets(&self) -> &[SecretField] {
        &[]
    }
}

/// A shared hook (e.g. the same one the application's OAuth callback uses).
///
/// ```
/// # use axum::http::request::Parts;
/// # use axum::response::Response;
/// # use elicit_axum::{ConnectHook, ConnectStep, OpenedLink};
/// # use std::sync::Arc;
/// struct Connect;
/// impl ConnectHook for Connect {
///     async fn subject(&self, _: &Parts) -> Result<String, Response> { Ok("alice".into()) }
///     async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep { ConnectStep::complete(None) }
/// }
/// fn shareable(hook: impl ConnectHook) -> impl ConnectHook { hook }
/// let hook = Arc::new(Connect);
/// let _for_the_route = shareable(Arc::clone(&hook));
/// ```
impl<H: ConnectHook> ConnectHook for std::sync::Arc<H> {
    fn subject(&self, parts: &Parts) -> impl Future<Output = Result<String, Response>> + Send {
        H::subject(self, parts)
    }

    fn connect(
        &self,
        link: &OpenedLink,
        parts: &Parts,
    ) -> impl Future<Output = ConnectStep> + Send {
        H::connect(self, link, parts)
    }

    fn secrets(&self) -> &[SecretField] {
        H::secrets(self)
    }
}

/// A handle the landing route opened for the browser's user: which elicitation it belongs to
/// and the state bound to it.
///
/// ```
/// # use elicit_axum::OpenedLink;
/// #[elicit_runtime::elicit_url(message = "Connect your account", url = "https://example.com/connect")]
/// struct ConnectAccount {
///     service: String,
/// }
///
/// fn service_of(link: &OpenedLink) -> Option<String> {
///     match link.key() {
///         "connect_account" => link.state_as::<ConnectAccount>().ok().map(|s| s.service),
///         _ => None,
///     }
/// }
/// ```
pub struct OpenedLink {
    pub(super) handle: String,
    pub(super) opened: OpenedHandleKey,
    pub(super) state: Value,
    /// What the person typed in the page's masked inputs, by field name.
    pub(super) secrets: Vec<(String, Secret)>,
}

impl fmt::Debug for OpenedLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedLink")
            .field("id", &self.opened.id())
            .field("key", &self.opened.key())
            .finish_non_exhaustive()
    }
}

impl OpenedLink {
    /// The handle id (the 2025-11-25 `elicitationId`).
    ///
    /// ```
    /// # use elicit_axum::OpenedLink;
    /// fn log_line(link: &OpenedLink) -> String {
    ///     format!("connect {} ({})", link.key(), link.id())
    /// }
    /// ```
    pub fn id(&self) -> &str {
        self.opened.id()
    }

    /// The key of the elicitation the handle belongs to (`ElicitUrl::KEY`): route one connect
    /// endpoint to several kinds with it.
    ///
    /// ```
    /// # use elicit_axum::{ConnectStep, OpenedLink};
    /// fn step(link: &OpenedLink) -> ConnectStep {
    ///     match link.key() {
    ///         "connect_github" => ConnectStep::complete(None),
    ///         _ => ConnectStep::fail("not served here"),
    ///     }
    /// }
    /// ```
    pub fn key(&self) -> &str {
        self.opened.key()
    }

    /// The state bound to the request, as JSON.
    ///
    /// ```
    /// # use elicit_axum::OpenedLink;
    /// fn service(link: &OpenedLink) -> &str {
    ///     link.state()["service"].as_str().unwrap_or("the service")
    /// }
    /// ```
    pub fn state(&self) -> &Value {
        &self.state
    }

    /// The bound state as `T`; [`PageError::WrongKind`] if the handle belongs to another kind
    /// of elicitation (return it with [`ConnectStep::refuse`]).
    ///
    /// ```
    /// # use elicit_axum::{ConnectStep, OpenedLink};
    /// #[elicit_runtime::elicit_url(message = "Connect your account", url = "https://example.com/connect")]
    /// struct ConnectAccount {
    ///     service: String,
    /// }
    ///
    /// fn step(link: &OpenedLink) -> ConnectStep {
    ///     match link.state_as::<ConnectAccount>() {
    ///         Ok(state) => ConnectStep::complete(Some(state.service.into())),
    ///         Err(wrong_kind) => ConnectStep::refuse(wrong_kind),
    ///     }
    /// }
    /// ```
    pub fn state_as<T: ElicitUrl + DeserializeOwned>(&self) -> Result<T, PageError> {
        if self.opened.key() != T::KEY {
            return Err(PageError::WrongKind);
        }
        T::deserialize(&self.state).map_err(|_| PageError::WrongKind)
    }

    /// The opened handle, for [`LandingPage::complete_raw`](elicit_runtime::url::LandingPage::complete_raw)
    /// and [`fail_raw`](elicit_runtime::url::LandingPage::fail_raw) when the application records the
    /// outcome itself (after [`ConnectStep::respond`]).
    ///
    /// ```
    /// # use elicit_runtime::url::{LandingPage, PageError};
    /// # use elicit_axum::OpenedLink;
    /// async fn record_now(page: &LandingPage, link: &OpenedLink) -> Result<(), PageError> {
    ///     page.complete_raw(link.opened(), None).await
    /// }
    /// ```
    pub fn opened(&self) -> &OpenedHandleKey {
        &self.opened
    }

    /// The sealed handle as it came in the link. To finish the flow on a later request (an
    /// OAuth callback), keep it on the server or in a cookie of this browser, and open it
    /// again there with [`LandingPage::open_raw`](elicit_runtime::url::LandingPage::open_raw)
    /// for the same user: that repeats the expiry, subject and already-finished checks. Do not
    /// make it the OAuth `state` alone: the `state` must also prove that the browser coming
    /// back is the one that confirmed (a nonce in a `__Host-` cookie, checked in the callback;
    /// the guide's `oauth_on_axum` recipe), or an attacker can send the victim's browser back
    /// with a code for the attacker's own account.
    ///
    /// ```
    /// # use elicit_axum::OpenedLink;
    /// /// What the callback needs, kept under a random nonce that also goes in a cookie.
    /// fn pending(link: &OpenedLink, nonce: &str) -> (String, String) {
    ///     (nonce.to_owned(), link.handle().to_owned())
    /// }
    /// ```
    pub fn handle(&self) -> &str {
        &self.handle
    }

    /// What the person typed in the page's masked input `name` (one of
    /// [`ConnectHook::secrets`]); `None` for a name the page did not ask. Keep it on the server:
    /// never in the flow's result, a log line or a reply.
    ///
    /// ```
    /// # use elicit_axum::OpenedLink;
    /// fn key_of(link: &OpenedLink) -> Option<&str> {
    ///     link.secret("api_key").map(|key| key.expose())
    /// }
    /// ```
    pub fn secret(&self, name: &str) -> Option<&Secret> {
        self.secrets
            .iter()
            .find_map(|(n, secret)| (n == name).then_some(secret))
    }
}

/// What the landing route does after [`ConnectHook::connect`].
///
/// ```
/// use axum::response::{IntoResponse, Redirect};
/// use elicit_axum::ConnectStep;
/// use serde_json::json;
///
/// // Record a completion (the handler sees the result), show the success page.
/// let done = ConnectStep::complete(Some(json!({"account": "octocat"})))
///     .with_heading("Connected GitHub")
///     .with_message("Signed in as octocat.");
/// // Record a failure (the handler sees the reason), show the failure page.
/// let failed = ConnectStep::fail("the account is suspended");
/// // Record nothing yet: the OAuth callback will.
/// let later = ConnectStep::respond(Redirect::to("https://github.com/login/oauth/authorize").into_response());
/// # let _ = (done, failed, later);
/// ```
#[derive(Debug)]
pub struct ConnectStep {
    pub(super) kind: StepKind,
    pub(super) heading: Option<String>,
    pub(super) message: Option<String>,
}

#[derive(Debug)]
pub(super) enum StepKind {
    Complete(Option<Value>),
    Fail(String),
    Refuse(PageError),
    Respond(Response),
    Retry(String),
}

impl ConnectStep {
    fn new(kind: StepKind) -> Self {
        ConnectStep {
            kind,
            heading: None,
            message: None,
        }
    }

    /// Records that the flow completed, with an optional result for the tool handler
    /// (`UrlAnswer::Completed { result, .. }`), then shows the success page (200).
    ///
    /// ```
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::complete(Some(serde_json::json!({"installation": 42})));
    /// # let _ = step;
    /// ```
    pub fn complete(result: Option<Value>) -> Self {
        Self::new(StepKind::Complete(result))
    }

    /// Records that the flow failed (`UrlAnswer::Failed { reason }`), then shows the failure
    /// page (200). The reason goes to the handler, not to the browser; say something to the
    /// user with [`with_message`](ConnectStep::with_message).
    ///
    /// ```
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::fail("the user has no GitHub account")
    ///     .with_message("No GitHub account is linked to your profile.");
    /// # let _ = step;
    /// ```
    pub fn fail(reason: impl Into<String>) -> Self {
        Self::new(StepKind::Fail(reason.into()))
    }

    /// Records nothing and shows the uniform refusal for `error` (404, the same page as every
    /// refusal; its [`reason`](PageError::reason) is logged), e.g. [`PageError::WrongKind`]
    /// from [`OpenedLink::state_as`].
    ///
    /// ```
    /// # use elicit_runtime::url::PageError;
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::refuse(PageError::WrongKind);
    /// # let _ = step;
    /// ```
    pub fn refuse(error: PageError) -> Self {
        Self::new(StepKind::Refuse(error))
    }

    /// Records nothing and answers with `response`: a consent form, or a redirect to an OAuth
    /// provider whose callback (a route of the application's) opens the handle again and
    /// calls [`LandingPage::complete_raw`](elicit_runtime::url::LandingPage::complete_raw) or
    /// [`fail_raw`](elicit_runtime::url::LandingPage::fail_raw). See [`OpenedLink::handle`].
    ///
    /// ```
    /// # use axum::response::{IntoResponse, Redirect};
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::respond(Redirect::to("/consent").into_response());
    /// # let _ = step;
    /// ```
    pub fn respond(response: Response) -> Self {
        Self::new(StepKind::Respond(response))
    }

    /// Records nothing and shows the confirmation page again, with `notice` (plain text,
    /// escaped) above its inputs and a fresh token: what to answer when the secrets typed are
    /// refused (a key the third party rejects), so the person can correct them. The token of
    /// the page that was posted is spent.
    ///
    /// ```
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::retry("The key was rejected by the API: check it and try again.");
    /// # let _ = step;
    /// ```
    pub fn retry(notice: impl Into<String>) -> Self {
        Self::new(StepKind::Retry(notice.into()))
    }

    /// The page's heading instead of [`PageTexts`](super::PageTexts)' (plain text; escaped).
    /// Used by [`complete`](ConnectStep::complete) and [`fail`](ConnectStep::fail).
    ///
    /// ```
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::complete(None).with_heading("Connected GitHub");
    /// # let _ = step;
    /// ```
    pub fn with_heading(mut self, heading: impl Into<String>) -> Self {
        self.heading = Some(heading.into());
        self
    }

    /// The page's message instead of [`PageTexts`](super::PageTexts)' (plain text; escaped).
    /// Used by [`complete`](ConnectStep::complete) and [`fail`](ConnectStep::fail).
    ///
    /// ```
    /// # use elicit_axum::ConnectStep;
    /// let step = ConnectStep::complete(None).with_message("Signed in as octocat.");
    /// # let _ = step;
    /// ```
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}
