//! What happened to each elicitation, and why a driven call ended without a result.

use std::fmt;
use std::time::Duration;

use elicit_host::{Elicitation, Finding, RequestError};
use elicit_wire::schema::ContentError;
use rmcp::ServiceError;
use rmcp::model::CreateTaskResult;

use crate::asker::Asker;

/// A mode of elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// A form.
    Form,
    /// A page to open.
    Url,
}

/// What became of one elicitation. Each case is distinct on the wire or to the person.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// The person submitted the form; the content passed its schema and was sent (`accept`).
    Accepted,
    /// The person refused (`decline`).
    Declined,
    /// The person dismissed it without choosing (`cancel`).
    Cancelled,
    /// URL mode: the person consented and the page was opened (`accept`). Whether its flow
    /// finished is the server's to say: in the call's result on 2026-07-28; on 2025-11-25 by
    /// `notifications/elicitation/complete`, which turns it into [`Outcome::Completed`].
    Opened,
    /// URL mode (2025-11-25): the server sent `notifications/elicitation/complete`.
    Completed,
    /// URL mode: the person consented, but how the page's flow ended never became known: the
    /// person stopped waiting, or the wait ran out, before the server answered.
    Unfinished,
    /// The person did not answer within the answer timeout: `cancel` was sent.
    TimedOut,
    /// The server withdrew the question (`notifications/cancelled`) before the person
    /// answered.
    Withdrawn,
    /// Not shown: the request is malformed or its schema is outside the restricted grammar.
    /// Answered `-32602` (2025-11-25) or `cancel` in the round (2026-07-28).
    Malformed(RequestError),
    /// Not shown: a mode this host did not declare. Answered `-32602` or `cancel`.
    Unsupported(Mode),
    /// Not shown: a URL the report refuses (a scheme other than https, userinfo before the
    /// host, a lookalike of the server's host, …). Answered `decline`.
    Refused(Vec<Finding>),
    /// Not shown again: a URL request whose `elicitationId` the same server sent before
    /// (2025-11-25). Answered `cancel`.
    Replayed,
    /// The host's `accept` did not pass the form's own schema: `cancel` was sent instead, never
    /// content the server would refuse.
    InvalidReply(ContentError),
}

/// One elicitation and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Elicited {
    /// Who asked.
    pub asker: Asker,
    /// Its key in the round (2026-07-28), or `None` (a 2025-11-25 request).
    pub key: Option<String>,
    /// The request as parsed (`None` when it did not parse: [`Outcome::Malformed`]).
    pub elicitation: Option<Elicitation>,
    /// What became of it.
    pub outcome: Outcome,
}

impl Elicited {
    /// Its mode, when it parsed.
    pub fn mode(&self) -> Option<Mode> {
        match self.elicitation.as_ref()? {
            Elicitation::Form(_) => Some(Mode::Form),
            Elicitation::Url(_) => Some(Mode::Url),
        }
    }
}

/// A call driven through its rounds: the result, and every elicitation of its rounds.
#[derive(Debug)]
pub struct Call<T> {
    /// The server's final result, or why there is none.
    pub result: Result<T, CallError>,
    /// The elicitations this call's rounds asked (2026-07-28, and the links of a 2025-11-25
    /// `-32042`), in the order asked. Questions a 2025-11-25 server pushes as requests reach
    /// [`Host::outcome`](crate::Host::outcome) instead.
    pub elicitations: Vec<Elicited>,
}

/// Why a driven call ended without the server's result.
#[derive(Debug)]
#[non_exhaustive]
pub enum CallError {
    /// The server asked new questions in more rounds than allowed
    /// ([`Limits::with_max_rounds`](crate::Limits::with_max_rounds)).
    TooManyRounds {
        /// The limit.
        rounds: usize,
    },
    /// The server kept answering without a result (rounds of state only, or the same open
    /// page asked again) for longer than allowed ([`Limits::with_max_wait`](crate::Limits::with_max_wait)).
    WaitedOut {
        /// How long it waited.
        waited: Duration,
    },
    /// The server refused the `requestState` echoed to it: expired, altered, or already used
    /// (a replay). Its `data.reason` when it gave one (`invalid_request_state`,
    /// `already_redeemed`).
    StateRefused {
        /// The server's reason.
        reason: Option<String>,
        /// The server's message.
        message: String,
    },
    /// A round asked for something other than an elicitation (sampling, roots), which this
    /// piece does not answer.
    NotAnElicitation {
        /// The method asked.
        method: String,
    },
    /// A round with neither questions nor state (the spec requires one of them).
    EmptyRound,
    /// 2025-11-25 `-32042` (URL elicitation required): not every page was opened, or the
    /// server did not report every one complete in time.
    UrlNotCompleted {
        /// The server's error.
        error: rmcp::ErrorData,
    },
    /// The server made the call a task (poll it with `tasks/get`).
    Task(Box<CreateTaskResult>),
    /// The transport, the protocol, or the server's JSON-RPC error.
    Service(ServiceError),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::TooManyRounds { rounds } => {
                write!(
                    f,
                    "the server asked new questions in more than {rounds} rounds"
                )
            }
            CallError::WaitedOut { waited } => write!(
                f,
                "no result after waiting {} s for the server",
                waited.as_secs()
            ),
            CallError::StateRefused { reason, message } => match reason {
                Some(reason) => write!(
                    f,
                    "the server refused the request state ({reason}): {message}"
                ),
                None => write!(f, "the server refused the request state: {message}"),
            },
            CallError::NotAnElicitation { method } => write!(
                f,
                "the server asked for `{}`, which this host does not answer",
                method.escape_debug()
            ),
            CallError::EmptyRound => {
                f.write_str("the server sent a round with neither questions nor state")
            }
            CallError::UrlNotCompleted { error } => {
                write!(
                    f,
                    "the pages the server required were not completed: {}",
                    error.message
                )
            }
            CallError::Task(_) => f.write_str("the server made the call a task"),
            CallError::Service(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for CallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallError::Service(error) => Some(error),
            _ => None,
        }
    }
}
