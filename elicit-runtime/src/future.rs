//! The boxed future type of the object-safe traits (back channel, stores, replay guards), and
//! how a wait races what may end it early.

use std::future::Future;
use std::pin::pin;
use std::task::Poll;

pub use elicit_state::BoxFuture;

/// Runs `work` unless `stop` finishes first: `Ok` with `work`'s output, or `Err` with `stop`'s
/// (then `work` is dropped, with what it held). `work` is polled first, so when both are ready
/// `work` wins.
pub(crate) async fn unless<T, S>(
    work: impl Future<Output = T>,
    stop: impl Future<Output = S>,
) -> Result<T, S> {
    let (mut work, mut stop) = (pin!(work), pin!(stop));
    std::future::poll_fn(|cx| match work.as_mut().poll(cx) {
        Poll::Ready(done) => Poll::Ready(Ok(done)),
        Poll::Pending => stop.as_mut().poll(cx).map(Err),
    })
    .await
}
