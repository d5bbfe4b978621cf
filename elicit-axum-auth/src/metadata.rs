//! The protected resource's metadata (RFC 9728): the document MCP clients read to find the
//! authorization server, and where it is served.

use serde_json::{Value, json};

use crate::BearerError;

/// The resource, checked: its URL and the path of its metadata document.
pub(crate) struct Resource {
    /// `https://host[:port]/path`, as configured (the token's audience).
    pub(crate) url: String,
    /// Where the metadata document is served on this app (RFC 9728 §3.1): the well-known
    /// prefix, then the resource's path.
    pub(crate) metadata_path: String,
    /// The document's absolute URL, for the challenge.
    pub(crate) metadata_url: String,
}

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// `url` as a protected resource: `https` (or `http` on a loopback host, for development),
/// a host, a path of URL-safe characters, no query, no fragment, no user info.
pub(crate) fn resource(url: &str) -> Result<Resource, BearerError> {
    let refuse = |why: &str| BearerError(format!("the resource URL {url:?} {why}"));
    if !crate::url::is_secure_or_loopback(url) {
        return Err(refuse(
            "must be https://host/… (or http:// on localhost, 127.0.0.1 or [::1])",
        ));
    }
    let (scheme, rest) = url.split_once("://").expect("checked above");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if authority.contains('@') {
        return Err(refuse("must not carry user info"));
    }
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~/%!$&'()*+,;=:@".contains(&b))
    {
        return Err(refuse(
            "must have no query or fragment, and only URL characters in its path",
        ));
    }
    let path = path.trim_end_matches('/');
    let metadata_path = format!("{WELL_KNOWN}{path}");
    Ok(Resource {
        url: url.to_owned(),
        metadata_url: format!("{scheme}://{authority}{metadata_path}"),
        metadata_path,
    })
}

/// An authorization server's issuer URL, checked as the resource's is.
pub(crate) fn issuer(url: &str) -> Result<String, BearerError> {
    let ok = crate::url::is_secure_or_loopback(url)
        && !url.contains(['"', '\\', '?', '#', ' '])
        && url.is_ascii();
    match ok {
        true => Ok(url.to_owned()),
        false => Err(BearerError(format!(
            "the authorization server {url:?} must be an https:// URL (or http:// on loopback) without query or fragment"
        ))),
    }
}

/// A scope name, checked as a scope token (RFC 6749 §3.3).
pub(crate) fn scope(scope: &str) -> Result<String, BearerError> {
    match crate::url::is_scope_token(scope) {
        true => Ok(scope.to_owned()),
        false => Err(BearerError(format!(
            "the scope {scope:?} is not a scope token (RFC 6749: printable ASCII, no space, quote or backslash)"
        ))),
    }
}

/// The metadata document: `resource`, `authorization_servers` and `scopes_supported` when
/// there are any, and `bearer_methods_supported` (the header only: a token in a query
/// string ends up in logs).
pub(crate) fn document(resource: &Resource, issuers: &[String], scopes: &[String]) -> Value {
    let mut document = json!({
        "resource": resource.url,
        "bearer_methods_supported": ["header"],
    });
    if !issuers.is_empty() {
        document["authorization_servers"] = json!(issuers);
    }
    if !scopes.is_empty() {
        document["scopes_supported"] = json!(scopes);
    }
    document
}

#[cfg(test)]
mod tests {
    use super::resource;

    #[test]
    fn the_metadata_lives_under_the_well_known_prefix_then_the_resource_path() {
        let at = |url: &str| {
            let r = resource(url).unwrap();
            (r.metadata_path, r.metadata_url)
        };
        assert_eq!(
            at("https://desk.example.com/mcp"),
            (
                "/.well-known/oauth-protected-resource/mcp".to_owned(),
                "https://desk.example.com/.well-known/oauth-protected-resource/mcp".to_owned()
            )
        );
        assert_eq!(
            at("https://desk.example.com").0,
            "/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            at("http://127.0.0.1:8765/mcp/").1,
            "http://127.0.0.1:8765/.well-known/oauth-protected-resource/mcp"
        );
        for refused in [
            "http://desk.example.com/mcp",
            "https://desk.example.com/mcp?x=1",
            "https://desk.example.com/mcp#top",
            "https://alice@desk.example.com/mcp",
            "https://desk.example.com/m\"cp",
            "ftp://desk.example.com/mcp",
            "desk.example.com/mcp",
        ] {
            assert!(resource(refused).is_err(), "{refused}");
        }
    }
}
