//! What a URL report can find, and how much each finding weighs.

use std::fmt;

/// How a host should treat a [`Finding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// Worth a line on the consent screen; nothing suspicious.
    Notice,
    /// Suspicious: show it prominently, next to the host, before the person decides.
    Warning,
    /// Never offer to open this URL (decline the request instead).
    Refuse,
}

/// Why a query or fragment parameter looks like it carries something that must not travel in a
/// URL (the spec forbids servers to put credentials or personal data there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Sensitive {
    /// A password, secret, token or key, by its name or its value (a JWT).
    Credential,
    /// Personal data: an email address, a phone number, a card number, by name or value.
    PersonalData,
}

/// One thing a [`UrlReport`](crate::UrlReport) found about a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Finding {
    /// The text is not an absolute URL.
    NotAUrl {
        /// Why it does not parse.
        reason: String,
    },
    /// A scheme other than `https` (and `http` on a loopback host): `http` elsewhere,
    /// `javascript:`, `data:`, `file:`, a custom app scheme.
    SchemeNotAllowed {
        /// The scheme.
        scheme: String,
    },
    /// Plain `http` to this machine: fine while developing, never in production.
    PlainHttpOnLoopback,
    /// The URL has no host to show.
    NoHost,
    /// A user name or password before the host (`https://github.com@evil.example/`): the
    /// part that looks like a host is not where the browser goes.
    Userinfo,
    /// The host is an IP address, not a name a person can recognise.
    IpAddress,
    /// The host is internationalized: the browser shows (and goes to) `ascii`, which reads as
    /// `unicode`. A notice only: a name in one script (`münchen.de`, `例え.jp`) is honest; a
    /// lookalike is a warning of its own ([`Finding::MixedScript`],
    /// [`Finding::LooksLikeAscii`], [`Finding::LooksLikeServer`]).
    International {
        /// The host as sent over DNS (Punycode labels, `xn--…`).
        ascii: String,
        /// The host as a person reads it.
        unicode: String,
    },
    /// A label mixes writing systems (Latin with Cyrillic, say): the classic lookalike.
    MixedScript {
        /// The label, decoded.
        label: String,
    },
    /// A label in another script that reads as the ASCII `looks_like` (a whole-script
    /// lookalike: Cyrillic `раураl` for `paypal`).
    LooksLikeAscii {
        /// The label, decoded.
        label: String,
        /// The ASCII text it can be mistaken for.
        looks_like: String,
    },
    /// The host can be mistaken for the server's own host but is not it.
    LooksLikeServer {
        /// The server's host.
        server_host: String,
    },
    /// The host writes this server's own name in its subdomains, in front of another site
    /// (`https://mcp.example.com.evil.example/` from `https://mcp.example.com`): it reads as the
    /// server, but the browser goes to `site`.
    ///
    /// ```
    /// use elicit_host::{Finding, UrlReport};
    ///
    /// let report = UrlReport::assess(
    ///     "https://mcp.example.com.evil.example/connect",
    ///     Some("https://mcp.example.com"),
    /// );
    /// assert_eq!(
    ///     report.findings(),
    ///     [Finding::EmbedsServer {
    ///         server_host: "mcp.example.com".into(),
    ///         site: "evil.example".into(),
    ///     }]
    /// );
    /// ```
    EmbedsServer {
        /// What of the server's name is written there: its host, or its registrable domain.
        server_host: String,
        /// Where the browser really goes (the registrable domain, as a person reads it).
        site: String,
    },
    /// The host writes another registrable domain in its subdomains, in front of its own site
    /// (`https://paypal.com.secure-login.example/`): it reads as `embedded`, but the browser goes
    /// to `site`. A domain counts when it ends in a public suffix of two labels or more
    /// (`co.uk`) or in a generic top-level domain of RFC 1591 (`com`, `net`, `org`, `edu`,
    /// `gov`, `mil`, `int`); a country code or newer domain there is usually a region or a word
    /// (`tenant.eu.auth0.com`).
    ///
    /// ```
    /// use elicit_host::{Finding, UrlReport};
    ///
    /// let report = UrlReport::assess("https://paypal.com.secure-login.example/signin", None);
    /// assert_eq!(
    ///     report.findings(),
    ///     [Finding::EmbedsSite {
    ///         embedded: "paypal.com".into(),
    ///         site: "secure-login.example".into(),
    ///     }]
    /// );
    /// ```
    EmbedsSite {
        /// The registrable domain written in the subdomains, as a person reads it.
        embedded: String,
        /// Where the browser really goes (the registrable domain, as a person reads it).
        site: String,
    },
    /// A server that is not on this computer links to this computer (`localhost`,
    /// 127.0.0.0/8, `::1`, `0.0.0.0`, however written: `https://0x7f.1/` is `127.0.0.1`).
    /// Whatever answers there is not the server. A server on this computer (or with no origin
    /// to compare with, as a stdio server, which runs here) may link here without it.
    ///
    /// ```
    /// use elicit_host::{Finding, UrlReport};
    ///
    /// let report = UrlReport::assess("https://0x7f.1/admin", Some("https://mcp.example.com"));
    /// assert_eq!(
    ///     report.findings(),
    ///     [Finding::ThisComputer {
    ///         host: "127.0.0.1".into(),
    ///         server_site: "example.com".into(),
    ///     }]
    /// );
    /// // A local server's own page stays quiet.
    /// let local = UrlReport::assess("https://127.0.0.1:8443/connect", None);
    /// assert_eq!(local.findings(), []);
    /// ```
    ThisComputer {
        /// The host as the browser will open it (`127.0.0.1`, `[::1]`, `localhost`).
        host: String,
        /// The server's registrable domain (or host).
        server_site: String,
    },
    /// A server on the internet links to an address on the person's local network (10/8,
    /// 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10): a router's or a printer's page,
    /// not the server's.
    ///
    /// ```
    /// use elicit_host::{Finding, UrlReport};
    ///
    /// let report = UrlReport::assess("https://192.168.1.1/", Some("https://mcp.example.com"));
    /// assert!(report.findings().contains(&Finding::LocalNetwork {
    ///     host: "192.168.1.1".into(),
    ///     server_site: "example.com".into(),
    /// }));
    /// ```
    LocalNetwork {
        /// The host as the browser will open it.
        host: String,
        /// The server's registrable domain (or host).
        server_site: String,
    },
    /// The page is on another site than the MCP server's (normal for a provider's sign-in page;
    /// say so, so the person knows whose page opens).
    OtherSite {
        /// The server's registrable domain (or host).
        server_site: String,
    },
    /// A query or fragment parameter that looks like a credential or personal data.
    SensitiveParameter {
        /// The parameter's name.
        name: String,
        /// What it looks like.
        kind: Sensitive,
    },
}

impl Finding {
    /// How much it weighs.
    pub fn severity(&self) -> Severity {
        match self {
            Finding::NotAUrl { .. } | Finding::SchemeNotAllowed { .. } | Finding::NoHost => {
                Severity::Refuse
            }
            Finding::PlainHttpOnLoopback
            | Finding::International { .. }
            | Finding::OtherSite { .. } => Severity::Notice,
            Finding::Userinfo
            | Finding::IpAddress
            | Finding::MixedScript { .. }
            | Finding::LooksLikeAscii { .. }
            | Finding::LooksLikeServer { .. }
            | Finding::EmbedsServer { .. }
            | Finding::EmbedsSite { .. }
            | Finding::ThisComputer { .. }
            | Finding::LocalNetwork { .. }
            | Finding::SensitiveParameter { .. } => Severity::Warning,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::NotAUrl { reason } => write!(f, "this is not a valid URL ({reason})"),
            Finding::SchemeNotAllowed { scheme } => {
                write!(f, "`{scheme}:` links are not opened (only https, or http to this computer)")
            }
            Finding::PlainHttpOnLoopback => {
                f.write_str("an unencrypted page on this computer (a development server)")
            }
            Finding::NoHost => f.write_str("the link names no site"),
            Finding::Userinfo => f.write_str(
                "the link hides a user name before the site: the text before `@` is not where it goes",
            ),
            Finding::IpAddress => f.write_str("the site is a bare IP address, not a name"),
            Finding::International { ascii, unicode } => {
                write!(f, "the site name uses non-ASCII letters: it reads `{unicode}` but is `{ascii}`")
            }
            Finding::MixedScript { label } => {
                write!(f, "`{label}` mixes letters of different alphabets (a lookalike trick)")
            }
            Finding::LooksLikeAscii { label, looks_like } => write!(
                f,
                "`{label}` is written in another alphabet but reads as `{looks_like}`"
            ),
            Finding::LooksLikeServer { server_host } => write!(
                f,
                "the site looks like this server's own `{server_host}` but is a different one"
            ),
            Finding::EmbedsServer { server_host, site } => write!(
                f,
                "the site name puts this server's `{server_host}` in front of another site: \
                 the page is on `{site}`"
            ),
            Finding::EmbedsSite { embedded, site } => write!(
                f,
                "the site name puts `{embedded}` in front of another site: the page is on \
                 `{site}`, not `{embedded}`"
            ),
            Finding::ThisComputer { host, server_site } => write!(
                f,
                "the link opens `{host}`, which is this computer, not the server's site \
                 `{server_site}`"
            ),
            Finding::LocalNetwork { host, server_site } => write!(
                f,
                "the link opens `{host}`, a device on your local network, not the server's \
                 site `{server_site}`"
            ),
            Finding::OtherSite { server_site } => {
                write!(f, "the page is not on this server's site `{server_site}`")
            }
            Finding::SensitiveParameter { name, kind } => match kind {
                Sensitive::Credential => {
                    write!(f, "the link carries what looks like a secret (`{name}`)")
                }
                Sensitive::PersonalData => {
                    write!(f, "the link carries what looks like personal data (`{name}`)")
                }
            },
        }
    }
}
