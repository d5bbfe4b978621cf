//! Issue 31 item 2 in a real browser: headless Chromium goes through the ready OAuth connection
//! on a plain-`http` loopback origin, as a developer's machine serves it. The user clicks
//! Confirm; the browser follows the redirect to the provider (a stand-in on another loopback
//! port that approves at once) and back to the callback, carrying the `elicit_oauth` nonce
//! cookie the route set: the flow completes only because a real browser kept that cookie on
//! `http://127.0.0.1` (a `__Host-` or `Secure` cookie would have been dropped there), and the
//! callback clears it.
//!
//! Ignored by a plain `cargo test`; `./scripts/test` installs Chromium and runs it
//! (`cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored` by hand).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[allow(dead_code)]
mod common;
mod support;

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;

use axum::Router;
use axum::extract::{Form, Query};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use common::url::*;
use elicit_axum::OpenedLink;
use elicit_axum::oauth::{OAuth, OAuthHook, OAuthProvider, OAuthToken};
use elicit_runtime::UrlAnswer;
use serde_json::{Value, json};
use support::*;

/// The provider: `/authorize` approves at once (back to the app with a code), `/token` trades
/// that code.
fn provider() -> Router {
    async fn authorize(Query(q): Query<HashMap<String, String>>) -> Response {
        let back = format!(
            "{}?code=code-1&state={}",
            q["redirect_uri"],
            form_urlencoded::byte_serialize(q["state"].as_bytes()).collect::<String>()
        );
        Redirect::to(&back).into_response()
    }
    async fn token(Form(form): Form<HashMap<String, String>>) -> Response {
        if form.get("code").map(String::as_str) != Some("code-1") {
            return (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": "invalid_grant"})),
            )
                .into_response();
        }
        axum::Json(json!({"access_token": "gho_browser", "token_type": "bearer"})).into_response()
    }
    Router::new()
        .route("/authorize", get(authorize))
        .route("/token", post(token))
}

/// alice is signed in to the app by its `session` cookie; tokens are kept by user.
#[derive(Default)]
struct App {
    tokens: Mutex<HashMap<String, String>>,
}

impl OAuthHook for App {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        session_user(parts)
            .ok_or_else(|| (StatusCode::UNAUTHORIZED, "sign in first").into_response())
    }

    async fn connected(
        &self,
        _: &OpenedLink,
        user: &str,
        token: OAuthToken,
    ) -> Result<Option<Value>, String> {
        let mut tokens = self.tokens.lock().unwrap();
        tokens.insert(user.to_owned(), token.access_token().to_owned());
        Ok(Some(json!({"account": "octocat"})))
    }
}

#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_keeps_the_development_cookie_through_the_provider_and_back() {
    let (chromium, runtime) = cdp::chromium_and_runtime();
    let bind = || {
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        (listener, origin)
    };
    let (provider_listener, provider_origin) = bind();
    runtime.spawn(async move { axum::serve(provider_listener, provider()).await });

    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let (listener, origin) = bind();
    let github = OAuthProvider::new(
        "github",
        format!("{provider_origin}/authorize"),
        format!("{provider_origin}/token"),
        "client-1",
    )
    .with_client_secret("secret-1")
    .with_redirect_url(format!("{origin}/oauth/callback"));
    let hook = Arc::new(App::default());
    let app: Router = OAuth::new(&server, github, hook.clone()).unwrap().routes();
    runtime.spawn(async move { axum::serve(listener, app).await });

    let profile =
        std::env::temp_dir().join(format!("elicit-chromium-oauth-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let tab = browser.new_page();
    browser.sign_in(&tab, &origin, "s-alice");
    browser.goto(&tab, &format!("{origin}/connect?elicitation={handle}"));
    let text = browser.eval(&tab, "document.body.innerText");
    assert!(
        text.as_str().unwrap().contains("Confirm this request"),
        "{text}"
    );
    browser.click(&tab, "button.confirm");
    // Confirm -> the provider -> the callback, all followed by the browser itself.
    browser.wait_for(
        &tab,
        &format!(
            "location.href.startsWith('{origin}/oauth/callback') && document.readyState === 'complete' \
             && document.querySelector('h1') && document.querySelector('h1').textContent === 'All set'"
        ),
    );
    assert_eq!(hook.tokens.lock().unwrap()[ALICE], "gho_browser");
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(json!({"account": "octocat"})),
        }
    );
    assert_eq!(store.snapshot().len(), 1);
    // The callback ended the binding: the nonce cookie is gone; the session stays.
    let cookies = browser.call(
        Some(&tab),
        "Network.getCookies",
        json!({"urls": [format!("{origin}/")]}),
    );
    let names: Vec<&str> = cookies["cookies"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["session"], "{cookies}");
}
