//! The cookie that ties a callback to the browser that started its flow: the nonces of the
//! flows a browser has under way. An OAuth connection, started only by the page's own
//! confirmed `POST`, adds a nonce of its own ([`NonceCookie::add`]); sign-ins, which any `GET`
//! starts (another site's forced navigations too), share one ([`NonceCookie::shared`]).

use http::request::Parts;

use crate::cookie::RouteCookie;

/// The most nonces one cookie keeps: connections one browser has under way at once (a GitHub
/// and a Google connection, two links confirmed in two tabs); the oldest goes first.
const NONCES: usize = 4;

/// A cookie holding the nonces of the flows a browser started and has not finished, separated
/// by `.` (which no nonce has: they are base64url).
#[derive(Debug, Clone, Copy)]
pub(super) struct NonceCookie(pub(super) RouteCookie);

impl NonceCookie {
    /// The nonces the request's cookie holds, oldest first.
    pub(super) fn nonces(self, parts: &Parts) -> Vec<&str> {
        let held = self.0.read(parts).unwrap_or_default().split('.');
        held.filter(|nonce| !nonce.is_empty()).collect()
    }

    /// `Set-Cookie` adding `nonce` to those the request holds, kept `max_age` seconds.
    pub(super) fn add(self, parts: &Parts, nonce: &str, max_age: u64) -> String {
        let mut nonces = self.nonces(parts);
        nonces.retain(|held| *held != nonce);
        nonces.push(nonce);
        let oldest_kept = nonces.len().saturating_sub(NONCES);
        self.0.set(&nonces[oldest_kept..].join("."), Some(max_age))
    }

    /// The nonce a new flow of this browser's is bound to, and the `Set-Cookie` keeping the
    /// cookie `max_age` seconds more (as long as that flow may live): the newest nonce the
    /// browser holds, or `fresh` when it holds none. Nothing is pushed out, so flows started
    /// by navigations another site forces on the browser (top-level `GET`s carry `SameSite=Lax`
    /// cookies) cannot evict the one under way; they share its nonce, which only this browser
    /// has. Each flow's `state` stays its own, single use.
    pub(super) fn shared(self, parts: &Parts, fresh: String, max_age: u64) -> (String, String) {
        let mut nonces = self.nonces(parts);
        let oldest_kept = nonces.len().saturating_sub(NONCES);
        nonces.drain(..oldest_kept);
        let nonce = match nonces.last() {
            Some(newest) => (*newest).to_owned(),
            None => {
                nonces.push(&fresh);
                fresh.clone()
            }
        };
        (nonce, self.0.set(&nonces.join("."), Some(max_age)))
    }

    /// `Set-Cookie` removing `nonce` (the flow it started has ended), the others kept
    /// `max_age` seconds (as long as a flow may live), or clearing the cookie when it was the
    /// last.
    pub(super) fn remove(self, parts: &Parts, nonce: &str, max_age: u64) -> String {
        let mut nonces = self.nonces(parts);
        nonces.retain(|held| *held != nonce);
        if nonces.is_empty() {
            return self.0.set("", Some(0));
        }
        self.0.set(&nonces.join("."), Some(max_age))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::header;

    fn parts(cookie: &str) -> Parts {
        let request = http::Request::get("/").header(header::COOKIE, cookie);
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn a_nonce_cookie_keeps_the_flows_under_way_and_drops_the_oldest() {
        let cookie = NonceCookie(RouteCookie::new("n", "__Host-n", false));
        assert_eq!(
            cookie.add(&parts(""), "a", 60),
            "n=a; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"
        );
        assert_eq!(
            cookie.add(&parts("n=a.b.c.d"), "e", 60),
            "n=b.c.d.e; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"
        );
        assert_eq!(cookie.nonces(&parts("other=x; n=a..b")), ["a", "b"]);
        // A flow shares the newest nonce the browser holds; a fresh one only when it has none.
        assert_eq!(
            cookie.shared(&parts(""), "f".into(), 60),
            (
                "f".to_owned(),
                "n=f; Path=/; HttpOnly; SameSite=Lax; Max-Age=60".to_owned()
            )
        );
        assert_eq!(
            cookie.shared(&parts("n=a.b"), "f".into(), 600),
            (
                "b".to_owned(),
                "n=a.b; Path=/; HttpOnly; SameSite=Lax; Max-Age=600".to_owned()
            )
        );
        assert_eq!(
            cookie.shared(&parts("n=a.b.c.d.e"), "f".into(), 60).1,
            "n=b.c.d.e; Path=/; HttpOnly; SameSite=Lax; Max-Age=60",
            "a cookie longer than any we set is cut"
        );
        assert_eq!(
            cookie.remove(&parts("n=a.b"), "a", 600),
            "n=b; Path=/; HttpOnly; SameSite=Lax; Max-Age=600"
        );
        assert_eq!(
            cookie.remove(&parts("n=a"), "a", 600),
            "n=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"
        );
    }
}
