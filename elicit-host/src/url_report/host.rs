//! The host of a URL seen as a person would: loopback or not, its registrable domain (the
//! Public Suffix List), its internationalized labels decoded (IDNA), and lookalikes by the
//! Unicode security mechanisms of UTS #39 (mixed script, confusable skeletons).

use std::net::{Ipv4Addr, Ipv6Addr};

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
    for label in unicode.split('.').filter(|label| !label.is_ascii()) {
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
/// same: their confusable skeletons (UTS #39) are equal.
pub(super) fn confusable(name: &str, other: &str) -> bool {
    let (name, other) = (name.to_lowercase(), other.to_lowercase());
    name != other && skeleton(&name).eq(skeleton(&other))
}
