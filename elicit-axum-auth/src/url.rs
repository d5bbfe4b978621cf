//! The URLs and scope names the check is configured with, checked at start-up.

/// Whether `url`'s origin is `https`, or `http` on a loopback host (`localhost`, `127.0.0.1`,
/// `[::1]`: development); `false` for anything that is no `http(s)://host[:port]…` URL.
pub(crate) fn is_secure_or_loopback(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let Some(host) = host_of(authority) else {
        return false;
    };
    match scheme.to_ascii_lowercase().as_str() {
        "https" => true,
        "http" => matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]"),
        _ => false,
    }
}

/// The lowercased host of `host[:port]` (a bracketed IPv6 address keeps its brackets), if it
/// is one: host characters only, a port of digits.
fn host_of(authority: &str) -> Option<String> {
    if authority.is_empty()
        || !authority
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-_:[]".contains(&b))
    {
        return None;
    }
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => {
            port.parse::<u16>().ok()?;
            host
        }
        _ => authority,
    };
    let bracketed = host.starts_with('[') && host.ends_with(']') && host.len() > 2;
    if host.is_empty() || (!bracketed && host.contains([':', '[', ']'])) {
        return None;
    }
    Some(host.to_ascii_lowercase())
}

/// RFC 6749 §3.3's `scope-token`: `%x21 / %x23-5B / %x5D-7E`, at least one (printable
/// ASCII but space, `"` and `\`).
pub(crate) fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

#[cfg(test)]
mod tests {
    use super::is_secure_or_loopback;

    #[test]
    fn https_anywhere_and_http_on_loopback_only() {
        for good in [
            "https://desk.example.com/mcp",
            "HTTPS://desk.example.com:8443",
            "http://localhost:8765/mcp",
            "http://127.0.0.1/mcp",
            "http://[::1]:80",
        ] {
            assert!(is_secure_or_loopback(good), "{good}");
        }
        for bad in [
            "http://desk.example.com/mcp",
            "http://127.0.0.1.evil.example/mcp",
            "http://localhost:99999",
            "https://",
            "https://a b/",
            "ftp://localhost/",
            "desk.example.com/mcp",
        ] {
            assert!(!is_secure_or_loopback(bad), "{bad}");
        }
    }
}
