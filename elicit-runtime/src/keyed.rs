//! A map from question keys, for the handful of keys one request holds: a sorted `Vec`, so a
//! request with one question keeps one entry, not a whole B-tree node sized for eleven (a held
//! retry keeps several such maps alive for as long as it is held). Lookups are a binary
//! search; iteration is in key order, as a `BTreeMap`'s (the sealed state is written in it).

use std::collections::BTreeMap;

#[derive(Clone, PartialEq)]
pub(crate) struct Keyed<V>(Vec<(String, V)>);

/// Up to this many entries a map grows by exactly one; past it, as a `Vec` does.
const EXACT_UP_TO: usize = 4;

impl<V> Default for Keyed<V> {
    fn default() -> Self {
        Keyed(Vec::new())
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for Keyed<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> Keyed<V> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    /// Adds or replaces `key`'s value; the value it replaced.
    pub(crate) fn insert(&mut self, key: String, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                // A request's maps hold one or two entries: a few grow one slot at a time
                // instead of to four (hundreds of bytes a held retry keeps for nothing).
                if self.0.len() == self.0.capacity() && self.0.len() < EXACT_UP_TO {
                    self.0.reserve_exact(1);
                }
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Entries in key order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V> IntoIterator for Keyed<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, V> IntoIterator for &'a Keyed<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, V)>,
        fn(&'a (String, V)) -> (&'a String, &'a V),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

/// Sorted and without duplicate keys (the last value of a key wins), whatever the order given.
impl<V> FromIterator<(String, V)> for Keyed<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        let mut entries: Vec<(String, V)> = iter.into_iter().collect();
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            // Stable: among equal keys the last given stays last, and is the one kept.
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut deduped: Vec<(String, V)> = Vec::with_capacity(entries.len());
            for entry in entries {
                match deduped.last_mut() {
                    Some(last) if last.0 == entry.0 => *last = entry,
                    _ => deduped.push(entry),
                }
            }
            entries = deduped;
        }
        entries.shrink_to_fit();
        Keyed(entries)
    }
}

impl<V> From<BTreeMap<String, V>> for Keyed<V> {
    fn from(map: BTreeMap<String, V>) -> Self {
        Keyed(map.into_iter().collect())
    }
}

impl<V, const N: usize> From<[(String, V); N]> for Keyed<V> {
    fn from(entries: [(String, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_in_key_order_with_the_last_value_of_a_key() {
        let mut map: Keyed<u32> = [("b".into(), 1), ("a".into(), 2), ("b".into(), 3)].into();
        assert_eq!(
            map.iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            [("a", 2), ("b", 3)]
        );
        assert_eq!(map.insert("c".into(), 4), None);
        assert_eq!(map.insert("a".into(), 5), Some(2));
        assert_eq!(map.remove("b"), Some(3));
        assert_eq!(map.get("a"), Some(&5));
        assert_eq!(map.get("b"), None);
        assert_eq!(
            map.into_iter().collect::<Vec<_>>(),
            [("a".to_owned(), 5), ("c".to_owned(), 4)]
        );
    }
}
