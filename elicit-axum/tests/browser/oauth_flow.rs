//! The OAuth connection in a real browser, shared by elicit-axum's `browser_oauth` (the
//! browser's user from the app's own session) and elicit-axum-auth's `browser_signin` (signed
//! in at the issuer on the way): the provider and the issuer on loopback, the app over `http`
//! or https, and the run from the link's confirmation page to the completed flow.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Form, Query};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use elicit_axum::oauth::{Connection, OAuthHook, OAuthProvider};
use elicit_runtime::{ElicitServer, UrlAnswer};
use serde_json::{Value, json};

use crate::cdp;
use crate::common::url::*;
use crate::support::*;

/// The provider: `/authorize` is its consent page (Approve goes back to the app with a code),
/// `/token` trades that code.
pub(crate) fn provider() -> Router {
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
    async fn userinfo(headers: http::HeaderMap) -> Response {
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
pub(crate) struct App {
    pub tokens: Mutex<HashMap<String, String>>,
}

/// The issuer the app's `SignIn` sends browsers to: `provider()`'s `/issuer`, coming back to
/// `origin`.
pub(crate) fn issuer_provider(provider_origin: &str, origin: &str) -> OAuthProvider {
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

impl OAuthHook for App {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        let mut tokens = self.tokens.lock().unwrap();
        tokens.insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(Some(json!({"account": "octocat"})))
    }
}

/// Serves `app` on `listener` over TLS with a fresh self-signed certificate for 127.0.0.1.
pub(crate) async fn serve_tls(listener: tokio::net::TcpListener, app: Router) {
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

/// The app for `server`: the connection to `github` with `hook`, and what says who the
/// browser's user is (`provider_origin` serves the issuer, `origin` the app).
pub(crate) type AppFor =
    Box<dyn FnOnce(&ElicitServer, OAuthProvider, Arc<App>, &str, &str) -> Router>;

/// Brings `tab` to `link` (the app at `origin`, the provider at `provider_origin`).
pub(crate) type Arrive = Box<dyn FnOnce(&mut cdp::Browser, &str, &str, &str, &str)>;

/// How a run's browser comes to the link's confirmation page, and its app.
pub(crate) struct Arrival {
    /// The app.
    pub app: AppFor,
    /// The way to the link.
    pub arrive: Arrive,
    /// The cookies the app's origin keeps once the connection completed.
    pub kept: &'static [&'static str],
}

/// alice's browser goes through the whole OAuth connection, on `http://` loopback or over
/// `https`: Confirm, the provider, the callback (coming to the link as `arrival` says). The
/// nonce cookie as the browser held it while the provider had it (read on the provider's
/// page), which the callback then clears.
pub(crate) fn through_the_provider(tls: bool, arrival: Arrival) -> Value {
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
    let app = (arrival.app)(&server, github, hook.clone(), &provider_origin, &origin);
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
    (arrival.arrive)(&mut browser, &tab, &origin, &provider_origin, &link);
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
    assert_eq!(names, arrival.kept, "{cookies}");
    seen
}
