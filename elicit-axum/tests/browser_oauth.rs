//! Issue 31 item 2 in a real browser: headless Chromium goes through the ready OAuth connection
//! on a plain-`http` loopback origin, as a developer's machine serves it, and over https, as
//! production serves it (a self-signed certificate, `--ignore-certificate-errors`). The user
//! clicks Confirm; the browser follows the redirect to the provider (a stand-in consent page on
//! another loopback port), clicks Approve, and comes back to the callback carrying the nonce
//! cookie the route set: `elicit_oauth` on http (a `__Host-` or `Secure` cookie would have been
//! dropped there), `__Host-elicit_oauth`, `Secure`, over https. The flow completes only
//! because the browser kept it, and the callback clears it.
//!
//! The same with the browser's user from `SignIn`: the link first sends the browser to sign in
//! at the issuer, and it comes back with the session cookie (`elicit_session` on http,
//! `__Host-elicit_session` over https) before the connection starts.
//!
//! And the secret page (`SecretPage`) with its browser user from `SignIn`: signed in on the way,
//! the person types an API key, and the hook gets it as that user.
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
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use common::url::*;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook, OAuthProvider, SignIn};
use elicit_axum::{SecretEntry, SecretHook, SecretPage};
use elicit_runtime::UrlAnswer;
use serde_json::{Value, json};
use support::*;

/// The provider: `/authorize` is its consent page (Approve goes back to the app with a code),
/// `/token` trades that code.
fn provider() -> Router {
    async fn authorize(Query(q): Query<HashMap<String, String>>) -> Response {
        let back = format!(
            "{}?code=code-1&amp;state={}",
            q["redirect_uri"],
            form_urlencoded::byte_serialize(q["state"].as_bytes()).collect::<String>()
        );
        Html(format!(
            "<!doctype html><title>Authorize</title><h1>Authorize the app?</h1>\
             <p><a id=\"approve\" href=\"{back}\">Approve</a></p>"
        ))
        .into_response()
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
        .route("/elsewhere", get(elsewhere))
        .nest("/issuer", issuer())
}

/// A page of another site (opened as `http://localhost:<port>`, another site than the app's
/// `127.0.0.1`), whose script sends the browser where it likes.
async fn elsewhere() -> Html<&'static str> {
    Html("<!doctype html><title>Elsewhere</title><h1>Another site</h1>")
}

/// The authorization server browsers sign in at (`SignIn`): `/authorize` is its sign-in page
/// ("Sign in as alice" goes back to the app with a code), `/token` trades the code, `/userinfo`
/// says whose token it is.
fn issuer() -> Router {
    async fn authorize(Query(q): Query<HashMap<String, String>>) -> Response {
        let back = format!(
            "{}?code=signin-1&amp;state={}",
            q["redirect_uri"],
            form_urlencoded::byte_serialize(q["state"].as_bytes()).collect::<String>()
        );
        Html(format!(
            "<!doctype html><title>Sign in</title><h1>Sign in to the issuer</h1>\
             <p><a id=\"signin\" href=\"{back}\">Sign in as alice</a></p>"
        ))
        .into_response()
    }
    async fn token(Form(form): Form<HashMap<String, String>>) -> Response {
        if form.get("code").map(String::as_str) != Some("signin-1") {
            let error = axum::Json(json!({"error": "invalid_grant"}));
            return (StatusCode::BAD_REQUEST, error).into_response();
        }
        axum::Json(json!({"access_token": "at-alice", "token_type": "Bearer"})).into_response()
    }
    async fn userinfo(headers: axum::http::HeaderMap) -> Response {
        match headers.get("authorization").and_then(|v| v.to_str().ok()) {
            Some("Bearer at-alice") => axum::Json(json!({"sub": ALICE})).into_response(),
            _ => StatusCode::UNAUTHORIZED.into_response(),
        }
    }
    Router::new()
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/userinfo", get(userinfo))
}

/// alice is signed in to the app by its `session` cookie; tokens are kept by user.
#[derive(Default)]
struct App {
    tokens: Mutex<HashMap<String, String>>,
}

/// The issuer the app's `SignIn` sends browsers to: `provider()`'s `/issuer`, coming back to
/// `origin`.
fn issuer_provider(provider_origin: &str, origin: &str) -> OAuthProvider {
    OAuthProvider::new(
        "issuer",
        format!("{provider_origin}/issuer/authorize"),
        format!("{provider_origin}/issuer/token"),
        "mcp-1",
    )
    .with_client_secret("secret-2")
    .with_account_url(format!("{provider_origin}/issuer/userinfo"))
    .with_redirect_url(format!("{origin}/signin/callback"))
}

/// The browser user: the app's `session` cookie.
fn signed_in(parts: &Parts) -> Result<String, (StatusCode, &'static str)> {
    session_user(parts).ok_or((StatusCode::UNAUTHORIZED, "sign in first"))
}

impl OAuthHook for App {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        let mut tokens = self.tokens.lock().unwrap();
        tokens.insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(Some(json!({"account": "octocat"})))
    }
}

#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_keeps_the_development_cookie_through_the_provider_and_back() {
    let nonce_cookie = through_the_provider(false, Browser::SignedIn);
    assert!(
        nonce_cookie["name"] == "elicit_oauth" && nonce_cookie["secure"] == false,
        "{nonce_cookie}"
    );
}

/// Production: the app over https (a self-signed certificate Chromium is told to accept), the
/// nonce cookie `__Host-elicit_oauth`, `Secure`.
#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_keeps_the_host_cookie_over_https_through_the_provider_and_back() {
    let nonce_cookie = through_the_provider(true, Browser::SignedIn);
    assert!(
        nonce_cookie["name"] == "__Host-elicit_oauth" && nonce_cookie["secure"] == true,
        "{nonce_cookie}"
    );
}

/// `SignIn` in a real browser, on `http://` loopback and over https: the link sends the browser
/// to sign in at the issuer, it comes back signed in (the sign-in's nonce cookie kept through
/// the issuer, then the session cookie), and goes on through the OAuth connection as above.
#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_signs_in_at_the_issuer_then_connects_on_http_and_https() {
    for tls in [false, true] {
        let nonce_cookie = through_the_provider(tls, Browser::SignsIn);
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

/// Who the browser's user is, in a run.
#[derive(Clone, Copy, PartialEq)]
enum Browser {
    /// The app's own `session` cookie, set before the run.
    SignedIn,
    /// `SignIn` at the issuer, on the way to the link.
    SignsIn,
}

/// Serves `app` on `listener` over TLS with a fresh self-signed certificate for 127.0.0.1.
async fn serve_tls(listener: tokio::net::TcpListener, app: Router) {
    let certified = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![certified.cert.der().clone()], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            return;
        };
        let (acceptor, app) = (acceptor.clone(), app.clone());
        tokio::spawn(async move {
            let Ok(tls) = acceptor.accept(tcp).await else {
                return;
            };
            let service = hyper_util::service::TowerToHyperService::new(app);
            let builder =
                hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
            let _ = builder
                .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                .await;
        });
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
    let error = OAuthProvider::discover(&issuer, "mcp-server")
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

/// alice's browser goes through the whole OAuth connection, on `http://` loopback or over
/// `https`: Confirm, the provider, the callback (first signing in at the issuer, with
/// [`Browser::SignsIn`]). The nonce cookie as the browser held it while the provider had it
/// (read on the provider's page), which the callback then clears.
fn through_the_provider(tls: bool, who: Browser) -> Value {
    let (chromium, runtime) = cdp::chromium_and_runtime();
    let bind = |scheme: &str| {
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let origin = format!("{scheme}://{}", listener.local_addr().unwrap());
        (listener, origin)
    };
    let (provider_listener, provider_origin) = bind("http");
    runtime.spawn(async move { axum::serve(provider_listener, provider()).await });

    let (store, server) = store_and_server(sealer());
    let (listener, origin) = bind(if tls { "https" } else { "http" });
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let github = OAuthProvider::new(
        "github",
        format!("{provider_origin}/authorize"),
        format!("{provider_origin}/token"),
        "client-1",
    )
    .with_client_secret("secret-1")
    .with_redirect_url(format!("{origin}/oauth/callback"));
    let hook = Arc::new(App::default());
    let app: Router = match who {
        Browser::SignedIn => OAuth::new(&server, github, signed_in, hook.clone())
            .unwrap()
            .routes(),
        Browser::SignsIn => {
            let sign_in = SignIn::new(&server, issuer_provider(&provider_origin, &origin)).unwrap();
            let oauth = OAuth::new(&server, github, sign_in.clone(), hook.clone()).unwrap();
            oauth.routes().merge(sign_in.routes())
        }
    };
    if tls {
        runtime.spawn(serve_tls(listener, app));
    } else {
        runtime.spawn(async move { axum::serve(listener, app).await });
    }

    let profile = std::env::temp_dir().join(format!(
        "elicit-chromium-oauth-{tls}-{}",
        std::process::id()
    ));
    let mut browser = cdp::Browser::launch_with(&chromium, profile, "--ignore-certificate-errors");
    let tab = browser.new_page();
    let link = format!("{origin}/connect?elicitation={handle}");
    match who {
        Browser::SignedIn => {
            browser.sign_in(&tab, &origin, "s-alice");
            browser.goto(&tab, &link);
        }
        Browser::SignsIn => {
            // The link sends the browser to sign in; "Sign in as alice" brings it back.
            browser.navigate(&tab, &link);
            let at_issuer = format!(
                "location.href.startsWith('{provider_origin}/issuer/authorize') \
                 && document.readyState === 'complete' && document.querySelector('#signin')"
            );
            browser.wait_for(&tab, &at_issuer);
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
            browser.click(&tab, "#signin");
            browser.wait_for(
                &tab,
                &format!(
                    "location.href === {} && document.readyState === 'complete'",
                    serde_json::to_string(&link).unwrap()
                ),
            );
        }
    }
    let text = browser.eval(&tab, "document.body.innerText");
    assert!(
        text.as_str().unwrap().contains("Confirm this request"),
        "{text}"
    );
    // Confirm: the browser is at the provider's consent page, holding the app's nonce cookie.
    browser.click(&tab, "button.confirm");
    browser.wait_for(
        &tab,
        &format!(
            "location.href.startsWith('{provider_origin}/authorize') && document.readyState === 'complete' \
             && document.querySelector('#approve')"
        ),
    );
    let cookies = browser.call(
        Some(&tab),
        "Network.getCookies",
        json!({"urls": [format!("{origin}/")]}),
    );
    let seen = cookies["cookies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.ends_with("elicit_oauth"))
        })
        .cloned()
        .unwrap_or(Value::Null);
    // Approve: back to the callback, with the cookie.
    browser.click(&tab, "#approve");
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
    // The callback ended the connection's binding: its nonce cookie is gone. The session
    // stays, and so does a sign-in's nonce (shared by the browser's sign-ins, until its
    // Max-Age).
    let cookies = browser.call(
        Some(&tab),
        "Network.getCookies",
        json!({"urls": [format!("{origin}/")]}),
    );
    let mut names: Vec<&str> = cookies["cookies"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    names.sort_unstable();
    let kept: &[&str] = match (who, tls) {
        (Browser::SignedIn, _) => &["session"],
        (Browser::SignsIn, false) => &["elicit_session", "elicit_signin"],
        (Browser::SignsIn, true) => &["__Host-elicit_session", "__Host-elicit_signin"],
    };
    assert_eq!(names, kept, "{cookies}");
    seen
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
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
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
