//! The boxed future type of the object-safe traits (back channel, stores, replay guards).

use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future, as returned by [`LegacyPeer`](crate::legacy::LegacyPeer) and
/// [`CompletionStore`](crate::url::CompletionStore) methods.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
