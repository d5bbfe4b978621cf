//! The route's own cookies (the OAuth nonces, the local browser's claim, a sign-in's): one
//! shape for all.
//! Over https a cookie is `__Host-` and `Secure` (this origin only, never sent in clear); on an
//! `http://` loopback origin, for development, it has its plain name, which browsers keep
//! there. Always `Path=/`, `HttpOnly` and `SameSite=Lax` (sent on the top-level navigation
//! back from a provider, never readable by script).

use http::header;
use http::request::Parts;

/// A cookie of this origin's pages, by its base name: over https `__Host-` and `Secure` (this
/// origin only, never sent in clear), on an `http://` loopback origin its plain name (which
/// browsers keep there); always `Path=/`, `HttpOnly` and `SameSite=Lax` (sent on the top-level
/// navigation back from a provider, never readable by script). The landing route's own
/// cookies, and elicit-axum-auth's sign-in's ([`__private`](crate::__private)).
///
/// ```
/// use axum::http::Request;
/// use elicit_axum::__private::RouteCookie;
///
/// let session = RouteCookie::new("app_session", "__Host-app_session", true);
/// assert_eq!(
///     session.set("abc", Some(3600)),
///     "__Host-app_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure"
/// );
/// let request = Request::get("/").header("cookie", "a=1; __Host-app_session=abc").body(()).unwrap();
/// assert_eq!(session.read(&request.into_parts().0), Some("abc"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RouteCookie {
    name: &'static str,
    host_name: &'static str,
    secure: bool,
}

impl RouteCookie {
    /// The cookie `name` (`host_name` is the same with `__Host-` in front), secure (its page is
    /// served over https) or not.
    ///
    /// ```
    /// let dev = elicit_axum::__private::RouteCookie::new("app_session", "__Host-app_session", false);
    /// assert_eq!(dev.set("", Some(0)), "app_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    /// ```
    pub const fn new(name: &'static str, host_name: &'static str, secure: bool) -> Self {
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
    ///
    /// ```
    /// let cookie = elicit_axum::__private::RouteCookie::new("n", "__Host-n", false);
    /// assert_eq!(cookie.set("v", None), "n=v; Path=/; HttpOnly; SameSite=Lax");
    /// ```
    pub fn set(self, value: &str, max_age: Option<u64>) -> String {
        let max_age = max_age.map_or(String::new(), |secs| format!("; Max-Age={secs}"));
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{}={value}; Path=/; HttpOnly; SameSite=Lax{max_age}{secure}",
            self.name()
        )
    }

    /// The value the request's cookies carry, if not empty.
    ///
    /// ```
    /// use axum::http::Request;
    ///
    /// let cookie = elicit_axum::__private::RouteCookie::new("n", "__Host-n", false);
    /// let request = Request::get("/").header("cookie", "n=").body(()).unwrap();
    /// assert_eq!(cookie.read(&request.into_parts().0), None);
    /// ```
    pub fn read(self, parts: &Parts) -> Option<&str> {
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
