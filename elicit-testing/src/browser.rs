//! The person's browser in a test: signed in to the landing page as one user, it opens a
//! URL-mode link and finishes the flow as the page does on Confirm.

use std::fmt;

use serde_json::Value;

use elicit_runtime::url::{LandingPage, OpenedHandleKey, PageError};

/// A browser signed in to the landing page as `user`: what a test client needs to answer
/// [`UserReply::CompleteUrl`](crate::UserReply::CompleteUrl) (`TestClient::browser`,
/// `elicit_rmcp::testing::ScriptedClient::browser`).
#[derive(Debug, Clone)]
pub struct Browser {
    page: LandingPage,
    user: String,
}

/// Why a [`Browser`] could not open or finish a link.
#[derive(Debug, Clone, PartialEq)]
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

impl Browser {
    /// The browser of `user`, at `page`.
    pub fn new(page: LandingPage, user: impl Into<String>) -> Self {
        Browser {
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

/// The sealed handle in a link: the value of its `elicitation` query parameter.
fn handle_in(url: &str) -> Option<&str> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("elicitation="))
}
