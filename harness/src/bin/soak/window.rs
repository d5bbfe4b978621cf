//! When Redis restarts: errors inside this window (and in flows that met it) are the
//! restart's cost; anywhere else they fail the soak.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long after Redis is back its errors still count as the restart's: the replicas
/// reconnect on their next command, within Redis's connect timeout (1 s).
const GRACE: Duration = Duration::from_secs(5);

/// How long after Redis is back a refused state counts as spent by the restart (not by a
/// connection the replica has not yet noticed is broken).
const SETTLED: Duration = Duration::from_secs(2);

/// The restart's start and end (unset: not yet).
#[derive(Default)]
pub(crate) struct Window {
    span: Mutex<(Option<Instant>, Option<Instant>)>,
}

impl Window {
    fn span(&self) -> (Option<Instant>, Option<Instant>) {
        *self
            .span
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Redis is being stopped now.
    pub(crate) fn begin(&self) {
        self.span
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0 = Some(Instant::now());
    }

    /// Redis answers again now.
    pub(crate) fn end(&self) {
        self.span
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .1 = Some(Instant::now());
    }

    /// Whether `t` falls in the restart (or its grace after).
    pub(crate) fn covers(&self, t: Instant) -> bool {
        match self.span() {
            (Some(begin), None) => t >= begin,
            (Some(begin), Some(end)) => t >= begin && t <= end + GRACE,
            _ => false,
        }
    }

    /// Whether the restart has begun.
    pub(crate) fn begun(&self) -> bool {
        self.span().0.is_some()
    }

    /// Whether Redis has been back long enough for the replicas to have reconnected.
    pub(crate) fn over(&self, t: Instant) -> bool {
        matches!(self.span(), (_, Some(end)) if t > end + SETTLED)
    }

    /// How long Redis was away (stop to answering again).
    pub(crate) fn downtime(&self) -> Option<Duration> {
        match self.span() {
            (Some(begin), Some(end)) => Some(end - begin),
            _ => None,
        }
    }
}
