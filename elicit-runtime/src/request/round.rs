//! What one round hands the next through `requestState`: the questions it asked, the answers
//! seen so far and the URL-mode flows under way. Sealed by `finish`, opened by `build`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::state::Completion;

/// The sealed payload of `requestState`. Field names are short because the whole state
/// travels to the client and back on every round.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundState {
    /// Key → digest of each question asked in the round that sealed this state.
    #[serde(rename = "q")]
    pub asked: BTreeMap<String, String>,
    /// Key → answer seen in this or an earlier round.
    #[serde(rename = "a")]
    pub answers: BTreeMap<String, Carried>,
    /// URL-mode key → the flow whose link was sent.
    #[serde(rename = "u", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub url_flows: BTreeMap<String, UrlFlow>,
    /// The number of the round that sealed this state (1 for the first call).
    #[serde(rename = "n", default)]
    pub round: u32,
}

/// An answer, with the digest of the question it answers.
///
/// The answer stays raw JSON text: opening the state checks it is JSON but builds no `Value`
/// (a handler that returns early may never read it), and sealing it again copies the text.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Carried {
    #[serde(rename = "d")]
    pub digest: String,
    /// The raw result (normalized elicitation result, sampling or roots result).
    #[serde(rename = "r")]
    pub response: Box<RawValue>,
}

/// A URL-mode flow under way: its handle's id and expiry, and once read, how it ended (so a
/// single-use completion is redeemed once per request, not once per round).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UrlFlow {
    pub id: String,
    /// Expiry of the handle, in seconds since the Unix epoch.
    pub exp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub done: Option<Completion>,
}
