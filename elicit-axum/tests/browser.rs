//! Issue 21 item 1 in a real browser: headless Chromium (Debian's `chromium`; `scripts/chromium`
//! installs it, `./scripts/test` runs that first) signed in to the landing route's app by a
//! session cookie.
//!
//! * A page on another loopback origin (another port: same site, so the browser sends the
//!   victim's `SameSite=Lax` cookie along) embeds the link as an `<img>`, and another
//!   auto-submits a form to it, with the victim's valid token (as if it had leaked) and
//!   without: nothing is recorded (the `GET` only shows the page; the `POST` is refused with
//!   403 by `Sec-Fetch-Site`).
//! * The user opens the link, sees the confirmation page, clicks Confirm (a mouse click through
//!   the DevTools protocol): the flow completes and the tool reads it.
//!
//! Screenshots of the confirmation, done and refusal pages go to `target/landing-screenshots/`.
//! `ELICIT_SKIP_BROWSER=1` skips the test with a message; otherwise it fails when there is no
//! Chromium (`ELICIT_CHROMIUM`, or `chromium` on `PATH`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[allow(dead_code)]
mod common;
mod support;

#[path = "browser/cdp.rs"]
mod cdp;

use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::{Next, from_fn};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use common::url::*;
use elicit_axum::{ConnectHook, ConnectStep, LandingRoute, OpenedLink, PageTexts};
use elicit_runtime::UrlAnswer;
use elicit_runtime::url::{Completion, LandingPage};
use pollster::block_on;
use serde_json::json;
use support::*;

/// The app's sessions: the `session` cookie names the user.
struct CookieSession;

impl ConnectHook for CookieSession {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        let cookies = parts.headers.get("cookie").and_then(|c| c.to_str().ok());
        let session =
            cookies.and_then(|c| c.split(';').find_map(|c| c.trim().strip_prefix("session=")));
        match session {
            Some("s-alice") => Ok(ALICE.to_owned()),
            _ => Err((StatusCode::UNAUTHORIZED, "sign in first").into_response()),
        }
    }

    async fn connect(&self, _link: &OpenedLink, _parts: &Parts) -> ConnectStep {
        ConnectStep::complete(Some(json!({"account": "octocat"})))
            .with_heading("GitHub connected")
            .with_message("Your GitHub account octocat is now connected to Issue Importer.")
    }
}

/// One request the route saw: what the browser sent, and the answer.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    site: String,
    origin: String,
    dest: String,
    cookie: bool,
    status: u16,
}

type Log = Arc<Mutex<Vec<Seen>>>;

/// Records every request to the route.
async fn log_requests(log: Log, request: Request, next: Next) -> Response {
    let mut seen = {
        let header = |name: &str| {
            let value = request.headers().get(name).and_then(|v| v.to_str().ok());
            value.unwrap_or("-").to_owned()
        };
        Seen {
            method: request.method().to_string(),
            site: header("sec-fetch-site"),
            origin: header("origin"),
            dest: header("sec-fetch-dest"),
            cookie: request.headers().contains_key("cookie"),
            status: 0,
        }
    };
    let response = next.run(request).await;
    seen.status = response.status().as_u16();
    log.lock().unwrap().push(seen);
    response
}

/// The attacker's pages, on another port: an `<img>` of the link, and forms posting to it.
fn attacker(link: &str, leaked_token: &str) -> Router {
    let img = format!(
        "<!doctype html><title>Cute cats</title><h1>Cats</h1><img src=\"{link}\" alt=\"cat\">"
    );
    let form = |token: &str| {
        format!(
            "<!doctype html><title>Win a prize</title>\
             <form method=\"post\" action=\"{link}\">\
             <input type=\"hidden\" name=\"token\" value=\"{token}\">\
             <input type=\"hidden\" name=\"decision\" value=\"confirm\"></form>\
             <script>document.forms[0].submit()</script>"
        )
    };
    let (with_token, without) = (form(leaked_token), form(""));
    Router::new()
        .route("/img", get(move || async move { Html(img) }))
        .route("/form", get(move || async move { Html(with_token) }))
        .route("/form-no-token", get(move || async move { Html(without) }))
}

fn serve(runtime: &tokio::runtime::Runtime, app: Router) -> String {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    runtime.spawn(async move { axum::serve(listener, app).await });
    origin
}

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/landing-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits until the route has seen `n` requests.
fn seen(log: &Log, n: usize) -> Vec<Seen> {
    let start = Instant::now();
    while log.lock().unwrap().len() < n && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    log.lock().unwrap().clone()
}

#[test]
fn a_real_browser_confirms_and_pages_of_another_origin_complete_nothing() {
    if std::env::var("ELICIT_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!(
            "ELICIT_SKIP_BROWSER=1: skipping the headless Chromium test of the landing route"
        );
        return;
    }
    let chromium = cdp::find_chromium().expect(
        "no Chromium: run scripts/chromium (installs Debian's `chromium`) or set ELICIT_CHROMIUM; \
         ELICIT_SKIP_BROWSER=1 skips this test",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();

    // alice's tool call asks; her link points at the app on loopback.
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let log: Log = Arc::default();
    let logged = log.clone();
    let app = LandingRoute::new(LandingPage::new(&server), CookieSession)
        .with_texts(PageTexts::default().with_server_name("Issue Importer"))
        .into_router()
        .layer(from_fn(move |request: Request, next: Next| {
            log_requests(logged.clone(), request, next)
        }));
    let origin = serve(&runtime, app);
    let link = format!("{origin}/connect?elicitation={handle}");
    // The attacker even has alice's valid token for this flow.
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    let leaked = page.confirmation_token(&opened, ALICE).unwrap();
    let evil = serve(&runtime, attacker(&link, &leaked));
    assert_ne!(origin, evil);

    let profile = std::env::temp_dir().join(format!("elicit-chromium-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let tab = browser.new_page();
    // alice is signed in to the app: its session cookie, as its login would set it.
    browser.call(
        Some(&tab),
        "Network.setCookie",
        json!({"name": "session", "value": "s-alice", "url": format!("{origin}/"),
               "httpOnly": true, "sameSite": "Lax"}),
    );
    let shots = screenshots();

    // 1. Another origin's <img> of the link: the browser sends it with alice's cookie; the
    //    route shows a page nobody sees and records nothing.
    browser.goto(&tab, &format!("{evil}/img"));
    let requests = seen(&log, 1);
    let [img] = requests.as_slice() else {
        panic!("{requests:?}")
    };
    assert_eq!(
        (img.method.as_str(), img.dest.as_str(), img.site.as_str()),
        ("GET", "image", "same-site"),
        "{img:?}"
    );
    assert!(
        img.cookie,
        "the browser sent alice's cookie with the <img>: {img:?}"
    );
    assert_eq!(img.status, 200);
    assert!(
        store.snapshot().is_empty(),
        "an <img> recorded {:?}",
        store.snapshot()
    );

    // 2. Another origin's auto-submitting form, with the leaked token and without: refused
    //    (403) on Sec-Fetch-Site, nothing recorded.
    for (n, path) in [(2, "/form"), (3, "/form-no-token")] {
        // The page submits its form at once: wait for where it lands, not for the page.
        browser.navigate(&tab, &format!("{evil}{path}"));
        browser.wait_for(
            &tab,
            &format!("location.href.startsWith('{origin}/') && document.readyState === 'complete'"),
        );
        let requests = seen(&log, n);
        let post = &requests[n - 1];
        assert_eq!(
            (
                post.method.as_str(),
                post.site.as_str(),
                post.origin.as_str()
            ),
            ("POST", "same-site", evil.as_str()),
            "{post:?}"
        );
        assert!(
            post.cookie,
            "the browser sent alice's cookie with the form: {post:?}"
        );
        assert_eq!(post.status, 403, "{post:?}");
        assert_eq!(
            browser.eval(&tab, "document.querySelector('h1').textContent"),
            json!("This link cannot be used")
        );
        assert!(
            store.snapshot().is_empty(),
            "{path} recorded {:?}",
            store.snapshot()
        );
    }
    std::fs::write(shots.join("refused.png"), browser.screenshot(&tab)).unwrap();

    // 3. alice opens her link: the confirmation page, nothing recorded yet.
    browser.goto(&tab, &link);
    let text = browser.eval(&tab, "document.body.innerText");
    let text = text.as_str().unwrap();
    for shown in [
        "Request from Issue Importer",
        "Confirm this request",
        MESSAGE,
        ALICE,
        "Confirm",
        "Cancel",
    ] {
        assert!(text.contains(shown), "{shown:?} not in {text:?}");
    }
    std::fs::write(shots.join("confirm.png"), browser.screenshot(&tab)).unwrap();
    assert!(store.snapshot().is_empty());

    // She clicks Confirm: the page's own form, posted from its own origin, completes the flow.
    browser.click(&tab, "button.confirm");
    browser.wait_for(
        &tab,
        "document.readyState === 'complete' && document.querySelector('h1') \
         && document.querySelector('h1').textContent === 'GitHub connected'",
    );
    std::fs::write(shots.join("done.png"), browser.screenshot(&tab)).unwrap();
    let requests = seen(&log, 5);
    let confirmed = &requests[4];
    assert_eq!(
        (confirmed.method.as_str(), confirmed.site.as_str()),
        ("POST", "same-origin"),
        "{confirmed:?}"
    );
    assert_eq!(confirmed.status, 200, "{confirmed:?}");
    eprintln!("the browser's own confirmation: {confirmed:?}");
    assert_eq!(
        store.snapshot(),
        vec![Completion::Completed {
            result: Some(json!({"account": "octocat"}))
        }]
    );
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(json!({"account": "octocat"}))
        }
    );
    drop(browser);
    eprintln!("screenshots in {}", shots.display());
}
