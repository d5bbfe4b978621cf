//! The boxed future type of the object-safe traits (back channel, stores, replay guards), and
//! how a wait races what may end it early.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub use elicit_state::BoxFuture;

pin_project_lite::pin_project! {
    /// Runs `work` unless `stop` finishes first: `work`'s output, or `stopped` applied to
    /// `stop`'s (then `work` is dropped, with what it held). `work` is polled first, so when
    /// both are ready `work` wins. A struct, not an `async fn`, so that each future is kept
    /// once: an `async fn` keeps its argument and the local it awaits, and the waits nest
    /// (a held retry's wait is raced against its pool slot, its progress reports and its
    /// cancellation).
    pub(crate) struct Unless<W, S, F> {
        #[pin]
        work: W,
        #[pin]
        stop: S,
        stopped: Option<F>,
    }
}

/// `work` raced against `stop` (see [`Unless`]).
pub(crate) fn unless<W, S, F>(work: W, stop: S, stopped: F) -> Unless<W, S, F>
where
    W: Future,
    S: Future,
    F: FnOnce(S::Output) -> W::Output,
{
    Unless {
        work,
        stop,
        stopped: Some(stopped),
    }
}

impl<W, S, F> Future for Unless<W, S, F>
where
    W: Future,
    S: Future,
    F: FnOnce(S::Output) -> W::Output,
{
    type Output = W::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<W::Output> {
        let this = self.project();
        if let Poll::Ready(done) = this.work.poll(cx) {
            return Poll::Ready(done);
        }
        match this.stop.poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(why) => match this.stopped.take() {
                Some(stopped) => Poll::Ready(stopped(why)),
                // Polled again after it ended: as any finished future, it may not be.
                None => Poll::Pending,
            },
        }
    }
}

/// A boxed future, or one that never finishes where there is none (no cancellation, no
/// progress sink to report to).
pub(crate) struct OrNever<'a, T>(pub(crate) Option<BoxFuture<'a, T>>);

impl<T> Future for OrNever<'_, T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        match &mut self.0 {
            Some(stop) => stop.as_mut().poll(cx),
            None => Poll::Pending,
        }
    }
}
