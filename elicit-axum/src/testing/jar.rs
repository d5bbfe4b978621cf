//! The test browser's cookies, kept as a browser keeps them: by host (any port), path, `Secure`
//! (only on a secure context: https or loopback), the `__Host-` and `__Secure-` prefixes, and
//! `SameSite` (`Strict` only in a same-site context, `Lax` also on a cross-site top-level
//! `GET`, `None` always, which needs `Secure`). `Max-Age=0` removes a cookie; `Expires` is not
//! read (the cookie lasts the browser's session).

use super::address::Address;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SameSite {
    Strict,
    Lax,
    None,
}

#[derive(Debug, Clone)]
struct Cookie {
    name: String,
    value: String,
    /// The host it was set by (host-only), or the `Domain` it names (it and its subdomains).
    host: String,
    host_only: bool,
    path: String,
    secure: bool,
    same_site: SameSite,
}

/// Every cookie the browser holds.
#[derive(Debug, Default)]
pub(super) struct Jar(Vec<Cookie>);

/// The context a request is sent in, as cookies see it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Context {
    /// The request's initiator and redirects are all of the target's site.
    pub(super) same_site: bool,
    /// A top-level navigation by `GET` (a link opened, a redirect followed, a `GET` form).
    pub(super) top_level_get: bool,
}

impl Jar {
    /// Keeps the cookie of one `Set-Cookie` header `to` answered with, if a browser would.
    pub(super) fn set(&mut self, to: &Address, header: &str) {
        let mut parts = header.split(';');
        let Some((name, value)) = parts.next().and_then(|p| p.split_once('=')) else {
            return;
        };
        let (name, value) = (name.trim().to_owned(), value.trim().to_owned());
        if name.is_empty() {
            return;
        }
        let mut cookie = Cookie {
            name,
            value,
            host: to.host.clone(),
            host_only: true,
            path: default_path(to),
            secure: false,
            same_site: SameSite::Lax,
        };
        let mut remove = false;
        for attribute in parts {
            let (key, value) = attribute.split_once('=').unwrap_or((attribute, ""));
            let value = value.trim();
            match key.trim().to_ascii_lowercase().as_str() {
                "max-age" => remove = value.parse::<i64>().is_ok_and(|age| age <= 0),
                "path" if value.starts_with('/') => cookie.path = value.to_owned(),
                "domain" if !value.is_empty() => {
                    let domain = value.trim_start_matches('.').to_ascii_lowercase();
                    // A domain the host is not in is refused, as a browser refuses it.
                    if to.host != domain && !to.host.ends_with(&format!(".{domain}")) {
                        return;
                    }
                    cookie.host = domain;
                    cookie.host_only = false;
                }
                "secure" => cookie.secure = true,
                "samesite" => {
                    cookie.same_site = match value.to_ascii_lowercase().as_str() {
                        "strict" => SameSite::Strict,
                        "none" => SameSite::None,
                        _ => SameSite::Lax,
                    }
                }
                _ => {}
            }
        }
        // `Secure` only from a secure context; `SameSite=None` and `__Secure-` need `Secure`;
        // `__Host-` also needs this host only and `Path=/`.
        let needs_secure = cookie.same_site == SameSite::None
            || cookie.name.starts_with("__Secure-")
            || cookie.name.starts_with("__Host-");
        let host_prefix_broken =
            cookie.name.starts_with("__Host-") && !(cookie.host_only && cookie.path == "/");
        let refused = if cookie.secure {
            !to.secure() || host_prefix_broken
        } else {
            needs_secure
        };
        if refused {
            return;
        }
        self.0
            .retain(|c| !(c.name == cookie.name && c.host == cookie.host && c.path == cookie.path));
        if !remove {
            self.0.push(cookie);
        }
    }

    /// The `Cookie` header for a request to `to` in `context`, if any cookie goes.
    pub(super) fn header(&self, to: &Address, context: Context) -> Option<String> {
        let sent: Vec<String> = self
            .0
            .iter()
            .filter(|c| {
                let host = if c.host_only {
                    to.host == c.host
                } else {
                    to.host == c.host || to.host.ends_with(&format!(".{}", c.host))
                };
                let path = to.path() == c.path
                    || to
                        .path()
                        .starts_with(&format!("{}/", c.path.trim_end_matches('/')));
                let same_site = match c.same_site {
                    SameSite::Strict => context.same_site,
                    SameSite::Lax => context.same_site || context.top_level_get,
                    SameSite::None => true,
                };
                host && path && (!c.secure || to.secure()) && same_site
            })
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        (!sent.is_empty()).then(|| sent.join("; "))
    }

    /// Adds a cookie as if `to` had set it (`name=value; attributes`).
    pub(super) fn preset(&mut self, to: &Address, cookie: &str) {
        self.set(to, cookie);
    }

    /// The value of the cookie `name` a request to `to` would carry in a same-site context.
    pub(super) fn value(&self, to: &Address, name: &str) -> Option<String> {
        let all = self.header(
            to,
            Context {
                same_site: true,
                top_level_get: true,
            },
        )?;
        all.split("; ").find_map(|c| {
            let (n, v) = c.split_once('=')?;
            (n == name).then(|| v.to_owned())
        })
    }
}

/// The default path of a cookie set by a response to `to`: its path up to the last `/`.
fn default_path(to: &Address) -> String {
    let path = to.path();
    match path.rfind('/') {
        Some(0) | None => "/".to_owned(),
        Some(at) => path[..at].to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Address, Context, Jar};

    const SAME: Context = Context {
        same_site: true,
        top_level_get: false,
    };
    const CROSS_GET: Context = Context {
        same_site: false,
        top_level_get: true,
    };
    const CROSS_POST: Context = Context {
        same_site: false,
        top_level_get: false,
    };

    #[test]
    fn keeps_cookies_as_a_browser_does() {
        let app = Address::parse("https://app.example.com/connect?e=1").unwrap();
        let plain = Address::parse("http://app.example.com/").unwrap();
        let mut jar = Jar::default();
        jar.set(&app, "__Host-a=1; Path=/; HttpOnly; SameSite=Lax; Secure");
        jar.set(&app, "__Host-bad=1; Path=/");
        jar.set(&app, "s=2; Path=/; SameSite=Strict");
        jar.set(&app, "n=3; Path=/; SameSite=None");
        assert_eq!(jar.header(&app, SAME).as_deref(), Some("__Host-a=1; s=2"));
        assert_eq!(jar.header(&app, CROSS_GET).as_deref(), Some("__Host-a=1"));
        assert_eq!(jar.header(&app, CROSS_POST), None);
        // Secure cookies never go over plain http.
        assert_eq!(jar.header(&plain, SAME).as_deref(), Some("s=2"));
        // Max-Age=0 removes; any port of the host gets them.
        jar.set(&app, "s=; Path=/; Max-Age=0");
        let other_port = Address::parse("https://app.example.com:8443/x").unwrap();
        assert_eq!(jar.header(&other_port, SAME).as_deref(), Some("__Host-a=1"));
        let loopback = Address::parse("http://127.0.0.1:9/").unwrap();
        jar.set(
            &loopback,
            "elicit_browser=x; Path=/; HttpOnly; SameSite=Lax",
        );
        assert_eq!(jar.value(&loopback, "elicit_browser").as_deref(), Some("x"));
    }
}
