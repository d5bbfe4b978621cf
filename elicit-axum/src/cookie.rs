//! The route's own cookies (the OAuth and sign-in nonces, the local browser's claim): one shape
//! for all.
//! Over https a cookie is `__Host-` and `Secure` (this origin only, never sent in clear); on an
//! `http://` loopback origin, for development, it has its plain name, which browsers keep
//! there. Always `Path=/`, `HttpOnly` and `SameSite=Lax` (sent on the top-level navigation
//! back from a provider, never readable by script).

use http::header;
use http::request::Parts;

/// A cookie of the route's, by its base name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RouteCookie {
    name: &'static str,
    host_name: &'static str,
    secure: bool,
}

impl RouteCookie {
    /// The cookie `name` (`host_name` is the same with `__Host-` in front), secure or not.
    pub(crate) const fn new(name: &'static str, host_name: &'static str, secure: bool) -> Self {
        RouteCookie {
            name,
            host_name,
            secure,
        }
    }

    fn name(self) -> &'static str {
        if self.secure {
            self.host_name
        } else {
            self.name
        }
    }

    /// `Set-Cookie` for `value`, kept `max_age` seconds (`None`: for the browser's session;
    /// `Some(0)`: cleared).
    pub(crate) fn set(self, value: &str, max_age: Option<u64>) -> String {
        let max_age = max_age.map_or(String::new(), |secs| format!("; Max-Age={secs}"));
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{}={value}; Path=/; HttpOnly; SameSite=Lax{max_age}{secure}",
            self.name()
        )
    }

    /// The value the request's cookies carry, if not empty.
    pub(crate) fn read(self, parts: &Parts) -> Option<&str> {
        let name = self.name();
        parts
            .headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|cookies| cookies.split(';'))
            .find_map(|cookie| {
                let (key, value) = cookie.trim().split_once('=')?;
                (key == name && !value.is_empty()).then_some(value)
            })
    }
}

#[cfg(feature = "oauth")]
/// The most nonces one cookie keeps: flows one browser has under way at once (a GitHub and a
/// Google connection, two links opened before signing in); the oldest goes first.
const NONCES: usize = 4;

#[cfg(feature = "oauth")]
/// A cookie holding the nonces of the flows a browser started and has not finished, separated
/// by `.` (which no nonce has: they are base64url).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NonceCookie(pub(crate) RouteCookie);

#[cfg(feature = "oauth")]
impl NonceCookie {
    /// The nonces the request's cookie holds, oldest first.
    pub(crate) fn nonces(self, parts: &Parts) -> Vec<&str> {
        let held = self.0.read(parts).unwrap_or_default().split('.');
        held.filter(|nonce| !nonce.is_empty()).collect()
    }

    /// `Set-Cookie` adding `nonce` to those the request holds, kept `max_age` seconds.
    pub(crate) fn add(self, parts: &Parts, nonce: &str, max_age: u64) -> String {
        let mut nonces = self.nonces(parts);
        nonces.retain(|held| *held != nonce);
        let keep = nonces.len().saturating_sub(NONCES - 1);
        let mut value = nonces[keep..].join(".");
        if !value.is_empty() {
            value.push('.');
        }
        value.push_str(nonce);
        self.0.set(&value, Some(max_age))
    }

    /// `Set-Cookie` removing `nonce` (the flow it started has ended), the others kept
    /// `max_age` seconds (as long as a flow may live), or clearing the cookie when it was the
    /// last.
    pub(crate) fn remove(self, parts: &Parts, nonce: &str, max_age: u64) -> String {
        let mut nonces = self.nonces(parts);
        nonces.retain(|held| *held != nonce);
        if nonces.is_empty() {
            return self.0.set("", Some(0));
        }
        self.0.set(&nonces.join("."), Some(max_age))
    }
}

#[cfg(all(test, feature = "oauth"))]
mod tests {
    use super::*;

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
