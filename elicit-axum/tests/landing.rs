//! The ready landing route (`elicit-axum`), driven through axum's router without a
//! socket: a GET with alice's session completes her flow; other users, forged, missing, spent
//! and expired handles get the uniform pages with their statuses and record nothing; texts
//! are escaped; `HEAD`, sign-in redirects and the application's own responses finish nothing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use common::trace::recorded;
use common::url::*;
use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink, PageTexts, landing_routes};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, PageError,
};
use elicit_runtime::{ElicitContext, ElicitServer, ElicitUrl, UrlAnswer};
use pollster::block_on;
use serde_json::json;
use tower::ServiceExt;

/// What the test's connect logic does once the handle is open.
#[derive(Clone, Copy)]
enum Then {
    Complete,
    Fail,
    Redirect,
    /// Reads the state as another kind of elicitation.
    WrongKind,
}

/// The browser user is the `x-user` header; no header is "not signed in" (a redirect).
struct Hook {
    then: Then,
    subjects_asked: AtomicUsize,
    opened: Mutex<Vec<String>>,
}

impl Hook {
    fn new(then: Then) -> Arc<Self> {
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
struct PayInvoice {
    invoice: u64,
}

fn store_and_server(sealer: StateSealer) -> (Arc<MemoryCompletionStore>, ElicitServer) {
    let store = Arc::new(MemoryCompletionStore::new());
    let server = ElicitServer::new(sealer).with_completion_store(store.clone());
    (store, server)
}

fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
}

fn app(server: &ElicitServer, hook: &Arc<Hook>) -> Router {
    landing_routes(LandingPage::new(server), hook.clone())
}

/// Round 1 as alice, asking `state`: the link's handle and the state to retry with.
fn start_with(caller: &Caller, state: ConnectGithub) -> (String, String) {
    let ask = async move |cx: &mut ElicitContext| state.clone().ask(cx).await;
    let round = input_required(block_on(caller.call(&caller.first(), ask)));
    (handle_of(&url_request(&round)), state_of(&round))
}

fn start(caller: &Caller) -> (String, String) {
    start_with(caller, bound())
}

/// Sends `method uri` as `user` (none: not signed in); returns status, headers and body.
fn send(app: &Router, method: Method, uri: &str, user: Option<&str>) -> (StatusCode, Response) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(user) = user {
        request = request.header("x-user", user);
    }
    let response = block_on(app.clone().oneshot(request.body(Body::empty()).unwrap())).unwrap();
    (response.status(), response)
}

fn get(app: &Router, handle: &str, user: Option<&str>) -> (StatusCode, String) {
    let (status, response) = send(
        app,
        Method::GET,
        &format!("/connect?elicitation={handle}"),
        user,
    );
    assert_guarded(&response);
    (status, body(response))
}

fn body(response: Response) -> String {
    let bytes = block_on(axum::body::to_bytes(response.into_body(), 1 << 16)).unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The route's own pages: HTML, never cached, no referrer, nothing loaded or framed.
#[track_caller]
fn assert_guarded(response: &Response) {
    let h = response.headers();
    assert_eq!(h[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    assert_eq!(h[header::REFERRER_POLICY], "no-referrer");
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(
        h[header::CONTENT_SECURITY_POLICY],
        "default-src 'none'; frame-ancestors 'none'"
    );
}

/// The page with `heading`, `message` and the default close hint, exactly.
fn html_page(heading: &str, message: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{heading}</title></head>\n<body><h1>{heading}</h1>\n<p>{message}</p>\n\
         <p>You can close this tab and return to your assistant.</p></body></html>\n"
    )
}

const REFUSED: &str = "This link cannot be used";
const INVALID: &str = "This link is invalid or has expired.";

fn lookup(store: &MemoryCompletionStore, id: &str) -> Option<Completion> {
    block_on(store.lookup(id)).unwrap()
}

fn retry(caller: &Caller, state: &str) -> UrlAnswer<ConnectGithub> {
    complete(block_on(
        caller.call(&caller.retry(state, Some(answer("accept"))), connect),
    ))
}

#[test]
fn alices_get_completes_her_flow_with_the_hooks_result() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    let (status, html) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        html,
        html_page("Connected octo/hello", "This step is done.")
    );

    let [id] = hook.opened.lock().unwrap().clone().try_into().unwrap();
    let result = json!({"account": "octocat", "repo": "octo/hello"});
    assert_eq!(
        lookup(&store, &id),
        Some(Completion::Completed {
            result: Some(result.clone())
        })
    );
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(result)
        }
    );
}

#[test]
fn another_user_gets_403_and_the_flow_stays_open_for_alice() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    for nobody in [MALLORY, ""] {
        let (status, html) = get(&app, &handle, Some(nobody));
        assert_eq!(status, StatusCode::FORBIDDEN, "{nobody:?}");
        assert_eq!(
            html,
            html_page(REFUSED, "This link was started by another user.")
        );
    }
    assert!(
        hook.opened.lock().unwrap().is_empty(),
        "connect ran for mallory"
    );

    assert_eq!(get(&app, &handle, Some(ALICE)).0, StatusCode::OK);
    let [id] = hook.opened.lock().unwrap().clone().try_into().unwrap();
    assert!(matches!(
        lookup(&store, &id),
        Some(Completion::Completed { .. })
    ));
    assert!(matches!(
        retry(&caller, &state),
        UrlAnswer::Completed { .. }
    ));
}

#[test]
fn forged_and_missing_handles_get_400_and_the_uniform_text() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    // Forged: one changed character, truncated, garbage, a requestState; another server's key.
    let (_, other) = store_and_server(StateSealer::new(KeyRing::new(1, [8; 32]), "issues-server"));
    let foreign = start(&Caller::new(&other, Some(ALICE))).0;
    for bad in [
        tamper(&handle),
        handle[..handle.len() - 4].to_owned(),
        "eu1.AAAA".to_owned(),
        state,
        foreign,
    ] {
        let (status, html) = get(&app, &bad, Some(ALICE));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(html, html_page(REFUSED, INVALID), "{bad}");
    }
    let asked = hook.subjects_asked.load(Ordering::SeqCst);
    assert_eq!(asked, 5);

    // Missing, empty, twice: refused before asking who the user is.
    for uri in [
        "/connect",
        "/connect?",
        "/connect?elicitation=",
        "/connect?other=1",
        &format!("/connect?elicitation={handle}&elicitation={handle}"),
    ] {
        let (status, response) = send(&app, Method::GET, uri, Some(ALICE));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert_guarded(&response);
        assert_eq!(body(response), html_page(REFUSED, INVALID), "{uri}");
    }
    assert_eq!(hook.subjects_asked.load(Ordering::SeqCst), asked);
    assert!(hook.opened.lock().unwrap().is_empty());

    // The genuine handle, percent-encoded and among other parameters, still opens.
    let encoded = handle.replace('.', "%2E");
    let uri = format!("/connect?provider=github&elicitation={encoded}");
    assert_eq!(send(&app, Method::GET, &uri, Some(ALICE)).0, StatusCode::OK);
}

#[test]
fn a_finished_flow_answers_409_and_keeps_its_first_outcome() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    assert_eq!(get(&app, &handle, Some(ALICE)).0, StatusCode::OK);
    let (status, html) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(html, html_page(REFUSED, "This flow has already finished."));

    // A failure recorded by another tab's route loses too.
    let failing = app_failing(&server);
    assert_eq!(get(&failing, &handle, Some(ALICE)).0, StatusCode::CONFLICT);
    let [id] = hook.opened.lock().unwrap().clone().try_into().unwrap();
    assert!(matches!(
        lookup(&store, &id),
        Some(Completion::Completed { .. })
    ));
    assert!(matches!(
        retry(&caller, &state),
        UrlAnswer::Completed { .. }
    ));
}

fn app_failing(server: &ElicitServer) -> Router {
    landing_routes(LandingPage::new(server), Hook::new(Then::Fail))
}

#[test]
fn two_tabs_open_the_link_and_the_second_record_is_409() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    // The other tab's page opened the handle before this route's completion...
    let page = LandingPage::new(&server);
    let (other_tab, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    assert_eq!(
        get(
            &app(&server, &Hook::new(Then::Complete)),
            &handle,
            Some(ALICE)
        )
        .0,
        StatusCode::OK
    );
    // ...and records after it: refused.
    assert_eq!(
        block_on(page.complete_raw(&other_tab, None)).unwrap_err(),
        PageError::AlreadyRecorded
    );
}

#[test]
fn reflected_text_is_escaped() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let hostile = ConnectGithub {
        provider: "github".into(),
        repo: r#"<script>alert("x")</script>&'"#.into(),
    };
    let (handle, _) = start_with(&caller, hostile);
    let (status, html) = get(
        &app(&server, &Hook::new(Then::Complete)),
        &handle,
        Some(ALICE),
    );
    assert_eq!(status, StatusCode::OK);
    let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;";
    assert_eq!(
        html,
        html_page(&format!("Connected {escaped}"), "This step is done.")
    );
    assert!(!html.contains("<script"));

    // The failure page's message too, and the configured texts.
    let bold = ConnectGithub {
        provider: "github".into(),
        repo: "<b>x</b>".into(),
    };
    let (handle, state) = start_with(&caller, bold.clone());
    let texts = PageTexts::default()
        .with_failed("<i>Not connected</i>", "unused")
        .with_close_hint("Close <this> tab & go back.");
    let app = LandingRoute::new(LandingPage::new(&server), Hook::new(Then::Fail))
        .with_texts(texts)
        .into_router();
    let (status, html) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(
            "<title>&lt;i&gt;Not connected&lt;/i&gt;</title></head>\n<body><h1>&lt;i&gt;Not connected&lt;/i&gt;</h1>\n\
             <p>Could not connect &lt;b&gt;x&lt;/b&gt;.</p>\n<p>Close &lt;this&gt; tab &amp; go back.</p>"
        ),
        "{html}"
    );
    // The failure is recorded with the hook's reason, which the browser never sees.
    assert!(!html.contains("no GitHub account"));
    let retry = caller.retry(&state, Some(answer("accept")));
    let ask = async |cx: &mut ElicitContext| bold.clone().ask(cx).await;
    assert_eq!(
        complete(block_on(caller.call(&retry, ask))),
        UrlAnswer::Failed {
            state: bold.clone(),
            reason: "no GitHub account".into()
        }
    );
}

#[test]
fn an_expired_link_is_410() {
    let (store, server) = store_and_server(sealer().with_ttl(Duration::from_secs(1)));
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    let expires_at = block_on(page.open::<ConnectGithub>(&handle, ALICE))
        .unwrap()
        .expires_at();
    std::thread::sleep(
        expires_at
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(150),
    );
    let hook = Hook::new(Then::Complete);
    let (status, html) = get(&app(&server, &hook), &handle, Some(ALICE));
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(html, html_page(REFUSED, INVALID));
    assert!(hook.opened.lock().unwrap().is_empty());
    assert_eq!(lookup(&store, opened.id()), None);
}

#[test]
fn sign_in_redirects_oauth_redirects_and_head_record_nothing() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let uri = format!("/connect?elicitation={handle}");

    // Not signed in: the hook's own response, passed through (plus no-store, no-referrer).
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);
    let (status, response) = send(&app, Method::GET, &uri, None);
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/login");
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    assert_eq!(response.headers()[header::REFERRER_POLICY], "no-referrer");
    assert!(hook.opened.lock().unwrap().is_empty());

    // HEAD (a link preview) never runs the flow.
    let (status, response) = send(&app, Method::HEAD, &uri, Some(ALICE));
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(response.headers()[header::ALLOW], "GET");
    assert_eq!(hook.subjects_asked.load(Ordering::SeqCst), 1);
    // Nor does a POST.
    assert_eq!(
        send(&app, Method::POST, &uri, Some(ALICE)).0,
        StatusCode::METHOD_NOT_ALLOWED
    );

    // The connect logic redirects to the OAuth provider: nothing recorded yet.
    let oauth = Hook::new(Then::Redirect);
    let (status, response) = send(&self::app(&server, &oauth), Method::GET, &uri, Some(ALICE));
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()[header::LOCATION],
        "https://github.com/login/oauth/authorize"
    );
    let [id] = oauth.opened.lock().unwrap().clone().try_into().unwrap();
    assert_eq!(lookup(&store, &id), None);

    // The OAuth callback opens the handle again and completes.
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    block_on(page.complete_raw(&opened, None)).unwrap();
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: None
        }
    );
}

#[test]
fn a_refusing_hook_no_store_and_another_path() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);

    // The hook reads the state as another kind: 400, the uniform text, nothing recorded.
    let hook = Hook::new(Then::WrongKind);
    let (status, html) = get(&app(&server, &hook), &handle, Some(ALICE));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        html,
        html_page(REFUSED, "This link is for another kind of request.")
    );
    let [id] = hook.opened.lock().unwrap().clone().try_into().unwrap();
    assert_eq!(lookup(&store, &id), None);

    // A server without a completion store: 500, "try again later".
    let no_store = ElicitServer::new(sealer());
    let (status, html) = get(
        &app(&no_store, &Hook::new(Then::Complete)),
        &handle,
        Some(ALICE),
    );
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        html,
        html_page(
            REFUSED,
            "This request cannot be completed right now; try again later."
        )
    );

    // Served at another path, for any app state; `/connect` is then not served.
    #[derive(Clone)]
    struct AppState;
    let app: Router<AppState> = Router::new().merge(
        LandingRoute::new(LandingPage::new(&server), Hook::new(Then::Complete))
            .at("/github/connect")
            .into_router(),
    );
    let app = app.with_state(AppState);
    let (status, _) = send(
        &app,
        Method::GET,
        &format!("/connect?elicitation={handle}"),
        Some(ALICE),
    );
    assert_eq!(status, StatusCode::NOT_FOUND);
    let uri = format!("/github/connect?elicitation={handle}");
    assert_eq!(send(&app, Method::GET, &uri, Some(ALICE)).0, StatusCode::OK);
    assert!(matches!(
        lookup(&store, &id),
        Some(Completion::Completed { .. })
    ));
}

#[test]
fn operators_see_the_precise_reason_never_the_handle_or_the_user() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let app = app(&server, &Hook::new(Then::Complete));
    let forged = tamper(&handle);

    let events = recorded(|| {
        assert_eq!(
            send(&app, Method::GET, "/connect", Some(ALICE)).0,
            StatusCode::BAD_REQUEST
        );
        assert_eq!(get(&app, &forged, Some(ALICE)).0, StatusCode::BAD_REQUEST);
        assert_eq!(get(&app, &handle, Some(MALLORY)).0, StatusCode::FORBIDDEN);
        assert_eq!(get(&app, &handle, Some(ALICE)).0, StatusCode::OK);
    });
    let seen: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            let field = |name: &str| e.get(name).map(String::as_str).unwrap_or("");
            (field("message"), field("status"), field("reason"))
        })
        .collect();
    assert_eq!(seen.len(), 4, "{events:?}");
    assert_eq!(
        seen[0],
        (
            "landing page refused a request",
            "400",
            "no `elicitation` parameter in the query"
        )
    );
    assert_eq!(seen[1].0, "landing page refused a handle");
    assert_eq!(seen[1].1, "400");
    assert!(
        seen[1].2.starts_with("invalid elicitation handle: "),
        "{}",
        seen[1].2
    );
    assert_eq!(
        seen[2],
        (
            "landing page refused a handle",
            "403",
            "this link was started by another user"
        )
    );
    assert_eq!(seen[3].0, "landing page completed a flow");
    assert_eq!(events[3]["key"], KEY);
    assert!(events[3]["id"].len() > 8);
    for event in &events {
        for value in event.values() {
            for secret in [handle.as_str(), forged.as_str(), ALICE, MALLORY] {
                assert!(!value.contains(secret), "{secret} in {event:?}");
            }
        }
    }
}
