//! Which `POST`s come from the route's own page: a cross-site request is refused (403) before
//! anything is looked up or recorded.
//!
//! The rules, in order:
//!
//! * `Sec-Fetch-Site` (sent by every current browser, and not settable by a page's script):
//!   present, it must be `same-origin`. `cross-site`, `same-site` (a sibling subdomain or
//!   another port of the same host) and `none` (typed in, a bookmark: not a form of ours)
//!   are refused.
//! * `Origin`: present, it must be the route's own origin: one configured with
//!   [`LandingRoute::with_origin`](super::LandingRoute::with_origin), or, when none is, the
//!   request's own `Host` (scheme's default port ignored). `Origin: null` (an opaque origin:
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

/// Whether `origin` is one of `origins`, or (none configured) the request's own host.
fn is_own(parts: &Parts, origins: &[String], origin: &str) -> bool {
    if !origins.is_empty() {
        return origins.iter().any(|own| own.eq_ignore_ascii_case(origin));
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
    use super::check;
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

    #[test]
    fn neither_header_is_refused_and_reasons_quote_the_header() {
        assert!(!own(&[("host", "app.example.com")]));
        let reason = check(&parts(&[("sec-fetch-site", "cross-site")]), &[]).unwrap_err();
        assert_eq!(reason, r#"Sec-Fetch-Site is "cross-site""#);
    }
}
