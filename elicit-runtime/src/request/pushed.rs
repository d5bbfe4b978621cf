//! A question pushed to a 2025-11-25 client (`elicitation/create` on the back channel), and
//! the request left open until it answers: bounded like a wait on a URL-mode page. It takes a
//! wait from the server's pool within its user's share (`busy` past it), ends when the client
//! cancels, and gives up after the state lifetime (a 2026-07-28 answer must come back within
//! it too), so clients that never answer cannot pile up open requests.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{Cancellation, ElicitContext};
use crate::interrupt::Interrupt;
use crate::legacy::LegacyPeer;
use crate::state::principal_hash;
use crate::waits::UrlWait;
use crate::wire::{ElicitMode, INTERNAL_ERROR, InputRequest, InputResponse, JsonRpcError};

impl ElicitContext {
    /// Sends `request` to `peer` and waits for the answer, within the bounds above. A URL-mode
    /// request took its wait (and its bound, the link's expiry) where it was asked.
    pub(super) async fn push(
        &mut self,
        peer: &dyn LegacyPeer,
        key: &str,
        request: &InputRequest,
    ) -> Result<InputResponse, Interrupt> {
        let url = matches!(request, InputRequest::Elicit(p) if p.mode() == ElicitMode::Url);
        let wait = if url {
            None
        } else {
            // Requests without a principal share one user's part of the pool.
            let user = principal_hash(
                self.rules.server.sealer().audience(),
                self.principal().unwrap_or_default(),
            );
            Some(self.rules.server.url_wait(&user).ok_or_else(busy)?)
        };
        let within = self.rules.server.sealer().ttl();
        let asked = Instant::now();
        let answer = async {
            let sent = peer.request(request);
            // Timing out needs tokio's timer; outside a tokio runtime the wait is the SDK's.
            let response = if url || tokio::runtime::Handle::try_current().is_err() {
                sent.await
            } else {
                tokio::time::timeout(within, sent)
                    .await
                    .map_err(|_| Interrupt::error(unanswered(within)))?
            };
            response.map_err(Interrupt::error)
        };
        // A full pool may give the wait to a user who holds fewer: the call ends busy.
        let answer = UrlWait::unless_taken(wait.as_ref(), answer, || Err(busy()));
        let response = Cancellation::unless(self.rules.cancel.as_ref(), answer).await?;
        let response = InputResponse::from_value(response);
        self.trace_answer(key, &response, Some(asked.elapsed()));
        Ok(response)
    }
}

fn busy() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "too many elicitations are waiting for their users to answer; try again later",
        Some(json!({"reason": "busy"})),
    ))
}

fn unanswered(within: Duration) -> JsonRpcError {
    JsonRpcError::new(
        INTERNAL_ERROR,
        format!(
            "the client did not answer the elicitation within {} s",
            within.as_secs()
        ),
        Some(json!({"reason": "timeout"})),
    )
}
