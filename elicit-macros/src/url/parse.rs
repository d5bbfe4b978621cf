//! Just enough of RFC 3986 to check the URL of a URL-mode elicitation at compile time.
//!
//! The `url` crate (the WHATWG parser browsers use) did this before, but it brings `idna` and
//! ICU4X into every user's build for one check on a literal the author wrote. This parser reads
//! the parts the rules in `check` look at and nothing more:
//!
//! ```text
//! scheme ":" [ "//" [ userinfo "@" ] host [ ":" port ] ] path [ "?" query ] [ "#" fragment ]
//! host = "[" IPv6 "]" | dotted-decimal IPv4 | reg-name (ASCII letters, digits, "-", ".", "_", "~")
//! ```
//!
//! It is stricter than a browser where a browser would silently rewrite the address: it refuses
//! whitespace, control and non-ASCII characters anywhere (percent-encode them; write an
//! internationalized host in its `xn--` form), and a host whose last label is a number must be a
//! plain dotted-decimal IPv4 address (`127.1` and `0x7f.0.0.1` are refused, not reinterpreted).
//! The caller has already replaced the `{handle}` placeholder by a plain-letter sentinel, so
//! braces never reach it.

use std::net::{Ipv4Addr, Ipv6Addr};

/// The host of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Host {
    /// A registered name, lowercased.
    Domain(String),
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
}

/// An absolute URL split into the parts the rules check. Texts are as written, not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Url<'a> {
    /// Lowercased.
    pub scheme: String,
    /// `user:password` before `@`, when present (even if empty).
    pub userinfo: Option<&'a str>,
    /// `None` when the URL has no `//authority` (`mailto:…`).
    pub host: Option<Host>,
    pub port: Option<u16>,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
}

impl<'a> Url<'a> {
    /// Parses an absolute URL; the error says what is wrong in a few words.
    pub(super) fn parse(raw: &'a str) -> Result<Self, String> {
        if let Some(c) = raw
            .chars()
            .find(|c| !c.is_ascii() || c.is_ascii_whitespace() || c.is_ascii_control())
        {
            return Err(format!(
                "{c:?} is not allowed in a URL; percent-encode it (and write an internationalized host in its `xn--` form)"
            ));
        }
        let (scheme, rest) = split_scheme(raw).ok_or("relative URL without a base")?;
        let (rest, fragment) = split_off(rest, '#');
        let (rest, query) = split_off(rest, '?');
        let (authority, path) = match rest.strip_prefix("//") {
            Some(rest) => {
                let end = rest.find('/').unwrap_or(rest.len());
                (Some(&rest[..end]), &rest[end..])
            }
            None => (None, rest),
        };
        let (userinfo, host, port) = match authority {
            Some(authority) => {
                let (userinfo, host_port) = match authority.rfind('@') {
                    Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
                    None => (None, authority),
                };
                let (host, port) = host_and_port(host_port)?;
                (userinfo, Some(host), port)
            }
            None => (None, None, None),
        };
        Ok(Url {
            scheme: scheme.to_ascii_lowercase(),
            userinfo,
            host,
            port,
            path,
            query,
            fragment,
        })
    }

    /// The path's segments, percent-decoded; `/a/b` gives `a`, `b`.
    pub(super) fn path_segments(&self) -> impl Iterator<Item = String> + '_ {
        let path = self.path.strip_prefix('/').unwrap_or(self.path);
        path.split('/').map(|s| decode(s, false))
    }

    /// The query's `name=value` pairs, decoded as `application/x-www-form-urlencoded`.
    pub(super) fn query_pairs(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(name, true), decode(value, true))
            })
    }
}

/// `scheme` and what follows its `:`, if `raw` starts with a scheme.
fn split_scheme(raw: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = raw.split_once(':')?;
    let mut bytes = scheme.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
    valid.then_some((scheme, rest))
}

/// `s` before the first `sep`, and what follows it.
fn split_off(s: &str, sep: char) -> (&str, Option<&str>) {
    match s.split_once(sep) {
        Some((before, after)) => (before, Some(after)),
        None => (s, None),
    }
}

fn host_and_port(s: &str) -> Result<(Host, Option<u16>), String> {
    let (host, port) = if let Some(v6) = s.strip_prefix('[') {
        let (literal, rest) = v6.split_once(']').ok_or("unclosed `[` in the host")?;
        let ip = literal
            .parse::<Ipv6Addr>()
            .map_err(|_| format!("`[{literal}]` is not an IPv6 address"))?;
        let port = match rest {
            "" => None,
            _ => Some(rest.strip_prefix(':').ok_or("junk after the IPv6 host")?),
        };
        (Host::Ipv6(ip), port)
    } else {
        let (name, port) = split_off(s, ':');
        (reg_name_or_ipv4(name)?, port)
    };
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().map_err(|_| "port out of range")?)
        }
        Some(p) => return Err(format!("invalid port `{p}`")),
    };
    Ok((host, port))
}

fn reg_name_or_ipv4(name: &str) -> Result<Host, String> {
    if name.is_empty() {
        return Err("empty host".into());
    }
    if let Some(b) = name
        .bytes()
        .find(|b| !(b.is_ascii_alphanumeric() || b"-._~".contains(b)))
    {
        return Err(format!("invalid character `{}` in the host", b as char));
    }
    let last = name.trim_end_matches('.').rsplit('.').next().unwrap_or("");
    if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        return name
            .parse::<Ipv4Addr>()
            .map(Host::Ipv4)
            .map_err(|_| format!("`{name}` is not an IPv4 address"));
    }
    Ok(Host::Domain(name.to_ascii_lowercase()))
}

/// Percent-decodes `s` (and `+` as a space in form-encoded text); invalid UTF-8 is replaced.
fn decode(s: &str, plus_is_space: bool) -> String {
    let mut out = Vec::with_capacity(s.len());
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'%' => {
                let hex = bytes.clone().take(2).collect::<Vec<_>>();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .filter(|h| h.len() == 2 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match value {
                    Some(v) => {
                        out.push(v);
                        bytes.nth(1);
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' if plus_is_space => out.push(b' '),
            _ => out.push(b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
