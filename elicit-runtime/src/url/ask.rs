//! Asking a URL-mode elicitation from a handler, on both protocol eras.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use super::handle::{self, Claims};
use super::{Askable, UrlAnswer};
use crate::form::{question_digest_raw, short_digest};
use crate::interrupt::Interrupt;
use crate::request::{ElicitContext, UrlFlow};
use crate::state::{Completion, CompletionStore, POLL_INTERVAL, canonical_json};
use crate::wire::{
    ElicitAction, ElicitMode, ElicitParams, ElicitResult, ElicitationCompleteNotification,
    INTERNAL_ERROR, InputRequest, JsonRpcError, ProtocolEra, UrlParams,
};

fn internal(message: impl Into<String>) -> Interrupt {
    Interrupt::error(JsonRpcError::new(INTERNAL_ERROR, message, None))
}

/// A completion store that failed. The client learns only that it may retry; the store's own
/// words (host names, Redis replies) go to the log, never onto the wire.
fn store_unavailable(error: &crate::state::StoreError) -> Interrupt {
    tracing::warn!(target: "elicit", reason = %error, "elicit completion store unavailable");
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "the URL-mode completion store is unavailable; retry the request",
        Some(serde_json::json!({"reason": "completion_store_unavailable"})),
    ))
}

impl ElicitContext {
    /// [`ElicitUrl::ask`].
    pub(crate) async fn ask_url<T: Askable>(
        &mut self,
        state: T,
    ) -> Result<UrlAnswer<T>, Interrupt> {
        let result = self.ask_url_inner(state).await;
        self.note_error(result)
    }

    async fn ask_url_inner<T: Askable>(&mut self, state: T) -> Result<UrlAnswer<T>, Interrupt> {
        let (store, bound) = self.url_prerequisites(&state)?;
        let digest = question_digest_raw(
            T::KEY,
            T::MESSAGE,
            &json!({"url": T::URL_TEMPLATE, "state": bound}),
        );
        match self.era {
            ProtocolEra::Mrtr2026 => {
                self.ask_url_mrtr(state, bound, &digest, store.as_ref())
                    .await
            }
            ProtocolEra::Legacy2025 => self.ask_url_legacy(state, bound, store.as_ref()).await,
        }
    }

    /// [`ElicitUrl::ask_if_supported`].
    pub(crate) async fn ask_url_if_supported<T: Askable>(
        &mut self,
        state: T,
    ) -> Result<Option<UrlAnswer<T>>, Interrupt> {
        if !self.capabilities().supports(ElicitMode::Url) {
            return Ok(None);
        }
        self.ask_url(state).await.map(Some)
    }

    /// [`ElicitUrl::require`].
    pub(crate) async fn require_url<T: Askable>(
        &mut self,
        state: T,
    ) -> Result<UrlAnswer<T>, Interrupt> {
        if self.era == ProtocolEra::Mrtr2026 {
            return self.ask_url(state).await;
        }
        let result = self.require_url_legacy(state).await;
        self.note_error(result)
    }

    async fn require_url_legacy<T: Askable>(
        &mut self,
        state: T,
    ) -> Result<UrlAnswer<T>, Interrupt> {
        let (store, bound) = self.url_prerequisites(&state)?;
        let principal = self
            .principal
            .clone()
            .ok_or_else(|| internal("URL-mode elicitation needs an authenticated principal"))?;
        // The retry is a new request with no state of its own: the id is derived from who
        // asked what, so the retry finds the completion. Recording one still needs the sealed
        // handle and the matching browser user.
        let flow_id = |generation: u32| {
            let binding = self.binding();
            let bound = canonical_json(&bound);
            short_digest(&[
                principal.as_bytes(),
                self.server.sealer().audience().as_bytes(),
                binding.method.as_bytes(),
                binding.target.as_bytes(),
                &binding.args_digest,
                T::KEY.as_bytes(),
                bound.as_bytes(),
                &generation.to_be_bytes(),
            ])
        };
        // A single-use completion that was already redeemed ends that flow: the next
        // identical call starts the next generation with a new link.
        let (_, exp) = crate::state::lifetime(SystemTime::now(), self.server.sealer().ttl());
        let expires_at = crate::state::from_unix_secs(exp).unwrap_or(SystemTime::UNIX_EPOCH);
        let mut id = flow_id(0);
        for generation in 1..=MAX_GENERATIONS {
            match self
                .read_completion(&id, store.as_ref(), expires_at)
                .await?
            {
                Some(Completion::Redeemed) if generation < MAX_GENERATIONS => {
                    id = flow_id(generation)
                }
                Some(outcome) => return outcome_for(outcome, state),
                None => break,
            }
        }
        let (claims, token) = self.mint::<T>(&principal, bound, Some(id))?;
        let params = UrlParams::for_2025(
            T::MESSAGE,
            self.server.link(T::URL_TEMPLATE, &token),
            claims.id,
        );
        Err(Interrupt::error(JsonRpcError::url_elicitation_required(
            vec![params],
        )))
    }

    /// What every URL-mode ask needs: the client's URL capability, a completion store, and
    /// the bound state as JSON.
    fn url_prerequisites<T: Askable>(
        &self,
        state: &T,
    ) -> Result<(std::sync::Arc<dyn CompletionStore>, Value), Interrupt> {
        if !self.capabilities().supports(ElicitMode::Url) {
            return Err(Interrupt::error(
                JsonRpcError::missing_elicitation_capability(ElicitMode::Url),
            ));
        }
        let store = self.server.completion_store().cloned().ok_or_else(|| {
            internal("URL-mode elicitation needs a completion store: `ElicitServer::with_completion_store`")
        })?;
        let bound =
            serde_json::to_value(state).map_err(|e| internal(format!("cannot bind state: {e}")))?;
        Ok((store, bound))
    }

    fn mint<T: Askable>(
        &self,
        principal: &str,
        bound: Value,
        id: Option<String>,
    ) -> Result<(Claims, String), Interrupt> {
        handle::mint(
            self.server.sealer(),
            &self.binding(),
            principal,
            T::KEY,
            bound,
            SystemTime::now(),
            id,
        )
        .map_err(|e| internal(format!("cannot seal the URL handle: {e}")))
    }

    /// What the store holds for flow `id` (redeeming it in single-use mode), including the
    /// tombstone of an earlier redemption.
    async fn read_completion(
        &self,
        id: &str,
        store: &dyn CompletionStore,
        expires_at: SystemTime,
    ) -> Result<Option<Completion>, Interrupt> {
        let store_error = |e: crate::state::StoreError| store_unavailable(&e);
        if self.server.single_use_completions() {
            store.redeem(id, expires_at).await.map_err(store_error)
        } else {
            store.lookup(id).await.map_err(store_error)
        }
    }

    /// The recorded outcome of flow `id`; an already redeemed one is refused.
    async fn completed(
        &self,
        id: &str,
        store: &dyn CompletionStore,
        expires_at: SystemTime,
    ) -> Result<Option<Completion>, Interrupt> {
        match self.read_completion(id, store, expires_at).await? {
            Some(Completion::Redeemed) => Err(already_redeemed()),
            other => Ok(other),
        }
    }

    /// A single-use completion carried in sealed state may be used once per state: this
    /// request's state is marked in the store, so replaying it (a later round of a flow whose
    /// completion was already redeemed) is refused instead of ending `Completed` again.
    async fn consume_carried_completion(
        &self,
        flow_id: &str,
        store: &dyn CompletionStore,
    ) -> Result<(), Interrupt> {
        let Some((state_id, expires_at)) = self.opened_state else {
            return Err(internal(
                "a carried completion without the state that carried it",
            ));
        };
        let state_id: String = state_id.iter().map(|b| format!("{b:02x}")).collect();
        let marker = format!("{flow_id}.state.{state_id}");
        let first = store
            .record(&marker, Completion::Redeemed, expires_at)
            .await
            .map_err(|e| store_unavailable(&e))?;
        if first {
            Ok(())
        } else {
            Err(already_redeemed())
        }
    }

    async fn ask_url_mrtr<T: Askable>(
        &mut self,
        state: T,
        bound: Value,
        digest: &str,
        store: &dyn CompletionStore,
    ) -> Result<UrlAnswer<T>, Interrupt> {
        let principal = self
            .principal
            .clone()
            .ok_or_else(|| internal("URL-mode elicitation needs an authenticated principal"))?;
        let flow = self
            .url_flows
            .get(T::KEY)
            .map(|f| (f.id.clone(), f.exp, f.done.clone()));
        let ((id, exp, done), answer) = match (flow, self.lookup(T::KEY, digest).await?) {
            (Some(flow), Some(answer)) => (flow, answer),
            // First round, or an answer we cannot tie to a handle: send (a new) link.
            _ => {
                let (claims, token) = self.mint::<T>(&principal, bound, None)?;
                let flow = UrlFlow {
                    id: claims.id,
                    exp: claims.exp,
                    done: None,
                };
                self.url_flows.insert(T::KEY.to_owned(), flow);
                let request = InputRequest::from(ElicitParams::Url(UrlParams::for_2026(
                    T::MESSAGE,
                    self.server.link(T::URL_TEMPLATE, &token),
                )));
                self.ask_in_round(T::KEY, digest, request);
                return Err(Interrupt::input_required());
            }
        };
        let result: ElicitResult = serde_json::from_value(answer).map_err(|e| {
            Interrupt::error(JsonRpcError::invalid_params(
                format!(
                    "the answer to `{}` is not an elicitation result: {e}",
                    T::KEY
                ),
                Some(json!({"key": T::KEY})),
            ))
        })?;
        match result.action {
            ElicitAction::Decline => return Ok(UrlAnswer::Declined),
            ElicitAction::Cancel => return Ok(UrlAnswer::Cancelled),
            ElicitAction::Accept => {}
        }
        // Already read in an earlier round of this request: the completion travels in the
        // sealed state, so a single-use completion is redeemed once, not once per round.
        if let Some(done) = done {
            if self.server.single_use_completions() {
                self.consume_carried_completion(&id, store).await?;
            }
            return outcome_for(done, state);
        }
        // An expiry past what the clock can hold reads as already expired (fails closed).
        let expires_at = crate::state::from_unix_secs(exp).unwrap_or(SystemTime::UNIX_EPOCH);
        match self.completed(&id, store, expires_at).await? {
            Some(done) => {
                if let Some(flow) = self.url_flows.get_mut(T::KEY) {
                    flow.done = Some(done.clone());
                }
                outcome_for(done, state)
            }
            None if SystemTime::now() >= expires_at => Ok(UrlAnswer::Expired),
            // The user agreed but the page has not finished: a state-only round lets the
            // client retry without opening the page again.
            None => Err(Interrupt::input_required()),
        }
    }

    async fn ask_url_legacy<T: Askable>(
        &mut self,
        state: T,
        bound: Value,
        store: &dyn CompletionStore,
    ) -> Result<UrlAnswer<T>, Interrupt> {
        let principal = self
            .principal
            .clone()
            .ok_or_else(|| internal("URL-mode elicitation needs an authenticated principal"))?;
        let peer = self
            .peer
            .clone()
            .ok_or_else(|| internal("no back channel: give the context a legacy peer"))?;
        // Taken before the link goes out: a server that cannot wait says so instead.
        let _permit = self.server.url_wait_permit().ok_or_else(busy)?;
        let (claims, token) = self.mint::<T>(&principal, bound, None)?;
        let request = InputRequest::from(UrlParams::for_2025(
            T::MESSAGE,
            self.server.link(T::URL_TEMPLATE, &token),
            claims.id.clone(),
        ));
        let reply = peer.request(&request).await.map_err(Interrupt::error)?;
        let result: ElicitResult = serde_json::from_value(reply).map_err(|e| {
            Interrupt::error(JsonRpcError::invalid_params(
                format!("the client's elicitation result is invalid: {e}"),
                None,
            ))
        })?;
        match result.action {
            ElicitAction::Decline => return Ok(UrlAnswer::Declined),
            ElicitAction::Cancel => return Ok(UrlAnswer::Cancelled),
            ElicitAction::Accept => {}
        }
        let expires_at = claims.expires_at();
        let mut pause = POLL_INTERVAL;
        loop {
            if let Some(done) = self.completed(&claims.id, store, expires_at).await? {
                let note = ElicitationCompleteNotification::new(claims.id.clone());
                let params = serde_json::to_value(&note).map_err(|e| internal(e.to_string()))?;
                // Best effort: the client may retry on its own if the notification is lost.
                let _ = peer
                    .notify(ElicitationCompleteNotification::METHOD, params)
                    .await;
                return outcome_for(done, state);
            }
            let now = SystemTime::now();
            let Ok(left) = expires_at.duration_since(now) else {
                return Ok(UrlAnswer::Expired);
            };
            // Back off while the user is away, but look once more right at the expiry.
            tokio::time::sleep(pause.min(left)).await;
            pause = (pause * 2).min(MAX_POLL_INTERVAL);
        }
    }
}

/// The longest pause between two looks at the store while a 2025-11-25 handler waits.
const MAX_POLL_INTERVAL: Duration = Duration::from_secs(5);

fn busy() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "too many URL-mode elicitations are waiting on their pages; try again later",
        Some(json!({"reason": "busy"})),
    ))
}

/// How many redeemed flows of one identical call are skipped before giving up.
const MAX_GENERATIONS: u32 = 64;

fn already_redeemed() -> Interrupt {
    Interrupt::error(JsonRpcError::invalid_params(
        "this URL elicitation was already redeemed",
        Some(json!({"reason": "already_redeemed"})),
    ))
}

fn outcome_for<T>(completion: Completion, state: T) -> Result<UrlAnswer<T>, Interrupt> {
    match completion {
        Completion::Completed { result } => Ok(UrlAnswer::Completed { state, result }),
        Completion::Failed { reason } => Ok(UrlAnswer::Failed { state, reason }),
        Completion::Redeemed => Err(already_redeemed()),
    }
}
