//! What a URL-mode elicitation ends in, once the user has acted.

/// The outcome of a URL-mode elicitation, read on the retry.
///
/// **An accept never authorizes anything by itself.** On the wire, `accept` only means the
/// user agreed to open the page; whether the out-of-band flow succeeded is known only from
/// the completion your own page recorded. That is why there is no `Accepted` variant: an
/// accept turns into [`UrlOutcome::Completed`], [`UrlOutcome::Failed`] or
/// [`UrlOutcome::Expired`] (or, while the page has not finished, another round of
/// input-required that lets the client retry without opening the page again).
///
/// ```
/// use elicit_runtime::UrlOutcome;
///
/// fn reply(outcome: UrlOutcome<String>) -> String {
///     match outcome {
///         UrlOutcome::Completed { state, .. } => format!("connected {state}"),
///         UrlOutcome::Failed { reason, .. } => format!("failed: {reason}"),
///         UrlOutcome::Expired => "the link expired".into(),
///         UrlOutcome::Declined => "not connected".into(),
///         UrlOutcome::Cancelled => "maybe later".into(),
///     }
/// }
/// assert_eq!(reply(UrlOutcome::Declined), "not connected");
/// ```
#[must_use = "the flow may have failed, expired or been declined: match on the outcome"]
#[derive(Debug, Clone, PartialEq)]
pub enum UrlOutcome<T> {
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
