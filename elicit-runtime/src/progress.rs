//! Progress while a request waits for the person on a URL-mode page: a held 2026-07-28 retry,
//! or a 2025-11-25 request after the client accepted the link. A client that asked for
//! progress (`_meta.progressToken`) is told, once a second, that the server waits for the
//! page and for how long at most, so a host can show more than "pending".

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::future::{BoxFuture, OrNever};

/// How often a wait on a page is reported.
const EVERY: Duration = Duration::from_secs(1);

/// One report of a request waiting for the person on a URL-mode page, for a client whose
/// request carried a `progressToken`. The adapter sends it as `notifications/progress`:
/// `progress` = [`waited`](Self::waited), `total` = [`limit`](Self::limit), `message` =
/// [`message`](Self::message).
///
/// Reports come when the wait starts (`waited` 0) and then once a second, each with one more
/// second, never reaching `limit`; they stop as soon as the wait ends (the page recorded,
/// the hold passed, the request was cancelled), before the request answers. `elicit-rmcp`
/// sends them for you; another adapter passes a sender to
/// [`ContextBuilder::progress_by`](crate::request::ContextBuilder::progress_by).
///
/// ```
/// use elicit_runtime::url::WaitProgress;
///
/// fn notification(token: &str, report: &WaitProgress) -> serde_json::Value {
///     serde_json::json!({
///         "progressToken": token,
///         "progress": report.waited,
///         "total": report.limit,
///         "message": report.message,
///     })
/// }
/// # let _ = notification;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WaitProgress {
    /// Whole seconds waited so far: 0 when the wait starts, one more in each report.
    pub waited: u64,
    /// The longest the wait can last, in whole seconds (rounded): the server's hold for a
    /// 2026-07-28 retry, the time left on the link for a 2025-11-25 request.
    pub limit: u64,
    /// What the person is waited for, e.g. "Waiting for you to finish on the page (up to 30 s)".
    pub message: String,
}

/// Where a request's wait reports go: the adapter's sender for the request's progress token.
#[derive(Clone)]
pub(crate) struct ProgressSink(Arc<dyn Fn(WaitProgress) -> BoxFuture<'static, ()> + Send + Sync>);

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl ProgressSink {
    pub(crate) fn new<F>(send: impl Fn(WaitProgress) -> F + Send + Sync + 'static) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        ProgressSink(Arc::new(move |report| Box::pin(send(report))))
    }

    /// Runs `wait` (at most `limit` long), reporting it to `sink` once a second while it
    /// lasts; without a sink, just `wait`. Reports stop when `wait` ends, at the latest
    /// before `waited` reaches `limit`.
    pub(crate) fn reporting<'a, W: Future + 'a>(
        sink: Option<&'a ProgressSink>,
        limit: Duration,
        wait: W,
    ) -> impl Future<Output = W::Output> + 'a {
        // Boxed, and only with a sink: a wait without reports keeps no room for them.
        let reports = OrNever(sink.map(|sink| Box::pin(sink.reports(limit)) as BoxFuture<'a, _>));
        crate::future::unless(wait, reports, |never: Infallible| match never {})
    }

    /// One report a second, for at most `limit`; then nothing, forever.
    async fn reports(&self, limit: Duration) -> Infallible {
        let limit = limit.as_secs() + u64::from(limit.subsec_millis() >= 500);
        let message = format!(
            "Waiting for you to finish on the page (up to {})",
            span(limit)
        );
        let start = tokio::time::Instant::now();
        for waited in 0..limit {
            let report = WaitProgress {
                waited,
                limit,
                message: message.clone(),
            };
            (self.0)(report).await;
            tokio::time::sleep_until(start + EVERY * (waited as u32 + 1)).await;
        }
        std::future::pending::<Infallible>().await
    }
}

/// `secs` as a person reads a wait: seconds up to two minutes, whole minutes (rounded) past
/// that.
fn span(secs: u64) -> String {
    if secs < 120 {
        format!("{secs} s")
    } else {
        format!("{} min", (secs + 30) / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn recorder() -> (ProgressSink, Arc<Mutex<Vec<WaitProgress>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = seen.clone();
        let sink = ProgressSink::new(move |report| {
            into.lock().unwrap().push(report);
            async {}
        });
        (sink, seen)
    }

    #[tokio::test(start_paused = true)]
    async fn a_wait_is_reported_each_second_until_it_ends() {
        let (sink, seen) = recorder();
        let done = ProgressSink::reporting(
            Some(&sink),
            Duration::from_secs(30),
            tokio::time::sleep(Duration::from_millis(2_500)),
        )
        .await;
        assert_eq!(done, ());
        let seen = seen.lock().unwrap().clone();
        let message = "Waiting for you to finish on the page (up to 30 s)";
        assert_eq!(
            seen,
            (0..3)
                .map(|waited| WaitProgress {
                    waited,
                    limit: 30,
                    message: message.to_owned()
                })
                .collect::<Vec<_>>()
        );
    }

    #[tokio::test(start_paused = true)]
    async fn reports_never_reach_the_limit_and_stop_with_the_wait() {
        let (sink, seen) = recorder();
        ProgressSink::reporting(
            Some(&sink),
            Duration::from_millis(2_600),
            tokio::time::sleep(Duration::from_secs(10)),
        )
        .await;
        let waited: Vec<_> = seen
            .lock()
            .unwrap()
            .iter()
            .map(|r| (r.waited, r.limit))
            .collect();
        assert_eq!(waited, [(0, 3), (1, 3), (2, 3)]);
    }

    #[test]
    fn long_waits_read_in_minutes() {
        assert_eq!(span(30), "30 s");
        assert_eq!(span(119), "119 s");
        assert_eq!(span(600), "10 min");
        assert_eq!(span(590), "10 min");
        assert_eq!(span(601), "10 min");
    }
}
