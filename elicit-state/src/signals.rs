//! Wake-ups for requests waiting on a URL-mode page: a store rings flow `id`'s bell when it
//! records the flow's outcome, and every request waiting on that flow looks again at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::BoxFuture;

/// The bells of flows that requests are waiting on, for a
/// [`CompletionStore`](crate::CompletionStore) to return from
/// [`watch`](crate::CompletionStore::watch) and ring when it records.
///
/// [`MemoryCompletionStore`](crate::MemoryCompletionStore) uses one; a store of your own
/// rings [`notify`](Self::notify) wherever it learns of a record (its own `record`, or a
/// message from another replica, as `elicit-redis` does over Redis pub/sub).
///
/// A wake-up registers when [`watch`](Self::watch) is called, not when it is first polled, so
/// a record between the call and the caller's look at the store is never missed.
///
/// ```
/// use elicit_runtime::url::CompletionSignals;
/// use pollster::block_on;
///
/// let signals = CompletionSignals::new();
/// let wake = signals.watch("flow-1");
/// signals.notify("flow-2"); // another flow: no wake-up
/// signals.notify("flow-1");
/// block_on(wake); // resolves: flow-1 was recorded after `watch`
/// assert_eq!(signals.len(), 0, "a rung bell is forgotten");
/// ```
#[derive(Debug, Default, Clone)]
pub struct CompletionSignals {
    bells: Arc<Mutex<Bells>>,
}

#[derive(Debug, Default)]
struct Bells {
    by_flow: HashMap<String, Arc<Notify>>,
    /// Bells nobody waits on any more are dropped once the map reaches this size, which then
    /// doubles the live count (as the memory store sweeps its entries).
    sweep_at: usize,
}

/// The smallest map that is swept.
const MIN_SWEEP_AT: usize = 64;

impl CompletionSignals {
    /// No bells yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A wake-up for flow `id`: resolves at the next [`notify`](Self::notify) of `id` after
    /// this call. It never resolves otherwise, so a caller bounds it with a timeout.
    pub fn watch(&self, id: &str) -> BoxFuture<'static, ()> {
        let mut bells = self.bells.lock().unwrap_or_else(|p| p.into_inner());
        if bells.by_flow.len() >= bells.sweep_at.max(MIN_SWEEP_AT) {
            // A bell held by the map alone has no waiter left.
            bells.by_flow.retain(|_, bell| Arc::strong_count(bell) > 1);
            bells.sweep_at = bells.by_flow.len().saturating_mul(2);
        }
        let bell = Arc::clone(bells.by_flow.entry(id.to_owned()).or_default());
        drop(bells);
        let mut wake = Box::pin(bell.notified_owned());
        // Registered now: a `notify` before the first poll still wakes it.
        wake.as_mut().enable();
        Box::pin(wake)
    }

    /// Wakes every request waiting on flow `id`.
    pub fn notify(&self, id: &str) {
        let bell = {
            let mut bells = self.bells.lock().unwrap_or_else(|p| p.into_inner());
            bells.by_flow.remove(id)
        };
        if let Some(bell) = bell {
            bell.notify_waiters();
        }
    }

    /// Wakes every request waiting on any flow, so each looks at the store again: for a
    /// store that learns it may have missed records (its subscription broke): a waiter
    /// holding a wake-up does not look at the store again until it resolves.
    ///
    /// ```
    /// use elicit_runtime::url::CompletionSignals;
    /// use pollster::block_on;
    ///
    /// let signals = CompletionSignals::new();
    /// let (a, b) = (signals.watch("flow-1"), signals.watch("flow-2"));
    /// signals.notify_all();
    /// block_on(a);
    /// block_on(b);
    /// assert!(signals.is_empty());
    /// ```
    pub fn notify_all(&self) {
        let bells = {
            let mut bells = self.bells.lock().unwrap_or_else(|p| p.into_inner());
            std::mem::take(&mut bells.by_flow)
        };
        for bell in bells.into_values() {
            bell.notify_waiters();
        }
    }

    /// How many flows have a bell (some may have no waiter left until the next sweep).
    pub fn len(&self) -> usize {
        let bells = self.bells.lock().unwrap_or_else(|p| p.into_inner());
        bells.by_flow.len()
    }

    /// Whether no flow has a bell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_wake_up_fires_for_its_flow_only_and_a_notify_before_polling_counts() {
        let signals = CompletionSignals::new();
        let mine = signals.watch("a");
        let other = signals.watch("b");
        signals.notify("a");
        tokio::time::timeout(Duration::from_secs(1), mine)
            .await
            .expect("notified before the first poll");
        assert!(
            tokio::time::timeout(Duration::from_millis(50), other)
                .await
                .is_err(),
            "flow b was not recorded"
        );
    }

    #[tokio::test]
    async fn notify_all_wakes_every_waiter() {
        let signals = CompletionSignals::new();
        let waiting: Vec<_> = (0..3).map(|n| signals.watch(&format!("f{n}"))).collect();
        signals.notify_all();
        for wake in waiting {
            tokio::time::timeout(Duration::from_secs(1), wake)
                .await
                .expect("woken by notify_all");
        }
        assert_eq!(signals.len(), 0);
    }

    #[test]
    fn bells_without_waiters_are_swept() {
        let signals = CompletionSignals::new();
        for n in 0..10_000 {
            drop(signals.watch(&format!("flow-{n}")));
            assert!(
                signals.len() <= MIN_SWEEP_AT,
                "{} bells held",
                signals.len()
            );
        }
        let _kept = signals.watch("live");
        for n in 0..1_000 {
            drop(signals.watch(&format!("more-{n}")));
        }
        let bells = signals.bells.lock().unwrap();
        assert!(
            bells.by_flow.contains_key("live"),
            "a bell with a waiter survives"
        );
    }
}
