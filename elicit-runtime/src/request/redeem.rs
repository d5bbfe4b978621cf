//! Single use of the `requestState` a request carried: with a replay guard, the state is
//! redeemed once, asynchronously, at the first moment an answer carried in it could be used
//! (the first question asked), never while the context is built. A handler that never asks
//! never waits for the guard.

use std::time::SystemTime;

use super::ElicitContext;
use super::trace::Escaped;
use crate::channel::Round as _;
use crate::wire::JsonRpcError;

/// Where the state this request carried stands with the replay guard.
#[derive(Debug, Clone, Default)]
pub(crate) enum RedeemStatus {
    /// Nothing to redeem: the request carried no state, or the server has no replay guard.
    #[default]
    NotNeeded,
    /// Opened and checked, not redeemed yet.
    Pending,
    /// Redeemed by this request.
    Redeemed,
    /// Refused (replayed, or the guard could not decide in time); every later use fails the
    /// same way.
    Refused(JsonRpcError),
}

impl ElicitContext {
    /// Redeems the `requestState` this request carried with the server's replay guard
    /// ([`StateSealer::with_replay_guard`](crate::state::StateSealer::with_replay_guard)), once.
    ///
    /// Asking does this on its own before it looks at any answer, and
    /// [`respond`](Self::respond) does it before it seals the next state of a round that asked
    /// nothing (a [`retry_later`](Self::retry_later) round): you never need to call it. Call it
    /// to learn early whether this retry's state is spent, before work that must not run twice
    /// even when the handler asks nothing.
    ///
    /// Without a guard, or without a state, it does nothing. A guard backed by a network store
    /// waits at most its timeouts.
    ///
    /// # Errors
    ///
    /// The uniform `-32602 "Invalid or expired requestState"` if the state was redeemed before
    /// or the guard cannot decide (fail closed); the precise reason goes to the `elicit
    /// requestState refused` `tracing` event (warn, target `elicit`). The error is also what
    /// `respond` answers with, and every later question fails with it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use elicit_runtime::state::{KeyRing, MemoryReplayGuard, StateSealer};
    /// use elicit_runtime::{ElicitServer, Reply};
    /// use pollster::block_on;
    /// use serde_json::{Value, json};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "demo")
    ///     .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    /// let server = ElicitServer::new(sealer);
    /// let mut params = json!({
    ///     "name": "poll", "arguments": {},
    ///     "_meta": {
    ///         "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///         "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    ///     }
    /// });
    /// // A poll that asks nothing: is the state spent before the work starts?
    /// let round = |params: &Value| {
    ///     let mut cx = server.context("tools/call", params).build().map_err(|e| e.error)?;
    ///     block_on(cx.redeem_state())?;
    ///     let result: Result<(), _> = Err(cx.retry_later());
    ///     block_on(cx.respond(result))
    /// };
    /// let Ok(Reply::InputRequired(first)) = round(&params) else { panic!() };
    /// params["requestState"] = json!(first.request_state().unwrap());
    /// assert!(round(&params).is_ok());
    /// // The same state a second time: refused.
    /// assert_eq!(round(&params).unwrap_err().code, -32602);
    /// ```
    pub async fn redeem_state(&mut self) -> Result<(), JsonRpcError> {
        match &self.redemption {
            RedeemStatus::NotNeeded | RedeemStatus::Redeemed => return Ok(()),
            RedeemStatus::Refused(error) => return Err(error.clone()),
            RedeemStatus::Pending => {}
        }
        let Some(opened) = self.opened_state else {
            self.redemption = RedeemStatus::NotNeeded;
            return Ok(());
        };
        let verdict = self
            .server
            .sealer()
            .redeem_state(opened.redemption(SystemTime::now()))
            .await;
        match verdict {
            Ok(()) => {
                self.redemption = RedeemStatus::Redeemed;
                Ok(())
            }
            Err(refused) => {
                tracing::warn!(
                    target: "elicit",
                    method = %Escaped(&self.call.method),
                    target = %Escaped(&self.call.target),
                    round = self.trace.round,
                    reason = refused.reason(),
                    detail = %Escaped(&refused.to_string()),
                    "elicit requestState refused"
                );
                // Uniform for every refusal; a store that did not answer says "retry".
                let error = refused.client_error();
                self.failed(&error);
                self.redemption = RedeemStatus::Refused(error.clone());
                Err(error)
            }
        }
    }

    /// Whether the state this request carried still awaits its redemption.
    pub(crate) fn redemption_pending(&self) -> bool {
        matches!(self.redemption, RedeemStatus::Pending)
    }

    /// Before `finish`: a round that continues without asking carries this request's state
    /// into the next one, so it redeems the state first (a refusal becomes the round's error).
    pub(crate) async fn settle<R>(&mut self, result: &Result<R, crate::interrupt::Interrupt>) {
        let continues = matches!(result, Err(interrupt) if interrupt.is_input_required());
        if continues && self.era == crate::wire::ProtocolEra::Mrtr2026 {
            // A refusal is recorded as the first error, which `finish` answers with.
            let _ = self.redeem_state().await;
        }
    }
}
