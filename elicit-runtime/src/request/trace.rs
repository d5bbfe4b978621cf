//! What a round tells operators through `tracing` (target `elicit`): which questions went
//! out, how each was answered and after how long, and how the request ended. Never answer
//! contents, never the principal.
//!
//! - `elicit answer` (info): `method`, `target` (tool, prompt or URI), `round`, `key`,
//!   `action` (`accept`, `decline`, `cancel`, or `result` for sampling and roots), `waited_ms`
//!   (from the round that asked to the answer: measured on 2025-11-25, to the second from the
//!   sealed state on 2026-07-28);
//! - `elicit round` (info): `method`, `target`, `era`, `round`, `outcome` (`complete`,
//!   `input_required`, `error`), `asked` (the keys of this round's questions), `code` (the
//!   JSON-RPC error code of a failed request). Requests that asked nothing and were answered
//!   nothing emit no event;
//! - `elicit requestState refused` (warn, from `redeem`): `method`, `target`, `round`,
//!   `reason` ([`StateError::reason`](crate::state::StateError::reason)) and `detail` (its
//!   text) when the replay guard refuses the state: replayed, or the guard could not decide.
//!   The client only sees the uniform `-32602`.
//!
//! `target` (the tool name, prompt name or resource URI) and `detail` come from the client:
//! they are written through `Escaped`, so a newline in a tool name cannot forge a log line
//! nor an escape sequence drive an operator's terminal.

use std::fmt;
use std::time::{Duration, SystemTime};

use super::ElicitContext;
use crate::wire::InputResponse;

/// Client-controlled text as a log field, escaped: control characters (`\n`, `\r`, ESC, …),
/// the backslash, Unicode's line and paragraph separators and its bidirectional controls are
/// written as Rust escapes them (`\n`, `\u{1b}`, `\\`); every other character as itself. One
/// field is then always one line, whatever the client sent, and reads back unambiguously.
pub(crate) struct Escaped<'a>(pub &'a str);

/// Whether `c` is written escaped.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || c == '\\'
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(needs_escape) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            write!(f, "{}", c.escape_default())?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// What a request remembers for its trace: its round number and when the round that asked
/// was sealed.
#[derive(Debug, Default)]
pub(crate) struct RoundTrace {
    /// 1 for a first call, one more than the sealed state's for each retry.
    pub round: u32,
    /// When the state this request carries was sealed.
    pub asked_at: Option<SystemTime>,
    /// Whether an answer was seen (so the round's end is worth an event).
    pub answered: bool,
}

/// How the user answered, as the trace names it: an elicitation's `action`, else `result`.
pub(crate) fn action_of(response: &InputResponse) -> &'static str {
    match response.as_elicit() {
        Some(result) => result.action.as_str(),
        None => "result",
    }
}

impl ElicitContext {
    /// Records an answer; `waited` when measured in place (2025-11-25), else from the state.
    pub(crate) fn trace_answer(
        &mut self,
        key: &str,
        response: &InputResponse,
        waited: Option<Duration>,
    ) {
        self.trace.answered = true;
        // The token's expiry is kept in whole seconds: its sealing time, worked back from
        // it, is accurate to a second and may lie just ahead of now.
        let waited = waited.or_else(|| {
            let asked_at = self.trace.asked_at?;
            Some(
                SystemTime::now()
                    .duration_since(asked_at)
                    .unwrap_or_default(),
            )
        });
        tracing::info!(
            target: "elicit",
            method = %Escaped(&self.rules.call.method),
            target = %Escaped(&self.rules.call.target),
            round = self.trace.round,
            key = %Escaped(key),
            action = action_of(response),
            waited_ms = waited.map(|w| u64::try_from(w.as_millis()).unwrap_or(u64::MAX)),
            "elicit answer"
        );
    }

    /// Records how the request ended.
    pub(crate) fn trace_end(&self, outcome: &'static str, code: Option<i64>) {
        let asked = self.pending_keys();
        if asked.is_empty() && !self.trace.answered {
            return;
        }
        tracing::info!(
            target: "elicit",
            method = %Escaped(&self.rules.call.method),
            target = %Escaped(&self.rules.call.target),
            era = self.rules.era.version(),
            round = self.trace.round,
            outcome,
            asked = %Escaped(&asked.join(",")),
            code,
            "elicit round"
        );
    }
}
