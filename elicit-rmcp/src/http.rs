//! [`WireFix`] over streamable HTTP: the same wire fix as on stdio, applied to rmcp's
//! `StreamableHttpService` responses, JSON bodies and server-sent events alike.
//!
//! rmcp's HTTP service takes a `ServerHandler`, not a `Service`, so the fix cannot sit
//! between the handler and rmcp as it does on stdio; it sits around the HTTP service
//! instead and rewrites the one member it must, leaving every other byte as rmcp wrote it.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response, header};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;

use super::service::{Bridged, WireFix, strip_empty_elicitation_ids_json};
use crate::Principal;

/// rmcp's streamable HTTP service for `server`, with the wire fix applied (the one place it
/// goes on HTTP) and rmcp's in-memory sessions: mount it on the axum app beside the connect
/// page, `Router::new().nest_service("/mcp", streamable_http(server, config))`. Each session
/// gets a clone of `server`.
///
/// rmcp's default `config` accepts only a loopback `Host` (`localhost`, `127.0.0.1`, `::1`:
/// its guard against DNS rebinding), so deployed under a real name every request is refused
/// with `403 Forbidden: Host header is not allowed` until you name that host, the same one as
/// the links' origin (`UrlSettings::with_origin`), whose landing route checks `Host` too:
///
/// ```no_run
/// # #[derive(Clone)] struct Server;
/// # impl rmcp::ServerHandler for Server {}
/// use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
///
/// let config = StreamableHttpServerConfig::default().with_allowed_hosts(["desk.example.com"]);
/// let mcp = elicit_rmcp::streamable_http(Server, config);
/// // axum: Router::new().nest_service("/mcp", mcp)
/// # let _ = mcp;
/// ```
pub fn streamable_http<S>(
    server: S,
    config: rmcp::transport::streamable_http_server::StreamableHttpServerConfig,
) -> WireFix<
    rmcp::transport::streamable_http_server::StreamableHttpService<
        S,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    >,
>
where
    S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    WireFix::new(
        rmcp::transport::streamable_http_server::StreamableHttpService::new(
            move || Ok(server.clone()),
            std::sync::Arc::default(),
            config,
        ),
    )
}

/// What rmcp's `StreamableHttpService` answers with.
type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// The bytes an id-less URL request carries in rmcp 3.11's output; anything without them
/// passes through untouched.
const EMPTY_ID: &[u8] = br#""elicitationId":"""#;

/// Over streamable HTTP, wrap rmcp's `StreamableHttpService` (a tower service) the way the
/// stdio server wraps the handler: `WireFix::new(StreamableHttpService::new(…))`, then
/// mount it (`axum::Router::nest_service("/mcp", …)`); [`streamable_http`] does both with
/// rmcp's in-memory sessions. Build it by hand for another session manager.
///
/// ```no_run
/// # #[derive(Clone)] struct Server;
/// # impl rmcp::ServerHandler for Server {}
/// use std::sync::Arc;
/// use elicit_rmcp::adapter::WireFix;
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
///
/// let mcp = WireFix::new(StreamableHttpService::new(
///     || Ok(Server),
///     Arc::new(LocalSessionManager::default()),
///     StreamableHttpServerConfig::default(),
/// ));
/// // axum: Router::new().nest_service("/mcp", mcp)
/// # let _ = mcp;
/// ```
impl<S, B> tower_service::Service<Request<B>> for WireFix<S>
where
    S: tower_service::Service<Request<B>, Response = HttpResponse, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        request.extensions_mut().insert(Bridged);
        let response = self.0.call(request);
        Box::pin(async move { Ok(bridge_response(response.await?)) })
    }
}

impl Principal {
    /// The user an authentication layer (axum middleware, a tower layer) put into the HTTP
    /// request's extensions as a `U`, read over streamable HTTP: `subject` turns it into the
    /// principal (its stable id, the `sub` of its token), `None` for a request without one.
    ///
    /// rmcp's `StreamableHttpService` hands a tool the HTTP request's
    /// [`http::request::Parts`] in the request context's extensions, so a value the
    /// middleware inserted is one level down: `request.extensions.get::<U>()` finds nothing
    /// over HTTP, and a server reading it there gets no principal on any request. This reads
    /// it where it is. Pair it with
    /// [`ElicitServer::with_required_principal`](crate::ElicitServer::with_required_principal)
    /// so that a request the middleware let through without a user is refused instead of
    /// sealing its state to no one.
    ///
    /// ```
    /// use elicit_rmcp::state::{KeyRing, StateSealer};
    /// use elicit_rmcp::{ElicitHandler, ElicitServer, Principal};
    ///
    /// /// What the authentication middleware inserts into the HTTP request's extensions.
    /// #[derive(Clone)]
    /// struct User {
    ///     subject: String,
    /// }
    ///
    /// let principal = Principal::from_http_extension(|user: &User| Some(user.subject.clone()));
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "files"))
    ///     .with_required_principal();
    /// let elicit = ElicitHandler::new(server, principal);
    /// # let _ = elicit;
    /// ```
    pub fn from_http_extension<U: Send + Sync + 'static>(
        subject: impl Fn(&U) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        Principal::from_request(move |request| {
            let http = request.extensions.get::<http::request::Parts>()?;
            http.extensions.get::<U>().and_then(&subject)
        })
    }
}

fn bridge_response(response: HttpResponse) -> HttpResponse {
    let (mut parts, body) = response.into_parts();
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let rewrite: fn(Bytes) -> Bytes = if content_type.starts_with("application/json") {
        bridge_json
    } else if content_type.starts_with("text/event-stream") {
        bridge_events
    } else {
        return Response::from_parts(parts, body);
    };
    // A rewritten body is shorter than the length rmcp may have announced.
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = body.map_frame(move |frame| frame.map_data(rewrite)).boxed();
    Response::from_parts(parts, body)
}

fn has_empty_id(bytes: &[u8]) -> bool {
    bytes
        .windows(EMPTY_ID.len())
        .any(|window| window == EMPTY_ID)
}

/// One JSON-RPC response (rmcp writes a JSON body as one frame).
fn bridge_json(bytes: Bytes) -> Bytes {
    if !has_empty_id(&bytes) {
        return bytes;
    }
    strip_empty_elicitation_ids_json(&bytes).map_or(bytes, Bytes::from)
}

/// Server-sent events: each `data:` line holds one JSON-RPC message.
fn bridge_events(bytes: Bytes) -> Bytes {
    if !has_empty_id(&bytes) {
        return bytes;
    }
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return bytes;
    };
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\r', '\n']);
        let ending = &line[body.len()..];
        let fixed = body
            .strip_prefix("data:")
            .map(|data| (data.strip_prefix(' ').is_some(), data.trim_start()))
            .and_then(|(spaced, json)| {
                let fixed = strip_empty_elicitation_ids_json(json.as_bytes())?;
                let fixed = String::from_utf8(fixed).ok()?;
                Some(format!("data:{}{fixed}", if spaced { " " } else { "" }))
            });
        out.push_str(fixed.as_deref().unwrap_or(body));
        out.push_str(ending);
    }
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::{bridge_events, bridge_json};
    use bytes::Bytes;

    const URL_ROUND: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"connect":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x/c","elicitationId":""}},"form":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}}},"requestState":"s"}}"#;

    fn fixed() -> String {
        URL_ROUND.replace(r#","elicitationId":"""#, "")
    }

    #[test]
    fn json_bodies_lose_the_empty_id_and_keep_their_order() {
        let out = bridge_json(Bytes::from(URL_ROUND));
        assert_eq!(std::str::from_utf8(&out).unwrap(), fixed());
    }

    #[test]
    fn events_lose_the_empty_id_and_keep_their_framing() {
        let event = format!("id: 0/3\ndata: {URL_ROUND}\n\n");
        let out = bridge_events(Bytes::from(event));
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            format!("id: 0/3\ndata: {}\n\n", fixed())
        );
    }

    #[test]
    fn other_bytes_pass_through_untouched() {
        let legacy = r#"{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"url","elicitationId":"abc"}}"#;
        for body in [legacy, "data:\n\n", r#"{"elicitationId":""}"#] {
            assert_eq!(bridge_events(Bytes::from(body)), body.as_bytes());
            assert_eq!(bridge_json(Bytes::from(body)), body.as_bytes());
        }
    }
}
