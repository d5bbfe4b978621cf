//! How the client reaches an endpoint: straight, or through the HTTP proxy the environment
//! names for `https` (`HTTPS_PROXY`, `ALL_PROXY`, minus `NO_PROXY`, as curl and reqwest read
//! them), by a `CONNECT` tunnel that TLS then runs inside, end to end with the provider: the
//! proxy sees the host and port, never the code, the secret or the token. Plain `http`
//! endpoints (loopback only, for development) are always reached straight.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tower_service::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The TCP connector under TLS: straight, or through a `CONNECT` tunnel.
#[derive(Clone)]
pub(super) struct Connector {
    tcp: HttpConnector,
    proxies: Arc<Matcher>,
}

impl Connector {
    /// Through the proxies `proxies` names (the environment's: [`Matcher::from_env`]).
    pub(super) fn new(proxies: Matcher) -> Connector {
        let mut tcp = HttpConnector::new();
        // The scheme is the TLS layer's business: this connector carries both.
        tcp.enforce_http(false);
        Connector {
            tcp,
            proxies: Arc::new(proxies),
        }
    }
}

impl Service<Uri> for Connector {
    type Response = TokioIo<TcpStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.tcp.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, destination: Uri) -> Self::Future {
        let proxy = match destination.scheme_str() {
            Some("https") => self.proxies.intercept(&destination),
            _ => None,
        };
        let mut tcp = self.tcp.clone();
        match proxy {
            None => Box::pin(async move { Ok(tcp.call(destination).await?) }),
            Some(proxy) => {
                let mut tunnel = Tunnel::new(proxy.uri().clone(), tcp);
                if let Some(auth) = proxy.basic_auth() {
                    tunnel = tunnel.with_auth(auth.clone());
                }
                Box::pin(async move {
                    std::future::poll_fn(|cx| tunnel.poll_ready(cx)).await?;
                    Ok(tunnel.call(destination).await?)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use ::axum::body::Bytes;
    use http::Request;
    use http_body_util::Full;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;
    use crate::oauth::client::ProviderClient;

    /// An HTTP proxy on loopback that records each request's head and tunnels every `CONNECT`
    /// to `target`, whatever host it names; its URL and what it was asked.
    async fn proxy(target: std::net::SocketAddr) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&asked);
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let seen = Arc::clone(&seen);
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    while !head.ends_with(b"\r\n\r\n") {
                        let mut byte = [0u8; 1];
                        if client.read(&mut byte).await.unwrap_or(0) == 0 {
                            return;
                        }
                        head.push(byte[0]);
                    }
                    seen.lock()
                        .unwrap()
                        .push(String::from_utf8_lossy(&head).into_owned());
                    let mut server = TcpStream::connect(target).await.unwrap();
                    client
                        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                        .await
                        .unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                });
            }
        });
        (url, asked)
    }

    /// A TLS server on loopback with a self-signed certificate (no root vouches for it).
    async fn tls_server() -> std::net::SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let certified =
            rcgen::generate_simple_self_signed(vec!["provider.example".to_owned()]).unwrap();
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
        let config = rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let _ = acceptor.accept(tcp).await;
            }
        });
        address
    }

    fn get(url: &str) -> Request<Full<Bytes>> {
        Request::get(url).body(Full::new(Bytes::new())).unwrap()
    }

    /// An `https` endpoint is reached by a `CONNECT` to the proxy naming only its host and
    /// port, and TLS runs inside the tunnel with the endpoint itself: here a certificate no
    /// root vouches for, refused by the client, not by the proxy.
    #[tokio::test]
    async fn https_goes_through_the_proxy_by_a_tunnel_with_tls_inside() {
        let (proxy_url, asked) = proxy(tls_server().await).await;
        let http = ProviderClient::through(Matcher::builder().https(proxy_url).build()).unwrap();
        let error = http
            .send(get("https://provider.example/login/oauth/access_token"))
            .await
            .err()
            .unwrap();
        assert_eq!(
            error,
            "client error (Connect): invalid peer certificate: UnknownIssuer"
        );
        assert_eq!(
            *asked.lock().unwrap(),
            ["CONNECT provider.example:443 HTTP/1.1\r\nHost: provider.example:443\r\n\r\n"]
        );
    }

    /// Plain `http` (a loopback endpoint, for development) and the hosts of `NO_PROXY` are
    /// reached straight.
    #[tokio::test]
    async fn loopback_http_and_no_proxy_hosts_are_reached_straight() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = ::axum::Router::new().route("/user", ::axum::routing::get(|| async { "{}" }));
        tokio::spawn(async move { ::axum::serve(listener, app).await });
        let (proxy_url, asked) = proxy(address).await;
        let proxies = Matcher::builder().all(proxy_url).no("127.0.0.2").build();
        let http = ProviderClient::through(proxies).unwrap();
        let answer = http
            .send(get(&format!("http://{address}/user")))
            .await
            .unwrap();
        assert_eq!(answer.status, http::StatusCode::OK);
        let port = address.port();
        let error = http
            .send(get(&format!("https://127.0.0.2:{port}/user")))
            .await
            .err()
            .unwrap();
        assert!(error.starts_with("client error (Connect)"), "{error}");
        assert!(
            asked.lock().unwrap().is_empty(),
            "the proxy was never asked"
        );
    }
}
