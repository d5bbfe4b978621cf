//! The ready secret page: a person types an API key on the server's own page, behind the
//! landing page's checks, and only the server's hook ever sees it.

#[allow(dead_code)]
mod common;
mod support;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::response::Redirect;
use common::trace::recorded;
use common::url::*;
use elicit_axum::{SecretEntry, SecretHook, SecretPage};
use elicit_runtime::UrlAnswer;
use elicit_runtime::url::Completion;
use pollster::block_on;
use serde_json::{Value, json};
use support::*;

/// What a person types: a key the hook accepts, one it refuses.
const GOOD: &str = "sk-live-4f9a<&>\"'";
const BAD: &str = "pk-wrong-77";

/// The server's hook: keeps every key it was given, refuses one without `sk-`.
#[derive(Default)]
struct Keys {
    seen: Mutex<Vec<(String, String, String)>>,
}

impl SecretHook for Keys {
    async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
        let key = entry.secret("api_key").unwrap().expose().to_owned();
        let org = entry.secret("org").unwrap().expose().to_owned();
        self.seen
            .lock()
            .unwrap()
            .push((entry.user().to_owned(), key.clone(), org));
        assert!(entry.secret("other").is_none());
        if key.starts_with("sk-") {
            Ok(Some(json!({"saved": true})))
        } else {
            Err("Keys start with <sk->: check it & try again.".into())
        }
    }
}

/// The browser's user: the `x-user` header its session middleware sets.
fn signed_in(parts: &Parts) -> Result<String, Redirect> {
    let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
    user.map(str::to_owned)
        .ok_or_else(|| Redirect::to("/login"))
}

struct Secrets {
    store: Arc<Recording>,
    caller: Caller,
    handle: String,
    state: String,
    keys: Arc<Keys>,
    app: Router,
}

fn secrets() -> Secrets {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let keys = Arc::new(Keys::default());
    let app = SecretPage::new(&server, signed_in, keys.clone())
        .ask("api_key", "OpenAI <API> key")
        .ask("org", "Organization ID")
        .landing_route()
        .with_origin(ORIGIN)
        .into_router();
    Secrets {
        store,
        caller,
        handle,
        state,
        keys,
        app,
    }
}

/// The form's body: the token, both secrets, Save.
fn typed(token: &str, key: &str, org: &str) -> String {
    let enc = |v: &str| form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>();
    format!(
        "token={token}&secret0={}&secret1={}&decision=confirm",
        enc(key),
        enc(org)
    )
}

#[test]
fn the_page_asks_for_each_secret_in_a_masked_input_never_cached_or_framed() {
    let s = secrets();
    // `get` asserts no-store, no-referrer, nosniff, DENY and the CSP with frame-ancestors.
    let (status, html) = get(&s.app, &s.handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(
        html.contains(
            "<p><label for=\"secret0\">OpenAI &lt;API&gt; key</label>\
             <input type=\"password\" id=\"secret0\" name=\"secret0\" autocomplete=\"off\" \
             spellcheck=\"false\" required maxlength=\"4096\"></p>"
        ),
        "{html}"
    );
    assert!(html.contains("<label for=\"secret1\">Organization ID</label>"));
    // Save comes first (Enter in an input saves); Cancel skips the browser's `required` check.
    let actions = html.split("<div class=\"actions\">").nth(1).unwrap();
    assert!(
        actions.starts_with(
            "<button type=\"submit\" name=\"decision\" value=\"confirm\" class=\"confirm\">Save</button>\
             <button type=\"submit\" name=\"decision\" value=\"cancel\" class=\"cancel\" formnovalidate>Cancel</button>"
        ),
        "{actions}"
    );
    assert!(html.contains("goes to this server only, never to your assistant"));
}

#[test]
fn the_hook_gets_the_typed_secrets_and_nothing_else_does() {
    let s = secrets();
    let events = recorded(|| {
        let (_, html) = get(&s.app, &s.handle, Some(ALICE));
        let uri = format!("/connect?elicitation={}", s.handle);
        let body = typed(&token_in(&html), GOOD, "org-42");
        let (status, response) = send(&s.app, Method::POST, &uri, Some(ALICE), SAME_ORIGIN, &body);
        assert_eq!(status, StatusCode::OK);
        assert_guarded(&response);
        assert!(response.headers().get("location").is_none());
        let html = body_of(response);
        assert!(html.contains("<h1>Saved</h1>"), "{html}");
        assert!(
            !html.contains("sk-live") && !html.contains("org-42"),
            "{html}"
        );
    });
    assert_eq!(
        *s.keys.seen.lock().unwrap(),
        [(ALICE.to_owned(), GOOD.to_owned(), "org-42".to_owned())]
    );
    // What the flow records, and so what the tool handler reads: the hook's result only.
    assert_eq!(
        s.store.snapshot(),
        [Completion::Completed {
            result: Some(json!({"saved": true}))
        }]
    );
    let answer = retry(&s.caller, &s.state);
    let UrlAnswer::Completed { result, .. } = &answer else {
        panic!("{answer:?}")
    };
    assert_eq!(result, &Some(json!({"saved": true})));
    let logged = format!("{events:?}");
    assert!(
        !logged.contains("sk-live") && !logged.contains("org-42"),
        "{logged}"
    );
    assert!(logged.contains("landing page completed a flow"), "{logged}");
}

#[test]
fn a_refused_secret_shows_the_reason_and_a_fresh_page_saves_it() {
    let s = secrets();
    let (_, html) = get(&s.app, &s.handle, Some(ALICE));
    let first = token_in(&html);
    let (status, html) = press_typed(&s, &first, BAD);
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(
            "<p class=\"ask\" role=\"alert\">Keys start with &lt;sk-&gt;: check it &amp; try again.</p>"
        ),
        "{html}"
    );
    assert!(
        !html.contains(BAD),
        "the typed value is not sent back: {html}"
    );
    assert!(html.contains("type=\"password\""));
    assert!(s.store.snapshot().is_empty(), "a refusal records nothing");
    // The tool still waits: asked again, with a state to retry with.
    let round = input_required(block_on(
        s.caller
            .call(&s.caller.retry(&s.state, Some(answer("accept"))), connect),
    ));
    assert_asked_again(&round);
    let state = state_of(&round);

    // The posted page's token is spent: a replay (a captured form) reaches no hook.
    let again = token_in(&html);
    assert_ne!(again, first);
    assert_eq!(press_typed(&s, &first, GOOD), refused());
    assert_eq!(s.keys.seen.lock().unwrap().len(), 1);

    // The fresh page's token saves.
    let (status, html) = press_typed(&s, &again, GOOD);
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>Saved</h1>"), "{html}");
    assert_eq!(s.keys.seen.lock().unwrap()[1].1, GOOD);
    assert!(matches!(
        retry(&s.caller, &state),
        UrlAnswer::Completed { .. }
    ));
    // Submitted twice (a double click): the second is refused, the hook ran once for it.
    assert_eq!(press_typed(&s, &again, GOOD), refused());
    assert_eq!(s.keys.seen.lock().unwrap().len(), 2);
}

#[test]
fn an_empty_secret_is_asked_again_without_the_hook() {
    let s = secrets();
    let (_, html) = get(&s.app, &s.handle, Some(ALICE));
    let body = format!("token={}&secret0={GOOD}&decision=confirm", token_in(&html));
    let (status, html) = post(&s.app, &s.handle, Some(ALICE), SAME_ORIGIN, &body);
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("role=\"alert\">Enter your Organization ID.</p>"),
        "{html}"
    );
    assert!(s.keys.seen.lock().unwrap().is_empty());
    assert!(s.store.snapshot().is_empty());
}

#[test]
fn forged_cross_site_another_users_and_rebound_posts_are_refused() {
    let s = secrets();
    let (_, html) = get(&s.app, &s.handle, Some(ALICE));
    let token = token_in(&html);
    // No token, a forged one.
    for body in [
        format!("secret0={GOOD}&secret1=o&decision=confirm"),
        typed(&tamper(&token), GOOD, "o"),
    ] {
        let got = post(&s.app, &s.handle, Some(ALICE), SAME_ORIGIN, &body);
        assert_eq!(got, refused(), "{body}");
    }
    // Another site's form, with alice's cookie.
    let cross = [
        ("origin", "https://evil.example"),
        ("sec-fetch-site", "cross-site"),
    ];
    let (status, _) = post(
        &s.app,
        &s.handle,
        Some(ALICE),
        &cross,
        &typed(&token, GOOD, "o"),
    );
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Another user (another browser) with alice's page's token.
    let got = post(
        &s.app,
        &s.handle,
        Some(MALLORY),
        SAME_ORIGIN,
        &typed(&token, GOOD, "o"),
    );
    assert_eq!(got, refused());
    // The page under another name for the server's address (DNS rebinding).
    let rebound = [
        ("host", "evil.example"),
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "same-origin"),
    ];
    let got = post(
        &s.app,
        &s.handle,
        Some(ALICE),
        &rebound,
        &typed(&token, GOOD, "o"),
    );
    assert_eq!(got, refused());
    let uri = format!("/connect?elicitation={}", s.handle);
    let (status, _) = send(&s.app, Method::GET, &uri, Some(ALICE), &rebound[..1], "");
    assert_eq!(status, StatusCode::NOT_FOUND);

    assert!(s.keys.seen.lock().unwrap().is_empty());
    assert!(s.store.snapshot().is_empty());
    // The real page still works: none of those spent its token.
    let (status, html) = press_typed(&s, &token, GOOD);
    assert_eq!(
        (status, html.contains("<h1>Saved</h1>")),
        (StatusCode::OK, true)
    );
}

#[test]
fn not_signed_in_gets_the_browser_users_response() {
    let s = secrets();
    let uri = format!("/connect?elicitation={}", s.handle);
    let (status, response) = send(&s.app, Method::GET, &uri, None, &[], "");
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/login");
}

fn press_typed(s: &Secrets, token: &str, key: &str) -> (StatusCode, String) {
    post(
        &s.app,
        &s.handle,
        Some(ALICE),
        SAME_ORIGIN,
        &typed(token, key, "org-42"),
    )
}

fn body_of(response: axum::response::Response) -> String {
    body(response)
}

#[test]
fn secrets_as_long_as_the_inputs_take_reach_the_hook() {
    let s = secrets();
    let (_, html) = get(&s.app, &s.handle, Some(ALICE));
    // `maxlength="4096"` characters in each input, each 9 bytes once percent-encoded.
    let (key, org) = (format!("sk-{}", "€".repeat(4093)), "€".repeat(4096));
    let body = typed(&token_in(&html), &key, &org);
    assert!(body.len() > 72 * 1024, "{}", body.len());
    let (status, html) = post(&s.app, &s.handle, Some(ALICE), SAME_ORIGIN, &body);
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>Saved</h1>"), "{html}");
    assert_eq!(s.keys.seen.lock().unwrap()[0].1, key);
}

/// A Confirm/Cancel page of the application's own whose step asks again once.
struct AsksAgainOnce(Mutex<usize>);

impl elicit_axum::ConnectHook for AsksAgainOnce {
    async fn subject(&self, parts: &Parts) -> Result<String, axum::response::Response> {
        signed_in(parts).map_err(axum::response::IntoResponse::into_response)
    }
    async fn connect(&self, _: &elicit_axum::OpenedLink, _: &Parts) -> elicit_axum::ConnectStep {
        let mut calls = self.0.lock().unwrap();
        *calls += 1;
        match *calls {
            1 => elicit_axum::ConnectStep::retry("The <service> is busy: try again."),
            _ => elicit_axum::ConnectStep::complete(None),
        }
    }
}

#[test]
fn a_step_that_asks_again_spends_the_posted_token_on_a_page_without_secrets() {
    let (store, server) = store_and_server(sealer());
    let (handle, _) = start(&Caller::new(&server, Some(ALICE)));
    let hook = Arc::new(AsksAgainOnce(Mutex::new(0)));
    let page = elicit_runtime::url::LandingPage::new(&server);
    let app = elicit_axum::LandingRoute::new(page, hook.clone())
        .with_origin(ORIGIN)
        .into_router();
    let (_, html) = get(&app, &handle, Some(ALICE));
    let first = token_in(&html);
    let (status, html) = press(&app, &handle, ALICE, &first, "confirm");
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("role=\"alert\">The &lt;service&gt; is busy: try again.</p>"),
        "{html}"
    );
    assert!(!html.contains("type=\"password\""), "{html}");
    // The posted token is spent; the page's fresh one confirms.
    assert_eq!(press(&app, &handle, ALICE, &first, "confirm"), refused());
    assert_eq!(*hook.0.lock().unwrap(), 1);
    let (status, html) = press(&app, &handle, ALICE, &token_in(&html), "confirm");
    assert_eq!(
        (status, html.contains("<h1>All set</h1>")),
        (StatusCode::OK, true)
    );
    assert_eq!(store.snapshot(), [Completion::Completed { result: None }]);
}
