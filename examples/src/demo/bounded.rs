//! Serving HTTP so that a slow or silent client cannot hold a connection: `axum::serve` gives
//! hyper no timer, so hyper's header read timeout never fires and a client that sends half a
//! request line (or a body one byte a minute) keeps its connection, and its task, for good.
//!
//! [`serve`] is `axum::serve` with bounds: the request head must arrive within
//! [`Bounds::head`] (also on an idle keep-alive connection), the whole body within
//! [`Bounds::body`] and under [`Bounds::body_bytes`]. A body too slow is answered `408`, one
//! too large `413`. The response is not bounded: a held URL-mode retry and an SSE stream are
//! meant to stay open.

use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// How long a client may take to send a request, and how much it may send.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// From the connection's start, or the end of its last response, to the end of the
    /// request head.
    pub head: Duration,
    /// From the end of the head to the end of the body.
    pub body: Duration,
    /// The largest body read.
    pub body_bytes: usize,
}

impl Default for Bounds {
    /// 10 s for the head, 10 s for the body, 1 MiB of body: generous for MCP's JSON-RPC
    /// messages and the landing page's form.
    fn default() -> Self {
        Bounds {
            head: Duration::from_secs(10),
            body: Duration::from_secs(10),
            body_bytes: 1 << 20,
        }
    }
}

/// Serves `app` on `listener` within `bounds` until the listener fails for good.
pub async fn serve(listener: TcpListener, app: Router, bounds: Bounds) -> std::io::Result<()> {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // A connection reset before it was accepted: go on.
            Err(e) if is_per_connection(&e) => continue,
            // Out of file descriptors, say: go on after a pause, so a full descriptor table is
            // not spun on (what axum::serve does).
            Err(e) => {
                eprintln!("elicit demo: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let app = app.clone();
        tokio::spawn(async move {
            // hyper's head timer starts with the first byte; a connection that never sends
            // one is closed here.
            let first_byte = tokio::time::timeout(bounds.head, stream.peek(&mut [0])).await;
            if !matches!(first_byte, Ok(Ok(1))) {
                return;
            }
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                read_bounded(app.clone(), request, bounds)
            });
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(bounds.head);
            // A connection that ends badly (timed out, reset) only ends: nothing to report.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Reads the body within `bounds`, then runs `app` on the buffered request.
async fn read_bounded(
    app: Router,
    request: Request<Incoming>,
    bounds: Bounds,
) -> Result<Response<Body>, Infallible> {
    let (parts, body) = request.into_parts();
    let read = Limited::new(body, bounds.body_bytes).collect();
    let bytes = match tokio::time::timeout(bounds.body, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => {
            return Ok(refusal(StatusCode::PAYLOAD_TOO_LARGE));
        }
        // The client broke off its body: it reads no answer.
        Ok(Err(_)) => return Ok(refusal(StatusCode::BAD_REQUEST)),
        Err(_) => return Ok(refusal(StatusCode::REQUEST_TIMEOUT)),
    };
    app.oneshot(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A plain-text refusal that closes the connection.
fn refusal(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Body::from(
        status.canonical_reason().unwrap_or("refused").to_owned(),
    ));
    *response.status_mut() = status;
    response.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response
}

/// Accept errors that concern one connection only.
fn is_per_connection(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use axum::routing::post;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::*;

    /// Short bounds, so a test waits a fraction of a second for each.
    const BOUNDS: Bounds = Bounds {
        head: Duration::from_millis(300),
        body: Duration::from_millis(300),
        body_bytes: 64,
    };

    /// An echo route served within [`BOUNDS`]; its address.
    async fn start() -> SocketAddr {
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new().route("/echo", post(|body: String| async move { body }));
        tokio::spawn(serve(listener, app, BOUNDS));
        addr
    }

    /// Everything the server sends until it closes the connection; panics if it is still
    /// open after 5 s (ten times any bound here).
    async fn until_closed(stream: &mut TcpStream) -> String {
        let mut received = Vec::new();
        let read = stream.read_to_end(&mut received);
        match tokio::time::timeout(Duration::from_secs(5), read).await {
            Ok(_) => String::from_utf8_lossy(&received).into_owned(),
            Err(_) => panic!(
                "the connection is still open; received {:?}",
                String::from_utf8_lossy(&received)
            ),
        }
    }

    fn echo(body: &str, close: bool) -> String {
        let connection = if close { "Connection: close\r\n" } else { "" };
        format!(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n{connection}\r\n{body}",
            body.len()
        )
    }

    /// What the server sends for `sent` on a new connection, until it closes it.
    async fn exchange(sent: &[u8]) -> String {
        let mut stream = TcpStream::connect(start().await).await.unwrap();
        stream.write_all(sent).await.unwrap();
        until_closed(&mut stream).await
    }

    #[tokio::test]
    async fn a_whole_request_is_served_and_keep_alive_works() {
        let received = exchange((echo("one", false) + &echo("two", true)).as_bytes()).await;
        assert_eq!(received.matches("HTTP/1.1 200 OK").count(), 2, "{received}");
        assert!(received.contains("\r\n\r\none") && received.ends_with("\r\n\r\ntwo"));
    }

    /// Issue 32: `axum::serve` sets no timer, so half a request line held a connection open
    /// for good. Now it is closed once the head bound passes.
    #[tokio::test]
    async fn half_a_request_head_is_cut_off() {
        let received = exchange(b"POST /echo HTTP/1.1\r\nHo").await;
        assert!(!received.contains("200"), "{received}");
    }

    #[tokio::test]
    async fn a_silent_connection_is_cut_off() {
        assert_eq!(exchange(b"").await, "");
    }

    #[tokio::test]
    async fn a_silent_keep_alive_connection_is_cut_off_after_its_response() {
        let received = exchange(echo("one", false).as_bytes()).await;
        assert!(received.starts_with("HTTP/1.1 200 OK"), "{received}");
    }

    #[tokio::test]
    async fn a_body_that_stops_coming_is_answered_408() {
        let head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab";
        let received = exchange(head.as_bytes()).await;
        assert!(
            received.starts_with("HTTP/1.1 408 Request Timeout"),
            "{received}"
        );
    }

    #[tokio::test]
    async fn a_body_over_the_limit_is_answered_413() {
        let body = "x".repeat(BOUNDS.body_bytes + 1);
        let received = exchange(echo(&body, false).as_bytes()).await;
        assert!(
            received.starts_with("HTTP/1.1 413 Payload Too Large"),
            "{received}"
        );
    }
}
