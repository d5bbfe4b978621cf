//! The landing route's own pages: minimal HTML, every text escaped, nothing loaded, never
//! cached or framed.

use ::axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use elicit_runtime::url::PageError;

/// The texts of the pages the landing route shows: the heading and message after a completion,
/// after a recorded failure, and above a refusal, and the hint under each. All plain text
/// (escaped when shown); a refusal's message is always [`PageError`]'s uniform text.
///
/// ```
/// use elicit_axum::PageTexts;
///
/// let texts = PageTexts::default()
///     .with_completed("Account connected", "Your account is now connected.")
///     .with_close_hint("You can close this tab and return to the chat.");
/// assert_eq!(texts.completed(), ("Account connected", "Your account is now connected."));
/// assert_eq!(
///     PageTexts::default().close_hint(),
///     "You can close this tab and return to your assistant."
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageTexts {
    completed: (String, String),
    failed: (String, String),
    refused: String,
    close_hint: String,
}

impl Default for PageTexts {
    fn default() -> Self {
        PageTexts {
            completed: ("All set".into(), "This step is done.".into()),
            failed: (
                "Not completed".into(),
                "This request could not be completed.".into(),
            ),
            refused: "This link cannot be used".into(),
            close_hint: "You can close this tab and return to your assistant.".into(),
        }
    }
}

impl PageTexts {
    /// The heading and message after a recorded completion (unless the step sets its own).
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_completed("Connected", "Your account is connected.");
    /// assert_eq!(texts.completed().0, "Connected");
    /// ```
    pub fn with_completed(
        mut self,
        heading: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.completed = (heading.into(), message.into());
        self
    }

    /// The heading and message after a recorded failure (unless the step sets its own).
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_failed("Not connected", "Nothing was changed.");
    /// assert_eq!(texts.failed(), ("Not connected", "Nothing was changed."));
    /// ```
    pub fn with_failed(mut self, heading: impl Into<String>, message: impl Into<String>) -> Self {
        self.failed = (heading.into(), message.into());
        self
    }

    /// The heading above a refusal; the message under it is the [`PageError`] text.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_refused("Link not usable");
    /// assert_eq!(texts.refused(), "Link not usable");
    /// ```
    pub fn with_refused(mut self, heading: impl Into<String>) -> Self {
        self.refused = heading.into();
        self
    }

    /// The hint under every page (default: "You can close this tab and return to your
    /// assistant.").
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_close_hint("Close this tab.");
    /// assert_eq!(texts.close_hint(), "Close this tab.");
    /// ```
    pub fn with_close_hint(mut self, hint: impl Into<String>) -> Self {
        self.close_hint = hint.into();
        self
    }

    /// The heading and message shown after a completion.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().completed(), ("All set", "This step is done."));
    /// ```
    pub fn completed(&self) -> (&str, &str) {
        (&self.completed.0, &self.completed.1)
    }

    /// The heading and message shown after a recorded failure.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().failed().0, "Not completed");
    /// ```
    pub fn failed(&self) -> (&str, &str) {
        (&self.failed.0, &self.failed.1)
    }

    /// The heading above a refusal.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().refused(), "This link cannot be used");
    /// ```
    pub fn refused(&self) -> &str {
        &self.refused
    }

    /// The hint shown under every page.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert!(PageTexts::default().close_hint().contains("close this tab"));
    /// ```
    pub fn close_hint(&self) -> &str {
        &self.close_hint
    }

    pub(super) fn completed_page(&self, heading: Option<&str>, message: Option<&str>) -> Response {
        self.page(
            StatusCode::OK,
            heading.unwrap_or(&self.completed.0),
            message.unwrap_or(&self.completed.1),
        )
    }

    pub(super) fn failed_page(&self, heading: Option<&str>, message: Option<&str>) -> Response {
        self.page(
            StatusCode::OK,
            heading.unwrap_or(&self.failed.0),
            message.unwrap_or(&self.failed.1),
        )
    }

    /// The uniform page for `error`, with its status.
    pub(super) fn refused_page(&self, error: &PageError) -> Response {
        self.page(
            status_of(error),
            &self.refused,
            &sentence(&error.to_string()),
        )
    }

    /// The page for a request without a usable handle (400): the text of an invalid handle.
    pub(super) fn no_handle_page(&self) -> Response {
        let text = PageError::Expired.to_string();
        self.page(StatusCode::BAD_REQUEST, &self.refused, &sentence(&text))
    }

    fn page(&self, status: StatusCode, heading: &str, message: &str) -> Response {
        let html = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{heading}</title></head>\n<body><h1>{heading}</h1>\n<p>{message}</p>\n\
             <p>{hint}</p></body></html>\n",
            heading = Escaped(heading),
            message = Escaped(message),
            hint = Escaped(&self.close_hint),
        );
        let mut response = (status, html).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        guard_headers(headers);
        response
    }
}

/// Headers on every page of the route: the link's handle is in the URL, so no caching and no
/// referrer; nothing to load, script or frame.
pub(super) fn guard_headers(headers: &mut http::HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
    );
}

/// The status of a refusal: 400 not a handle of ours or not for this route, 403 another user,
/// 409 already finished, 410 expired, 503 the store failed, 500 no store configured.
pub(super) fn status_of(error: &PageError) -> StatusCode {
    match error {
        PageError::Invalid(_) | PageError::WrongKind => StatusCode::BAD_REQUEST,
        PageError::WrongSubject => StatusCode::FORBIDDEN,
        PageError::AlreadyRecorded => StatusCode::CONFLICT,
        PageError::Expired => StatusCode::GONE,
        PageError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        PageError::NoStore => StatusCode::INTERNAL_SERVER_ERROR,
        // A refusal this route does not know yet: not the user's to fix, not ours to explain.
        _ => StatusCode::BAD_REQUEST,
    }
}

/// `text` as a sentence: capitalized, ending with a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Text escaped for HTML element content and attribute values.
pub(super) struct Escaped<'a>(pub(super) &'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::{Escaped, sentence};

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            Escaped(r#"<a href="x" onclick='y'>&amp;</a>"#).to_string(),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
        assert_eq!(Escaped("plain ünïcode").to_string(), "plain ünïcode");
    }

    #[test]
    fn sentences() {
        assert_eq!(
            sentence("this link is invalid or has expired"),
            "This link is invalid or has expired."
        );
        assert_eq!(sentence("done!"), "Done!");
        assert_eq!(sentence(""), ".");
    }
}
