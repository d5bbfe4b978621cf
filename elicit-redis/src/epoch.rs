//! Noticing that Redis lost its data: the namespace's epoch marker.
//!
//! A Redis restarted without persistence or flushed forgets the state ids it redeemed, and
//! would let a spent state be redeemed again. (Losing only part of them, by eviction or a
//! crash restoring an older copy, keeps the marker: `setup` refuses those configurations.) Each namespace therefore holds one marker, `"{namespace}:elicit:epoch"`,
//! written once (when absent) and never expiring: `"{id}:{created_ms}:{after_loss}"`, a random
//! id, Redis's own clock when it was written (Unix milliseconds) and `1` once a replica has seen
//! it replace another (a loss), else `0`.
//!
//! Every redemption checks the marker in the same script that records the state id, so a loss
//! between the two cannot slip through; each (re)connection reads it too. The marker decides
//! which states may still be redeemed, the same way on every replica (they all read it):
//!
//! - a state sealed before the marker was written is refused: whatever spent it is gone;
//! - after a loss, also every state sealed less than [`MAX_CLOCK_SKEW`] after it, since the
//!   replica that sealed it may have a clock that far ahead of Redis's.
//!
//! A namespace seen for the first time counts as new, not lost (nothing tells the two apart):
//! a replica that remembers an earlier marker turns the new one into a loss as soon as it
//! sees it, and until then only states sealed before the marker are refused.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_state::MAX_CLOCK_SKEW;

/// Reads the marker, writing it first when absent (`ARGV[1]`: a fresh id), and marks it as
/// written after a loss when `ARGV[2]` (the id this replica saw last, or empty) is not its id.
pub(super) const ENSURE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local seen = ARGV[2]
local marker = redis.call('GET', KEYS[1])
if not marker then
  local now = redis.call('TIME')
  local lost = '0'
  if seen ~= '' then lost = '1' end
  marker = ARGV[1] .. ':' .. now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000)) .. ':' .. lost
  redis.call('SET', KEYS[1], marker)
  return marker
end
if seen ~= '' and string.sub(marker, -2) == ':0' and string.sub(marker, 1, #seen + 1) ~= seen .. ':' then
  marker = string.sub(marker, 1, -2) .. '1'
  redis.call('SET', KEYS[1], marker)
end
return marker
";

/// Records a state id (`KEYS[2]`, `SET NX PXAT ARGV[2]`) only while the marker (`KEYS[1]`) is
/// still `ARGV[1]`: `1` recorded, `0` seen before, `-1` the marker changed.
pub(super) const REDEEM: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if redis.call('SET', KEYS[2], '1', 'NX', 'PXAT', ARGV[2]) then return 1 end
return 0
";

/// One epoch of a namespace: what its marker says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Epoch {
    /// The marker exactly as stored (what [`REDEEM`] compares).
    pub raw: String,
    /// Its random id.
    pub id: String,
    /// When it was written, by Redis's clock.
    pub created_at: SystemTime,
    /// Whether a replica saw it replace an earlier marker.
    pub after_loss: bool,
}

impl Epoch {
    /// Reads a marker.
    ///
    /// # Errors
    ///
    /// A text for the logs if the marker is not one this crate writes.
    pub fn parse(raw: &str) -> Result<Epoch, String> {
        let bad = || format!("the epoch marker {raw:?} is not `id:created_ms:0|1`");
        let mut parts = raw.split(':');
        let (Some(id), Some(ms), Some(lost), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let ms: u64 = ms.parse().map_err(|_| bad())?;
        let after_loss = match lost {
            "0" => false,
            "1" => true,
            _ => return Err(bad()),
        };
        if id.is_empty() {
            return Err(bad());
        }
        let created_at = UNIX_EPOCH
            .checked_add(Duration::from_millis(ms))
            .ok_or_else(bad)?;
        Ok(Epoch {
            raw: raw.to_owned(),
            id: id.to_owned(),
            created_at,
            after_loss,
        })
    }

    /// The first issue time (Unix seconds, as tokens carry it) this epoch admits.
    pub fn first_admitted(&self) -> u64 {
        let created = self
            .created_at
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        if self.after_loss {
            created.saturating_add(MAX_CLOCK_SKEW.as_secs())
        } else {
            created
        }
    }

    /// Whether a state sealed at `issued_at` may be redeemed in this epoch.
    pub fn admits(&self, issued_at: SystemTime) -> bool {
        issued_at
            .duration_since(UNIX_EPOCH)
            .is_ok_and(|d| d.as_secs() >= self.first_admitted())
    }
}

/// A fresh marker id: 64 bits from std's per-process random hash keys (seeded by the OS) over
/// the time and process id. Only uniqueness matters: a new marker must not repeat an old id.
pub(super) fn fresh_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    format!("{:016x}", hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn a_new_namespace_refuses_only_states_sealed_before_its_marker() {
        let epoch = Epoch::parse("ab12:1000000500:0").unwrap();
        assert_eq!(epoch.id, "ab12");
        assert_eq!(epoch.created_at, at(1_000_000) + Duration::from_millis(500));
        assert!(!epoch.after_loss);
        assert!(!epoch.admits(at(999_999)));
        assert!(epoch.admits(at(1_000_000)));
    }

    #[test]
    fn after_a_loss_states_sealed_within_the_clock_skew_are_refused_too() {
        let epoch = Epoch::parse("ab12:1000000500:1").unwrap();
        assert!(epoch.after_loss);
        assert!(!epoch.admits(at(1_000_000 + MAX_CLOCK_SKEW.as_secs() - 1)));
        assert!(epoch.admits(at(1_000_000 + MAX_CLOCK_SKEW.as_secs())));
    }

    #[test]
    fn markers_this_crate_does_not_write_are_refused() {
        for raw in [
            "",
            "ab12",
            "ab12:5",
            "ab12:5:2",
            ":5:0",
            "ab12:x:0",
            "a:1:0:extra",
        ] {
            assert_eq!(
                Epoch::parse(raw),
                Err(format!(
                    "the epoch marker {raw:?} is not `id:created_ms:0|1`"
                ))
            );
        }
    }

    #[test]
    fn fresh_ids_are_sixteen_hex_digits() {
        let id = fresh_id();
        assert_eq!(id.len(), 16);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
