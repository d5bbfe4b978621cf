//! An authorization server's endpoints from its own metadata, asked once at start-up: OpenID
//! Connect Discovery 1.0 (`{issuer}/.well-known/openid-configuration`), then RFC 8414
//! (`/.well-known/oauth-authorization-server{path}`), as MCP clients look for them too.

// elicit-axum's hidden seam, which is why this crate pins elicit-axum's exact version.
use elicit_axum::__private::{ProviderClient, check_url};
use elicit_axum::oauth::OAuthProvider;
use http::Uri;
use serde_json::Value;

use crate::SignInError;

/// The authorization server whose issuer identifier is `issuer`, its endpoints read from its
/// metadata: the authorize and token endpoints, and the userinfo endpoint as the account URL
/// ([`OAuthProvider::with_account_url`]) when it has one, for a [`SignIn`](crate::SignIn).
/// This app is registered there as `client_id`; add its secret with
/// [`OAuthProvider::with_client_secret`].
///
/// It asks `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0), then
/// RFC 8414's `/.well-known/oauth-authorization-server{path}`, redirects not followed,
/// 10 s, at most 64 KiB. It refuses, at start-up, an issuer that is not `https` (plain
/// `http` on loopback), no metadata, metadata naming another issuer than `issuer`
/// exactly (a mix-up: both specs require the match), one without an authorize or token
/// endpoint, and one listing PKCE methods without `S256`. Client secrets go by HTTP Basic
/// auth unless the metadata lists only `client_secret_post`.
///
/// ```no_run
/// use elicit_axum_auth::{SignIn, discover};
/// # async fn run(server: elicit_runtime::ElicitServer) -> Result<(), Box<dyn std::error::Error>> {
/// let issuer = discover("https://auth.example.com", "mcp-server")
///     .await?
///     .with_client_secret(std::env::var("AUTH_CLIENT_SECRET")?);
/// let sign_in = SignIn::new(&server, issuer)?;
/// # let _ = sign_in;
/// # Ok(())
/// # }
/// ```
pub async fn discover(
    issuer: &str,
    client_id: impl Into<String>,
) -> Result<OAuthProvider, SignInError> {
    check_url("the issuer", issuer)?;
    let refused = |why: String| SignInError(format!("the issuer {issuer}: {why}"));
    let http = ProviderClient::new()?;
    let mut why = Vec::new();
    for url in metadata_urls(issuer).map_err(refused)? {
        match http.get_json(&url, None).await {
            Ok(metadata) => return from_metadata(issuer, &metadata, client_id.into()),
            Err(e) => why.push(format!("{url}: {e}")),
        }
    }
    Err(refused(format!("no metadata ({})", why.join("; "))))
}

/// Where `issuer`'s metadata may be, in the order asked.
fn metadata_urls(issuer: &str) -> Result<[String; 2], String> {
    if issuer.contains(['?', '#']) {
        return Err("an issuer has no query or fragment".to_owned());
    }
    let url = issuer
        .parse::<Uri>()
        .map_err(|e| format!("not a URL ({e})"))?;
    let (Some(scheme), Some(authority)) = (url.scheme_str(), url.authority()) else {
        return Err("not an absolute URL".to_owned());
    };
    if authority.as_str().contains('@') {
        return Err("an issuer has no user name or password".to_owned());
    }
    let path = url.path().trim_end_matches('/');
    let origin = format!("{scheme}://{authority}");
    Ok([
        format!("{origin}{path}/.well-known/openid-configuration"),
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
    ])
}

/// The provider `metadata` describes, if it is `issuer`'s and usable.
fn from_metadata(
    issuer: &str,
    metadata: &Value,
    client_id: String,
) -> Result<OAuthProvider, SignInError> {
    let refused = |why: String| Err(SignInError(format!("the issuer {issuer}: {why}")));
    let text = |name: &str| metadata.get(name).and_then(Value::as_str);
    match text("issuer") {
        Some(named) if named == issuer => {}
        Some(named) => {
            return refused(format!(
                "its metadata names another issuer, {named} (refused: a mix-up)"
            ));
        }
        None => return refused("its metadata names no issuer".to_owned()),
    }
    let (Some(authorize), Some(token)) = (text("authorization_endpoint"), text("token_endpoint"))
    else {
        return refused("its metadata has no authorization_endpoint or token_endpoint".to_owned());
    };
    let listed = |name: &str| {
        metadata
            .get(name)
            .and_then(Value::as_array)
            .map(|values| values.iter().filter_map(Value::as_str).collect::<Vec<_>>())
    };
    if listed("code_challenge_methods_supported").is_some_and(|methods| !methods.contains(&"S256"))
    {
        return refused("it does not support PKCE with S256".to_owned());
    }
    let mut provider = OAuthProvider::new(issuer, authorize, token, client_id);
    if let Some(userinfo) = text("userinfo_endpoint") {
        provider = provider.with_account_url(userinfo);
    }
    let methods = listed("token_endpoint_auth_methods_supported");
    if methods
        .is_some_and(|m| m.contains(&"client_secret_post") && !m.contains(&"client_secret_basic"))
    {
        provider = provider.with_credentials_in_body();
    }
    Ok(provider)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_metadata_is_looked_for_where_both_specs_put_it() {
        assert_eq!(
            metadata_urls("https://auth.example.com").unwrap(),
            [
                "https://auth.example.com/.well-known/openid-configuration",
                "https://auth.example.com/.well-known/oauth-authorization-server",
            ]
        );
        assert_eq!(
            metadata_urls("https://example.com/tenant/").unwrap(),
            [
                "https://example.com/tenant/.well-known/openid-configuration",
                "https://example.com/.well-known/oauth-authorization-server/tenant",
            ]
        );
        assert!(metadata_urls("https://example.com/?a=b").is_err());
        assert!(metadata_urls("https://example.com/#top").is_err());
        assert_eq!(
            metadata_urls("https://attacker@example.com").unwrap_err(),
            "an issuer has no user name or password"
        );
        assert_eq!(
            metadata_urls("/relative").unwrap_err(),
            "not an absolute URL"
        );
    }

    #[test]
    fn metadata_of_another_issuer_or_without_endpoints_or_s256_is_refused() {
        let issuer = "https://auth.example.com";
        let good = json!({
            "issuer": issuer,
            "authorization_endpoint": "https://auth.example.com/authorize",
            "token_endpoint": "https://auth.example.com/token",
            "userinfo_endpoint": "https://auth.example.com/userinfo",
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
        });
        let provider = from_metadata(issuer, &good, "id".into()).unwrap();
        assert_eq!(provider.name(), issuer);
        assert_eq!(
            elicit_axum::__private::account_url(&provider),
            Some("https://auth.example.com/userinfo")
        );
        assert!(format!("{provider:?}").contains("credentials_in_body: true"));
        let refused = |mut metadata: Value, member: &str, value: Value| {
            metadata[member] = value;
            from_metadata(issuer, &metadata, "id".into())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(good.clone(), "issuer", json!("https://evil.example.com")),
            "the issuer https://auth.example.com: its metadata names another issuer, https://evil.example.com (refused: a mix-up)"
        );
        assert_eq!(
            refused(good.clone(), "token_endpoint", json!(null)),
            "the issuer https://auth.example.com: its metadata has no authorization_endpoint or token_endpoint"
        );
        assert_eq!(
            refused(good, "code_challenge_methods_supported", json!(["plain"])),
            "the issuer https://auth.example.com: it does not support PKCE with S256"
        );
    }
}
