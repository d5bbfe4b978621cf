//! Where a request goes: a URL split into its origin and its path and query, relative
//! `Location`s resolved, and the site an origin belongs to (for `SameSite` and
//! `Sec-Fetch-Site`).

/// An absolute `http`/`https` URL, its fragment dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Address {
    pub(super) scheme: String,
    /// The host as written (`[::1]` keeps its brackets), lowercased.
    pub(super) host: String,
    pub(super) port: Option<u16>,
    /// The path and query, starting with `/`.
    pub(super) target: String,
}

impl Address {
    /// `url`, if it is an absolute `http` or `https` URL.
    pub(super) fn parse(url: &str) -> Option<Address> {
        let url = url.split('#').next().unwrap_or(url);
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, target) = rest.split_at(end);
        if authority.is_empty() || authority.contains('@') {
            return None;
        }
        let (host, port) = match authority.rfind(':') {
            Some(at) if !authority[at..].contains(']') => {
                let port = authority[at + 1..].parse().ok()?;
                (&authority[..at], Some(port))
            }
            _ => (authority, None),
        };
        let default = if scheme == "https" { 443 } else { 80 };
        let target = match target {
            "" => "/".to_owned(),
            t if t.starts_with('?') => format!("/{t}"),
            t => t.to_owned(),
        };
        Some(Address {
            host: host.to_ascii_lowercase(),
            port: port.filter(|p| *p != default),
            scheme,
            target,
        })
    }

    /// `location` (a redirect's, a form's `action`) read relative to this address.
    pub(super) fn join(&self, location: &str) -> Option<Address> {
        if location.contains("://") {
            return Address::parse(location);
        }
        if let Some(rest) = location.strip_prefix("//") {
            return Address::parse(&format!("{}://{rest}", self.scheme));
        }
        let target = if location.starts_with('/') {
            location.to_owned()
        } else if location.starts_with('?') {
            format!("{}{location}", self.path())
        } else if location.is_empty() {
            self.target.clone()
        } else {
            let path = self.path();
            format!("{}{location}", &path[..=path.rfind('/').unwrap_or(0)])
        };
        Address::parse(&format!("{}{target}", self.origin()))
    }

    /// `scheme://host[:port]`, the default port left out.
    pub(super) fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority())
    }

    /// `host[:port]`: what the `Host` header says.
    pub(super) fn authority(&self) -> String {
        match self.port {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        }
    }

    /// The path alone.
    pub(super) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("/")
    }

    /// Whether a browser treats it as a secure context: `https`, or a loopback host.
    pub(super) fn secure(&self) -> bool {
        self.scheme == "https" || matches!(self.host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
    }

    /// The site: the scheme and the registrable domain, read as the host's last two labels
    /// (an IP address or a one-label name is its own site). A stand-in for the Public Suffix
    /// List that is right for the names tests use.
    pub(super) fn site(&self) -> (String, String) {
        let host = &self.host;
        let is_ip = host.starts_with('[') || host.parse::<std::net::Ipv4Addr>().is_ok();
        let labels: Vec<&str> = host.split('.').collect();
        let domain = if is_ip || labels.len() <= 2 {
            host.clone()
        } else {
            labels[labels.len() - 2..].join(".")
        };
        (self.scheme.clone(), domain)
    }
}

#[cfg(test)]
mod tests {
    use super::Address;

    #[test]
    fn parses_and_joins() {
        let a = Address::parse("https://App.example.com:443/connect?elicitation=x#top").unwrap();
        assert_eq!(a.origin(), "https://app.example.com");
        assert_eq!(a.target, "/connect?elicitation=x");
        assert_eq!(
            a.join("?elicitation=x&b=1").unwrap().target,
            "/connect?elicitation=x&b=1"
        );
        assert_eq!(a.join("/cb").unwrap().origin(), "https://app.example.com");
        let other = a
            .join("http://127.0.0.1:8080/login/oauth/authorize?a=1")
            .unwrap();
        assert_eq!(other.authority(), "127.0.0.1:8080");
        assert_eq!(other.site(), ("http".into(), "127.0.0.1".into()));
        assert_eq!(a.site(), ("https".into(), "example.com".into()));
        assert!(Address::parse("ftp://x/").is_none());
        assert!(Address::parse("https://user@x/").is_none());
        assert_eq!(Address::parse("http://[::1]:9/").unwrap().host, "[::1]");
    }
}
