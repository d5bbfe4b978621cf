//! Asking a URL-mode elicitation through any input channel: the link is sealed with what the
//! channel's [`UrlMode`] binds, the question goes out through `InputChannel::input` like a
//! form's, and an accept is followed up as the channel says (once per round, or waiting for
//! the page).

use std::time::SystemTime;

use serde_json::json;

use super::{Askable, Bound, UrlAnswer};
use crate::cancel::Cancellation;
use crate::channel::{Follow, InputChannel, UrlFlow, UrlMode, internal};
use crate::form::elicit_result;
use crate::interrupt::Interrupt;
use crate::progress::ProgressSink;
use crate::state::question_digest_raw;
use crate::state::{Completion, CompletionStore, FIRST_POLL, MAX_POLL, principal_hash};
use crate::waits::UrlWait;
use crate::wire::{
    ElicitAction, ElicitMode, ElicitationCompleteNotification, INTERNAL_ERROR, InputRequest,
    JsonRpcError, UrlParams,
};

/// A completion store that failed. The client learns only that it may retry; the store's own
/// words (host names, Redis replies) go to the log, never onto the wire.
pub(super) fn store_unavailable(error: &crate::state::StoreError) -> Interrupt {
    tracing::warn!(target: "elicit", reason = %error, "elicit completion store unavailable");
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "the URL-mode completion store is unavailable; retry the request",
        Some(json!({"reason": "completion_store_unavailable"})),
    ))
}

/// The channel's URL mode, or why it has none.
pub(super) fn mode_of<C: InputChannel + ?Sized>(
    channel: &mut C,
) -> Result<&mut UrlMode, Interrupt> {
    channel.rules().into_url_mode().ok_or_else(|| {
        internal("this input channel cannot ask URL-mode questions (it has no `UrlMode`): give a task the call's binding with `TaskInput::for_call`")
    })
}

/// A URL question put in the channel's round (2026-07-28), or pushed and waited for
/// (2025-11-25, tasks).
pub(super) async fn ask_in_round<C: InputChannel + ?Sized, T: Askable>(
    channel: &mut C,
    state: T,
) -> Result<UrlAnswer<T>, Interrupt> {
    if !channel.supports(ElicitMode::Url) {
        return Err(Interrupt::error(
            JsonRpcError::missing_elicitation_capability(ElicitMode::Url),
        ));
    }
    // Boxed, and a function of its own: a held retry's future keeps only what the hold needs
    // (the flow, the wait), not the asking's locals; the binding is made again in the rare
    // case the question goes out again.
    let put = {
        let bound = bind(&state)?;
        Box::pin(put::<C, T>(channel, &bound)).await?
    };
    let Accepted { flow, wait, rounds } = match put {
        Put::Accepted(accepted) => accepted,
        Put::Ended(ended) => return Ok(ended.answer()),
    };
    let mode = mode_of(channel)?;
    if !rounds {
        // A full pool may give this wait to a user who holds fewer: the call ends busy.
        let waited = Box::pin(wait_for_page(mode, flow, state));
        return UrlWait::unless_taken(wait.as_ref(), waited, || Err(wait_taken())).await;
    }
    match follow_round(mode, T::KEY, &flow).await? {
        Followed::Done(done) => outcome_for(done, state),
        Followed::Expired => Ok(UrlAnswer::Expired),
        Followed::StillOpen => {
            let bound = bind(&state)?;
            Box::pin(ask_again::<T, C>(channel, &bound, &flow)).await
        }
    }
}

/// How putting a URL question ended: accepted (to follow up), or over without the page.
enum Put {
    Accepted(Accepted),
    Ended(Ended),
}

/// An accept, and what following it up needs.
struct Accepted {
    /// The link the accept answers.
    flow: UrlFlow,
    /// The wait a pushed request holds from the pool.
    wait: Option<UrlWait>,
    /// Whether the question went out in a round (2026-07-28).
    rounds: bool,
}

/// A URL question over before any page: its link expired, or the user declined or cancelled.
enum Ended {
    Expired,
    Declined,
    Cancelled,
}

impl Ended {
    /// The answer it is (a method, not a `From`: a trait impl on the public `UrlAnswer` would
    /// be public API).
    fn answer<T>(self) -> UrlAnswer<T> {
        match self {
            Ended::Expired => UrlAnswer::Expired,
            Ended::Declined => UrlAnswer::Declined,
            Ended::Cancelled => UrlAnswer::Cancelled,
        }
    }
}

/// Puts the URL question bound as `bound` (or reads its answer from the round) and reads the
/// client's answer.
async fn put<C: InputChannel + ?Sized, T: Askable>(
    channel: &mut C,
    bound: &Bound,
) -> Result<Put, Interrupt> {
    let mode = mode_of(channel)?;
    mode.store()?;
    let earlier = mode.earlier(T::KEY);
    // A flow whose link expired unused is over: its link is not sent again, answered or not.
    if let Some(flow) = &earlier
        && flow.done.is_none()
        && SystemTime::now() >= expires_at(flow)
    {
        return Ok(Put::Ended(Ended::Expired));
    }
    let (digest, request, sent) = link_question::<T>(mode, bound, earlier.as_ref())?;
    let rounds = matches!(mode.follow, Follow::Rounds { .. });
    // Remembered before asking: a round that ends here carries the link just sent.
    mode.remember(T::KEY, sent.clone());
    // A pushed request holds a wait from the pool, within its user's share: a server that
    // cannot wait on one more page says so before any link goes out.
    let wait = match &mode.follow {
        Follow::Waits { peer: Some(_) } => {
            let user = principal_hash(mode.server.sealer().audience(), mode.principal()?);
            Some(mode.server.url_wait(&user).ok_or_else(busy)?)
        }
        _ => None,
    };
    if rounds {
        // Only an accept of a link this request provably sent counts.
        channel.rules().require_provenance(T::KEY);
    }
    let answer = if rounds {
        Box::pin(channel.input(T::KEY, &digest, request)).await?
    } else {
        // Waiting for the client's answer ends with the link: a client that never answers
        // holds its wait no longer than the link could be used.
        let left = expires_at(&sent)
            .duration_since(SystemTime::now())
            .unwrap_or_default();
        let input = Box::pin(channel.input(T::KEY, &digest, request));
        match tokio::time::timeout(left, input).await {
            Ok(answer) => answer?,
            Err(_) => return Ok(Put::Ended(Ended::Expired)),
        }
    };
    let action = elicit_result(T::KEY, answer)?.action;
    let mode = mode_of(channel)?;
    // The answer is to the link of the round before, if there was one.
    let flow = match earlier {
        Some(flow) => {
            mode.remember(T::KEY, flow.clone());
            flow
        }
        None => sent,
    };
    Ok(match action {
        ElicitAction::Decline => Put::Ended(Ended::Declined),
        ElicitAction::Cancel => Put::Ended(Ended::Cancelled),
        ElicitAction::Accept => Put::Accepted(Accepted { flow, wait, rounds }),
    })
}

/// 2026-07-28, the hold passed and the page has recorded nothing: the same URL question goes
/// out again (same flow, same expiry), so the client can show the link again or cancel,
/// rather than an empty round that only burns one of the client's retries.
async fn ask_again<T: Askable, C: InputChannel + ?Sized>(
    channel: &mut C,
    bound: &Bound,
    flow: &UrlFlow,
) -> Result<UrlAnswer<T>, Interrupt> {
    let mode = mode_of(channel)?;
    let (digest, request, again) = link_question::<T>(mode, bound, Some(flow))?;
    mode.remember(T::KEY, again);
    // The accept this request carried answered the question's last asking; this one waits
    // for the next.
    mode.ask_again(T::KEY);
    match channel.input(T::KEY, &digest, request).await {
        Err(stop) => Err(stop),
        Ok(_) => Err(internal(
            "a URL-mode question asked again was answered in the same round",
        )),
    }
}

/// The question for a new link to `T`'s page: its digest, the request, and the flow it starts.
/// A link asked again in a later round keeps its flow's id and expiry (no round extends a
/// flow); a new question gets a new one.
fn link_question<T: Askable>(
    mode: &UrlMode,
    bound: &Bound,
    earlier: Option<&UrlFlow>,
) -> Result<(String, InputRequest, UrlFlow), Interrupt> {
    let (claims, token) = super::handle::mint_for(
        mode,
        T::KEY,
        T::MESSAGE,
        bound,
        earlier.map(|f| (f.id.clone(), f.exp)),
    )?;
    // The flow's id is part of the question: an accept counts only for the link it answers.
    let digest = question_digest_raw(
        T::KEY,
        T::MESSAGE,
        &json!({"url": T::URL_TEMPLATE, "state": bound.state, "flow": claims.id}),
    );
    let request = InputRequest::from(UrlParams::for_2025(
        T::MESSAGE,
        mode.server.url_settings().link(T::URL_TEMPLATE, &token),
        claims.id.clone(),
    ));
    let sent = UrlFlow {
        id: claims.id,
        exp: claims.exp,
        done: earlier.and_then(|f| f.done.clone()),
    };
    Ok((digest, request, sent))
}

/// How a held 2026-07-28 retry ended: with the page's record, with the link expired, or with
/// the hold passed and nothing recorded yet. The caller turns a record into the answer (with
/// the question's state, which the hold need not keep).
enum Followed {
    Done(Completion),
    Expired,
    StillOpen,
}

/// 2026-07-28: after an accept, the retry is held (at most the server's `UrlSettings::hold`, never past
/// the link's expiry) until the page records, holding a wait from the pool within the user's
/// share. A completion read here travels on in the sealed state, so a single-use completion
/// is redeemed once, not once per round. The flow is borrowed: an async fn keeps its owned
/// arguments twice for as long as it runs, and this one runs for the whole hold.
async fn follow_round(
    mode: &mut UrlMode,
    key: &str,
    flow: &UrlFlow,
) -> Result<Followed, Interrupt> {
    let store = mode.store()?;
    let single_use = mode.server.url_settings().single_use();
    // Already read in an earlier round of this request.
    if let Some(done) = &flow.done {
        if single_use {
            Box::pin(consume_carried_completion(mode, &flow.id, store.as_ref())).await?;
        }
        return Ok(Followed::Done(done.clone()));
    }
    let expires_at = expires_at(flow);
    // Looked at once before taking a wait: a page already done costs no permit.
    let mut done = completed(single_use, &flow.id, store.as_ref(), expires_at).await?;
    let now = SystemTime::now();
    if done.is_none() && now < expires_at {
        let hold_until = expires_at.min(now + mode.server.url_settings().hold());
        // Holding needs tokio's timer; outside a tokio runtime the question is asked again at
        // once, as with a zero hold.
        if hold_until > now && tokio::runtime::Handle::try_current().is_ok() {
            let held = {
                let user = principal_hash(mode.server.sealer().audience(), mode.principal()?);
                mode.server.url_wait(&user).ok_or_else(busy)?
            };
            // Boxed once; the races around it (`future::Unless`) keep it in place, not a copy
            // each.
            let wait = Box::pin(await_completion(
                single_use,
                &flow.id,
                store.as_ref(),
                expires_at,
                hold_until,
            ));
            // A full pool may give the wait to a user who holds fewer: the hold ends early
            // and the question is asked again, as when it passes.
            let wait = UrlWait::unless_taken(Some(&held), wait, || Ok(None));
            let limit = hold_until.duration_since(now).unwrap_or_default();
            let wait = ProgressSink::reporting(mode.progress.as_ref(), limit, wait);
            done = Cancellation::unless(mode.cancel.as_ref(), wait).await?;
        }
    }
    match done {
        Some(done) => {
            mode.remember(
                key,
                UrlFlow {
                    id: flow.id.clone(),
                    exp: flow.exp,
                    done: Some(done.clone()),
                },
            );
            Ok(Followed::Done(done))
        }
        None if SystemTime::now() >= expires_at => Ok(Followed::Expired),
        None => Ok(Followed::StillOpen),
    }
}

/// 2025-11-25 and tasks: after an accept, wait for the page (until the link expires), then
/// tell the client the elicitation completed when there is a peer to tell.
async fn wait_for_page<T>(
    mode: &mut UrlMode,
    flow: UrlFlow,
    state: T,
) -> Result<UrlAnswer<T>, Interrupt> {
    let store = mode.store()?;
    let single_use = mode.server.url_settings().single_use();
    let expires_at = expires_at(&flow);
    // Boxed once, as a held retry's wait is.
    let wait = Box::pin(await_completion(
        single_use,
        &flow.id,
        store.as_ref(),
        expires_at,
        expires_at,
    ));
    let limit = expires_at
        .duration_since(SystemTime::now())
        .unwrap_or_default();
    let wait = ProgressSink::reporting(mode.progress.as_ref(), limit, wait);
    let Some(done) = Cancellation::unless(mode.cancel.as_ref(), wait).await? else {
        return Ok(UrlAnswer::Expired);
    };
    if let Follow::Waits { peer: Some(peer) } = &mode.follow {
        let note = ElicitationCompleteNotification::new(flow.id.clone());
        let params = serde_json::to_value(&note).map_err(|e| internal(e.to_string()))?;
        // Best effort: the client may retry on its own if the notification is lost.
        let _ = peer
            .notify(ElicitationCompleteNotification::METHOD, params)
            .await;
    }
    outcome_for(done, state)
}

/// Waits until flow `id`'s outcome is recorded (redeeming it in single-use mode) or `until`
/// passes, whichever is first; `None` at `until`. Woken by the store where it can
/// ([`CompletionStore::watch`]: not looked at again until the wake-up resolves), polling with
/// backoff where it cannot: no thread is held and a record is seen within 250 ms either way.
/// The store is looked at once more at `until`.
async fn await_completion(
    single_use: bool,
    id: &str,
    store: &dyn CompletionStore,
    expires_at: SystemTime,
    until: SystemTime,
) -> Result<Option<Completion>, Interrupt> {
    let mut pause = FIRST_POLL;
    loop {
        // Registered before looking, so a record in between wakes it.
        let wake = store.watch(id);
        if let Some(done) = completed(single_use, id, store, expires_at).await? {
            return Ok(Some(done));
        }
        let left = until.duration_since(SystemTime::now()).unwrap_or_default();
        if left.is_zero() {
            return Ok(None);
        }
        match wake {
            Some(wake) => {
                let _ = tokio::time::timeout(left, wake).await;
            }
            None => {
                tokio::time::sleep(pause.min(left)).await;
                pause = (pause * 2).min(MAX_POLL);
            }
        }
    }
}

/// What the store holds for flow `id` (redeeming it in single-use mode), including the
/// tombstone of an earlier redemption.
pub(super) async fn read_completion(
    single_use: bool,
    id: &str,
    store: &dyn CompletionStore,
    expires_at: SystemTime,
) -> Result<Option<Completion>, Interrupt> {
    let found = if single_use {
        store.redeem(id, expires_at).await
    } else {
        store.lookup(id).await
    };
    found.map_err(|e| store_unavailable(&e))
}

/// The recorded outcome of flow `id`; an already redeemed one is refused.
async fn completed(
    single_use: bool,
    id: &str,
    store: &dyn CompletionStore,
    expires_at: SystemTime,
) -> Result<Option<Completion>, Interrupt> {
    match read_completion(single_use, id, store, expires_at).await? {
        Some(Completion::Redeemed) => Err(already_redeemed()),
        other => Ok(other),
    }
}

/// A single-use completion carried in sealed state may be used once per state: this
/// request's state is marked in the store, so replaying it (a later round of a flow whose
/// completion was already redeemed) is refused instead of ending `Completed` again.
async fn consume_carried_completion(
    mode: &UrlMode,
    flow_id: &str,
    store: &dyn CompletionStore,
) -> Result<(), Interrupt> {
    let Follow::Rounds {
        opened_state: Some(opened),
        ..
    } = mode.follow
    else {
        return Err(internal(
            "a carried completion without the state that carried it",
        ));
    };
    let state_id: String = opened.id.iter().map(|b| format!("{b:02x}")).collect();
    let marker = format!("{flow_id}.state.{state_id}");
    let first = store
        .record(&marker, Completion::Redeemed, opened.expires_at)
        .await
        .map_err(|e| store_unavailable(&e))?;
    if first {
        Ok(())
    } else {
        Err(already_redeemed())
    }
}

/// When `flow`'s link expires (failing closed, see `expiry_from_unix_secs`).
fn expires_at(flow: &UrlFlow) -> SystemTime {
    crate::state::expiry_from_unix_secs(flow.exp)
}

fn busy() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "too many URL-mode elicitations are waiting on their pages; try again later",
        Some(json!({"reason": "busy"})),
    ))
}

/// A 2025-11-25 wait on a page, given to another user while the pool was full.
fn wait_taken() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "this request's wait on its page went to another user while the server was busy; \
         try again later",
        Some(json!({"reason": "busy"})),
    ))
}

pub(super) fn already_redeemed() -> Interrupt {
    Interrupt::error(JsonRpcError::invalid_params(
        "this URL elicitation was already redeemed",
        Some(json!({"reason": "already_redeemed"})),
    ))
}

pub(super) fn outcome_for<T>(completion: Completion, state: T) -> Result<UrlAnswer<T>, Interrupt> {
    match completion {
        Completion::Completed { result } => Ok(UrlAnswer::Completed { state, result }),
        Completion::Failed { reason } => Ok(UrlAnswer::Failed { state, reason }),
        Completion::Redeemed => Err(already_redeemed()),
    }
}

/// The bound state of `state` as JSON, with what its page shows.
pub(super) fn bind<T: Askable>(state: &T) -> Result<Bound, Interrupt> {
    let json = serde_json::to_value(state);
    Ok(Bound {
        state: json.map_err(|e| internal(format!("cannot bind state: {e}")))?,
        shown: state.shown(),
    })
}
