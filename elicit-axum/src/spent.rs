//! The confirmation tokens already posted, on a route whose pages take secrets or ask again:
//! there each page's token is good for one `POST`, so a replayed form (a second submit, a
//! form captured before a retry) records nothing and reaches no hook.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::SystemTime;

/// Spent tokens, each kept until its link expires (after that the token is refused anyway).
/// In this process only: behind several replicas, a replay to another one is still refused once
/// the flow is recorded.
#[derive(Default)]
pub(super) struct Spent(Mutex<Tokens>);

/// The spent tokens, swept of expired ones once they reach twice the count left by the last
/// sweep (so a `POST` costs the same whatever the number of tokens held, not a scan of them all).
#[derive(Default)]
struct Tokens {
    until: HashMap<String, SystemTime>,
    sweep_at: usize,
    /// Entries the sweeps have looked at (the cost the tests bound).
    #[cfg(test)]
    swept: usize,
}

/// The smallest map that is swept.
const MIN_SWEEP_AT: usize = 64;

impl Tokens {
    fn spend(&mut self, token: &str, expires: SystemTime, now: SystemTime) -> bool {
        if self.until.len() >= self.sweep_at.max(MIN_SWEEP_AT) {
            #[cfg(test)]
            {
                self.swept += self.until.len();
            }
            self.until.retain(|_, until| *until > now);
            self.sweep_at = self.until.len().saturating_mul(2);
        }
        match self.until.get_mut(token) {
            Some(until) if *until > now => false,
            Some(expired) => {
                *expired = expires;
                true
            }
            None => {
                self.until.insert(token.to_owned(), expires);
                true
            }
        }
    }
}

impl Spent {
    /// Spends `token` (good until `expires`): `false` if it was spent already.
    pub(super) fn spend(&self, token: &str, expires: SystemTime) -> bool {
        let mut spent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        spent.spend(token, expires, SystemTime::now())
    }

    /// Whether `token` was spent.
    pub(super) fn contains(&self, token: &str) -> bool {
        let spent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        spent.until.contains_key(token)
    }
}

#[cfg(test)]
mod tests {
    use super::{Spent, Tokens};
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_token_is_spent_once() {
        let spent = Spent::default();
        let later = SystemTime::now() + Duration::from_secs(60);
        assert!(spent.spend("a", later));
        assert!(!spent.spend("a", later));
        assert!(spent.spend("b", later));
        assert!(spent.contains("a") && !spent.contains("c"));
    }

    #[test]
    fn spending_many_tokens_sweeps_each_a_bounded_number_of_times() {
        let mut tokens = Tokens::default();
        let now = SystemTime::now();
        let later = now + Duration::from_secs(600);
        for n in 0..10_000u32 {
            assert!(tokens.spend(&format!("token-{n}"), later, now));
        }
        // Sweeping at every spend looked at 50 million entries; doubling looks at under 2 each.
        assert!(tokens.swept < 20_000, "swept {} entries", tokens.swept);
        assert_eq!(tokens.until.len(), 10_000);
    }

    #[test]
    fn expired_tokens_are_swept_once_the_map_doubles() {
        let mut tokens = Tokens::default();
        let now = SystemTime::now();
        let gone = now + Duration::from_secs(1);
        for n in 0..64 {
            assert!(tokens.spend(&format!("old-{n}"), gone, now));
        }
        let later = gone + Duration::from_secs(1);
        assert!(tokens.spend("new", later + Duration::from_secs(60), later));
        assert_eq!(tokens.until.len(), 1);
    }
}
