//! The request's cancellation, as the SDK sees it (a `notifications/cancelled`, a client gone):
//! what ends a wait on a URL-mode page early, so a client that leaves frees its wait.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde_json::json;

use crate::future::{BoxFuture, OrNever, Unless};
use crate::interrupt::Interrupt;
use crate::wire::{INTERNAL_ERROR, JsonRpcError};

/// Makes a future that resolves once the request is cancelled; one per wait, so every wait of
/// the request can watch the same cancellation.
#[derive(Clone)]
pub(crate) struct Cancellation(Arc<dyn Fn() -> BoxFuture<'static, ()> + Send + Sync>);

impl fmt::Debug for Cancellation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cancellation")
    }
}

impl Cancellation {
    pub(crate) fn new<F>(cancelled: impl Fn() -> F + Send + Sync + 'static) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        Cancellation(Arc::new(move || Box::pin(cancelled())))
    }

    /// Runs `work` unless the request is cancelled first (then `work` is dropped, with what it
    /// held, and the answer is [`cancelled`]). Without a cancellation, just `work`.
    pub(crate) fn unless<T, W>(
        cancel: Option<&Cancellation>,
        work: W,
    ) -> Unless<W, OrNever<'static, ()>, impl FnOnce(()) -> Result<T, Interrupt>>
    where
        W: Future<Output = Result<T, Interrupt>>,
    {
        let stop = OrNever(cancel.map(|cancel| (cancel.0)()));
        crate::future::unless(work, stop, |()| Err(cancelled_error()))
    }
}

/// What a wait the client cancelled ends in (rmcp, like the spec, sends no response to a
/// cancelled request; the handler sees why it stopped).
fn cancelled_error() -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        "the request was cancelled while it waited on a URL-mode page",
        Some(json!({"reason": "cancelled"})),
    ))
}
