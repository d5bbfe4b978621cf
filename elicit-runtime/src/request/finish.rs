//! Ending a round: the handler's result, or an `InputRequiredResult` with this round's
//! questions and the next sealed state, or the error the request failed with.

use std::collections::BTreeMap;
use std::time::SystemTime;

use serde_json::Map;

use super::ElicitContext;
use super::round::{self, RoundState};
use crate::interrupt::Interrupt;
use crate::interrupt::UrlLink;
use crate::wire::{
    INTERNAL_ERROR, InputRequest, InputRequiredResult, JsonRpcError, META_SERVER_INFO, ProtocolEra,
};

/// How a handler's request ends: with its result, or asking the client for input first.
///
/// ```
/// use elicit_runtime::Reply;
///
/// fn text(reply: Reply<String>) -> String {
///     match reply {
///         Reply::Result(text) => text,
///         Reply::InputRequired(ask) => format!("{} questions", ask.input_requests().map_or(0, |q| q.len())),
///         Reply::Link(link) => link.to_string(),
///         _ => "ended otherwise".into(),
///     }
/// }
/// assert_eq!(text(Reply::Result("booked".into())), "booked");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Reply<R> {
    /// The handler finished: send its result.
    Result(R),
    /// The handler needs input first: send this as the result (2026-07-28 only).
    InputRequired(InputRequiredResult),
    /// The tool call ends with this link as its ordinary text result: the client cannot open
    /// URL elicitations, and the same call made again finds what the page recorded
    /// ([`UrlSettings::with_link_fallback`](crate::url::UrlSettings::with_link_fallback)).
    Link(UrlLink),
}

impl ElicitContext {
    /// Ends the request once the handler returned: turns its result into the response (the
    /// result itself, an `InputRequiredResult` with this round's questions and the sealed
    /// state, a link, or the error). A round that continues without having asked anything
    /// redeems the state it carried first, so the same state never seals twice.
    ///
    /// ```
    /// use elicit_runtime::request::RequestParts;
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::{ElicitServer, Interrupt, Reply};
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "my-server"));
    /// let mut parts = RequestParts::new("ping");
    /// parts.meta = serde_json::json!({
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {}
    /// }).as_object().cloned();
    /// let cx = server.context("tools/call", parts).build().unwrap();
    /// let reply = pollster::block_on(cx.respond(Ok::<_, Interrupt>("pong")));
    /// assert_eq!(reply.unwrap(), Reply::Result("pong"));
    /// ```
    pub fn respond<R>(
        self,
        result: Result<R, Interrupt>,
    ) -> impl Future<Output = Result<Reply<R>, JsonRpcError>> {
        // The context moves to the heap here, not into the future: a handler's future keeps
        // room for this one while it waits (a held retry does for the whole hold), and a
        // future keeps its arguments besides the locals it awaits with.
        let mut this = Box::new(self);
        async move {
            Box::pin(this.settle(&result)).await;
            this.finish(result)
        }
    }

    /// [`respond`](Self::respond) once the carried state is settled. With a replay guard, a
    /// round that continues without having asked anything must have redeemed it first;
    /// otherwise this fails with `-32603` rather than carry an unredeemed state on.
    pub(crate) fn finish<R>(
        mut self,
        result: Result<R, Interrupt>,
    ) -> Result<Reply<R>, JsonRpcError> {
        let interrupt = match result {
            Ok(value) => {
                self.trace_end("complete", None);
                return Ok(Reply::Result(value));
            }
            Err(interrupt) => interrupt,
        };
        // The link itself, or (through an adapter that carries only "not an error", as `?`
        // in an rmcp tool does) the one the context kept, unless the round asked for more.
        let link = match interrupt.as_link() {
            Some(link) => Some(link.clone()),
            None if interrupt.is_input_required() && self.rules.answers.pending.is_empty() => {
                self.rules.link.take().map(|link| *link)
            }
            None => None,
        };
        if let Some(link) = link
            && self.rules.first_error().is_none()
        {
            self.trace_end("link", None);
            return Ok(Reply::Link(link));
        }
        let error = interrupt
            .into_error()
            .or_else(|| self.rules.first_error().cloned());
        let error = error.or_else(|| {
            (self.rules.era != ProtocolEra::Mrtr2026).then(|| {
                JsonRpcError::new(
                    INTERNAL_ERROR,
                    "input required on a 2025-11-25 connection: questions go to the peer there",
                    None,
                )
            })
        });
        let sealed = match error {
            Some(error) => Err(error),
            None => self.seal_next_state(),
        };
        let token = match sealed {
            Ok(token) => token,
            Err(error) => {
                self.trace_end("error", Some(error.code));
                return Err(error);
            }
        };
        self.trace_end("input_required", None);
        let requests: BTreeMap<String, InputRequest> = self
            .rules
            .answers
            .pending
            .into_iter()
            .map(|(k, (_, request))| (k, request))
            .collect();
        let requests = (!requests.is_empty()).then_some(requests);
        let mut result = InputRequiredResult::new(requests, Some(token))
            .map_err(|e| JsonRpcError::new(INTERNAL_ERROR, e.to_string(), None))?;
        if let Some(info) = self.rules.server.server_info() {
            let mut meta = Map::new();
            meta.insert(META_SERVER_INFO.to_owned(), info.clone());
            result = result.with_meta(meta);
        }
        Ok(Reply::InputRequired(result))
    }

    /// The `requestState` the client echoes on its retry. Takes the answers and URL-mode flows
    /// out of the context (which `finish` consumes) instead of copying them.
    fn seal_next_state(&mut self) -> Result<String, JsonRpcError> {
        // Carrying an unredeemed state into a new one would let the same answers be used
        // again through each new state: fail closed.
        if self.redemption_pending() {
            return Err(JsonRpcError::new(
                INTERNAL_ERROR,
                "the requestState this request carried was not redeemed with the replay guard: \
                 a round that asked nothing must be ended with `respond`",
                None,
            ));
        }
        let url_flows = self.rules.take_flows();
        let answers = &mut self.rules.answers;
        let carried = answers.take_for_next_round();
        let state = RoundState {
            asked: answers
                .pending
                .iter()
                .map(|(k, (d, _))| (k.clone(), d.clone()))
                .collect(),
            answers: carried,
            url_flows,
            round: self.trace.round,
            reasks: std::mem::take(&mut answers.reasks),
        };
        let cannot = |e: &dyn std::fmt::Display| {
            JsonRpcError::new(
                INTERNAL_ERROR,
                format!("cannot seal requestState: {e}"),
                None,
            )
        };
        self.rules
            .server
            .sealer()
            .seal_with(&self.binding(), SystemTime::now(), |buf| {
                round::write(&state, buf)
            })
            .map_err(|e| cannot(&e))
    }
}
