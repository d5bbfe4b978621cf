//! URL mode without a round to carry the flow: the link goes back as the answer to the call
//! itself (a 2025-11-25 `URLElicitationRequiredError`, or a tool result for a client that cannot
//! open URL elicitations), and the identical call made later finds what the page recorded.
//! The flow's id is derived from who asked what, so that later call needs no state of its own.

use std::time::{Duration, SystemTime};

use super::ask::{bind, outcome_for, read_completion};
use super::{Askable, UrlAnswer};
use crate::channel::{InputChannel, RoundRules, UrlMode};
use crate::form::short_digest;
use crate::interrupt::{Interrupt, UrlLink};
use crate::state::{Completion, canonical_json};
use crate::wire::{JsonRpcError, METHOD_TOOLS_CALL, ProtocolEra, UrlParams};

/// How many redeemed flows of one identical call are skipped before giving up.
const MAX_GENERATIONS: u32 = 64;

/// What the store says of a derived flow: finished, or the link to (re)send.
enum Derived {
    Done(Completion),
    Link {
        id: String,
        url: String,
        valid_for: Duration,
    },
}

/// How a URL question goes back as the answer to the call instead of in a round.
pub(super) enum WithoutRound {
    /// A 2025-11-25 `URLElicitationRequiredError` (the client can open URLs).
    Required,
    /// The link as the tool's result (the client cannot).
    Link,
}

/// The round of the request behind `channel` and how its URL question goes back as the answer
/// to the call, when the server's [`UrlSettings`](super::UrlSettings) say so (the link fallback
/// for a client without URL mode, or `-32042` on 2025-11-25); `None`: it goes in a round.
pub(super) fn without_round<C: InputChannel + ?Sized>(
    channel: &mut C,
) -> Option<(&mut RoundRules, WithoutRound)> {
    let round = channel.rules().into_round()?;
    let settings = round.server.url_settings();
    let way = if round.opens_urls {
        let required = settings.url_elicitation_required() && round.era == ProtocolEra::Legacy2025;
        required.then_some(WithoutRound::Required)
    } else {
        let link = settings.link_fallback() && round.call.method == METHOD_TOOLS_CALL;
        link.then_some(WithoutRound::Link)
    }?;
    Some((round, way))
}

/// A URL question [`without_round`] picked.
pub(super) async fn ask_without_round<T: Askable>(
    round: &mut RoundRules,
    way: WithoutRound,
    state: T,
) -> Result<UrlAnswer<T>, Interrupt> {
    match way {
        WithoutRound::Required => require_url_legacy(round.url_mode(), state).await,
        WithoutRound::Link => link_for(round, state).await,
    }
}

async fn require_url_legacy<T: Askable>(
    mode: &mut UrlMode,
    state: T,
) -> Result<UrlAnswer<T>, Interrupt> {
    let single_use = mode.server.url_settings().single_use();
    let bound = bind(&state)?;
    match derived_flow::<T>(mode, bound, single_use).await? {
        Derived::Done(done) => outcome_for(done, state),
        Derived::Link { id, url, .. } => Err(Interrupt::error(
            JsonRpcError::url_elicitation_required(vec![UrlParams::for_2025(T::MESSAGE, url, id)]),
        )),
    }
}

/// The link as the call's answer; `round` keeps it for adapters that see only "not an error".
async fn link_for<T: Askable>(round: &mut RoundRules, state: T) -> Result<UrlAnswer<T>, Interrupt> {
    // Completions found through a link are always single use: the link is in the model's
    // hands, and one finished page must not answer two calls.
    let bound = bind(&state)?;
    match derived_flow::<T>(round.url_mode(), bound, true).await? {
        Derived::Done(done) => outcome_for(done, state),
        Derived::Link { url, valid_for, .. } => {
            let link = UrlLink::new(T::MESSAGE, url, valid_for);
            round.link = Some(Box::new(link.clone()));
            Err(Interrupt::link(link))
        }
    }
}

/// The flow of this very call (principal, audience, tool, arguments, elicitation, bound
/// state): what its page recorded, or a link to it. A redeemed completion ends a flow, so
/// the next identical call starts the next generation with a new link.
///
/// Flow ids never repeat: each is derived for one window of time (as long as a handle
/// lives), so a call finds the flows of its own window and of the one before (a link
/// minted there is still valid), and mints in its own. Past [`MAX_GENERATIONS`] redeemed
/// flows in one window, the call is refused until the window ends.
async fn derived_flow<T: Askable>(
    mode: &UrlMode,
    bound: super::Bound,
    single_use: bool,
) -> Result<Derived, Interrupt> {
    let store = mode.store()?;
    let principal = mode.principal()?;
    let sealer = mode.server.sealer();
    let binding = mode.binding();
    let canonical = canonical_json(&bound.state);
    let flow_id = |window: u64, generation: u32| {
        short_digest(&[
            principal.as_bytes(),
            sealer.audience().as_bytes(),
            binding.method.as_bytes(),
            binding.target.as_bytes(),
            &binding.args_digest,
            T::KEY.as_bytes(),
            canonical.as_bytes(),
            &window.to_be_bytes(),
            &generation.to_be_bytes(),
        ])
    };
    let now = SystemTime::now();
    let (iat, exp) = crate::state::lifetime(now, sealer.ttl());
    let expires_at = crate::state::expiry_from_unix_secs(exp);
    let window = window_of(iat, sealer.ttl());
    let mut fresh = None;
    for window in [window.saturating_sub(1), window] {
        fresh = None;
        for generation in 0..MAX_GENERATIONS {
            let id = flow_id(window, generation);
            match read_completion(single_use, &id, store.as_ref(), expires_at).await? {
                Some(Completion::Redeemed) => {}
                Some(done) => return Ok(Derived::Done(done)),
                None => {
                    fresh = Some(id);
                    break;
                }
            }
        }
    }
    let Some(id) = fresh else {
        return Err(too_many_generations());
    };
    let (claims, token) =
        super::handle::mint_for(mode, T::KEY, T::MESSAGE, &bound, Some((id, exp)))?;
    let valid_for = claims
        .expires_at()
        .duration_since(SystemTime::now())
        .unwrap_or_default();
    Ok(Derived::Link {
        url: mode.server.url_settings().link(T::URL_TEMPLATE, &token),
        id: claims.id,
        valid_for,
    })
}

/// The window of time that `unix_secs` falls in, one second longer than a handle lives
/// (`lifetime` rounds up to the next whole second): a handle minted in one window expires
/// before the window after next begins.
fn window_of(unix_secs: u64, ttl: Duration) -> u64 {
    unix_secs / crate::state::ttl_secs(ttl).saturating_add(1)
}

/// The same call completed [`MAX_GENERATIONS`] times in one window: refused until it ends.
fn too_many_generations() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        crate::wire::INTERNAL_ERROR,
        "this exact call went through its URL-mode page too many times lately; try again later",
        Some(serde_json::json!({"reason": "busy"})),
    ))
}
