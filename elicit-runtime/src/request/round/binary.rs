//! The binary layout of a [`RoundState`] inside a sealed `requestState`.
//!
//! ```text
//! version (u8 = 1 or 2) ‖ round (u32 BE)
//! ‖ count (u32 BE) × ( key ‖ digest )                      questions asked
//! ‖ count (u32 BE) × ( key ‖ digest ‖ answer JSON )        answers carried
//! ‖ count (u32 BE) × ( key ‖ id ‖ exp (u64 BE) ‖ flag (u8: 0 open, 1 done) [‖ completion JSON] )
//! version 2 only:
//! ‖ count (u32 BE) × ( key ‖ origin digest ‖ times (u8) ‖ message ‖ defaults JSON )   re-asks
//! ```
//!
//! A state without re-asks is written as version 1, byte for byte as before re-asking existed,
//! so states sealed by an older replica still open and the common state does not grow.
//!
//! Every text is a u32 BE length and UTF-8 bytes. A state only ever comes back inside an
//! authenticated frame, so this reader never sees bytes another writer made; it still checks
//! every length and every text, and refuses trailing bytes, so it cannot panic or loop on
//! anything. Binary rather than JSON because the state crosses the wire twice per round: as
//! JSON, writing and parsing its structure (and re-checking answer texts it only copies) was
//! a third of sealing and opening it.

use std::collections::BTreeMap;

use super::{Carried, RoundState, UrlFlow};
use crate::channel::Reask;
use crate::keyed::Keyed;
use crate::state::{SealError, StateError};

/// Version of the layout (the payload's first byte) without re-asks.
const VERSION: u8 = 1;
/// Version of the layout with the re-asks section.
const VERSION_REASKS: u8 = 2;

/// Appends `state` to `buf`.
///
/// # Errors
///
/// [`SealError::Serialize`] if a completion does not serialize (it always does: its results
/// are JSON values) or a text is longer than a u32 can count.
pub(crate) fn write(state: &RoundState, buf: &mut Vec<u8>) -> Result<(), SealError> {
    buf.push(if state.reasks.is_empty() {
        VERSION
    } else {
        VERSION_REASKS
    });
    buf.extend_from_slice(&state.round.to_be_bytes());
    count(buf, state.asked.len())?;
    for (key, digest) in &state.asked {
        text(buf, key)?;
        text(buf, digest)?;
    }
    count(buf, state.answers.len())?;
    for (key, carried) in &state.answers {
        text(buf, key)?;
        text(buf, &carried.digest)?;
        text(buf, &carried.response)?;
    }
    count(buf, state.url_flows.len())?;
    for (key, flow) in &state.url_flows {
        text(buf, key)?;
        text(buf, &flow.id)?;
        buf.extend_from_slice(&flow.exp.to_be_bytes());
        match &flow.done {
            None => buf.push(0),
            Some(done) => {
                buf.push(1);
                let json =
                    serde_json::to_string(done).map_err(|e| SealError::Serialize(e.to_string()))?;
                text(buf, &json)?;
            }
        }
    }
    if !state.reasks.is_empty() {
        count(buf, state.reasks.len())?;
        for (key, reask) in &state.reasks {
            text(buf, key)?;
            text(buf, &reask.origin)?;
            buf.push(reask.count);
            text(buf, &reask.message)?;
            let json = serde_json::to_string(&reask.defaults)
                .map_err(|e| SealError::Serialize(e.to_string()))?;
            text(buf, &json)?;
        }
    }
    Ok(())
}

/// Reads back what [`write`] wrote; anything else is [`StateError::Malformed`].
pub(crate) fn read(bytes: &[u8]) -> Result<RoundState, StateError> {
    let mut r = RoundReader(bytes);
    let version = r.take(1)?;
    if version != [VERSION] && version != [VERSION_REASKS] {
        return Err(malformed());
    }
    let round = u32::from_be_bytes(r.array()?);
    let mut asked = Keyed::new();
    for _ in 0..r.count()? {
        asked.insert(r.text()?, r.text()?);
    }
    let mut answers = BTreeMap::new();
    for _ in 0..r.count()? {
        let key = r.text()?;
        let carried = Carried {
            digest: r.text()?,
            response: r.text()?.into_boxed_str(),
        };
        answers.insert(key, carried);
    }
    let mut url_flows = Keyed::new();
    for _ in 0..r.count()? {
        let key = r.text()?;
        let id = r.text()?;
        let exp = u64::from_be_bytes(r.array()?);
        let done = match r.take(1)? {
            [0] => None,
            [1] => Some(serde_json::from_str(&r.text()?).map_err(|_| malformed())?),
            _ => return Err(malformed()),
        };
        url_flows.insert(key, UrlFlow { id, exp, done });
    }
    let mut reasks = BTreeMap::new();
    if version == [VERSION_REASKS] {
        for _ in 0..r.count()? {
            let key = r.text()?;
            let reask = Reask {
                origin: r.text()?,
                count: r.take(1)?[0],
                message: r.text()?,
                defaults: serde_json::from_str(&r.text()?).map_err(|_| malformed())?,
            };
            reasks.insert(key, reask);
        }
    }
    if !r.0.is_empty() {
        return Err(malformed());
    }
    Ok(RoundState {
        asked,
        answers,
        url_flows,
        round,
        reasks,
    })
}

fn malformed() -> StateError {
    StateError::Malformed("payload is not a round state")
}

fn count(buf: &mut Vec<u8>, n: usize) -> Result<(), SealError> {
    let n = u32::try_from(n).map_err(|_| SealError::Serialize("too many entries".into()))?;
    buf.extend_from_slice(&n.to_be_bytes());
    Ok(())
}

fn text(buf: &mut Vec<u8>, text: &str) -> Result<(), SealError> {
    count(buf, text.len())?;
    buf.extend_from_slice(text.as_bytes());
    Ok(())
}

/// Reads front to back; every shortfall is the same malformed state.
struct RoundReader<'a>(&'a [u8]);

impl<'a> RoundReader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        let (head, rest) = self.0.split_at_checked(n).ok_or_else(malformed)?;
        self.0 = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], StateError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// An entry count. Each entry takes at least four bytes, so a count the rest cannot hold
    /// is refused before the loop starts.
    fn count(&mut self) -> Result<usize, StateError> {
        let n = usize::try_from(u32::from_be_bytes(self.array()?)).map_err(|_| malformed())?;
        if n > self.0.len() / 4 {
            return Err(malformed());
        }
        Ok(n)
    }

    fn text(&mut self) -> Result<String, StateError> {
        let len = usize::try_from(u32::from_be_bytes(self.array()?)).map_err(|_| malformed())?;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|_| malformed())
    }
}

#[cfg(test)]
mod tests;
