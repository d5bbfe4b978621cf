//! How long and how often a host lets a server ask.

use std::time::Duration;

/// Rounds of new questions one call may ask before it fails
/// ([`CallError::TooManyRounds`](crate::CallError::TooManyRounds)): the same cap as the
/// Python, TypeScript and Rust SDKs' clients.
pub const DEFAULT_MAX_ROUNDS: usize = 10;

/// How long one call waits for a page the person opened, or through rounds that carry only
/// state, before it fails ([`CallError::WaitedOut`](crate::CallError::WaitedOut)).
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(10 * 60);

/// How long the person has to answer one question before `cancel` is sent
/// ([`Outcome::TimedOut`](crate::Outcome::TimedOut)).
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The longest URL a URL-mode request may carry, in bytes; a longer one is refused unseen
/// ([`Outcome::Malformed`](crate::Outcome::Malformed): `-32602`, or `cancel` in a round). Most
/// web servers refuse request lines longer than this anyway.
pub const MAX_URL_BYTES: usize = 8 * 1024;

/// The longest message a URL-mode request may carry, in bytes; a longer one is refused unseen,
/// as [`MAX_URL_BYTES`].
pub const MAX_URL_MESSAGE_BYTES: usize = 4 * 1024;

/// The longest `elicitationId`, in bytes; a longer one is refused unseen, as
/// [`MAX_URL_BYTES`].
pub const MAX_ELICITATION_ID_BYTES: usize = 256;

/// How many 2025-11-25 URL requests an [`Answerer`](crate::Answerer) remembers per server (to
/// refuse a repeated `elicitationId` and take its `notifications/elicitation/complete` once);
/// past it, the oldest are forgotten.
pub const REMEMBERED_URL_REQUESTS: usize = 1024;

/// The most memory one server's remembered URL requests take, in bytes (13 MiB): each is its
/// id, and once the person opened its page the request (message, URL and id, each within its
/// cap), with 512 bytes of bookkeeping; a request refused or answered without opening keeps
/// only its id. A server's are dropped once its connection is gone (when the next request
/// comes).
///
/// ```
/// use elicit_host_rmcp::{
///     MAX_ELICITATION_ID_BYTES, MAX_REMEMBERED_BYTES, MAX_URL_BYTES, MAX_URL_MESSAGE_BYTES,
///     REMEMBERED_URL_REQUESTS,
/// };
///
/// let entry = 2 * MAX_ELICITATION_ID_BYTES + MAX_URL_MESSAGE_BYTES + MAX_URL_BYTES + 512;
/// assert_eq!(MAX_REMEMBERED_BYTES, REMEMBERED_URL_REQUESTS * entry);
/// assert_eq!(MAX_REMEMBERED_BYTES, 13 * 1024 * 1024);
/// ```
pub const MAX_REMEMBERED_BYTES: usize = REMEMBERED_URL_REQUESTS
    * (2 * MAX_ELICITATION_ID_BYTES + MAX_URL_MESSAGE_BYTES + MAX_URL_BYTES + 512);

/// The bounds on what a server may ask of the person and the host.
///
/// Rounds that ask the person something new count against
/// [`max_rounds`](Self::with_max_rounds); rounds that only wait (state only, or the same open
/// page asked again while the person is on it) count against [`max_wait`](Self::with_max_wait)
/// instead, so a person who takes five minutes on a sign-in page is waited for, and a server
/// that never finishes is not.
///
/// ```
/// use std::time::Duration;
/// use elicit_host_rmcp::Limits;
///
/// let limits = Limits::default().with_max_wait(Duration::from_secs(120));
/// assert_eq!(limits.max_rounds(), 10);
/// assert_eq!(limits.max_wait(), Duration::from_secs(120));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    max_rounds: usize,
    max_wait: Duration,
    answer_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rounds: DEFAULT_MAX_ROUNDS,
            max_wait: DEFAULT_MAX_WAIT,
            answer_timeout: DEFAULT_ANSWER_TIMEOUT,
        }
    }
}

impl Limits {
    /// Rounds of new questions one call may ask (default [`DEFAULT_MAX_ROUNDS`]).
    pub fn with_max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// How long one call may wait without new questions (default [`DEFAULT_MAX_WAIT`]).
    pub fn with_max_wait(mut self, wait: Duration) -> Self {
        self.max_wait = wait;
        self
    }

    /// How long the person has for one question (default [`DEFAULT_ANSWER_TIMEOUT`]).
    pub fn with_answer_timeout(mut self, timeout: Duration) -> Self {
        self.answer_timeout = timeout;
        self
    }

    /// Rounds of new questions one call may ask.
    pub fn max_rounds(&self) -> usize {
        self.max_rounds
    }

    /// How long one call may wait without new questions.
    pub fn max_wait(&self) -> Duration {
        self.max_wait
    }

    /// How long the person has for one question.
    pub fn answer_timeout(&self) -> Duration {
        self.answer_timeout
    }
}
