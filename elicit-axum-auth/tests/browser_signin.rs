//! `SignIn` in a real browser (headless Chromium): the link first sends the browser to sign in
//! at the issuer, and it comes back with the session cookie (`elicit_session` on http,
//! `__Host-elicit_session` over https) before elicit-axum's OAuth connection starts, as its
//! test `browser_oauth` runs it. And the secret page (`SecretPage`) with its browser user from
//! `SignIn`: signed in on the way, the person types an API key, and the hook gets it as that
//! user.
//!
//! Ignored by a plain `cargo test`; `./scripts/test` installs Chromium and runs it
//! (`cargo test -p elicit-axum-auth --features signin --test browser_signin -- --ignored` by
//! hand).

use std::sync::{Arc, Mutex};

#[path = "../../elicit-axum/tests/common/mod.rs"]
#[allow(dead_code)]
mod common;
#[path = "../../elicit-axum/tests/support/mod.rs"]
mod support;

#[path = "../../elicit-axum/tests/browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
#[path = "../../elicit-axum/tests/browser/oauth_flow.rs"]
#[allow(dead_code)]
mod oauth_flow;

use axum::Router;
use axum::routing::get;
use common::url::*;
use elicit_axum::oauth::OAuth;
use elicit_axum::{SecretEntry, SecretHook, SecretPage};
use elicit_axum_auth::{SignIn, discover};
use elicit_runtime::UrlAnswer;
use oauth_flow::{Arrival, issuer_provider, provider, serve_tls, through_the_provider};
use serde_json::{Value, json};
use support::*;

/// The browser's user from `SignIn` at the issuer (`provider()`'s `/issuer`): the link sends
/// the browser to sign in first.
fn signs_in_at_the_issuer(tls: bool) -> Arrival {
    Arrival {
        app: Box::new(|server, github, hook, provider_origin, origin| {
            let sign_in = SignIn::new(server, issuer_provider(provider_origin, origin)).unwrap();
            let oauth = OAuth::new(server, github, sign_in.clone(), hook).unwrap();
            let app: Router = oauth.routes().merge(sign_in.routes());
            app
        }),
        arrive: Box::new(|browser, tab, origin, provider_origin, link| {
            // The link sends the browser to sign in; "Sign in as alice" brings it back.
            browser.navigate(tab, link);
            let at_issuer = format!(
                "location.href.startsWith('{provider_origin}/issuer/authorize') \
                 && document.readyState === 'complete' && document.querySelector('#signin')"
            );
            browser.wait_for(tab, &at_issuer);
            // Meanwhile another site's script sends the browser to pages behind the sign-in,
            // top-level (carrying the app's `SameSite=Lax` cookies) again and again: each
            // starts a sign-in of its own, and none may end alice's.
            let other_site = provider_origin.replace("127.0.0.1", "localhost");
            let elsewhere = browser.new_page();
            for i in 0..5 {
                browser.goto(&elsewhere, &format!("{other_site}/elsewhere"));
                let forced =
                    serde_json::to_string(&format!("{origin}/connect?elicitation=forced-{i}"));
                let go = format!(
                    "setTimeout(() => {{ location.href = {} }}, 0)",
                    forced.unwrap()
                );
                browser.eval(&elsewhere, &go);
                browser.wait_for(&elsewhere, &at_issuer);
            }
            browser.click(tab, "#signin");
            browser.wait_for(
                tab,
                &format!(
                    "location.href === {} && document.readyState === 'complete'",
                    serde_json::to_string(link).unwrap()
                ),
            );
        }),
        // The callback ended the connection's binding; the session stays, and so does the
        // sign-in's nonce (shared by the browser's sign-ins, until its Max-Age).
        kept: if tls {
            &["__Host-elicit_session", "__Host-elicit_signin"]
        } else {
            &["elicit_session", "elicit_signin"]
        },
    }
}

/// `SignIn` in a real browser, on `http://` loopback and over https: the link sends the browser
/// to sign in at the issuer, it comes back signed in (the sign-in's nonce cookie kept through
/// the issuer, then the session cookie), and goes on through the OAuth connection.
#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum-auth --features signin --test browser_signin -- --ignored`)"]
fn a_real_browser_signs_in_at_the_issuer_then_connects_on_http_and_https() {
    for tls in [false, true] {
        let nonce_cookie = through_the_provider(tls, signs_in_at_the_issuer(tls));
        let name = if tls {
            "__Host-elicit_oauth"
        } else {
            "elicit_oauth"
        };
        assert!(
            nonce_cookie["name"] == name && nonce_cookie["secure"] == tls,
            "{nonce_cookie}"
        );
    }
}

/// The provider's endpoints are asked over TLS that checks their certificate against the
/// Mozilla roots: an issuer serving this self-signed one (on loopback, where its metadata would
/// otherwise be taken) gives no metadata, and discovery refuses it at start-up. No browser.
#[tokio::test]
async fn an_endpoint_whose_certificate_no_root_vouches_for_is_refused() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("https://{}", listener.local_addr().unwrap());
    let metadata = serde_json::json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
    });
    let app = Router::new().route(
        "/.well-known/openid-configuration",
        get(move || async move { axum::Json(metadata) }),
    );
    tokio::spawn(serve_tls(listener, app));
    let error = discover(&issuer, "mcp-server")
        .await
        .unwrap_err()
        .to_string();
    let refused = "client error (Connect): invalid peer certificate: UnknownIssuer";
    assert_eq!(
        error,
        format!(
            "the issuer {issuer}: no metadata ({issuer}/.well-known/openid-configuration: {refused}; {issuer}/.well-known/oauth-authorization-server: {refused})"
        )
    );
}

/// The server's vault of the secret page.
#[derive(Default)]
struct Vault(Mutex<Vec<(String, String)>>);

impl SecretHook for Vault {
    async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
        let key = entry.secret("api_key").unwrap().expose().to_owned();
        self.0.lock().unwrap().push((entry.user().to_owned(), key));
        Ok(None)
    }
}

/// The secret page of an HTTP server, its browser user from `SignIn`: the link sends the
/// browser to sign in at the issuer, it comes back to the page, the person types the key and
/// clicks Save; the hook gets it as the signed-in user, and the flow completes.
#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum-auth --features signin --test browser_signin -- --ignored`)"]
fn a_person_signs_in_then_types_an_api_key_on_the_secret_page() {
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
    let (listener, origin) = bind();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let sign_in = SignIn::new(&server, issuer_provider(&provider_origin, &origin)).unwrap();
    let vault = Arc::new(Vault::default());
    let app: Router = SecretPage::new(&server, sign_in.clone(), vault.clone())
        .ask("api_key", "OpenAI API key")
        .landing_route()
        .with_origin(origin.clone())
        .into_router()
        .merge(sign_in.routes());
    runtime.spawn(async move { axum::serve(listener, app).await });

    let profile = std::env::temp_dir().join(format!("elicit-secret-signin-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let tab = browser.new_page();
    let link = format!("{origin}/connect?elicitation={handle}");
    // Not signed in: the link sends the browser to the issuer; "Sign in as alice" brings it back.
    browser.navigate(&tab, &link);
    browser.wait_for(
        &tab,
        &format!(
            "location.href.startsWith('{provider_origin}/issuer/authorize') \
             && document.readyState === 'complete' && document.querySelector('#signin')"
        ),
    );
    browser.click(&tab, "#signin");
    browser.wait_for(
        &tab,
        "document.readyState === 'complete' && document.querySelector('input#secret0')",
    );
    assert_eq!(
        browser.eval(&tab, "location.href"),
        json!(link),
        "back on the link"
    );
    let key = "sk-live-signed-in";
    browser.type_secret_and_save(&tab, key);
    let shown = browser.eval(&tab, "location.href + document.documentElement.outerHTML");
    assert!(!shown.as_str().unwrap().contains(key), "{shown}");
    assert_eq!(
        *vault.0.lock().unwrap(),
        [(ALICE.to_owned(), key.to_owned())]
    );
    assert_eq!(store.snapshot().len(), 1);
    drop(browser);
    let answer = retry(&caller, &state);
    assert!(
        matches!(answer, UrlAnswer::Completed { result: None, .. }),
        "{answer:?}"
    );
}
