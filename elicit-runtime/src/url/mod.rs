//! URL mode: credentials, third-party OAuth and payments happen on a page of yours that the
//! user opens out of band; nothing sensitive passes through the MCP client.
//!
//! * [`#[elicit_url(message = "…", url = "https://…")]`](crate::elicit_url) declares the
//!   elicitation; its fields are the server-side state bound to the request. The URL is
//!   checked at compile time (no credentials or personal data, HTTPS outside localhost) and
//!   gets a sealed handle.
//! * The handle is unguessable and sealed with the same keys as `requestState`; it binds the
//!   principal (hashed), the tool call and a short expiry, and carries the bound state
//!   encrypted.
//! * [`LandingPage`] opens the handle only for the browser user who started the flow, then
//!   records completion or failure in a [`CompletionStore`] (in memory, or Redis with the
//!   `elicit-redis` crate so the page and the retry may reach different replicas). The
//!   `elicit-axum` crate's `landing_routes` is that page, ready to mount; its docs state the
//!   contract (link shape, subject check, expiry, single use).
//! * The handler gets a [`UrlAnswer`]. **An accept never authorizes anything by itself**:
//!   only a completion recorded by your page does.

mod answer;
mod ask;
pub(crate) mod handle;
mod link;
mod page;
mod shown;

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::channel::UrlMode;
pub use crate::interrupt::UrlLink;
pub use crate::progress::WaitProgress;
pub use answer::{NotCompleted, UrlAnswer};
pub use page::{LandingPage, OpenedHandle, OpenedHandleKey, PageError};
pub(crate) use shown::Bound;
pub use shown::Shown;

use crate::InputChannel;
pub use crate::server::{
    DEFAULT_MAX_URL_WAITS, DEFAULT_MAX_URL_WAITS_PER_USER, DEFAULT_URL_HOLD, OriginError,
    UrlSettings,
};
#[doc(inline)]
pub use elicit_state::{
    Completion, CompletionSignals, CompletionStore, MemoryCompletionStore, StoreError,
};

/// A URL-mode elicitation: the struct is the server-side state bound to the request, and
/// [`#[elicit_url]`](crate::elicit_url) (or `#[derive(ElicitUrl)]`) supplies the key, message
/// and URL template.
///
/// On 2026-07-28 the first round sends the link; on the retry an `accept` is checked against
/// the completion store: completed, failed, expired — or, while the page has not finished, a
/// retry is held (at most [`UrlSettings::hold`]) and
/// then the same link is asked again, never an empty round. On 2025-11-25
/// the link goes out with an `elicitationId`; after an accept the handler waits for the page
/// (until the handle expires) and then sends `notifications/elicitation/complete`.
///
/// URL mode needs an authenticated principal on the context and a completion store on the
/// server; without either, asking fails with an internal error saying which is missing.
///
/// The struct must also implement `Serialize` and `Deserialize`: its fields travel sealed in
/// the handle. `#[elicit_url]` derives them; `#[derive(ElicitUrl)]` checks that they are there
/// (with a message saying so) rather than this trait, so a forgotten derive is one clear error.
pub trait ElicitUrl: Send + 'static {
    /// The key it is asked under.
    const KEY: &'static str;
    /// The message shown to the user.
    const MESSAGE: &'static str;
    /// The page's URL with `{handle}` where the sealed handle goes.
    const URL_TEMPLATE: &'static str;

    /// What the confirmation page shows of this state, so the user sees what is being
    /// confirmed (which repository, which amount): the fields marked `#[elicit(show)]` or
    /// `#[elicit(show = "Label")]`, in order; nothing by default. It is sealed in the handle
    /// with the message, and the landing page ([`OpenedHandleKey::shown`], `elicit-axum`'s
    /// route) shows it. See [`Shown`] for an example.
    fn shown(&self) -> Vec<Shown> {
        Vec::new()
    }

    /// Asks the user to open this elicitation's page (see the trait's documentation),
    /// through any input channel: a request's context, an SDK adapter's channel, or a running
    /// task's input.
    ///
    /// What a client that cannot open URL elicitations gets, and whether a 2025-11-25 call
    /// waits for the page or ends with `-32042`, is the server's [`UrlSettings`]:
    /// [`with_link_fallback`](UrlSettings::with_link_fallback) ends such a `tools/call` with
    /// the link as its result (and the same call made later goes on with what the page
    /// recorded), [`with_url_elicitation_required`](UrlSettings::with_url_elicitation_required)
    /// answers a 2025-11-25 call with `URLElicitationRequiredError`. Without either, a client
    /// that did not declare URL mode gets the missing-capability error; to do something else
    /// in that case, look first (`cx.capabilities().supports(ElicitMode::Url)`).
    fn ask<C: InputChannel>(
        self,
        channel: &mut C,
    ) -> impl Future<Output = Result<UrlAnswer<Self>, C::Error>> + Send + '_
    where
        Self: Serialize + DeserializeOwned,
    {
        ask_url(channel, self)
    }
}

/// [`ElicitUrl::ask`]: in the round, or back as the answer to the call where the server's
/// settings say so; errors are told to the channel, as a form's are.
async fn ask_url<C: InputChannel + ?Sized, T: Askable>(
    channel: &mut C,
    state: T,
) -> Result<UrlAnswer<T>, C::Error> {
    let result = match link::without_round(channel) {
        // Boxed: a held retry's future does not keep room for this other way.
        Some((cx, way)) => Box::pin(link::ask_without_round(cx, way, state)).await,
        None => ask::ask_in_round(channel, state).await,
    };
    crate::channel::settle(channel, result)
}

/// What asking needs of a URL elicitation: its declaration and its state's serde impls.
pub(crate) trait Askable: ElicitUrl + Serialize + DeserializeOwned {}

impl<T: ElicitUrl + Serialize + DeserializeOwned> Askable for T {}
