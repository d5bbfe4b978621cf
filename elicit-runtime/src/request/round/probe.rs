//! The crate's own round state, reachable from the `mrtr_round` benchmark through `__private`
//! (not public API), so the benchmark times the codec the runtime really uses.

use std::time::SystemTime;

use super::{Carried, RoundState, read, write};
use crate::state::{Binding, SealError, StateError, StateSealer};

/// A round state to seal and open in a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundStateProbe(RoundState);

impl RoundStateProbe {
    /// A state with `asked` (key, digest) questions and `answers` (key, digest, answer JSON).
    pub fn new(asked: &[(&str, &str)], answers: &[(&str, &str, &str)]) -> Self {
        Self(RoundState {
            asked: asked
                .iter()
                .map(|(k, d)| ((*k).to_owned(), (*d).to_owned()))
                .collect(),
            answers: answers
                .iter()
                .map(|(k, d, r)| {
                    let carried = Carried {
                        digest: (*d).to_owned(),
                        response: (*r).into(),
                    };
                    ((*k).to_owned(), carried)
                })
                .collect(),
            url_flows: Default::default(),
            round: 2,
        })
    }

    /// Seals the state as `ElicitContext::finish` does.
    ///
    /// # Errors
    ///
    /// As [`StateSealer::seal`].
    pub fn seal(
        &self,
        sealer: &StateSealer,
        binding: &Binding<'_>,
        now: SystemTime,
    ) -> Result<String, SealError> {
        sealer.seal_with(binding, now, |buf| write(&self.0, buf))
    }

    /// Opens a state as building a request context does.
    ///
    /// # Errors
    ///
    /// As [`StateSealer::open`].
    pub fn open(
        sealer: &StateSealer,
        token: &str,
        binding: &Binding<'_>,
        now: SystemTime,
    ) -> Result<Self, StateError> {
        Ok(Self(sealer.open_with(token, binding, now, read)?.payload))
    }

    /// How many answers the state carries.
    pub fn answers(&self) -> usize {
        self.0.answers.len()
    }

    /// The keys of the answers the state carries, in order.
    pub fn answer_keys(&self) -> Vec<&str> {
        self.0.answers.keys().map(String::as_str).collect()
    }
}
