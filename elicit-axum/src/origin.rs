//! Which requests are for the route's own host, and which `POST`s come from the route's own
//! page: a request for another host is refused (the uniform 404) and a cross-site `POST`
//! (403), before anything is looked up or recorded.
//!
//! The host, for every method: when the route has an origin (the server's
//! [`UrlSettings::with_origin`](elicit_runtime::url::UrlSettings::with_origin), the links' origin, or
//! one set with [`LandingRoute::with_origin`](super::LandingRoute::with_origin)), the request's
//! `Host` (and the URI's authority, when it has one, as HTTP/2 sends it) must be one of those
//! origins' (the scheme's default port implied; `localhost`, `127.0.0.1` and `[::1]` stand for
//! one another with the same port). A missing, doubled or malformed `Host` is refused. This is
//! what stops DNS rebinding: an attacker's name resolving to the server's address loads the
//! page under the attacker's origin, where the browser lets the attacker's script read it and
//! post its form with `Sec-Fetch-Site: same-origin`; the `Host` it sends is the attacker's
//! name. Without any origin the route serves only this machine's loopback names
//! (`localhost`, `127.0.0.1`, `[::1]`, on any port): what a local server's page is opened
//! under, and a name no other site's page can have.
//!
//! Then, for a `POST`, in order:
//!
//! * `Sec-Fetch-Site` (sent by every current browser, and not settable by a page's script):
//!   present, it must be `same-origin`. `cross-site`, `same-site` (a sibling subdomain or
//!   another port of the same host) and `none` (typed in, a bookmark: not a form of ours)
//!   are refused.
//! * `Origin`: present, it must be the route's own origin: one of its origins (as above, the
//!   same loopback names standing for one another), or, when it has none, the request's own
//!   `Host` (scheme's default port ignored). `Origin: null` (an opaque origin:
//!   a sandboxed frame, a `data:` page; and what a browser sends for a same-origin form posted
//!   from a page with `Referrer-Policy: no-referrer`, which ours is) passes only with
//!   `Sec-Fetch-Site: same-origin`.
//! * Neither header: refused. Browsers send at least one on every `POST`; a request with
//!   neither is a script or an old client, which has no business confirming a user's flow
//!   (and carries no victim's cookies): send `Origin` from a script.
//!
//! The CSRF token is required on top of this; each check alone stops a cross-site post.

use http::header;
use http::request::Parts;

/// Why the request is refused as cross-site, for the log (it quotes header values as sent:
/// the caller escapes it); `Ok` if it comes from the route's own origin.
pub(super) fn check(parts: &Parts, origins: &[String]) -> Result<(), String> {
    let site = header_str(parts, "sec-fetch-site")?;
    let origin = header_str(parts, header::ORIGIN.as_str())?;
    let same_origin = match site {
        Some(site) if site.eq_ignore_ascii_case("same-origin") => true,
        Some(site) => return Err(format!("Sec-Fetch-Site is \"{site}\"")),
        None => false,
    };
    match origin {
        Some("null") if same_origin => Ok(()),
        Some(origin) if is_own(parts, origins, origin) => Ok(()),
        Some(origin) => Err(format!("Origin \"{origin}\" is not the route's own")),
        None if same_origin => Ok(()),
        None => Err("neither Sec-Fetch-Site nor Origin: not a browser form".to_owned()),
    }
}

/// The header's value as text (`Err` if it is there twice or not text).
fn header_str<'a>(parts: &'a Parts, name: &str) -> Result<Option<&'a str>, String> {
    let mut values = parts.headers.get_all(name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(format!("{name} appears more than once"));
    }
    value
        .to_str()
        .map(|v| Some(v.trim()))
        .map_err(|_| format!("{name} is not visible ASCII"))
}

/// Why the request is refused as one for another host (for the log; it quotes the header as
/// sent: the caller escapes it); `Ok` if its host is one of `origins`', or, when there are
/// none, a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port).
pub(super) fn check_host(parts: &Parts, origins: &[String]) -> Result<(), String> {
    let header = header_str(parts, header::HOST.as_str())?;
    let authority = parts.uri.authority().map(|a| a.as_str());
    if header.is_none() && authority.is_none() {
        return Err("no Host".to_owned());
    }
    for host in header.into_iter().chain(authority) {
        let own = if origins.is_empty() {
            // No origin to compare with: only this machine's own names, which no other site's
            // page can be served under (a rebound name is the attacker's).
            authority_of(host, 80).is_some_and(|(host, _)| is_loopback(&host))
        } else {
            origins.iter().filter_map(|o| Own::parse(o)).any(|own| {
                authority_of(host, own.default_port)
                    .is_some_and(|(host, port)| own.serves(&host, port))
            })
        };
        if !own && origins.is_empty() {
            return Err(format!(
                "Host \"{host}\" is not a loopback name, the only hosts a route without an origin serves (UrlSettings::with_origin, LandingRoute::with_origin)"
            ));
        }
        if !own {
            return Err(format!("Host \"{host}\" is not a host the route serves"));
        }
    }
    Ok(())
}

/// A configured origin: its scheme, host (lowercased) and port (the scheme's default when
/// absent).
struct Own {
    scheme: String,
    host: String,
    port: u16,
    /// The scheme's default port: what a `Host` without a port means.
    default_port: u16,
}

impl Own {
    /// `scheme://host[:port]` with an `http` or `https` scheme; `None` for anything else.
    fn parse(origin: &str) -> Option<Own> {
        let (scheme, authority) = origin.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let (host, port) = authority_of(authority, default)?;
        Some(Own {
            scheme,
            host,
            port,
            default_port: default,
        })
    }

    /// Whether `host:port` is this origin's (the loopback names stand for one another).
    fn serves(&self, host: &str, port: u16) -> bool {
        port == self.port && (host == self.host || (is_loopback(host) && is_loopback(&self.host)))
    }

    /// Whether `origin` (as a browser sends it in `Origin`) is this one.
    fn is(&self, origin: &str) -> bool {
        Own::parse(origin).is_some_and(|o| o.scheme == self.scheme && self.serves(&o.host, o.port))
    }
}

/// `host[:port]` (a `Host` header, an origin's authority) as its host, lowercased, and port
/// (`default` when absent); `None` if it is not one: empty, user info, a path, a port that is
/// not digits, an unbracketed IPv6 address.
fn authority_of(authority: &str, default: u16) -> Option<(String, u16)> {
    let authority = authority.trim();
    if authority.is_empty()
        || !authority
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-_:[]".contains(&b))
    {
        return None;
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => {
            if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (host, port.parse().ok()?)
        }
        _ => (authority, default),
    };
    let bracketed = host.starts_with('[') && host.ends_with(']') && host.len() > 2;
    if host.is_empty() || (!bracketed && host.contains([':', '[', ']'])) {
        return None;
    }
    Some((host.to_ascii_lowercase(), port))
}

/// Whether `url`'s origin is `https`, or `http` on a loopback host (an endpoint or callback of
/// the `oauth` module); `false` for anything that is no `http(s)://host[:port]…` URL.
#[cfg(feature = "oauth")]
pub(crate) fn is_secure_or_loopback(url: &str) -> bool {
    let authority_end = url.split_once("://").map_or(0, |(scheme, rest)| {
        scheme.len() + 3 + rest.find(['/', '?', '#']).unwrap_or(rest.len())
    });
    Own::parse(&url[..authority_end])
        .is_some_and(|own| own.scheme == "https" || is_loopback(&own.host))
}

/// Whether `host` (lowercased) names this machine's loopback interface.
fn is_loopback(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// Whether `origin` is one of `origins`, or (none configured) the request's own host.
fn is_own(parts: &Parts, origins: &[String], origin: &str) -> bool {
    if !origins.is_empty() {
        return origins
            .iter()
            .filter_map(|own| Own::parse(own))
            .any(|own| own.is(origin));
    }
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let host = parts
        .headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| parts.uri.authority().map(|a| a.as_str()));
    let Some(host) = host else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return false,
    };
    let bare = |a: &str| {
        a.strip_suffix(default_port)
            .unwrap_or(a)
            .to_ascii_lowercase()
    };
    !authority.contains(['/', '@']) && bare(authority) == bare(host.trim())
}

#[cfg(test)]
mod tests {
    use super::{check, check_host};
    use http::Request;

    fn parts(headers: &[(&str, &str)]) -> http::request::Parts {
        let mut request = Request::post("/connect?elicitation=x");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn own(headers: &[(&str, &str)]) -> bool {
        check(&parts(headers), &[]).is_ok()
    }

    #[test]
    fn sec_fetch_site_must_be_same_origin() {
        let host = ("host", "app.example.com");
        assert!(own(&[host, ("sec-fetch-site", "same-origin")]));
        assert!(own(&[host, ("sec-fetch-site", "Same-Origin")]));
        for site in ["cross-site", "same-site", "none", "", "x"] {
            assert!(!own(&[host, ("sec-fetch-site", site)]), "{site}");
        }
        assert!(!own(&[
            host,
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-site", "same-origin")
        ]));
    }

    #[test]
    fn origin_must_be_the_hosts_or_a_configured_one() {
        let host = ("host", "app.example.com");
        assert!(own(&[host, ("origin", "https://app.example.com")]));
        assert!(own(&[host, ("origin", "http://APP.example.com")]));
        assert!(own(&[
            ("host", "app.example.com:443"),
            ("origin", "https://app.example.com")
        ]));
        assert!(own(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ]));
        for foreign in [
            "https://evil.example",
            "http://127.0.0.1:8081",
            "https://app.example.com.evil.example",
            "https://evil@app.example.com",
            "ftp://app.example.com",
            "app.example.com",
            "null",
        ] {
            assert!(!own(&[host, ("origin", foreign)]), "{foreign}");
        }
        // A same-origin form from a `no-referrer` page says `Origin: null`.
        assert!(own(&[
            host,
            ("origin", "null"),
            ("sec-fetch-site", "same-origin")
        ]));
        // Both must hold.
        assert!(!own(&[
            host,
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "same-origin")
        ]));
        // Configured origins replace the host.
        let configured = ["https://app.example.com".to_owned()];
        let behind_proxy = parts(&[
            ("host", "10.0.0.7:8080"),
            ("origin", "https://app.example.com"),
        ]);
        assert!(check(&behind_proxy, &configured).is_ok());
        assert!(check(&behind_proxy, &[]).is_err());
        let http = parts(&[
            ("host", "app.example.com"),
            ("origin", "http://app.example.com"),
        ]);
        assert!(check(&http, &configured).is_err());
    }

    fn host_parts(hosts: &[&str], uri: &str) -> http::request::Parts {
        let mut request = Request::get(uri);
        for host in hosts {
            request = request.header("host", *host);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn host_ok(origins: &[&str], hosts: &[&str]) -> bool {
        let origins: Vec<String> = origins.iter().map(|o| (*o).to_owned()).collect();
        check_host(&host_parts(hosts, "/connect?elicitation=x"), &origins).is_ok()
    }

    /// With an origin, the `Host` must be its host (DNS rebinding sends the
    /// attacker's name); loopback development keeps working.
    #[test]
    fn host_must_be_the_origins_when_the_route_has_one() {
        let app = ["https://app.example.com"];
        assert!(host_ok(&app, &["app.example.com"]));
        assert!(host_ok(&app, &["APP.example.com"]));
        assert!(host_ok(&app, &["app.example.com:443"]));
        for foreign in [
            "attacker.example",
            "app.example.com:8443",
            "app.example.com:80",
            "app.example.com.attacker.example",
            "evil@app.example.com",
            "app.example.com/x",
            "app.example.com:",
            "app.example.com:+443",
            "app.example.com.",
            "",
            "127.0.0.1",
        ] {
            assert!(!host_ok(&app, &[foreign]), "{foreign:?}");
        }
        assert!(!host_ok(&app, &[]), "no Host");
        assert!(
            !host_ok(&app, &["app.example.com", "app.example.com"]),
            "twice"
        );
        // Several origins: any of them.
        let two = ["https://app.example.com", "http://10.0.0.7:8080"];
        assert!(host_ok(&two, &["10.0.0.7:8080"]));
        assert!(!host_ok(&two, &["10.0.0.7"]));
        // Loopback development: the port must match, the loopback name may differ.
        let dev = ["http://127.0.0.1:8080"];
        for own in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(host_ok(&dev, &[own]), "{own}");
        }
        for foreign in [
            "127.0.0.1:8081",
            "127.0.0.1",
            "attacker.example:8080",
            "::1:8080",
        ] {
            assert!(!host_ok(&dev, &[foreign]), "{foreign}");
        }
        assert!(host_ok(&["http://localhost:3000"], &["127.0.0.1:3000"]));
        assert!(host_ok(&["http://[::1]:3000"], &["[::1]:3000"]));
        // A malformed configured origin serves no host: fail closed.
        assert!(!host_ok(&["app.example.com"], &["app.example.com"]));
        // An absolute URI's authority (HTTP/2's `:authority`) is checked too.
        let origins = ["https://app.example.com".to_owned()];
        let absolute = |hosts: &[&str]| {
            let parts = host_parts(hosts, "https://attacker.example/connect");
            check_host(&parts, &origins)
        };
        assert!(absolute(&[]).is_err());
        assert!(absolute(&["app.example.com"]).is_err());
        let parts = host_parts(&[], "https://app.example.com/connect");
        assert!(check_host(&parts, &origins).is_ok());
        // The reason quotes the header.
        let reason = check_host(&host_parts(&["attacker.example"], "/"), &origins);
        assert_eq!(
            reason.unwrap_err(),
            r#"Host "attacker.example" is not a host the route serves"#
        );
    }

    /// Without an origin the route cannot tell its own host: it serves only this machine's
    /// loopback names, so a name an attacker rebinds to the server's address is refused.
    #[test]
    fn without_an_origin_only_loopback_hosts_are_served() {
        for own in ["127.0.0.1:8080", "localhost", "LocalHost:3000", "[::1]:9"] {
            assert!(host_ok(&[], &[own]), "{own}");
        }
        for foreign in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "127.0.0.2:8080",
            "0x7f.1",
            "::1",
            "",
        ] {
            assert!(!host_ok(&[], &[foreign]), "{foreign:?}");
        }
        assert!(!host_ok(&[], &[]), "no Host");
        let rebound = host_parts(&[], "http://evil.example/connect");
        assert!(check_host(&rebound, &[]).is_err());
        // The reason says what to set.
        assert_eq!(
            check_host(&host_parts(&["app.example.com"], "/"), &[]).unwrap_err(),
            "Host \"app.example.com\" is not a loopback name, the only hosts a route without an \
             origin serves (UrlSettings::with_origin, LandingRoute::with_origin)"
        );
    }

    #[test]
    fn a_configured_origin_matches_the_loopback_names_and_default_ports() {
        let configured = ["http://127.0.0.1:8080".to_owned()];
        let post = |origin: &str| {
            let parts = parts(&[("host", "127.0.0.1:8080"), ("origin", origin)]);
            check(&parts, &configured).is_ok()
        };
        assert!(post("http://127.0.0.1:8080"));
        assert!(post("http://localhost:8080"));
        assert!(!post("https://127.0.0.1:8080"));
        assert!(!post("http://127.0.0.1:8081"));
        assert!(!post("http://attacker.example:8080"));
        let configured = ["https://app.example.com".to_owned()];
        let parts = parts(&[
            ("host", "app.example.com"),
            ("origin", "https://app.example.com:443"),
        ]);
        assert!(check(&parts, &configured).is_ok());
    }

    #[test]
    fn neither_header_is_refused_and_reasons_quote_the_header() {
        assert!(!own(&[("host", "app.example.com")]));
        let reason = check(&parts(&[("sec-fetch-site", "cross-site")]), &[]).unwrap_err();
        assert_eq!(reason, r#"Sec-Fetch-Site is "cross-site""#);
    }
}
