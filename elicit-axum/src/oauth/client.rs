//! The client for the provider's endpoints (token, account, metadata): hyper's, the HTTP
//! stack axum serves with, over rustls with the Mozilla roots of `webpki-roots` and the
//! application's rustls crypto provider if it installed one
//! (`rustls::crypto::CryptoProvider::install_default`), else ring's.
//!
//! What it never does: follow a redirect (one could send the code and the client secret, or
//! the token, elsewhere: a `3xx` is an answer like any other, which no caller takes), read
//! more than [`LIMIT`] bytes of an answer, or take more than [`TIMEOUT`] from connecting to the
//! answer's last byte. An `https` endpoint is reached through the HTTP proxy the environment
//! names, if any (`HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`: [`proxy`](super::proxy)).
//!
//! It is also the [`oauth2`] crate's client ([`AsyncHttpClient`], as [`Oauth2Client`]), so the
//! code exchange goes through it with the same rules.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ::axum::body::Bytes;
use http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use oauth2::{AsyncHttpClient, HttpRequest, HttpResponse};

use super::OAuthError;
use super::proxy::Connector;

/// The `User-Agent` of every request to the provider (GitHub's API refuses one without).
pub(super) const USER_AGENT: &str = concat!("elicit-axum/", env!("CARGO_PKG_VERSION"));

/// The most of an answer read: a token response or a user object is a few KiB.
pub(super) const LIMIT: usize = 64 * 1024;

/// The longest a request may take, from connecting to the answer's last byte.
pub(super) const TIMEOUT: Duration = Duration::from_secs(10);

/// An answer, read whole: at most [`LIMIT`] bytes, within [`TIMEOUT`].
pub(super) struct Answer {
    pub(super) status: StatusCode,
    pub(super) headers: HeaderMap,
    pub(super) body: Bytes,
}

/// The client [`OAuth`](super::OAuth) asks a provider's endpoints with (token, account, an
/// issuer's metadata), and elicit-axum-auth's sign-in too (`crate::__private`): hyper's, over rustls with the Mozilla
/// roots and the environment's HTTPS proxy; it never follows a redirect, reads at most 64 KiB
/// of an answer, and gives up after 10 s. Cheap to clone: its connection pool is shared.
///
/// ```
/// use elicit_axum::__private::ProviderClient;
///
/// let client = ProviderClient::new()?;
/// # let _ = client;
/// # Ok::<(), elicit_axum::oauth::OAuthError>(())
/// ```
#[derive(Clone)]
pub struct ProviderClient {
    client: Client<HttpsConnector<Connector>, Full<Bytes>>,
}

impl std::fmt::Debug for ProviderClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderClient").finish_non_exhaustive()
    }
}

impl ProviderClient {
    /// The client: HTTP/1.1, `https` through rustls with the Mozilla roots (and the
    /// environment's proxy), plain `http` for the loopback endpoints the provider's checks let
    /// through, idle connections kept 90 s. Refuses only TLS settings rustls cannot build.
    ///
    /// ```
    /// assert!(elicit_axum::__private::ProviderClient::new().is_ok());
    /// ```
    pub fn new() -> Result<ProviderClient, OAuthError> {
        ProviderClient::through(Matcher::from_env())
    }

    /// [`new`](ProviderClient::new), through the proxies `proxies` names.
    pub(super) fn through(proxies: Matcher) -> Result<ProviderClient, OAuthError> {
        // The process's provider when the application chose one, as reqwest does; else ring,
        // whatever else the tree enables of rustls (so no "which provider" panic). rustls
        // deprecates ring's for its lack of post-quantum key exchange: an application that
        // wants that installs aws-lc-rs's.
        #[allow(deprecated)]
        let provider = rustls::crypto::CryptoProvider::get_default()
            .cloned()
            .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(provider)
            .map_err(|e| {
                OAuthError(format!(
                    "the TLS settings for the provider's endpoints: {e}"
                ))
            })?
            .https_or_http()
            .enable_http1()
            .wrap_connector(Connector::new(proxies));
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(https);
        Ok(ProviderClient { client })
    }

    /// `request`'s answer, or why there is none (the text says why, never the URL).
    pub(super) async fn send(&self, request: Request<Full<Bytes>>) -> Result<Answer, String> {
        let exchange = async {
            let response = self.client.request(request).await.map_err(|e| chain(&e))?;
            let (parts, body) = response.into_parts();
            let body = Limited::new(body, LIMIT).collect().await.map_err(|e| {
                if e.is::<http_body_util::LengthLimitError>() {
                    format!("an answer over {LIMIT} bytes")
                } else {
                    chain(&*e)
                }
            })?;
            Ok(Answer {
                status: parts.status,
                headers: parts.headers,
                body: body.to_bytes(),
            })
        };
        tokio::time::timeout(TIMEOUT, exchange)
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {} s", TIMEOUT.as_secs())))
    }
}

/// Why [`ProviderClient`] has no answer for `oauth2` (the text of [`ProviderClient::send`]'s error).
#[derive(Debug)]
pub(super) struct NoAnswer(String);

impl std::fmt::Display for NoAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoAnswer {}

/// The client as the [`oauth2`] crate's ([`AsyncHttpClient`]), for the code exchange (a clone:
/// the pool is shared).
pub(super) struct Oauth2Client(pub(super) ProviderClient);

impl<'c> AsyncHttpClient<'c> for Oauth2Client {
    type Error = NoAnswer;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, NoAnswer>> + Send + 'c>>;

    /// `request` sent as every request to the provider is: with our `User-Agent` (GitHub's API
    /// refuses one without), its `Authorization` (the client's secret) marked sensitive.
    fn call(&'c self, request: HttpRequest) -> Self::Future {
        let mut request = request.map(|body| Full::new(Bytes::from(body)));
        let headers = request.headers_mut();
        if let Some(credentials) = headers.get_mut(header::AUTHORIZATION) {
            credentials.set_sensitive(true);
        }
        headers
            .entry(header::USER_AGENT)
            .or_insert(HeaderValue::from_static(USER_AGENT));
        Box::pin(async move {
            let answer = self.0.send(request).await.map_err(NoAnswer)?;
            let mut response = HttpResponse::new(answer.body.to_vec());
            *response.status_mut() = answer.status;
            *response.headers_mut() = answer.headers;
            Ok(response)
        })
    }
}

/// `error` and its causes, `: `-separated (hyper's own text names only the kind of failure).
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}
