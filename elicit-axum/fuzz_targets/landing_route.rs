//! `landing_route`: one request (or the same one twice) to the landing route, as a browser or
//! an attacker may send it: any method, query, user, `Sec-Fetch-Site`/`Origin`/`Host`, form body
//! and token, against a link minted for the input's principal (or any text).

use ::axum::body::{Body, to_bytes};
use ::axum::response::{IntoResponse, Response};
use http::request::Parts;
use http::{HeaderValue, Method, Request, StatusCode, header};
use serde::Deserialize;
use serde_json::json;

use crate::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
use elicit_runtime::fuzz_targets::{block_on, landing_server, mint_link};
use elicit_runtime::url::{LandingPage, PageError};

/// What the input describes. Every field has a default, so `{}` is the genuine confirmation:
/// alice's browser posts her own page's form, with its token, from the page's origin.
#[derive(Deserialize)]
#[serde(default)]
struct RouteInput {
    /// The request's method.
    method: String,
    /// The link's handle as text; `None`: one minted now for `principal`.
    link: Option<String>,
    /// Whom the minted link is for.
    principal: String,
    /// The browser's user (the hook reads `x-user`); `None`: no user, the hook answers 401.
    user: Option<String>,
    /// The whole query, instead of `elicitation=<the link>`.
    query: Option<String>,
    /// The request's `Sec-Fetch-Site`, `Origin` and `Host` (`None`: absent).
    sec_fetch_site: Option<String>,
    origin: Option<String>,
    host: Option<String>,
    /// An origin configured with `LandingRoute::with_origin` (`https://connect.example.com`
    /// unless set; `null`: none, and only loopback hosts are served).
    route_origin: Option<String>,
    /// The posted token; `None`: the one the confirmation page gives the principal.
    token: Option<String>,
    /// The posted decision.
    decision: String,
    /// The whole body, instead of the form made of `token` and `decision`.
    body: Option<String>,
    /// The application's step fails the flow instead of completing it.
    fail: bool,
    /// Send the same request a second time.
    again: bool,
}

impl Default for RouteInput {
    fn default() -> Self {
        RouteInput {
            method: "POST".into(),
            link: None,
            principal: "alice".into(),
            user: Some("alice".into()),
            query: None,
            sec_fetch_site: Some("same-origin".into()),
            origin: None,
            host: Some("connect.example.com".into()),
            route_origin: Some("https://connect.example.com".into()),
            token: None,
            decision: "confirm".into(),
            body: None,
            fail: false,
            again: false,
        }
    }
}

/// The application of the target: the user from `x-user`; the step completes or fails.
struct Hook {
    fail: bool,
}

impl ConnectHook for Hook {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
        user.map(str::to_owned)
            .ok_or_else(|| StatusCode::UNAUTHORIZED.into_response())
    }

    async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep {
        if self.fail {
            ConnectStep::fail("the provider refused")
        } else {
            ConnectStep::complete(Some(json!({"account": "octocat"})))
        }
    }
}

/// Sends the input's request (twice if it says so). Never a panic or a 5xx; every answer
/// `no-store`; every refusal the one uniform page of its status; a `GET` shows the page only
/// to the link's own user, and (the route having an origin) only on the route's own host. A
/// flow is recorded only by a `POST` from the link's user, with the token the page gave that
/// user, from the route's own origin and host, and at most once; the genuine confirmation
/// always records.
pub fn landing_route(data: &[u8]) {
    let Ok(input) = serde_json::from_slice::<RouteInput>(data) else {
        return;
    };
    let server = landing_server();
    let page = LandingPage::new(&server);
    let minted = input.link.is_none();
    let link = match &input.link {
        Some(link) => link.clone(),
        None => match mint_link(&server, &input.principal) {
            Some(link) => link,
            None => return,
        },
    };
    // The token alice's own page shows, while her flow is open.
    let own = match block_on(page.open_raw(&link, &input.principal)) {
        Ok((opened, _)) => page.confirmation_token(&opened, &input.principal).ok(),
        Err(_) => None,
    };
    let (query, posted_body) = query_and_body(&input, &link, own.as_deref());
    let Some(request) = requests(&input, &query, &posted_body) else {
        return;
    };
    let mut route = LandingRoute::new(page.clone(), Hook { fail: input.fail });
    if let Some(origin) = &input.route_origin {
        route = route.with_origin(origin.clone());
    }
    let mut recorded_before = false;
    for _ in 0..if input.again { 2 } else { 1 } {
        let Some(request) = request() else {
            return;
        };
        let status = check_answer(&input, &route, block_on(route.route.serve(request)));
        if own.is_none() || !minted {
            continue;
        }
        let recorded = matches!(
            block_on(page.open_raw(&link, &input.principal)),
            Err(PageError::AlreadyRecorded)
        );
        if recorded && !recorded_before {
            check_recording(&input, &posted_body, own.as_deref(), status);
        }
        if recorded_before {
            assert_eq!(status, StatusCode::NOT_FOUND, "a flow recorded twice");
        }
        if !recorded_before && genuine(&input) {
            assert!(recorded, "the genuine confirmation recorded nothing");
        }
        recorded_before = recorded;
    }
}

/// The query the input gives (or the link's), and the form it posts (or the token it names,
/// else the page's own, with its decision).
fn query_and_body(input: &RouteInput, link: &str, own: Option<&str>) -> (String, String) {
    let token = input.token.as_deref().or(own).unwrap_or_default();
    let body = input.body.clone().unwrap_or_else(|| {
        form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("decision", &input.decision)
            .finish()
    });
    let query = input.query.clone().unwrap_or_else(|| {
        form_urlencoded::Serializer::new(String::new())
            .append_pair("elicitation", link)
            .finish()
    });
    (query, body)
}

/// Never a panic or a 5xx; every answer `no-store`; every refusal the one uniform page of its
/// status; a `GET` shows the page only to the link's own user.
fn check_answer(input: &RouteInput, route: &LandingRoute<Hook>, response: Response) -> StatusCode {
    let status = response.status();
    assert!(
        [200, 401, 403, 404].contains(&status.as_u16()),
        "status {status}"
    );
    assert_eq!(
        response.headers().get(header::CACHE_CONTROL),
        Some(&HeaderValue::from_static("no-store"))
    );
    let answer = body_of(response);
    if status == StatusCode::NOT_FOUND || status == StatusCode::FORBIDDEN {
        let refused = body_of(route.route.texts.refused_page(status));
        assert_eq!(answer, refused, "a refusal that is not the uniform page");
    }
    if input.method == "GET" && status == StatusCode::OK {
        assert!(is_principal(input), "the page shown to another user");
        assert!(for_own_host(input), "the page shown for another host");
    }
    status
}

/// The request that recorded the flow: a `POST` from the link's user, with the token the page
/// gave that user, from the route's own origin, answered 200.
fn check_recording(input: &RouteInput, posted_body: &str, own: Option<&str>, status: StatusCode) {
    let posted = form_urlencoded::parse(posted_body.as_bytes())
        .find(|(name, _)| name == "token")
        .map(|(_, token)| token.into_owned());
    assert_eq!(input.method, "POST");
    assert!(is_principal(input), "recorded for another user");
    assert_eq!(posted.as_deref(), own, "recorded without the page's token");
    assert!(from_own_page(input), "recorded from another site");
    assert!(
        for_own_host(input),
        "recorded for another host (DNS rebinding)"
    );
    assert_eq!(status, StatusCode::OK);
}

/// The request comes from the link's own user.
fn is_principal(input: &RouteInput) -> bool {
    input.user.as_deref() == Some(&*input.principal)
}

/// What makes the request the input describes, as often as it is sent (`None`: not a valid
/// HTTP request).
fn requests(
    input: &RouteInput,
    query: &str,
    body: &str,
) -> Option<impl Fn() -> Option<Request<Body>>> {
    let method = Method::from_bytes(input.method.as_bytes()).ok()?;
    let mut headers = Vec::new();
    for (name, value) in [
        ("x-user", &input.user),
        ("sec-fetch-site", &input.sec_fetch_site),
        ("origin", &input.origin),
        ("host", &input.host),
    ] {
        if let Some(value) = value {
            headers.push((name, HeaderValue::from_str(value).ok()?));
        }
    }
    let uri: http::Uri = format!("/connect?{query}").parse().ok()?;
    let body = body.to_owned();
    Some(move || {
        let mut request = Request::builder().method(method.clone()).uri(uri.clone());
        for (name, value) in &headers {
            request = request.header(*name, value.clone());
        }
        request
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body.clone()))
            .ok()
    })
}

/// Whether the headers say the request comes from the route's own page: `Sec-Fetch-Site:
/// same-origin`, or (without it) an `Origin` that is not `null`, which the route then
/// compared with its own.
fn from_own_page(input: &RouteInput) -> bool {
    match &input.sec_fetch_site {
        Some(site) => site.trim().eq_ignore_ascii_case("same-origin"),
        None => input.origin.as_deref().is_some_and(|o| o.trim() != "null"),
    }
}

/// Whether the request's `Host` names the route's origin, when it has one: the same host name
/// (or both loopback names), port aside; without an origin, a loopback name.
fn for_own_host(input: &RouteInput) -> bool {
    let name = |authority: &str| {
        let authority = authority.trim().to_ascii_lowercase();
        match authority.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => name.to_owned(),
            _ => authority,
        }
    };
    let loopback = |name: &str| matches!(name, "localhost" | "127.0.0.1" | "[::1]");
    let Some(origin) = &input.route_origin else {
        return input
            .host
            .as_deref()
            .map(name)
            .is_some_and(|host| loopback(&host));
    };
    // As `with_origin` keeps it.
    let Some((_, own)) = origin.trim_end_matches('/').split_once("://") else {
        return false;
    };
    let (own, host) = (name(own), input.host.as_deref().map(name));
    host.is_some_and(|host| host == own || (loopback(&host) && loopback(&own)))
}

/// Whether the input is the genuine confirmation (or cancellation): alice's own page's form,
/// as a browser posts it, to the route's own host.
fn genuine(input: &RouteInput) -> bool {
    input.method == "POST"
        && input.user.as_deref() == Some(&*input.principal)
        && input.token.is_none()
        && input.body.is_none()
        && input.query.is_none()
        && ["confirm", "cancel"].contains(&&*input.decision)
        && input.sec_fetch_site.as_deref() == Some("same-origin")
        && input.origin.is_none()
        && input.host.as_deref().is_some_and(|host| {
            let parts = Request::get("/").header(header::HOST, host).body(());
            let parts = parts.map(|r| r.into_parts().0);
            let origins = Vec::from_iter(
                (input.route_origin.as_deref()).map(|o| o.trim_end_matches('/').to_owned()),
            );
            parts.is_ok_and(|parts| crate::origin::check_host(&parts, &origins).is_ok())
        })
}

/// The response's body.
fn body_of(response: Response) -> Vec<u8> {
    block_on(to_bytes(response.into_body(), 1 << 20))
        .map(|b| b.to_vec())
        .unwrap_or_default()
}

/// Seeds for the corpus: the genuine confirmation and cancellation, and the attacks the route
/// refuses (another user, a cross-site post, a `GET`, a forged token, a replay, no origin).
pub fn seeds() -> Vec<Vec<u8>> {
    [
        json!({}),
        json!({"decision": "cancel"}),
        json!({"again": true}),
        json!({"fail": true}),
        json!({"method": "GET"}),
        json!({"method": "GET", "user": "mallory"}),
        json!({"user": "mallory"}),
        json!({"user": null}),
        json!({"sec_fetch_site": "cross-site"}),
        json!({"sec_fetch_site": "same-site", "origin": "https://evil.example"}),
        json!({"sec_fetch_site": null, "origin": "https://connect.example.com"}),
        json!({"sec_fetch_site": null, "origin": "https://evil.example"}),
        json!({"sec_fetch_site": null, "origin": "null"}),
        json!({"sec_fetch_site": null}),
        json!({"sec_fetch_site": null, "origin": "https://connect.example.com", "route_origin": "https://connect.example.com"}),
        json!({"token": "forged"}),
        json!({"token": ""}),
        json!({"decision": "maybe"}),
        json!({"body": "token=a&token=b&decision=confirm"}),
        json!({"query": "elicitation=&elicitation=x"}),
        json!({"link": "not-a-handle"}),
        json!({"principal": "bob", "user": "bob"}),
        // DNS rebinding: the attacker's name for the route's address, on a route with an origin.
        json!({"route_origin": "https://connect.example.com", "host": "attacker.example"}),
        json!({"route_origin": "https://connect.example.com", "host": "attacker.example", "method": "GET"}),
        json!({"route_origin": "https://connect.example.com", "host": "attacker.example", "origin": "https://attacker.example"}),
        json!({"route_origin": "https://connect.example.com", "host": null}),
        json!({"route_origin": "http://127.0.0.1:8080", "host": "localhost:8080"}),
        // No origin at all: only loopback names are served.
        json!({"route_origin": null}),
        json!({"route_origin": null, "host": "attacker.example", "method": "GET"}),
        json!({"route_origin": null, "host": "127.0.0.1:8080"}),
        json!({"route_origin": null, "host": "[::1]:8080", "method": "GET"}),
    ]
    .iter()
    .map(|seed| seed.to_string().into_bytes())
    .collect()
}
