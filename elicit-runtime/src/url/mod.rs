//! URL mode: credentials, third-party OAuth and payments happen on a page of yours that the
//! user opens out of band; nothing sensitive passes through the MCP client.
//!
//! * `#[derive(Serialize, Deserialize, ElicitUrl)]` with `#[elicit(message = "…",
//!   url = "https://…")]` declares the elicitation; its fields are the server-side state bound
//!   to the request. The URL is checked at compile time (no
//!   credentials or personal data, HTTPS outside localhost) and gets a sealed handle.
//! * The handle is unguessable and sealed with the same keys as `requestState`; it binds the
//!   principal (hashed), the tool call and a short expiry, and carries the bound state
//!   encrypted.
//! * [`LandingPage`] opens the handle only for the browser user who started the flow, then
//!   records completion or failure in a [`CompletionStore`] (in memory, or Redis with the
//!   `redis` feature so the page and the retry may reach different replicas).
//! * The handler gets a [`UrlOutcome`]. **An accept never authorizes anything by itself**:
//!   only a completion recorded by your page does.

mod ask;
mod handle;
mod outcome;
mod page;
#[cfg(feature = "redis")]
mod redis;
mod store;

pub use outcome::UrlOutcome;
pub use page::{LandingPage, OpenedHandle, OpenedHandleKey, PageError};
#[cfg(feature = "redis")]
pub use redis::{RedisCompletionStore, RedisReplayGuard};
pub use store::{Completion, CompletionStore, MemoryCompletionStore, StoreError};

/// A URL-mode elicitation, implemented by `#[derive(ElicitUrl)]`: the bound state is the struct.
pub trait UrlElicitation: serde::Serialize + serde::de::DeserializeOwned {
    /// The key it is asked under.
    const KEY: &'static str;
    /// The message shown to the user.
    const MESSAGE: &'static str;
    /// The page's URL with `{handle}` where the sealed handle goes.
    const URL_TEMPLATE: &'static str;
}
