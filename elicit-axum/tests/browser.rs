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
//! * Issue 32, DNS rebinding: `rebind.test` resolves to 127.0.0.1 (Chromium's
//!   `--host-resolver-rules`, standing in for an attacker's DNS answer flipping to the
//!   server's address). The link opened under that name, and the attacker's script there
//!   (same origin, to the browser) posting the form with the token, are refused with the
//!   uniform 404 by the route's `Host` check; the route's own origin confirms.
//!
//! * The secret page of a stdio server (`SecretPage` over `LocalBrowser`): the person types a
//!   wrong API key (the hook's reason, the page again), then the right one (saved, the flow
//!   completes); another browser opening the link is refused; the key is in no URL or page.
//!
//! Screenshots of the confirmation, done and refusal pages go to `target/landing-screenshots/`.
//! Ignored by a plain `cargo test` (a machine without Chromium stays green); `./scripts/test`
//! installs Chromium and runs them, and `cargo test -p elicit-axum --test browser -- --ignored`
//! runs them by hand. Run, they fail when there is no Chromium (`ELICIT_CHROMIUM`, or
//! `chromium` on `PATH`).

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
use elicit_axum::{
    ConnectHook, ConnectStep, LandingRoute, LocalBrowser, OpenedLink, PageTexts, SecretEntry,
    SecretHook, SecretPage,
};
use elicit_runtime::url::{Completion, LandingPage};
use elicit_runtime::{LOCAL_PRINCIPAL, UrlAnswer};
use pollster::block_on;
use serde_json::{Value, json};
use support::*;

/// The app's sessions: the `session` cookie names the user.
struct CookieSession;

impl ConnectHook for CookieSession {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        session_user(parts)
            .ok_or_else(|| (StatusCode::UNAUTHORIZED, "sign in first").into_response())
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
    path: String,
    host: String,
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
            path: request.uri().path().to_owned(),
            host: header("host"),
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
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --test browser -- --ignored`)"]
fn a_real_browser_confirms_and_pages_of_another_origin_complete_nothing() {
    let (chromium, runtime) = cdp::chromium_and_runtime();

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
    browser.sign_in(&tab, &origin, "s-alice");
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

/// A loopback development server with no sign-in, like the demo's: every browser is alice.
/// What DNS rebinding targets (the attacker's name carries no cookie of the app's).
struct NoSignIn;

impl ConnectHook for NoSignIn {
    async fn subject(&self, _parts: &Parts) -> Result<String, Response> {
        Ok(ALICE.to_owned())
    }

    async fn connect(&self, _link: &OpenedLink, _parts: &Parts) -> ConnectStep {
        ConnectStep::complete(None).with_heading("GitHub connected")
    }
}

#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --test browser -- --ignored`)"]
fn a_real_browser_under_a_rebinding_attackers_name_completes_nothing() {
    let (chromium, runtime) = cdp::chromium_and_runtime();
    let (store, server) = store_and_server(sealer());
    let (handle, _) = start(&Caller::new(&server, Some(ALICE)));
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let origin = format!("http://{addr}");
    let log: Log = Arc::default();
    let logged = log.clone();
    // `/cute-cats` stands in for the attacker's page: in the attack the attacker's server
    // served it under `rebind.test` before the name's DNS answer flipped to 127.0.0.1.
    let cats = Html("<!doctype html><title>Cute cats</title><h1>Cats</h1>");
    let app = LandingRoute::new(LandingPage::new(&server), NoSignIn)
        .with_origin(origin.clone())
        .into_router()
        .route("/cute-cats", get(move || async move { cats }))
        .layer(from_fn(move |request: Request, next: Next| {
            log_requests(logged.clone(), request, next)
        }));
    runtime.spawn(async move { axum::serve(listener, app).await });
    let path = format!("/connect?elicitation={handle}");
    let rebound = format!("http://rebind.test:{}", addr.port());
    // The token the attacker's script would read off the page, had the page shown.
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    let leaked = page.confirmation_token(&opened, ALICE).unwrap();

    let profile = std::env::temp_dir().join(format!("elicit-chromium-rb-{}", std::process::id()));
    let rules = "'--host-resolver-rules=MAP rebind.test 127.0.0.1'";
    let mut browser = cdp::Browser::launch_with(&chromium, profile, rules);
    let tab = browser.new_page();

    // 1. The link under the attacker's name: the uniform refusal, not the page.
    browser.goto(&tab, &format!("{rebound}{path}"));
    assert_eq!(
        browser.eval(&tab, "document.querySelector('h1').textContent"),
        json!("This link cannot be used")
    );
    // 2. The attacker's own page on that origin (no CSP of the route's) fetches the link and posts its form, with the token it
    //    read or, failing that, the leaked one. Same origin to the browser; refused by `Host`.
    browser.goto(&tab, &format!("{rebound}/cute-cats"));
    let script = format!(
        "(async () => {{ \
           const page = await fetch({path:?}); \
           const found = (await page.text()).match(/name=\"token\" value=\"([^\"]*)\"/); \
           const token = found ? found[1] : {leaked:?}; \
           const post = await fetch({path:?}, {{method: 'POST', \
             headers: {{'content-type': 'application/x-www-form-urlencoded'}}, \
             body: `token=${{token}}&decision=confirm`}}); \
           return [page.status, !!found, post.status]; \
         }})()"
    );
    assert_eq!(
        browser.eval_awaited(&tab, &script),
        json!([404, false, 404]),
        "the attacker's script read the page or confirmed"
    );
    let requests: Vec<Seen> = seen(&log, 4)
        .into_iter()
        .filter(|r| r.path == "/connect")
        .collect();
    let host = format!("rebind.test:{}", addr.port());
    let methods: Vec<&str> = requests.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(methods, ["GET", "GET", "POST"], "{requests:?}");
    for seen in &requests {
        assert_eq!(
            (seen.host.as_str(), seen.status),
            (host.as_str(), 404),
            "{seen:?}"
        );
    }
    // Its own origin, to the browser: without the `Host` check, `Origin` matched `Host`.
    // (No `Sec-Fetch-Site`: Chromium sends it to trustworthy origins only, and plain
    // `http://rebind.test` is not one.)
    assert_eq!(requests[2].origin, rebound, "{:?}", requests[2]);
    assert!(store.snapshot().is_empty(), "{:?}", store.snapshot());

    // 3. The route's own origin: the page, and Confirm completes.
    browser.goto(&tab, &format!("{origin}{path}"));
    browser.click(&tab, "button.confirm");
    browser.wait_for(
        &tab,
        "document.readyState === 'complete' && document.querySelector('h1') \
         && document.querySelector('h1').textContent === 'GitHub connected'",
    );
    assert_eq!(
        store.snapshot(),
        vec![Completion::Completed { result: None }]
    );
    drop(browser);
}

/// The server's vault of the secret page: every key typed, refused without `sk-`.
#[derive(Default)]
struct Vault(Mutex<Vec<(String, String)>>);

impl SecretHook for Vault {
    async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
        let key = entry.secret("api_key").unwrap().expose().to_owned();
        self.0
            .lock()
            .unwrap()
            .push((entry.user().to_owned(), key.clone()));
        if key.starts_with("sk-") {
            Ok(None)
        } else {
            Err("That is not an OpenAI key: it starts with sk-.".into())
        }
    }
}

#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --test browser -- --ignored`)"]
fn a_person_types_an_api_key_on_the_secret_page_of_a_stdio_server() {
    let (chromium, runtime) = cdp::chromium_and_runtime();
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(LOCAL_PRINCIPAL));
    let (handle, state) = start(&caller);
    let vault = Arc::new(Vault::default());
    // A stdio server on the person's machine: its one local user, no sign-in, no origin set (the
    // route serves loopback names only).
    let app = SecretPage::new(&server, LocalBrowser::new(&server), vault.clone())
        .ask("api_key", "OpenAI API key")
        .routes();
    let origin = serve(&runtime, app);
    let link = format!("{origin}/connect?elicitation={handle}");
    let shots = screenshots();

    let profile = std::env::temp_dir().join(format!("elicit-secret-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let tab = browser.new_page();
    // She opens her link: LocalBrowser ties it to this browser (a cookie), then the page.
    browser.navigate(&tab, &link);
    let input = "document.querySelector('input#secret0')";
    browser.wait_for(
        &tab,
        &format!("document.readyState === 'complete' && {input}"),
    );
    assert_eq!(
        browser.eval(
            &tab,
            &format!(
                "[{input}.type, {input}.autocomplete, document.querySelector('label').textContent]"
            )
        ),
        json!(["password", "off", "OpenAI API key"])
    );
    std::fs::write(shots.join("secret.png"), browser.screenshot(&tab)).unwrap();

    // Another browser on the same machine (another profile, another program) with the link:
    // refused, it cannot submit.
    let other_profile =
        std::env::temp_dir().join(format!("elicit-secret-other-{}", std::process::id()));
    let mut other = cdp::Browser::launch(&chromium, other_profile);
    let other_tab = other.new_page();
    other.navigate(&other_tab, &link);
    other.wait_for(
        &other_tab,
        "document.readyState === 'complete' && document.querySelector('h1') \
         && document.querySelector('h1').textContent === 'This link cannot be used'",
    );
    drop(other);

    // She types a wrong key and presses Enter: the hook's reason, the inputs empty again.
    let wrong = "pk-wrong-123";
    browser.click(&tab, "input#secret0");
    browser.call(Some(&tab), "Input.insertText", json!({"text": wrong}));
    // Enter in the input: the form's first button, Save.
    for kind in ["keyDown", "keyUp"] {
        let enter = json!({"type": kind, "key": "Enter", "code": "Enter",
                           "windowsVirtualKeyCode": 13, "text": "\r"});
        browser.call(Some(&tab), "Input.dispatchKeyEvent", enter);
    }
    browser.wait_for(
        &tab,
        "document.readyState === 'complete' && document.querySelector('[role=alert]')",
    );
    assert_eq!(
        browser.eval(&tab, "document.querySelector('[role=alert]').textContent"),
        json!("That is not an OpenAI key: it starts with sk-.")
    );
    assert_eq!(browser.eval(&tab, &format!("{input}.value")), json!(""));
    std::fs::write(shots.join("secret-refused.png"), browser.screenshot(&tab)).unwrap();
    assert!(store.snapshot().is_empty(), "a refusal records nothing");

    // She types the right one: saved, and the flow completes.
    let key = "sk-live-9f8e7d";
    browser.type_secret_and_save(&tab, key);
    std::fs::write(shots.join("secret-saved.png"), browser.screenshot(&tab)).unwrap();
    // Never in the URL she is on, nor on the page.
    let shown = browser.eval(&tab, "location.href + document.documentElement.outerHTML");
    let shown = shown.as_str().unwrap();
    assert!(!shown.contains(key) && !shown.contains(wrong), "{shown}");
    assert_eq!(
        *vault.0.lock().unwrap(),
        [
            (LOCAL_PRINCIPAL.to_owned(), wrong.to_owned()),
            (LOCAL_PRINCIPAL.to_owned(), key.to_owned())
        ]
    );
    assert_eq!(store.snapshot(), [Completion::Completed { result: None }]);
    drop(browser);
    let answer = retry(&caller, &state);
    assert!(
        matches!(answer, UrlAnswer::Completed { result: None, .. }),
        "{answer:?}"
    );
}
