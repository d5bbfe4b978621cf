//! The cookie that ties a callback to the browser that started its flow: the nonces of the
//! flows a browser has under way, and the check of a sealed `state` against them. An OAuth
//! connection, started only by the page's own confirmed `POST`, adds a nonce of its own
//! ([`NonceCookie::add`]); a flow any `GET` starts (a sign-in, which another site's forced
//! navigations start too) shares one ([`NonceCookie::shared`]).

use http::request::Parts;

use crate::cookie::RouteCookie;
use elicit_runtime::state::{Binding, StateSealer};

/// The most nonces one cookie keeps: connections one browser has under way at once (a GitHub
/// and a Google connection, two links confirmed in two tabs); the oldest goes first.
const NONCES: usize = 4;

/// A cookie holding the nonces of the flows a browser started and has not finished (up to
/// four, separated by `.`, which no nonce has: they are base64url): what makes a provider's
/// callback work only in the browser that was sent there (login CSRF), for
/// [`OAuth`](super::OAuth) and elicit-axum-auth's sign-in (`crate::__private`). Seal each flow's `state` to one of its nonces
/// ([`shared`](Self::shared)); on the way back, [`redeem`](Self::redeem) opens it only with a
/// nonce this browser holds, and only once.
///
/// ```
/// use axum::http::Request;
/// use elicit_axum::__private::{NonceCookie, RouteCookie};
///
/// let cookie = NonceCookie::new(RouteCookie::new("app_signin", "__Host-app_signin", false));
/// let browser = Request::get("/").header("cookie", "app_signin=n1").body(()).unwrap();
/// // A flow this browser starts shares the nonce it holds.
/// let (nonce, set_cookie) = cookie.shared(&browser.into_parts().0, "fresh".into(), 600);
/// assert_eq!(nonce, "n1");
/// assert_eq!(set_cookie, "app_signin=n1; Path=/; HttpOnly; SameSite=Lax; Max-Age=600");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct NonceCookie(RouteCookie);

impl NonceCookie {
    /// The nonces of a browser's flows, in `cookie`.
    ///
    /// ```
    /// # use elicit_axum::__private::{NonceCookie, RouteCookie};
    /// let cookie = NonceCookie::new(RouteCookie::new("app_signin", "__Host-app_signin", true));
    /// # let _ = cookie;
    /// ```
    pub const fn new(cookie: RouteCookie) -> Self {
        NonceCookie(cookie)
    }

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
    /// browser holds, or `fresh` (a random base64url token) when it holds none. Nothing is
    /// pushed out, so flows started by navigations another site forces on the browser
    /// (top-level `GET`s carry `SameSite=Lax` cookies) cannot evict the one under way; they
    /// share its nonce, which only this browser has. Each flow's `state` stays its own, single
    /// use.
    ///
    /// ```
    /// # use elicit_axum::__private::{NonceCookie, RouteCookie};
    /// let cookie = NonceCookie::new(RouteCookie::new("n", "__Host-n", false));
    /// let (parts, ()) = axum::http::Request::get("/").body(()).unwrap().into_parts();
    /// assert_eq!(cookie.shared(&parts, "f".into(), 60).0, "f");
    /// ```
    pub fn shared(self, parts: &Parts, fresh: String, max_age: u64) -> (String, String) {
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

impl NonceCookie {
    /// The payload of `state` and the nonce it was bound to, if `binding` of one of the nonces
    /// this browser's cookie holds opens it (sealed by `sealer`, unexpired) and it was not
    /// used before (the sealer's replay guard: it is spent now); else why not, for the log.
    /// The check of every callback that must come back to the browser that started its flow.
    ///
    /// ```
    /// use elicit_axum::__private::{NonceCookie, RouteCookie};
    /// use elicit_runtime::state::{Binding, KeyRing, StateSealer, args_digest};
    ///
    /// let sealer = StateSealer::new(KeyRing::generate(), "app");
    /// let bound = |nonce: &str| Binding {
    ///     method: "app/signin",
    ///     target: "issuer",
    ///     args_digest: args_digest(&serde_json::json!(nonce)),
    ///     principal: None,
    /// };
    /// let state = sealer.seal_now(&bound("n1"), &"/back")?;
    /// let cookie = NonceCookie::new(RouteCookie::new("n", "__Host-n", false));
    /// let redeem = |held: &str| {
    ///     let request = axum::http::Request::get("/").header("cookie", held).body(()).unwrap();
    ///     let parts = request.into_parts().0;
    ///     let opened = pollster::block_on(cookie.redeem::<String>(&parts, &sealer, &state, bound));
    ///     opened.map(|(next, nonce)| (next, nonce.to_owned()))
    /// };
    /// assert!(redeem("n=other").is_err(), "another browser");
    /// assert_eq!(redeem("n=other.n1")?, ("/back".to_owned(), "n1".to_owned()));
    /// assert!(redeem("n=n1").is_err(), "once");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn redeem<'a, 'p, P: serde::de::DeserializeOwned>(
        self,
        parts: &'p Parts,
        sealer: &StateSealer,
        state: &str,
        binding: impl Fn(&str) -> Binding<'a>,
    ) -> Result<(P, &'p str), String> {
        let mut refused = "no nonce cookie".to_owned();
        for nonce in self.nonces(parts) {
            match sealer.open_now::<P>(state, &binding(nonce)) {
                Ok(opened) => {
                    sealer
                        .redeem(&opened, std::time::SystemTime::now())
                        .await
                        .map_err(|e| e.reason().to_owned())?;
                    return Ok((opened.payload, nonce));
                }
                Err(e) => refused = e.reason().to_owned(),
            }
        }
        Err(refused)
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
        let cookie = NonceCookie::new(RouteCookie::new("n", "__Host-n", false));
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
