//! Single use of the `requestState` a request carried: with a replay guard, the state is
//! redeemed once, asynchronously, at the first moment an answer carried in it could be used
//! (the first question asked), never while the context is built. A handler that never asks
//! never waits for the guard.

use std::time::SystemTime;

use super::ElicitContext;
use super::trace::Escaped;
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
    /// same way. Boxed: a context keeps no room for an error it rarely has.
    Refused(Box<JsonRpcError>),
}

impl ElicitContext {
    /// Redeems the `requestState` this request carried with the server's replay guard
    /// ([`StateSealer::with_replay_guard`](crate::state::StateSealer::with_replay_guard)), once:
    /// asking does this before it looks at any answer, and [`respond`](Self::respond) before it
    /// seals the next state of a round that asked nothing (a
    /// [`retry_later`](Self::retry_later) round). Without a guard, or without a state, it does
    /// nothing; a guard backed by a network store waits at most its timeouts.
    ///
    /// A refusal is the uniform `-32602 "Invalid or expired requestState"` (the precise reason
    /// goes to the `elicit requestState refused` `tracing` event, warn, target `elicit`); it is
    /// also what `respond` answers with, and every later question fails with it.
    pub(crate) async fn redeem_state(&mut self) -> Result<(), JsonRpcError> {
        match &self.redemption {
            RedeemStatus::NotNeeded | RedeemStatus::Redeemed => return Ok(()),
            RedeemStatus::Refused(error) => return Err(JsonRpcError::clone(error)),
            RedeemStatus::Pending => {}
        }
        let Some(opened) = self.rules.opened_state else {
            self.redemption = RedeemStatus::NotNeeded;
            return Ok(());
        };
        let verdict = self
            .rules
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
                    method = %Escaped(&self.rules.call.method),
                    target = %Escaped(&self.rules.call.target),
                    round = self.trace.round,
                    reason = refused.reason(),
                    detail = %Escaped(&refused.to_string()),
                    "elicit requestState refused"
                );
                // Uniform for every refusal; a store that did not answer says "retry".
                let error = refused.client_error();
                self.rules.failed(&error);
                self.redemption = RedeemStatus::Refused(Box::new(error.clone()));
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
        if continues && self.rules.era == crate::wire::ProtocolEra::Mrtr2026 {
            // A refusal is recorded as the first error, which `finish` answers with.
            let _ = self.redeem_state().await;
        }
    }
}
