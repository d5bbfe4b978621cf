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
///     }
/// }
/// assert_eq!(reply(UrlAnswer::Declined), "not connected");
/// ```
#[must_use = "the flow may have failed, expired or been declined: match on the outcome"]
#[derive(Debug, Clone, PartialEq)]
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
