//! A map whose entries each live until a time, swept of the expired ones once it reaches twice
//! the count left by the last sweep: a request costs the same whatever the number of entries
//! held, not a scan of them all (LocalBrowser's claims, the spent confirmation tokens).

use std::collections::HashMap;
use std::time::SystemTime;

/// The smallest map that is swept.
const MIN_SWEEP_AT: usize = 64;

/// Entries by key, each with the time it expires.
pub(super) struct Expiring<V> {
    entries: HashMap<String, (V, SystemTime)>,
    sweep_at: usize,
    /// Entries the sweeps have looked at (the cost the tests bound).
    #[cfg(test)]
    pub(super) swept: usize,
}

impl<V> Default for Expiring<V> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
            sweep_at: 0,
            #[cfg(test)]
            swept: 0,
        }
    }
}

impl<V: Copy> Expiring<V> {
    /// The live value of `key`, and `false`; when it has none (or an expired one), `value`,
    /// kept until `expires`, and `true`.
    pub(super) fn first(
        &mut self,
        key: &str,
        value: V,
        expires: SystemTime,
        now: SystemTime,
    ) -> (V, bool) {
        if self.entries.len() >= self.sweep_at.max(MIN_SWEEP_AT) {
            #[cfg(test)]
            {
                self.swept += self.entries.len();
            }
            self.entries.retain(|_, (_, expires)| *expires > now);
            self.sweep_at = self.entries.len().saturating_mul(2);
        }
        match self.entries.get_mut(key) {
            Some((live, until)) if *until > now => (*live, false),
            Some(expired) => {
                *expired = (value, expires);
                (value, true)
            }
            None => {
                self.entries.insert(key.to_owned(), (value, expires));
                (value, true)
            }
        }
    }

    /// Whether `key` has an entry (live, or expired and not swept yet).
    pub(super) fn contains_key(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// The values held (live, or expired and not swept yet).
    pub(super) fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.values().map(|(value, _)| value)
    }

    /// The number of entries held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::Expiring;

    #[test]
    fn adding_many_keys_sweeps_each_a_bounded_number_of_times() {
        let mut map = Expiring::default();
        let now = SystemTime::now();
        let later = now + Duration::from_secs(600);
        for n in 0..10_000u32 {
            let value = [n.to_le_bytes()[0]; 16];
            assert_eq!(
                map.first(&format!("key-{n}"), value, later, now),
                (value, true)
            );
        }
        // Sweeping at every call looked at 50 million entries; doubling looks at under 2 each.
        assert!(map.swept < 20_000, "swept {} entries", map.swept);
        assert_eq!(map.len(), 10_000);
    }

    #[test]
    fn the_first_value_is_kept_until_it_expires() {
        let mut map = Expiring::default();
        let now = SystemTime::now();
        let soon = now + Duration::from_secs(1);
        assert_eq!(map.first("key", [1; 16], soon, now), ([1; 16], true));
        assert_eq!(map.first("key", [2; 16], soon, now), ([1; 16], false));
        let after = soon + Duration::from_secs(1);
        assert_eq!(
            map.first("key", [2; 16], after + Duration::from_secs(9), after),
            ([2; 16], true)
        );
    }

    #[test]
    fn expired_entries_are_swept_once_the_map_doubles() {
        let mut map = Expiring::default();
        let now = SystemTime::now();
        let gone = now + Duration::from_secs(1);
        for n in 0..64 {
            map.first(&format!("old-{n}"), [1; 16], gone, now);
        }
        let later = gone + Duration::from_secs(1);
        map.first("new", [2; 16], later + Duration::from_secs(60), later);
        assert_eq!(map.len(), 1);
    }
}
