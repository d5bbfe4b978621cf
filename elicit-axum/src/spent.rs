//! The confirmation tokens already posted, on a route whose pages take secrets or ask again:
//! there each page's token is good for one `POST`, so a replayed form (a second submit, a
//! form captured before a retry) records nothing and reaches no hook.

use std::sync::Mutex;
use std::time::SystemTime;

use super::expiring::Expiring;

/// Spent tokens, each kept until its link expires (after that the token is refused anyway).
/// In this process only: behind several replicas, a replay to another one is still refused once
/// the flow is recorded.
#[derive(Default)]
pub(super) struct Spent(Mutex<Expiring<()>>);

impl Spent {
    /// Spends `token` (good until `expires`): `false` if it was spent already.
    pub(super) fn spend(&self, token: &str, expires: SystemTime) -> bool {
        let mut spent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        spent.first(token, (), expires, SystemTime::now()).1
    }

    /// Whether `token` was spent.
    pub(super) fn contains(&self, token: &str) -> bool {
        let spent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        spent.contains_key(token)
    }
}

#[cfg(test)]
mod tests {
    use super::Spent;
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
}
