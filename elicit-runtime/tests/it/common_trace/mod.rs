//! Helpers shared by the tests of what operators see (`round_tracing.rs`, `url_landing.rs`): a
//! subscriber that records the events of target `elicit`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Once};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};

/// One event: its fields as text (`message` is the event's name).
pub(crate) type Recorded = BTreeMap<String, String>;

/// The events of target `elicit` one [`recorded`] run saw.
#[derive(Clone, Default)]
pub(crate) struct Recorder(Arc<Mutex<Vec<Recorded>>>);

struct Fields<'a>(&'a mut Recorded);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

/// The one subscriber of the test binary, installed once as the global default: it hands the
/// `elicit` events of a thread to the [`Recorder`] that thread is running [`recorded`] with.
///
/// Why not `tracing::subscriber::with_default` per test: tracing caches each callsite's
/// interest globally, and a callsite first hit by a thread without a scoped subscriber (another
/// test running in parallel) while a scoped one registers can stay cached as "never", which
/// made a recorded event go missing now and then. One global subscriber answering
/// "sometimes" for target `elicit` leaves nothing to race.
struct PerThread;

thread_local! {
    static CURRENT: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

impl Subscriber for PerThread {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if metadata.target() == "elicit" {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "elicit" && CURRENT.with_borrow(Option::is_some)
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        CURRENT.with_borrow(|current| {
            if let Some(recorder) = current {
                let mut fields = Recorded::new();
                event.record(&mut Fields(&mut fields));
                recorder.0.lock().unwrap().push(fields);
            }
        });
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Clears this thread's recorder when `recorded` ends, even by a panic.
struct Stop;

impl Drop for Stop {
    fn drop(&mut self) {
        CURRENT.with_borrow_mut(|current| *current = None);
    }
}

/// The `elicit` events `run` emits on this thread.
pub(crate) fn recorded(run: impl FnOnce()) -> Vec<Recorded> {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        tracing::subscriber::set_global_default(PerThread)
            .expect("no other global subscriber in the test binary");
    });
    let recorder = Recorder::default();
    CURRENT.with_borrow_mut(|current| *current = Some(recorder.clone()));
    let stop = Stop;
    run();
    drop(stop);
    recorder.0.lock().unwrap().clone()
}
