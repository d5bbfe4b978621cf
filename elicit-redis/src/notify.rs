//! Waking held retries across replicas: each record is published on the namespace's channel,
//! and one subscriber per store rings the waiting requests' bells. Only while the subscription
//! is known to be live does the store hand out bells; otherwise waiters poll (the core's
//! backoff), so a lost subscriber slows a wake-up, never loses it. A waiter holding a bell
//! does not look at Redis until it rings (held retries cost Redis nothing while they wait),
//! so when the subscription breaks every bell is rung and its waiters poll until it is back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use elicit_state::BoxFuture;
use elicit_state::CompletionSignals;
use futures_util::StreamExt;

/// How long the subscription may stay quiet before it is pinged (a half-open connection is
/// noticed within this plus the response timeout).
const KEEPALIVE: Duration = Duration::from_secs(5);
/// The first pause before subscribing again after a failure; doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// The subscriber of one store (shared by its clones).
pub(crate) struct Listener {
    /// The nodes to subscribe on, tried in turn (one Redis: just it; a cluster: its seeds,
    /// any of which hears every classic `PUBLISH`).
    clients: Vec<redis::Client>,
    /// The one tried next.
    next: std::sync::atomic::AtomicUsize,
    channel: String,
    signals: CompletionSignals,
    timeouts: (Duration, Duration),
    /// Subscribed and answering pings: bells are handed out only then.
    live: AtomicBool,
    started: AtomicBool,
}

impl Listener {
    pub(crate) fn new(
        clients: Vec<redis::Client>,
        channel: String,
        timeouts: (Duration, Duration),
    ) -> Self {
        Listener {
            clients,
            next: std::sync::atomic::AtomicUsize::new(0),
            channel,
            signals: CompletionSignals::new(),
            timeouts,
            live: AtomicBool::new(false),
            started: AtomicBool::new(false),
        }
    }

    /// The channel records are published on.
    pub(crate) fn channel(&self) -> &str {
        &self.channel
    }

    /// Starts the subscriber (once, inside a tokio runtime; without one nothing is started
    /// and waiters poll). It holds the listener weakly and ends within [`KEEPALIVE`] of the
    /// last clone of the store being dropped.
    pub(crate) fn start(self: &Arc<Self>) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        if !self.started.swap(true, Ordering::SeqCst) {
            tokio::spawn(listen(Arc::downgrade(self)));
        }
    }

    /// Whether the subscription is live now.
    pub(crate) fn is_live(&self) -> bool {
        self.live.load(Ordering::SeqCst)
    }

    /// A bell for flow `id` while the subscription is live; `None` (poll) otherwise.
    ///
    /// The bell is hung before the subscription is read as live: a subscription that breaks
    /// after that read is marked down before every bell is rung, this one included, so a
    /// waiter that holds a bell (and no longer polls) is never left with one nobody rings.
    pub(crate) fn watch(self: &Arc<Self>, id: &str) -> Option<BoxFuture<'static, ()>> {
        self.start();
        let bell = self.signals.watch(id);
        self.is_live().then_some(bell)
    }

    /// Rings flow `id`'s bell here at once (the record was made by this process).
    pub(crate) fn ring(&self, id: &str) {
        self.signals.notify(id);
    }
}

/// Subscribes, rings bells for every published id, pings when quiet, and subscribes again
/// (with backoff) after any failure, until the store is gone.
async fn listen(me: Weak<Listener>) {
    let mut backoff = FIRST_BACKOFF;
    loop {
        let Some(listener) = me.upgrade() else { return };
        match subscribe(&listener).await {
            Ok((mut sink, mut messages)) => {
                listener.live.store(true, Ordering::SeqCst);
                backoff = FIRST_BACKOFF;
                let response = listener.timeouts.1;
                drop(listener);
                loop {
                    match tokio::time::timeout(KEEPALIVE, messages.next()).await {
                        Ok(Some(message)) => {
                            let Some(listener) = me.upgrade() else { return };
                            if let Ok(id) = message.get_payload::<String>() {
                                listener.signals.notify(&id);
                            }
                        }
                        Ok(None) => break,
                        Err(_) => {
                            if me.strong_count() == 0 {
                                return;
                            }
                            let ping = sink.ping::<redis::Value>();
                            if !matches!(tokio::time::timeout(response, ping).await, Ok(Ok(_))) {
                                break;
                            }
                        }
                    }
                }
                let Some(listener) = me.upgrade() else { return };
                listener.live.store(false, Ordering::SeqCst);
                // Records published while the subscription was failing may be lost: every
                // waiter looks again now, and polls until the subscription is back.
                listener.signals.notify_all();
                tracing::warn!(
                    target: "elicit",
                    channel = %listener.channel,
                    "elicit: the Redis completion subscription broke; held retries poll until it is back"
                );
            }
            Err(error) => {
                listener.live.store(false, Ordering::SeqCst);
                tracing::debug!(target: "elicit", %error, "elicit: cannot subscribe to completions");
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

type Subscription = (redis::aio::PubSubSink, redis::aio::PubSubStream);

/// Subscribes on the node tried next; after a failure the one after it is tried.
async fn subscribe(listener: &Listener) -> Result<Subscription, String> {
    let turn = listener.next.fetch_add(1, Ordering::SeqCst);
    let Some(client) = listener.clients.get(turn % listener.clients.len().max(1)) else {
        return Err("no Redis to subscribe on".to_owned());
    };
    let subscribed = subscribe_on(client, listener).await;
    if subscribed.is_ok() {
        // Stay on this node next time unless it fails.
        listener.next.store(turn, Ordering::SeqCst);
    }
    subscribed
}

async fn subscribe_on(client: &redis::Client, listener: &Listener) -> Result<Subscription, String> {
    let (connect, response) = listener.timeouts;
    let mut pubsub = match tokio::time::timeout(connect, client.get_async_pubsub()).await {
        Ok(Ok(pubsub)) => pubsub,
        Ok(Err(e)) => return Err(format!("cannot connect to Redis: {e}")),
        Err(_) => {
            return Err(format!(
                "Redis did not accept the connection within {connect:?}"
            ));
        }
    };
    match tokio::time::timeout(response, pubsub.subscribe(&listener.channel)).await {
        Ok(Ok(())) => Ok(pubsub.split()),
        Ok(Err(e)) => Err(format!("Redis refused SUBSCRIBE: {e}")),
        Err(_) => Err(format!(
            "Redis did not answer SUBSCRIBE within {response:?}"
        )),
    }
}
