//! What a consent screen needs to know about a URL before the person decides to open it: the
//! URL in full with its site emphasised, and every reason for suspicion. Computed from the text
//! alone; nothing is fetched, resolved or opened.

mod finding;
mod host;
mod query;

use url::{Host, Position, Url};

use host::Place;

pub use finding::{Finding, Sensitive, Severity};

/// A safety report on a URL-mode request's URL, for the consent screen.
///
/// ```
/// use elicit_host::{Finding, Severity, UrlReport};
///
/// // A GitHub sign-in link as a phisher would write it: `github.com` as a user name, and a
/// // host with a Cyrillic `і`.
/// let report = UrlReport::assess(
///     "https://github.com@xn--gthub-n2e.com/login/oauth/authorize?client_id=Iv1.8a61&state=k3J",
///     Some("https://mcp.example.com"),
/// );
/// // Show the full URL with the site emphasised…
/// let shown = report.highlighted().unwrap();
/// assert_eq!(shown.before, "https://github.com@");
/// assert_eq!(shown.site, "xn--gthub-n2e.com");
/// assert_eq!(report.site_unicode(), Some("g\u{456}thub.com"));
/// // …and what is wrong with it, the worst first.
/// assert!(report.findings().contains(&Finding::Userinfo));
/// assert!(report.findings().contains(&Finding::MixedScript { label: "g\u{456}thub".into() }));
/// assert_eq!(report.worst(), Some(Severity::Warning));
/// assert!(report.may_open()); // with the warnings shown, and only on consent
///
/// let script = UrlReport::assess("javascript:alert(1)", None);
/// assert!(!script.may_open());
/// assert_eq!(
///     script.findings()[0].to_string(),
///     "`javascript:` links are not opened (only https, or http to this computer)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlReport {
    sent: String,
    url: Option<Url>,
    host_unicode: Option<String>,
    site: Option<String>,
    site_unicode: Option<String>,
    relation: Relation,
    findings: Vec<Finding>,
}

/// Where the URL leads, compared with the MCP server's own origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Relation {
    /// The server's own origin (scheme, host and port).
    SameOrigin,
    /// Another origin of the server's site (same registrable domain).
    SameSite,
    /// Another site: a provider's sign-in page, or something else. Say whose.
    OtherSite,
    /// No server origin to compare with (a stdio server), or no host.
    Unknown,
}

/// The URL as it will be opened, cut in three so the site can be emphasised:
/// `before + site + after` is the whole URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlighted<'a> {
    /// Scheme, user info and subdomains (`https://accounts.`).
    pub before: &'a str,
    /// The registrable domain (`google.com`), or the whole host when it has none (an IP
    /// address, `localhost`).
    pub site: &'a str,
    /// Port, path, query and fragment.
    pub after: &'a str,
}

impl UrlReport {
    /// Assesses `url` for a person about to open it; `server_origin` is the MCP server's own
    /// origin (`https://mcp.example.com`; `None` for a stdio server), to compare with.
    pub fn assess(url: &str, server_origin: Option<&str>) -> UrlReport {
        let mut report = UrlReport {
            sent: url.to_owned(),
            url: None,
            host_unicode: None,
            site: None,
            site_unicode: None,
            relation: Relation::Unknown,
            findings: Vec::new(),
        };
        let parsed = match Url::parse(url) {
            Ok(parsed) => parsed,
            Err(error) => {
                report.findings.push(Finding::NotAUrl {
                    reason: error.to_string(),
                });
                return report;
            }
        };
        report.check(&parsed, server_origin);
        report.url = Some(parsed);
        report
            .findings
            .sort_by_key(|f| std::cmp::Reverse(f.severity()));
        report
    }

    fn check(&mut self, url: &Url, server_origin: Option<&str>) {
        let loopback = url.host().as_ref().is_some_and(host::is_loopback);
        match url.scheme() {
            "https" => {}
            "http" if loopback => self.findings.push(Finding::PlainHttpOnLoopback),
            scheme => self.findings.push(Finding::SchemeNotAllowed {
                scheme: scheme.to_owned(),
            }),
        }
        if !url.username().is_empty() || url.password().is_some() {
            self.findings.push(Finding::Userinfo);
        }
        match url.host() {
            None => self.findings.push(Finding::NoHost),
            Some(Host::Ipv4(_) | Host::Ipv6(_)) => {
                if !loopback {
                    self.findings.push(Finding::IpAddress);
                }
                self.site = url.host_str().map(str::to_owned);
                self.host_unicode = self.site.clone();
                self.site_unicode = self.site.clone();
            }
            Some(Host::Domain(name)) => {
                let unicode = host::decode(name, &mut self.findings);
                self.site = Some(host::registrable(name).unwrap_or(name).to_owned());
                self.site_unicode = Some(match host::registrable(name) {
                    Some(site) => idna::domain_to_unicode(site).0,
                    None => unicode.clone(),
                });
                self.host_unicode = Some(unicode);
            }
        }
        let pairs = url.query_pairs().chain(
            url.fragment()
                .filter(|f| f.contains('='))
                .map(|f| url::form_urlencoded::parse(f.as_bytes()))
                .into_iter()
                .flatten(),
        );
        for (name, value) in pairs {
            let Some(kind) = query::classify(&name, &value) else {
                continue;
            };
            let seen = self.findings.iter().any(
                |f| matches!(f, Finding::SensitiveParameter { name: seen, .. } if *seen == name),
            );
            if !seen {
                self.findings.push(Finding::SensitiveParameter {
                    name: name.into_owned(),
                    kind,
                });
            }
        }
        if let Some(server) = server_origin.and_then(|origin| Url::parse(origin).ok()) {
            self.compare(url, &server);
        }
        if let Some(Host::Domain(name)) = url.host() {
            self.embedded_sites(name);
        }
    }

    /// Registrable domains written in the subdomains, in front of the real site; the server's
    /// own name there is [`Finding::EmbedsServer`] already.
    fn embedded_sites(&mut self, name: &str) {
        let Some(site) = self.site.clone() else {
            return;
        };
        for embedded in host::embedded_sites(name, &site) {
            let embedded = idna::domain_to_unicode(embedded).0;
            let named = self.findings.iter().any(|finding| {
                matches!(finding, Finding::EmbedsServer { server_host, .. }
                    if *server_host == embedded
                        || server_host.ends_with(&format!(".{embedded}")))
            });
            if !named {
                self.findings.push(Finding::EmbedsSite {
                    embedded,
                    site: self.site_unicode.clone().unwrap_or_else(|| site.clone()),
                });
            }
        }
    }

    fn compare(&mut self, url: &Url, server: &Url) {
        let (Some(host), Some(server_host)) = (url.host_str(), server.host_str()) else {
            return;
        };
        // An IP address is its own site (the list would make `0.1` of `127.0.0.1`).
        let server_site = match server.host() {
            Some(Host::Domain(name)) => host::registrable(name).unwrap_or(name),
            _ => server_host,
        };
        self.relation = if url.origin() == server.origin() {
            Relation::SameOrigin
        } else if self.site.as_deref() == Some(server_site) {
            Relation::SameSite
        } else {
            Relation::OtherSite
        };
        if self.relation != Relation::OtherSite {
            return;
        }
        let server_unicode = idna::domain_to_unicode(server_host).0;
        let server_site_unicode = idna::domain_to_unicode(server_site).0;
        let host_unicode = self.host_unicode.clone().unwrap_or_else(|| host.to_owned());
        let site_unicode = self.site_unicode.clone().unwrap_or_else(|| host.to_owned());
        let (place, server_place) = (
            url.host().map_or(Place::Elsewhere, |h| host::place(&h)),
            server.host().map_or(Place::Elsewhere, |h| host::place(&h)),
        );
        let site = self.site.clone().unwrap_or_else(|| host.to_owned());
        let embedded_server = [server_host, server_site]
            .into_iter()
            .find(|name| host::embeds(host, &site, name));
        if place == Place::ThisComputer && server_place != Place::ThisComputer {
            self.findings.push(Finding::ThisComputer {
                host: host.to_owned(),
                server_site: server_site_unicode,
            });
        } else if place == Place::LocalNetwork && server_place == Place::Elsewhere {
            self.findings.push(Finding::LocalNetwork {
                host: host.to_owned(),
                server_site: server_site_unicode,
            });
        } else if let Some(embedded) = embedded_server {
            self.findings.push(Finding::EmbedsServer {
                server_host: idna::domain_to_unicode(embedded).0,
                site: site_unicode,
            });
        } else if host::confusable(&host_unicode, &server_unicode)
            || host::confusable(&site_unicode, &server_site_unicode)
        {
            self.findings.push(Finding::LooksLikeServer {
                server_host: server_unicode,
            });
        } else {
            self.findings.push(Finding::OtherSite {
                server_site: server_site_unicode,
            });
        }
    }

    /// The URL exactly as the server sent it.
    pub fn sent(&self) -> &str {
        &self.sent
    }

    /// The URL as the browser will open it (parsed and normalised: Punycode host, percent
    /// encoding), the one to show in full and to open on consent; `None` when it is not a URL.
    pub fn url(&self) -> Option<&str> {
        self.url.as_ref().map(Url::as_str)
    }

    /// [`UrlReport::url`] cut around its site, for emphasis.
    pub fn highlighted(&self) -> Option<Highlighted<'_>> {
        let url = self.url.as_ref()?;
        let text = url.as_str();
        let (start, end) = (
            url[..Position::BeforeHost].len(),
            url[..Position::AfterHost].len(),
        );
        let host = &text[start..end];
        if host.is_empty() {
            return None;
        }
        let start = match self.site.as_deref() {
            Some(site) if host.ends_with(site) => end - site.len(),
            _ => start,
        };
        Some(Highlighted {
            before: &text[..start],
            site: &text[start..end],
            after: &text[end..],
        })
    }

    /// The host as a person reads it (internationalized labels decoded).
    pub fn host_unicode(&self) -> Option<&str> {
        self.host_unicode.as_deref()
    }

    /// The registrable domain (`github.com`), as sent over DNS.
    pub fn site(&self) -> Option<&str> {
        self.site.as_deref()
    }

    /// The registrable domain as a person reads it.
    pub fn site_unicode(&self) -> Option<&str> {
        self.site_unicode.as_deref()
    }

    /// Where it leads, compared with the server's origin.
    pub fn relation(&self) -> Relation {
        self.relation
    }

    /// Everything found, the most severe first.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The most severe finding's weight; `None` when nothing was found.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.first().map(Finding::severity)
    }

    /// Whether a host may offer to open it at all (no finding [`Severity::Refuse`]). Even then
    /// it opens only on the person's explicit consent, after the full URL was shown.
    pub fn may_open(&self) -> bool {
        self.worst() != Some(Severity::Refuse)
    }
}

#[cfg(test)]
mod tests;
