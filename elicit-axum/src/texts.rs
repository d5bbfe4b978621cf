//! The texts of the landing route's pages, plain text (escaped when shown).

/// The texts of the pages the landing route shows: the confirmation page (its heading, the
/// warning under the request, the buttons, and the server's name shown to the user), the
/// heading and message after a completion, after a recorded failure and after a cancel, the
/// heading and hint of a refusal, and the hint under each finished page. All plain text
/// (escaped when shown); a refusal's message is always [`PageError`](elicit_runtime::url::PageError)'s
/// uniform text.
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
    cancelled: (String, String),
    refused: (String, String),
    close_hint: String,
    confirm: (String, String),
    buttons: (String, String),
    server_name: Option<String>,
}

impl Default for PageTexts {
    fn default() -> Self {
        PageTexts {
            completed: ("All set".into(), "This step is done.".into()),
            failed: (
                "Not completed".into(),
                "This request could not be completed.".into(),
            ),
            cancelled: (
                "Cancelled".into(),
                "Nothing was connected. Your assistant will be told you cancelled.".into(),
            ),
            refused: (
                "This link cannot be used".into(),
                "If you started this request, ask your assistant for a new link and open it \
                 while signed in with the same account."
                    .into(),
            ),
            close_hint: "You can close this tab and return to your assistant.".into(),
            confirm: (
                "Confirm this request".into(),
                "Continue only if you just asked your assistant to do this. If you did not, \
                 cancel: nothing happens until you confirm."
                    .into(),
            ),
            buttons: ("Confirm".into(), "Cancel".into()),
            server_name: None,
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

    /// The heading above a refusal; the message under it is the
    /// [`PageError`](elicit_runtime::url::PageError) text, the
    /// same for every refusal.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_refused("Link not usable");
    /// assert_eq!(texts.refused(), "Link not usable");
    /// ```
    pub fn with_refused(mut self, heading: impl Into<String>) -> Self {
        self.refused.0 = heading.into();
        self
    }

    /// The hint under a refusal (default: ask the assistant for a new link and open it signed
    /// in with the same account). The same for every refusal, so it must not depend on why.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_refused_hint("Ask for a new link.");
    /// assert_eq!(texts.refused_hint(), "Ask for a new link.");
    /// ```
    pub fn with_refused_hint(mut self, hint: impl Into<String>) -> Self {
        self.refused.1 = hint.into();
        self
    }

    /// The heading of the confirmation page and the warning under the request (default:
    /// "Confirm this request"; continue only if you just asked for it).
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_confirm("Connect GitHub?", "Only if you asked.");
    /// assert_eq!(texts.confirm(), ("Connect GitHub?", "Only if you asked."));
    /// ```
    pub fn with_confirm(mut self, heading: impl Into<String>, warning: impl Into<String>) -> Self {
        self.confirm = (heading.into(), warning.into());
        self
    }

    /// The labels of the confirmation page's two buttons (default: "Confirm", "Cancel").
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_buttons("Connect", "Not now");
    /// assert_eq!(texts.buttons(), ("Connect", "Not now"));
    /// ```
    pub fn with_buttons(mut self, confirm: impl Into<String>, cancel: impl Into<String>) -> Self {
        self.buttons = (confirm.into(), cancel.into());
        self
    }

    /// The heading and message after the user cancelled.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_cancelled("Not connected", "Nothing changed.");
    /// assert_eq!(texts.cancelled(), ("Not connected", "Nothing changed."));
    /// ```
    pub fn with_cancelled(
        mut self,
        heading: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.cancelled = (heading.into(), message.into());
        self
    }

    /// The server's name as the confirmation page shows it ("Request from …"); default: the
    /// server's audience ([`StateSealer`](elicit_runtime::state::StateSealer)'s, e.g.
    /// `files-server`). Give the name your users know.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// let texts = PageTexts::default().with_server_name("Example Files");
    /// assert_eq!(texts.server_name(), Some("Example Files"));
    /// assert_eq!(PageTexts::default().server_name(), None);
    /// ```
    pub fn with_server_name(mut self, name: impl Into<String>) -> Self {
        self.server_name = Some(name.into());
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
        &self.refused.0
    }

    /// The hint under a refusal.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert!(PageTexts::default().refused_hint().contains("new link"));
    /// ```
    pub fn refused_hint(&self) -> &str {
        &self.refused.1
    }

    /// The confirmation page's heading and warning.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().confirm().0, "Confirm this request");
    /// ```
    pub fn confirm(&self) -> (&str, &str) {
        (&self.confirm.0, &self.confirm.1)
    }

    /// The confirmation page's button labels: confirm, cancel.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().buttons(), ("Confirm", "Cancel"));
    /// ```
    pub fn buttons(&self) -> (&str, &str) {
        (&self.buttons.0, &self.buttons.1)
    }

    /// The heading and message after a cancel.
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().cancelled().0, "Cancelled");
    /// ```
    pub fn cancelled(&self) -> (&str, &str) {
        (&self.cancelled.0, &self.cancelled.1)
    }

    /// The server's name, if set (else the page shows the server's audience).
    ///
    /// ```
    /// # use elicit_axum::PageTexts;
    /// assert_eq!(PageTexts::default().server_name(), None);
    /// ```
    pub fn server_name(&self) -> Option<&str> {
        self.server_name.as_deref()
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
}
