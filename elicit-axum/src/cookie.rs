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
