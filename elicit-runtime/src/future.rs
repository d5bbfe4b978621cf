//! The boxed future type of the object-safe traits (back channel, stores, replay guards).

use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future, as returned by [`LegacyPeer`](crate::legacy::LegacyPeer),
/// [`CompletionStore`](crate::url::CompletionStore) and
/// [`ReplayGuard`](crate::state::ReplayGuard) methods.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
