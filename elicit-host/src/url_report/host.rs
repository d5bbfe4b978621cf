//! The host of a URL seen as a person would: loopback or not, its registrable domain (the
//! Public Suffix List), its internationalized labels decoded (IDNA), and lookalikes by the
//! Unicode security mechanisms of UTS #39 (mixed script, confusable skeletons).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_security::{MixedScript, skeleton};
use url::Host;

use super::finding::Finding;

/// Whether `host` is this computer: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8, `::1`.
pub(super) fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => {
            let name = name.trim_end_matches('.');
            name == "localhost" || name.ends_with(".localhost")
        }
        Host::Ipv4(ip) => Ipv4Addr::is_loopback(ip),
        Host::Ipv6(ip) => Ipv6Addr::is_loopback(ip),
    }
}

/// Where a host is, seen from the person's computer, by its address alone (names are not
/// resolved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// This computer: `localhost` and `*.localhost`, 127.0.0.0/8, `::1`, the unspecified
    /// `0.0.0.0` and `::` (which browsers connect to this computer), and IPv4 loopback written
    /// as IPv6 (`::ffff:127.0.0.1`).
    ThisComputer,
    /// The local network: 10/8, 172.16/12, 192.168/16, link-local 169.254/16, and IPv6
    /// unique-local fc00::/7 and link-local fe80::/10 (also as IPv4-mapped IPv6).
    LocalNetwork,
    /// Anywhere else, or a name that only DNS can place.
    Elsewhere,
}

/// Where `host` is: see [`Place`].
pub(super) fn place(host: &Host<&str>) -> Place {
    let ip = match host {
        Host::Domain(_) if is_loopback(host) => return Place::ThisComputer,
        Host::Domain(_) => return Place::Elsewhere,
        Host::Ipv4(ip) => IpAddr::V4(*ip),
        Host::Ipv6(ip) => ip.to_ipv4_mapped().map_or(IpAddr::V6(*ip), IpAddr::V4),
    };
    match ip {
        IpAddr::V4(ip) if ip.is_loopback() || ip.is_unspecified() => Place::ThisComputer,
        IpAddr::V4(ip) if ip.is_private() || ip.is_link_local() => Place::LocalNetwork,
        IpAddr::V6(ip) if ip.is_loopback() || ip.is_unspecified() => Place::ThisComputer,
        IpAddr::V6(ip) if ip.is_unique_local() || ip.is_unicast_link_local() => Place::LocalNetwork,
        _ => Place::Elsewhere,
    }
}

/// The most labels, or sites written in the subdomains, one host is given findings for: one is
/// enough to warn, and a host of 100,000 lookalike labels must not make as many lines.
pub(super) const MAX_NAMED: usize = 4;

/// The generic top-level domains of RFC 1591. A name written in front of a site that ends in
/// one of these (`paypal.com.` in `paypal.com.secure-login.example`) reads as a site of its
/// own; a country code or a newer generic domain in the same place is usually a region or a
/// word (`tenant.eu.auth0.com`, `auth.app.example.com`), so only a suffix of two labels or more
/// (`co.uk`, `github.io`) or one of these counts.
const GENERIC_TLDS: [&str; 7] = ["com", "net", "org", "edu", "gov", "mil", "int"];

/// The registrable domains written as whole labels in the subdomains of `ascii_host`, in front
/// of its own registrable domain `site`: `paypal.com` in `login.paypal.com.secure-login.example`.
/// Each is a run of labels that ends in a public suffix (see [`GENERIC_TLDS`]) with one label
/// before it, the first [`MAX_NAMED`] of them. Each end of a label is looked up once, and the
/// list is searched from the right a few labels deep, so the cost grows with the host's length.
pub(super) fn embedded_sites<'a>(ascii_host: &'a str, site: &str) -> Vec<&'a str> {
    let Some(subdomains) = subdomains(ascii_host, site) else {
        return Vec::new();
    };
    let mut found: Vec<&str> = Vec::new();
    let ends = subdomains
        .match_indices('.')
        .map(|(at, _)| at)
        .chain([subdomains.len()]);
    for end in ends {
        // One look-up gives the name and its suffix, and whether the list knows that suffix.
        let Some(domain) = psl::domain(&subdomains.as_bytes()[..end]).map(psl::Domain::trim) else {
            continue;
        };
        let suffix = domain.suffix();
        let (Ok(name), Ok(suffix_text)) = (
            std::str::from_utf8(domain.as_bytes()),
            std::str::from_utf8(suffix.as_bytes()),
        ) else {
            continue;
        };
        if !suffix.is_known() || !(suffix_text.contains('.') || GENERIC_TLDS.contains(&suffix_text))
        {
            continue;
        }
        if name != site && !found.contains(&name) {
            found.push(name);
            if found.len() == MAX_NAMED {
                break;
            }
        }
    }
    found
}

/// Whether `needle`, a name of two labels or more, is written as whole labels in the subdomains
/// of `ascii_host`, in front of its own registrable domain `site`.
pub(super) fn embeds(ascii_host: &str, site: &str, needle: &str) -> bool {
    let needle = needle.trim_end_matches('.');
    needle.contains('.')
        && subdomains(ascii_host, site)
            .is_some_and(|subdomains| format!(".{subdomains}.").contains(&format!(".{needle}.")))
}

/// The labels of `ascii_host` in front of its registrable domain `site` (`login.paypal.com` in
/// `login.paypal.com.evil.example`), if any.
fn subdomains<'a>(ascii_host: &'a str, site: &str) -> Option<&'a str> {
    ascii_host
        .trim_end_matches('.')
        .strip_suffix(site)?
        .strip_suffix('.')
        .filter(|subdomains| !subdomains.is_empty())
}

/// The registrable domain of an ASCII host name (`github.com` for `api.github.com`,
/// `example.co.uk` for `www.example.co.uk`); `None` for a public suffix itself or a single label.
pub(super) fn registrable(ascii_host: &str) -> Option<&str> {
    let host = ascii_host.trim_end_matches('.');
    let domain = psl::domain_str(host)?;
    // The list's default rule makes any unknown single label a suffix; a host with no dot has
    // no registrable part a person could check.
    domain.contains('.').then_some(domain)
}

/// The host as a person reads it, and what looks deceptive in it. The URL parser has already
/// refused a host whose Punycode does not decode (UTS #46), so decoding cannot fail here; if
/// it ever did, the host is shown as sent.
pub(super) fn decode(ascii_host: &str, findings: &mut Vec<Finding>) -> String {
    let (unicode, result) = idna::domain_to_unicode(ascii_host);
    if result.is_err() || unicode == ascii_host {
        return ascii_host.to_owned();
    }
    findings.push(Finding::International {
        ascii: ascii_host.to_owned(),
        unicode: unicode.clone(),
    });
    let before = findings.len();
    for label in unicode.split('.').filter(|label| !label.is_ascii()) {
        if findings.len() - before == MAX_NAMED {
            break;
        }
        let named = findings[before..].iter().any(|finding| {
            matches!(finding, Finding::MixedScript { label: seen }
                | Finding::LooksLikeAscii { label: seen, .. } if seen == label)
        });
        if named {
            continue;
        }
        if !label.is_single_script() {
            findings.push(Finding::MixedScript {
                label: label.to_owned(),
            });
            continue;
        }
        let looks_like: String = skeleton(label).collect();
        if looks_like.is_ascii() {
            findings.push(Finding::LooksLikeAscii {
                label: label.to_owned(),
                looks_like,
            });
        }
    }
    unicode
}

/// Whether two names (as a person reads them) can be mistaken for each other without being the
/// same: their confusable skeletons (UTS #39) are equal once accents are dropped (`exämple`
/// reads as `example`; the skeleton is decomposed, so an accent is a nonspacing mark of its own).
pub(super) fn confusable(name: &str, other: &str) -> bool {
    let (name, other) = (name.to_lowercase(), other.to_lowercase());
    name != other && unaccented(&name).eq(unaccented(&other))
}

/// The confusable skeleton of `name` without its accents, lazily (a comparison stops at the
/// first difference).
fn unaccented(name: &str) -> impl Iterator<Item = char> + '_ {
    skeleton(name).filter(|&c| get_general_category(c) != GeneralCategory::NonspacingMark)
}
