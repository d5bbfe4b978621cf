//! Compile-time rules for the URL of a URL-mode elicitation: the spec forbids credentials and
//! personal data in it, and pre-authenticated links; outside development it must be HTTPS.

use super::parse::{Host, Url};

use crate::case::words;

/// Where the sealed handle goes in the URL.
pub(super) const PLACEHOLDER: &str = "{handle}";
/// The query parameter the handle is appended as when the URL has no placeholder.
pub(super) const HANDLE_PARAM: &str = "elicitation";

/// Names that carry credentials or personal data when they appear in a URL.
const FORBIDDEN: &[&str] = &[
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "code",
    "authcode",
    "password",
    "passwd",
    "pwd",
    "pass",
    "key",
    "apikey",
    "secret",
    "clientsecret",
    "email",
    "mail",
    "phone",
    "ssn",
    "session",
    "sessionid",
    "sid",
    "auth",
    "authorization",
    "bearer",
    "jwt",
    "otp",
    "pin",
    "signature",
    "sig",
    "credential",
    "credentials",
    "user",
    "username",
    "login",
];

/// Checks `raw` and returns the URL template with exactly one `{handle}`.
pub(super) fn check(raw: &str) -> Result<String, String> {
    let placeholders = raw.matches(PLACEHOLDER).count();
    if placeholders > 1 {
        return Err("the URL may hold `{handle}` only once".into());
    }
    // A sentinel the parser keeps as is, so the rest of the URL can be checked normally.
    const SENTINEL: &str = "elicithandle0sentinel";
    let replaced = raw.replace(PLACEHOLDER, SENTINEL);
    let parsed = Url::parse(&replaced).map_err(|e| {
        format!(
            "not an absolute URL ({e}): write the full `https://…` address of your connect page"
        )
    })?;
    match parsed.scheme.as_str() {
        "https" => {}
        "http" if is_loopback(&parsed) => {}
        "http" => return Err("URL-mode elicitations must use `https`: plain `http` is allowed only for `localhost`, `127.0.0.1` and `[::1]` during development".into()),
        other => return Err(format!("scheme `{other}` is not allowed: the URL must be `https://…`")),
    }
    if parsed.host.is_none() {
        return Err("the URL needs a host".into());
    }
    if parsed.userinfo.is_some() {
        return Err("the URL must not carry user info (`user:password@`): a URL-mode link must never be pre-authenticated".into());
    }
    for segment in parsed.path_segments() {
        if segment != SENTINEL
            && let Some(word) = forbidden(&segment)
        {
            return Err(format!(
                "the URL path segment `{segment}` looks like it carries {word}; URLs must not contain credentials or personal data"
            ));
        }
    }
    for (name, value) in parsed.query_pairs() {
        if let Some(word) = forbidden(&name) {
            return Err(format!(
                "the query parameter `{name}` looks like it carries {word}; URLs must not contain credentials or personal data: bind them to the sealed handle instead"
            ));
        }
        if value.contains('@') {
            return Err(format!(
                "the query parameter `{name}` looks like it carries an email address; URLs must not contain personal data"
            ));
        }
    }
    if raw.contains('@') && placeholders == 0 {
        return Err("the URL must not contain an email address or other personal data".into());
    }
    if placeholders == 1 {
        return Ok(raw.to_owned());
    }
    if parsed.fragment.is_some() {
        return Err(
            "a URL with a `#fragment` must say where the handle goes: put `{handle}` in it".into(),
        );
    }
    let separator = if parsed.query.is_some() { '&' } else { '?' };
    Ok(format!("{raw}{separator}{HANDLE_PARAM}={PLACEHOLDER}"))
}

fn is_loopback(url: &Url<'_>) -> bool {
    match &url.host {
        Some(Host::Domain(d)) => d == "localhost",
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// What `name` looks like it carries, if it is a credential or personal-data name.
fn forbidden(name: &str) -> Option<&'static str> {
    let words = words(name);
    let joined = words.concat();
    let hit = |w: &str| FORBIDDEN.contains(&w);
    if hit(&joined) || words.iter().any(|w| hit(w)) {
        let what = if ["email", "mail", "phone", "ssn", "user", "username", "login"]
            .iter()
            .any(|p| words.iter().any(|w| w == p))
        {
            "personal data"
        } else {
            "a credential"
        };
        return Some(what);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_and_places_the_handle() {
        assert_eq!(
            check("https://mcp.example.com/connect").unwrap(),
            "https://mcp.example.com/connect?elicitation={handle}"
        );
        assert_eq!(
            check("https://mcp.example.com/connect?provider=github").unwrap(),
            "https://mcp.example.com/connect?provider=github&elicitation={handle}"
        );
        assert_eq!(
            check("https://mcp.example.com/c/{handle}").unwrap(),
            "https://mcp.example.com/c/{handle}"
        );
        assert!(check("http://localhost:8080/connect").is_ok());
        assert!(check("http://127.0.0.1/connect").is_ok());
        assert!(check("http://[::1]:3000/connect").is_ok());
        assert!(check("https://example.com/keyboard?monkey=1").is_ok());
        assert!(check("http://LOCALHOST/connect").is_ok());
        assert!(check("http://127.0.0.2/connect").is_ok());
        assert!(check("HTTPS://Example.com/connect").is_ok());
    }

    #[test]
    fn refuses() {
        for bad in [
            "/connect",
            "not a url",
            "http://example.com/connect",
            "ftp://example.com/x",
            "https://user:pw@example.com/",
            "https://example.com/connect?token=abc",
            "https://example.com/connect?access_token=abc",
            "https://example.com/connect?code=1",
            "https://example.com/connect?apiKey=1",
            "https://example.com/connect?to=me@example.com",
            "https://example.com/password/reset",
            "https://example.com/{handle}/{handle}",
            "https://example.com/c#frag",
            "mailto:someone@example.com",
            "https:///connect",
            "http://[::2]/connect",
            "http://localhost.example.com/connect",
            "https://example.com/pass%77ord/reset",
            "https://example.com/connect?api+key=1",
            "https://example.com/connect?to=me%40example.com",
        ] {
            assert!(check(bad).is_err(), "{bad} should be refused");
        }
    }
}
