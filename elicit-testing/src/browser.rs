//! The person's browser in a test: what a test client hands the URL-mode links it gets to
//! ([`UrlBrowser`]), and the stand-in for a page ([`StandInPage`]), which finishes a flow as
//! the landing page does on Confirm without any page.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use elicit_runtime::url::{LandingPage, OpenedHandleKey, PageError};

/// The future a [`UrlBrowser`] gives.
pub type BrowserFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What opens the URL-mode links a test client gets: the person's browser. A test client
/// ([`TestClient::browser`](crate::TestClient::browser),
/// `elicit_rmcp::testing::ScriptedClient::browser`) gives it each link its script answers
/// [`UserReply::OpenUrl`](crate::UserReply::OpenUrl) or
/// [`UserReply::CompleteUrl`](crate::UserReply::CompleteUrl), and accepts once it is done.
///
/// Two are ready, one per job:
/// * `elicit_axum::testing::Browser` (feature `testing` of `elicit-axum`) goes through the
///   real page: your app's own router, its cookies, redirects, forms and a stand-in OAuth
///   provider (for [`UserReply::OpenUrl`](crate::UserReply::OpenUrl));
/// * [`StandInPage`] has no page: it records the outcome the script gives, as the landing
///   page would, for a tool tested without its page or a page of another framework (for
///   [`UserReply::CompleteUrl`](crate::UserReply::CompleteUrl)).
///
/// ```
/// use elicit_testing::{BrowserFuture, UrlBrowser};
///
/// /// A person who opens every link and closes the tab at once.
/// struct Idle;
///
/// impl UrlBrowser for Idle {
///     fn open_url<'a>(&'a self, _url: &'a str) -> BrowserFuture<'a, Result<(), String>> {
///         Box::pin(async { Ok(()) })
///     }
/// }
/// let idle: std::sync::Arc<dyn UrlBrowser> = std::sync::Arc::new(Idle);
/// let refused = pollster::block_on(idle.complete_url("https://app.example.com/connect", None));
/// assert!(refused.unwrap_err().starts_with("this browser goes through the real page"));
/// ```
pub trait UrlBrowser: Send + Sync + 'static {
    /// [`UserReply::OpenUrl`](crate::UserReply::OpenUrl): the person opens `url` and goes
    /// through its page; `Ok` once the page showed how the flow ended, else what it showed
    /// instead.
    fn open_url<'a>(&'a self, url: &'a str) -> BrowserFuture<'a, Result<(), String>>;

    /// [`UserReply::CompleteUrl`](crate::UserReply::CompleteUrl): the flow of `url` is
    /// recorded completed with `result`, as a page would. By default refused: a browser that
    /// goes through the real page gets the result from the page's hook.
    fn complete_url<'a>(
        &'a self,
        url: &'a str,
        result: Option<&'a Value>,
    ) -> BrowserFuture<'a, Result<(), String>> {
        let _ = (url, result);
        Box::pin(std::future::ready(Err(
            "this browser goes through the real page, whose hook decides the result: reply `UserReply::OpenUrl`"
                .to_owned(),
        )))
    }

    /// The key of the elicitation `url` is a link of, when this browser can tell (a 2025-11-25
    /// request carries none; a scripted client recognises URL questions by it, else by their
    /// message). By default `None`.
    fn key_of<'a>(&'a self, url: &'a str) -> BrowserFuture<'a, Option<String>> {
        let _ = url;
        Box::pin(std::future::ready(None))
    }
}

/// No page at all: the flow of a link is recorded completed, as the landing page does when
/// `user` confirms, with the result the script gives
/// ([`UserReply::CompleteUrl`](crate::UserReply::CompleteUrl)). For a tool tested without its
/// page, or whose page is not `elicit-axum`'s; to test the page too, give the client
/// `elicit_axum::testing::Browser` instead.
///
/// ```
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::{LandingPage, UrlSettings};
/// use elicit_runtime::ElicitServer;
/// use elicit_testing::StandInPage;
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"))
///     .with_url(UrlSettings::in_memory());
/// let page = StandInPage::new(LandingPage::new(&server), "alice");
/// assert_eq!(page.user(), "alice");
/// let refused = pollster::block_on(page.open("https://app.example.com/connect?elicitation=forged"));
/// assert!(refused.is_err());
/// ```
#[derive(Debug, Clone)]
pub struct StandInPage {
    page: LandingPage,
    user: String,
}

/// Why a [`StandInPage`] could not open or finish a link.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BrowserError {
    /// The link has no `elicitation` query parameter.
    NoHandle,
    /// The landing page refused it.
    Page(PageError),
}

impl fmt::Display for BrowserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrowserError::NoHandle => f.write_str("its link has no `elicitation` handle"),
            BrowserError::Page(error) => write!(f, "{error} ({})", error.reason()),
        }
    }
}

impl std::error::Error for BrowserError {}

impl StandInPage {
    /// The page of `page` (the server's keys and store), its browser signed in as `user`.
    pub fn new(page: LandingPage, user: impl Into<String>) -> Self {
        StandInPage {
            page,
            user: user.into(),
        }
    }

    /// Who is signed in.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// Opens the link `url` as the page does for this user: its handle, opened.
    pub async fn open(&self, url: &str) -> Result<OpenedHandleKey, BrowserError> {
        let handle = handle_in(url).ok_or(BrowserError::NoHandle)?;
        let (opened, _) = self
            .page
            .open_raw(handle, &self.user)
            .await
            .map_err(BrowserError::Page)?;
        Ok(opened)
    }

    /// Opens the link `url` and completes its flow with `result`, as the page does when the
    /// user confirms.
    pub async fn complete(&self, url: &str, result: Option<Value>) -> Result<(), BrowserError> {
        let opened = self.open(url).await?;
        self.page
            .complete_raw(&opened, result)
            .await
            .map_err(BrowserError::Page)
    }
}

impl UrlBrowser for StandInPage {
    fn open_url<'a>(&'a self, _url: &'a str) -> BrowserFuture<'a, Result<(), String>> {
        Box::pin(std::future::ready(Err(
            "a stand-in page has no page to go through: reply `UserReply::CompleteUrl(result)`, or give the client `elicit_axum::testing::Browser`"
                .to_owned(),
        )))
    }

    fn complete_url<'a>(
        &'a self,
        url: &'a str,
        result: Option<&'a Value>,
    ) -> BrowserFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.complete(url, result.cloned())
                .await
                .map_err(|e| match e {
                    BrowserError::NoHandle => {
                        format!("the link has no `elicitation` handle: {url}")
                    }
                    e => format!("the landing page refused it for {}: {e}", self.user),
                })
        })
    }

    fn key_of<'a>(&'a self, url: &'a str) -> BrowserFuture<'a, Option<String>> {
        Box::pin(async move { self.open(url).await.ok().map(|o| o.key().to_owned()) })
    }
}

/// The sealed handle in a link: the value of its `elicitation` query parameter.
fn handle_in(url: &str) -> Option<&str> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("elicitation="))
}
