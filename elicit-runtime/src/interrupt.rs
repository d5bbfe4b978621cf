//! Why a handler stops before its result: input is still needed, or the request failed.

use std::fmt;
use std::time::Duration;

use crate::wire::JsonRpcError;

/// Why a handler stops before its result: input is still needed, or the request failed.
///
/// Returned as the error of `ask()` so that `?` ends the handler; the context then turns it
/// into an `InputRequiredResult` (input needed) or a JSON-RPC error response.
///
/// ```
/// use elicit_runtime::Interrupt;
/// use elicit_runtime::wire::JsonRpcError;
///
/// let stop: Interrupt = JsonRpcError::invalid_params("no such restaurant", None).into();
/// assert!(!stop.is_input_required());
/// assert_eq!(stop.as_error().map(|e| e.code), Some(-32602));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupt(Stop);

#[derive(Debug, Clone, PartialEq)]
enum Stop {
    InputRequired,
    Failed(JsonRpcError),
    Link(Box<UrlLink>),
}

impl Interrupt {
    /// Input is needed before the handler can go on: the questions asked so far go to the
    /// client. With no question pending this is a state-only round ("retry later").
    pub fn input_required() -> Self {
        Interrupt(Stop::InputRequired)
    }

    /// The request fails with this JSON-RPC error.
    pub fn error(error: JsonRpcError) -> Self {
        Interrupt(Stop::Failed(error))
    }

    /// The tool call ends with `link` as its ordinary text result, for a client that cannot
    /// open URL elicitations ([`UrlSettings::with_link_fallback`](crate::url::UrlSettings::with_link_fallback)).
    pub fn link(link: UrlLink) -> Self {
        Interrupt(Stop::Link(Box::new(link)))
    }

    /// The link the call ends with, if it ends with one.
    pub fn as_link(&self) -> Option<&UrlLink> {
        match &self.0 {
            Stop::Link(link) => Some(link),
            _ => None,
        }
    }

    /// `true` when the handler stopped to wait for input.
    pub fn is_input_required(&self) -> bool {
        matches!(self.0, Stop::InputRequired)
    }

    /// The error the request fails with, if it failed.
    pub fn as_error(&self) -> Option<&JsonRpcError> {
        match &self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired | Stop::Link(_) => None,
        }
    }

    /// The error the request fails with, if it failed.
    pub fn into_error(self) -> Option<JsonRpcError> {
        match self.0 {
            Stop::Failed(error) => Some(error),
            Stop::InputRequired | Stop::Link(_) => None,
        }
    }
}

impl From<JsonRpcError> for Interrupt {
    fn from(error: JsonRpcError) -> Self {
        Interrupt::error(error)
    }
}

impl fmt::Display for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Stop::InputRequired => f.write_str("input required from the client"),
            Stop::Failed(e) => write!(f, "request failed ({}): {}", e.code, e.message),
            Stop::Link(link) => write!(f, "the call ends with a link: {}", link.url),
        }
    }
}

impl std::error::Error for Interrupt {}

/// The link a tool call ended with, for a client that cannot open URL elicitations: the
/// adapter sends it as the call's ordinary text result (its [`Display`](fmt::Display) is a
/// sentence the model can relay), and the same call made again after the user finished on the
/// page goes on with what the page recorded.
///
/// The model sees the link. That is safe by construction: the link carries a sealed handle
/// that opens only for the signed-in user it was made for, completes one flow of this very
/// call (tool, arguments, user), works once and expires; it never carries a secret.
///
/// ```
/// use elicit_runtime::url::UrlLink;
/// use std::time::Duration;
///
/// let link = UrlLink::new("Connect your calendar", "https://example.com/c/abc", Duration::from_secs(600));
/// assert_eq!(
///     link.to_string(),
///     "Connect your calendar: open https://example.com/c/abc in a browser, then ask me to continue. \
///      The link is for this user only, works once, and expires in 10 minutes."
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UrlLink {
    /// The elicitation's message (`#[elicit_url(message = …)]`).
    pub message: String,
    /// The page's link, with the sealed handle in it.
    pub url: String,
    /// How long the link stays valid.
    pub valid_for: Duration,
}

impl UrlLink {
    /// A link to relay.
    pub fn new(message: impl Into<String>, url: impl Into<String>, valid_for: Duration) -> Self {
        UrlLink {
            message: message.into(),
            url: url.into(),
            valid_for,
        }
    }
}

impl fmt::Display for UrlLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.valid_for.as_secs().div_ceil(60).max(1);
        let unit = if minutes == 1 { "minute" } else { "minutes" };
        write!(
            f,
            "{}: open {} in a browser, then ask me to continue. The link is for this user only, \
             works once, and expires in {minutes} {unit}.",
            self.message.trim_end_matches(['.', ' ']),
            self.url
        )
    }
}
