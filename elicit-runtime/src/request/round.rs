//! What one round hands the next through `requestState`: the questions it asked, the answers
//! seen so far and the URL-mode flows under way. Sealed by `finish`, opened by `build`, in the
//! binary layout of `round/binary.rs`.

use std::collections::BTreeMap;

use crate::channel::Reask;
pub(crate) use crate::channel::{Carried, UrlFlow};
use crate::keyed::Keyed;

mod binary;

pub(crate) use binary::{read, write};

/// The sealed payload of `requestState`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RoundState {
    /// Key → digest of each question asked in the round that sealed this state.
    pub asked: Keyed<String>,
    /// Key → answer seen in this or an earlier round.
    pub answers: BTreeMap<String, Carried>,
    /// URL-mode key → the flow whose link was sent.
    pub url_flows: Keyed<UrlFlow>,
    /// The number of the round that sealed this state (1 for the first call).
    pub round: u32,
    /// Key → the form question asked again because its answer failed the form's checks.
    pub reasks: BTreeMap<String, Reask>,
}
