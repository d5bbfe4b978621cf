//! What the landing-route tests share: a hook, a server whose store remembers every record,
//! and a browser's requests (the page, its token, its form).

#![allow(dead_code)]

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::Router;
use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, StoreError, UrlSettings,
};
use elicit_runtime::{ElicitContext, ElicitServer, ElicitUrl, UrlAnswer};
use pollster::block_on;
use serde_json::json;
use tower::ServiceExt;

use crate::common::url::*;

/// What the test's connect logic does once the user confirmed.
#[derive(Clone, Copy)]
pub(crate) enum Then {
    Complete,
    Fail,
    Redirect,
    /// Reads the state as another kind of elicitation.
    WrongKind,
}

/// The browser user is the `x-user` header; no header is "not signed in" (a redirect).
pub(crate) struct Hook {
    pub then: Then,
    pub subjects_asked: AtomicUsize,
    pub opened: Mutex<Vec<String>>,
}

impl Hook {
    pub(crate) fn new(then: Then) -> Arc<Self> {
        Arc::new(Hook {
            then,
            subjects_asked: AtomicUsize::new(0),
            opened: Mutex::new(Vec::new()),
        })
    }
}

impl ConnectHook for Hook {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.subjects_asked.fetch_add(1, Ordering::SeqCst);
        match parts.headers.get("x-user") {
            Some(user) => Ok(user.to_str().unwrap().to_owned()),
            None => Err(Redirect::to("/login").into_response()),
        }
    }

    async fn connect(&self, link: &OpenedLink, _parts: &Parts) -> ConnectStep {
        self.opened.lock().unwrap().push(link.id().to_owned());
        let repo = link.state()["repo"].as_str().unwrap().to_owned();
        match self.then {
            Then::Complete => {
                let state: ConnectGithub = link.state_as().unwrap();
                ConnectStep::complete(Some(json!({"account": "octocat", "repo": state.repo})))
                    .with_heading(format!("Connected {repo}"))
            }
            Then::Fail => ConnectStep::fail("no GitHub account")
                .with_message(format!("Could not connect {repo}.")),
            Then::Redirect => ConnectStep::respond(
                Redirect::to("https://github.com/login/oauth/authorize").into_response(),
            ),
            Then::WrongKind => match link.state_as::<PayInvoice>() {
                Ok(_) => panic!("a GitHub handle read as an invoice"),
                Err(e) => ConnectStep::refuse(e),
            },
        }
    }
}

#[derive(Debug, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(message = "Pay the invoice", url = "https://pay.example.com/pay")]
pub(crate) struct PayInvoice {
    invoice: u64,
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The in-memory store, remembering every record that took.
#[derive(Default)]
pub(crate) struct Recording {
    inner: MemoryCompletionStore,
    taken: Mutex<Vec<Completion>>,
}

impl Recording {
    /// Every record that took, in order.
    pub(crate) fn snapshot(&self) -> Vec<Completion> {
        self.taken.lock().unwrap().clone()
    }
}

impl CompletionStore for Recording {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let took = self
                .inner
                .record(id, completion.clone(), expires_at)
                .await?;
            if took {
                self.taken.lock().unwrap().push(completion);
            }
            Ok(took)
        })
    }

    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.inner.lookup(id)
    }

    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.inner.redeem(id, expires_at)
    }
}

pub(crate) fn store_and_server(sealer: StateSealer) -> (Arc<Recording>, ElicitServer) {
    let store = Arc::new(Recording::default());
    let server = ElicitServer::new(sealer).with_url(UrlSettings::new(store.clone()));
    (store, server)
}

pub(crate) fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
}

/// The route served at [`ORIGIN`]: every request's `Host` is checked against it.
pub(crate) fn app(server: &ElicitServer, hook: &Arc<Hook>) -> Router {
    let route = LandingRoute::new(LandingPage::new(server), hook.clone());
    route.with_origin(ORIGIN).into_router()
}

pub(crate) fn app_failing(server: &ElicitServer) -> Router {
    let route = LandingRoute::new(LandingPage::new(server), Hook::new(Then::Fail));
    route.with_origin(ORIGIN).into_router()
}

/// Round 1 as the caller, asking `state`: the link's handle and the state to retry with.
pub(crate) fn start_with(caller: &Caller, state: ConnectGithub) -> (String, String) {
    let ask = async move |cx: &mut ElicitContext| state.clone().ask(cx).await;
    let round = input_required(block_on(caller.call(&caller.first(), ask)));
    (handle_of(&url_request(&round)), state_of(&round))
}

pub(crate) fn start(caller: &Caller) -> (String, String) {
    start_with(caller, bound())
}

/// A server whose store remembers its records, alice's first round asking `ConnectGithub`
/// (its link's handle, the state to retry with), and the route with a [`Hook`] doing `then`.
pub(crate) struct Fixture {
    pub store: Arc<Recording>,
    pub server: ElicitServer,
    pub caller: Caller,
    pub handle: String,
    pub state: String,
    pub hook: Arc<Hook>,
    pub app: Router,
}

pub(crate) fn fixture(then: Then) -> Fixture {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(then);
    let app = app(&server, &hook);
    Fixture {
        store,
        server,
        caller,
        handle,
        state,
        hook,
        app,
    }
}

/// Where the route is served.
pub(crate) const ORIGIN: &str = "https://app.example.com";

/// What a browser sends with the page's own form: same origin, by both headers.
pub(crate) const SAME_ORIGIN: &[(&str, &str)] = &[
    ("host", "app.example.com"),
    ("origin", "https://app.example.com"),
    ("sec-fetch-site", "same-origin"),
];

/// Sends `method uri` as `user` (none: not signed in) with `headers` and a form `body`, for
/// the route's own host unless `headers` name a `Host`.
pub(crate) fn send(
    app: &Router,
    method: Method,
    uri: &str,
    user: Option<&str>,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Response) {
    let mut all = headers.to_vec();
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        all.push(("host", "app.example.com"));
    }
    send_as_is(app, method, uri, user, &all, body)
}

/// [`send`] with exactly `headers` (no `Host` unless they name one).
pub(crate) fn send_as_is(
    app: &Router,
    method: Method,
    uri: &str,
    user: Option<&str>,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Response) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(user) = user {
        request = request.header("x-user", user);
    }
    if !body.is_empty() {
        request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_owned())).unwrap();
    let response = block_on(app.clone().oneshot(request)).unwrap();
    (response.status(), response)
}

/// The link's page as `user`: status and HTML.
pub(crate) fn get(app: &Router, handle: &str, user: Option<&str>) -> (StatusCode, String) {
    let uri = format!("/connect?elicitation={handle}");
    let (status, response) = send(app, Method::GET, &uri, user, &[], "");
    assert_guarded(&response);
    (status, body(response))
}

/// The page's form posted back as `user` with `headers`.
pub(crate) fn post(
    app: &Router,
    handle: &str,
    user: Option<&str>,
    headers: &[(&str, &str)],
    form: &str,
) -> (StatusCode, String) {
    let uri = format!("/connect?elicitation={handle}");
    let (status, response) = send(app, Method::POST, &uri, user, headers, form);
    if status != StatusCode::SEE_OTHER {
        assert_guarded(&response);
    }
    (status, body(response))
}

/// `user` presses `decision` on the page whose form carries `token`: the form posted back
/// from the page's own origin.
pub(crate) fn press(
    app: &Router,
    handle: &str,
    user: &str,
    token: &str,
    decision: &str,
) -> (StatusCode, String) {
    post(app, handle, Some(user), SAME_ORIGIN, &form(token, decision))
}

/// The form's body: `token` and the pressed button.
pub(crate) fn form(token: &str, decision: &str) -> String {
    format!("token={token}&decision={decision}")
}

/// The CSRF token in a confirmation page.
pub(crate) fn token_in(html: &str) -> String {
    let at = html
        .split("name=\"token\" value=\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no token in {html}"));
    at[..at.find('"').unwrap()].to_owned()
}

/// What `user`'s browser does: open the link, press Confirm. Status and response.
pub(crate) fn confirm_response(app: &Router, handle: &str, user: &str) -> (StatusCode, Response) {
    let (status, html) = get(app, handle, Some(user));
    assert_eq!(status, StatusCode::OK, "{html}");
    let uri = format!("/connect?elicitation={handle}");
    let form = form(&token_in(&html), "confirm");
    send(app, Method::POST, &uri, Some(user), SAME_ORIGIN, &form)
}

/// [`confirm_response`], its body read.
pub(crate) fn confirm(app: &Router, handle: &str, user: &str) -> (StatusCode, String) {
    let (status, response) = confirm_response(app, handle, user);
    (status, body(response))
}

pub(crate) fn body(response: Response) -> String {
    let bytes = block_on(axum::body::to_bytes(response.into_body(), 1 << 16)).unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The route's own pages: HTML, never cached, no referrer, nothing loaded, run or framed.
#[track_caller]
pub(crate) fn assert_guarded(response: &Response) {
    let h = response.headers();
    assert_eq!(h[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    assert_eq!(h[header::REFERRER_POLICY], "no-referrer");
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(h[header::X_FRAME_OPTIONS], "DENY");
    let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(
        csp.starts_with("default-src 'none'; style-src 'sha256-"),
        "{csp}"
    );
    assert!(
        csp.ends_with("; base-uri 'none'; frame-ancestors 'none'"),
        "{csp}"
    );
    assert!(!csp.contains("script-src"), "{csp}");
}

/// The one refusal every probe gets: 404 and one page.
pub(crate) fn refused() -> (StatusCode, String) {
    let head = concat!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<title>This link cannot be used</title><style>"
    );
    let tail = concat!(
        "</style></head>\n<body><main>\n<h1>This link cannot be used</h1>\n",
        "<p>This link is invalid or has expired.</p>\n",
        "<p class=\"hint\">If you started this request, ask your assistant for a new link and ",
        "open it while signed in with the same account.</p>\n</main></body></html>\n"
    );
    (StatusCode::NOT_FOUND, format!("{head}{}{tail}", *STYLE))
}

/// The pages' stylesheet, read from a page (the refusal tests compare whole pages).
static STYLE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let (_, server) = store_and_server(sealer());
    let (_, response) = send(
        &app(&server, &Hook::new(Then::Complete)),
        Method::GET,
        "/connect",
        None,
        &[],
        "",
    );
    let html = body(response);
    let from = html.find("<style>").unwrap() + "<style>".len();
    html[from..html.find("</style>").unwrap()].to_owned()
});

pub(crate) fn lookup(store: &Recording, id: &str) -> Option<Completion> {
    block_on(store.lookup(id)).unwrap()
}

pub(crate) fn retry(caller: &Caller, state: &str) -> UrlAnswer<ConnectGithub> {
    complete(block_on(
        caller.call(&caller.retry(state, Some(answer("accept"))), connect),
    ))
}

/// The app's sessions, as a browser test signs alice in: the `session` cookie `s-alice` is
/// alice; anything else is nobody (the hook asks to sign in).
pub(crate) fn session_user(parts: &Parts) -> Option<String> {
    let cookies = parts.headers.get("cookie").and_then(|c| c.to_str().ok())?;
    let session = cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix("session="));
    (session == Some("s-alice")).then(|| ALICE.to_owned())
}

/// Whether a token request carries the client `id` and `secret` by HTTP Basic: what a stand-in
/// provider's token endpoint checks.
pub(crate) fn basic_credentials(headers: &HeaderMap, id: &str, secret: &str) -> bool {
    use base64::Engine as _;
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"))
    );
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        == Some(basic.as_str())
}
