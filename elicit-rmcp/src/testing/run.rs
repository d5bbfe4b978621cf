//! What a scripted call ended with: [`Run`] and its [`Ending`].

use rmcp::ErrorData;
use rmcp::model::CallToolResult;

use super::round::Round;
use super::transcript::Transcript;

/// How a scripted call ended.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Ending<T> {
    /// The server's final result.
    Complete(T),
    /// The JSON-RPC error the server answered with.
    Error(ErrorData),
    /// The client stopped at this `input_required` round (2026-07-28) without retrying: every
    /// question it asks is scripted [`UserReply::Unanswered`](super::UserReply::Unanswered),
    /// or was already accepted with
    /// [`UserReply::AcceptUrl`](super::UserReply::AcceptUrl) and the server
    /// still waits for its page.
    InputRequired(Round),
    /// The client cancelled the call (`notifications/cancelled`) without a result: on
    /// 2025-11-25, after accepting a URL-mode question whose page the user never opens
    /// ([`UserReply::AcceptUrl`](super::UserReply::AcceptUrl)), where the
    /// server would otherwise wait until the link expires; or the task the call became ended
    /// `cancelled` ([`ScriptedClient::tasks`](super::ScriptedClient::tasks)).
    Cancelled,
}

/// How a scripted call ended, and every message exchanged on the way.
#[derive(Debug, Clone)]
pub struct Run<T> {
    /// How the call ended.
    pub ending: Ending<T>,
    /// Every JSON-RPC message of the call, both ways, in order (from
    /// [`ScriptedClient::call_tool`](super::ScriptedClient::call_tool) and `get_prompt`, the
    /// handshake included; from a [`Session`](super::Session), the call's own messages).
    pub transcript: Transcript,
}

impl<T: std::fmt::Debug> Run<T> {
    /// The final result (panics, saying how the call ended, if it has none).
    #[track_caller]
    pub fn complete(&self) -> &T {
        match &self.ending {
            Ending::Complete(result) => result,
            other => panic!("expected a final result, the call ended with {other:?}"),
        }
    }

    /// The JSON-RPC error the call ended with (panics, saying how it ended, otherwise).
    #[track_caller]
    pub fn error(&self) -> &ErrorData {
        match &self.ending {
            Ending::Error(e) => e,
            other => panic!("expected a JSON-RPC error, the call ended with {other:?}"),
        }
    }

    /// The `input_required` round the client stopped at (panics, saying how the call ended,
    /// otherwise).
    #[track_caller]
    pub fn input_required(&self) -> &Round {
        match &self.ending {
            Ending::InputRequired(round) => round,
            other => {
                panic!("expected to stop at an input_required round, the call ended with {other:?}")
            }
        }
    }
}

impl Run<CallToolResult> {
    /// The tool result's text blocks, joined by newlines (panics, saying how the call ended,
    /// if it has no result).
    #[track_caller]
    pub fn text(&self) -> String {
        self.complete()
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
