//! The answer to a URL-mode elicitation, once the user has acted.

/// The answer to a URL-mode elicitation, read on the retry.
///
/// **An accept never authorizes anything by itself.** On the wire, `accept` only means the
/// user agreed to open the page; whether the out-of-band flow succeeded is known only from
/// the completion your own page recorded. That is why there is no `Accepted` variant: an
/// accept turns into [`UrlAnswer::Completed`], [`UrlAnswer::Failed`] or
/// [`UrlAnswer::Expired`] (or, while the page has not finished, another round of
/// input-required that lets the client retry without opening the page again).
///
/// ```
/// use elicit_runtime::UrlAnswer;
///
/// fn reply(outcome: UrlAnswer<String>) -> String {
///     match outcome {
///         UrlAnswer::Completed { state, .. } => format!("connected {state}"),
///         UrlAnswer::Failed { reason, .. } => format!("failed: {reason}"),
///         UrlAnswer::Expired => "the link expired".into(),
///         UrlAnswer::Declined => "not connected".into(),
///         UrlAnswer::Cancelled => "maybe later".into(),
///         // The enum is `#[non_exhaustive]`: an outcome a later version adds.
///         _ => "not connected".into(),
///     }
/// }
/// assert_eq!(reply(UrlAnswer::Declined), "not connected");
/// ```
#[must_use = "the flow may have failed, expired or been declined: match on the outcome"]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum UrlAnswer<T> {
    /// Your page recorded the flow as completed for the user who started it.
    Completed {
        /// The state bound to the request when it was asked.
        state: T,
        /// What the page recorded (server-side only; never sent through the client).
        result: Option<serde_json::Value>,
    },
    /// Your page recorded the flow as failed.
    Failed {
        /// The state bound to the request.
        state: T,
        /// The reason the page gave.
        reason: String,
    },
    /// The handle expired before the flow completed.
    Expired,
    /// The user refused to open the page.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl<T> UrlAnswer<T> {
    /// What the page recorded when the flow completed, or why it did not.
    ///
    /// Most tools only care whether the user connected: this turns the five outcomes into
    /// one `Result`, whose error words the other four for the model (and keeps the
    /// failure's reason). Match on the answer itself when a decline and an expiry call for
    /// different actions.
    ///
    /// ```
    /// use elicit_runtime::{UrlAnswer, url::NotCompleted};
    ///
    /// fn reply(answer: UrlAnswer<()>) -> String {
    ///     match answer.completed() {
    ///         Ok(result) => format!("connected as {}", result.unwrap_or_default()["login"]),
    ///         Err(why) => format!("not connected: {why}"),
    ///     }
    /// }
    /// let done = UrlAnswer::Completed { state: (), result: Some(serde_json::json!({"login": "octo"})) };
    /// assert_eq!(reply(done), r#"connected as "octo""#);
    /// assert_eq!(reply(UrlAnswer::Expired), "not connected: the link expired; call again for a new one");
    /// assert_eq!(UrlAnswer::<()>::Declined.completed(), Err(NotCompleted::Declined));
    /// ```
    pub fn completed(self) -> Result<Option<serde_json::Value>, NotCompleted> {
        match self {
            UrlAnswer::Completed { result, .. } => Ok(result),
            UrlAnswer::Failed { reason, .. } => Err(NotCompleted::Failed { reason }),
            UrlAnswer::Expired => Err(NotCompleted::Expired),
            UrlAnswer::Declined => Err(NotCompleted::Declined),
            UrlAnswer::Cancelled => Err(NotCompleted::Cancelled),
        }
    }
}

/// Why a URL-mode flow did not complete: the error of [`UrlAnswer::completed`].
///
/// Its `Display` is a sentence a tool can hand the model as is.
///
/// ```
/// use elicit_runtime::url::NotCompleted;
///
/// let failed = NotCompleted::Failed { reason: "the provider refused the code".into() };
/// assert_eq!(failed.to_string(), "the provider refused the code");
/// assert_eq!(NotCompleted::Cancelled.to_string(), "the user dismissed the request");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotCompleted {
    /// Your page recorded the flow as failed.
    Failed {
        /// The reason the page gave.
        reason: String,
    },
    /// The handle expired before the flow completed.
    Expired,
    /// The user refused to open the page.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl std::fmt::Display for NotCompleted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotCompleted::Failed { reason } => reason,
            NotCompleted::Expired => "the link expired; call again for a new one",
            NotCompleted::Declined => "the user declined to open the link",
            NotCompleted::Cancelled => "the user dismissed the request",
        })
    }
}

impl std::error::Error for NotCompleted {}

#[cfg(test)]
mod tests {
    use super::{NotCompleted, UrlAnswer};
    use serde_json::json;

    #[test]
    fn completed_keeps_the_result_and_words_every_other_outcome() {
        let done = UrlAnswer::Completed {
            state: 7u8,
            result: Some(json!({"login": "octo"})),
        };
        assert_eq!(done.completed(), Ok(Some(json!({"login": "octo"}))));
        let bare = UrlAnswer::Completed {
            state: 7u8,
            result: None,
        };
        assert_eq!(bare.completed(), Ok(None));
        let failed = UrlAnswer::Failed {
            state: 7u8,
            reason: "token exchange refused".into(),
        };
        let why = failed.completed().unwrap_err();
        assert_eq!(
            why,
            NotCompleted::Failed {
                reason: "token exchange refused".into()
            }
        );
        assert_eq!(why.to_string(), "token exchange refused");
        let words: Vec<String> = [
            UrlAnswer::<u8>::Expired,
            UrlAnswer::Declined,
            UrlAnswer::Cancelled,
        ]
        .into_iter()
        .map(|answer| answer.completed().unwrap_err().to_string())
        .collect();
        assert_eq!(
            words,
            [
                "the link expired; call again for a new one",
                "the user declined to open the link",
                "the user dismissed the request",
            ]
        );
    }
}
