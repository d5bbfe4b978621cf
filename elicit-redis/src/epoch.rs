//! Noticing that Redis lost its data: the namespace's epoch marker.
//!
//! A Redis restarted without persistence or flushed forgets the state ids it redeemed, and
//! would let a spent state be redeemed again. (Losing only part of them, by eviction or a
//! crash restoring an older copy, keeps the marker: `setup` refuses those configurations, and
//! eviction is also watched while connected, below.) Each namespace therefore holds one
//! marker, `"{<namespace>}:elicit:epoch"`, written once (when absent) and never expiring:
//! `"{id}:{created_ms}:{after_loss}"`, a random id, Redis's own clock when it was written (Unix
//! milliseconds) and `1` once a replica has seen it replace another (a loss), else `0`.
//!
//! Every redemption checks the marker in the same script that records the state id, so a loss
//! between the two cannot slip through; each (re)connection reads it too. The marker decides
//! which states may still be redeemed, the same way on every replica (they all read it):
//!
//! - a state sealed before the marker was written is refused: whatever spent it is gone;
//! - after a loss, also every state sealed less than [`MAX_CLOCK_SKEW`] after it, since the
//!   replica that sealed it may have a clock that far ahead of Redis's.
//!
//! Eviction, which keeps the marker (it never expires, so the `volatile-*` policies never take
//! it), is watched in the same script while the setup is checked: beside the marker,
//! `"{<namespace>}:elicit:evictions"` holds Redis's `evicted_keys` count when the marker was
//! written. The redemption script reads `INFO memory` and `INFO stats` (scripts may; `CONFIG`
//! they may not), records nothing while a `maxmemory` with a policy other than `noeviction` is
//! set, and ends the epoch (deletes the marker: a loss) once the count has moved, since any key
//! evicted after the marker was written may have been a spent state. A `CONFIG RESETSTAT`, a
//! restart of a Redis that had evicted keys before, or a namespace without the count moves it
//! too, and is taken as a loss.
//!
//! A namespace seen for the first time counts as new, not lost (nothing tells the two apart):
//! a replica that remembers an earlier marker turns the new one into a loss as soon as it
//! sees it, and until then only states sealed before the marker are refused.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_state::MAX_CLOCK_SKEW;

/// The Lua function both scripts read `INFO` with: `field(info, name, pattern)` is the value
/// of line `name:` when it matches `pattern` whole, else `nil`. The line is found with a plain
/// search and the value matched where it starts. An unanchored pattern
/// (`'\nmaxmemory:(%d+)'`) is tried at every byte of the section's text: [`REDEEM`] took about
/// 26 µs of Redis's time that way, 15 µs this way (`redis-benchmark`, `EVALSHA`, Redis 7.0).
macro_rules! info_field {
    () => {
        r"
local function field(info, name, pattern)
  local at = string.find(info, '\n' .. name .. ':', 1, true)
  if at then return string.match(info, '^' .. pattern, at + #name + 2) end
end"
    };
}

/// Reads the marker (`KEYS[1]`), writing it first when absent (`ARGV[1]`: a fresh id), and
/// marks it as written after a loss when `ARGV[2]` (the id this replica saw last, or empty) is
/// not its id. With `ARGV[3]` = `1` (the setup is checked) it also keeps `KEYS[2]`, Redis's
/// `evicted_keys` count when the marker was written: a count that differs (keys were evicted
/// since, or nobody counted) ends the epoch as a loss, and the new marker starts the count
/// again.
pub(super) const ENSURE: &str = concat!(
    info_field!(),
    r"
if redis.replicate_commands then redis.replicate_commands() end
local seen = ARGV[2]
local marker = redis.call('GET', KEYS[1])
local lost = seen ~= ''
local evicted = false
if ARGV[3] == '1' then
  evicted = field(redis.call('INFO', 'stats'), 'evicted_keys', '%d+')
  if not evicted then return redis.error_reply('ERR INFO stats gives no evicted_keys') end
  if marker and redis.call('GET', KEYS[2]) ~= evicted then
    marker = false
    lost = true
  end
end
if not marker then
  local now = redis.call('TIME')
  local flag = '0'
  if lost then flag = '1' end
  marker = ARGV[1] .. ':' .. now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000)) .. ':' .. flag
  redis.call('SET', KEYS[1], marker)
  if evicted then redis.call('SET', KEYS[2], evicted) end
  return marker
end
if seen ~= '' and string.sub(marker, -2) == ':0' and string.sub(marker, 1, #seen + 1) ~= seen .. ':' then
  marker = string.sub(marker, 1, -2) .. '1'
  redis.call('SET', KEYS[1], marker)
end
return marker
"
);

/// What [`REDEEM`] answers when Redis may evict keys right now (a `maxmemory` with a policy
/// other than `noeviction`): nothing is recorded.
pub(super) const MAY_EVICT: i64 = -2;

/// Records a state id (`KEYS[2]`, `SET NX PXAT ARGV[2]`) only while the marker (`KEYS[1]`) is
/// still `ARGV[1]`: `1` recorded, `0` seen before, `-1` the marker changed. With `ARGV[3]` =
/// `1` (the setup is checked), in the same script: [`MAY_EVICT`] while Redis may evict keys,
/// and, when Redis evicted any key since the marker was written (`evicted_keys` is no longer
/// `KEYS[3]`), the marker is deleted and `-1` returned, so the epoch ends as after any loss.
pub(super) const REDEEM: &str = concat!(
    info_field!(),
    r"
if redis.replicate_commands then redis.replicate_commands() end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if ARGV[3] == '1' then
  local memory = redis.call('INFO', 'memory')
  local limit = field(memory, 'maxmemory', '%d+')
  local policy = field(memory, 'maxmemory_policy', '[%w%-]+')
  if limit ~= '0' and policy ~= 'noeviction' then return -2 end
  local evicted = field(redis.call('INFO', 'stats'), 'evicted_keys', '%d+')
  if not evicted then return -2 end
  if redis.call('GET', KEYS[3]) ~= evicted then
    redis.call('DEL', KEYS[1])
    return -1
  end
end
if redis.call('SET', KEYS[2], '1', 'NX', 'PXAT', ARGV[2]) then return 1 end
return 0
"
);

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
    pub(crate) fn parse(raw: &str) -> Result<Epoch, String> {
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
    pub(crate) fn first_admitted(&self) -> u64 {
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
    pub(crate) fn admits(&self, issued_at: SystemTime) -> bool {
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
