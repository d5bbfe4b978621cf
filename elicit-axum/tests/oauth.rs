//! The ready OAuth connection (issue 31 item 1) against a provider on loopback: the whole flow
//! (the page's Confirm, the provider's authorization with PKCE, the callback, the code traded
//! at the token endpoint, the tool reading the outcome), and the callbacks an attacker can make
//! a browser send (login CSRF), each of which must connect nothing.

#[allow(dead_code)]
mod common;
mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{Form, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::url::*;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook, OAuthProvider};
use elicit_runtime::url::{Completion, LandingPage};
use elicit_runtime::{ElicitServer, UrlAnswer};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::*;
use tower::ServiceExt;

const CLIENT_ID: &str = "client-123";
const CLIENT_SECRET: &str = "s3cret";
const CALLBACK: &str = "http://127.0.0.1:8080/oauth/callback";

/// The provider's side: codes it issued, with the PKCE challenge and the user each is for.
#[derive(Default)]
struct Provider {
    codes: Mutex<HashMap<String, String>>,
    exchanges: Mutex<Vec<HashMap<String, String>>>,
    account_requests: Mutex<Vec<HeaderMap>>,
}

/// The token endpoint: the code once, with the verifier of its challenge and the app's
/// credentials (HTTP Basic, each form-urlencoded first, as RFC 6749 §2.3.1 has them sent).
async fn token(
    State(provider): State<Arc<Provider>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    provider.exchanges.lock().unwrap().push(form.clone());
    let authorized = basic_credentials(&headers, CLIENT_ID, CLIENT_SECRET);
    let challenge = form
        .get("code")
        .and_then(|code| provider.codes.lock().unwrap().remove(code));
    let verified = match (challenge, form.get("code_verifier")) {
        (Some(challenge), Some(verifier)) => {
            URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
        }
        _ => false,
    };
    if !(authorized && verified && form.get("redirect_uri").map(String::as_str) == Some(CALLBACK)) {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": "invalid_grant"})),
        )
            .into_response();
    }
    axum::Json(json!({"access_token": "gho_token", "token_type": "bearer", "scope": "repo"}))
        .into_response()
}

/// The account endpoint: whose token it is (GitHub's `/user`), for the token it issued only;
/// it records the headers it was sent.
async fn user(State(provider): State<Arc<Provider>>, headers: HeaderMap) -> Response {
    provider
        .account_requests
        .lock()
        .unwrap()
        .push(headers.clone());
    match headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        Some("Bearer gho_token") => {
            axum::Json(json!({"login": "octocat", "id": 1})).into_response()
        }
        _ => (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"message": "Bad credentials"})),
        )
            .into_response(),
    }
}

/// The provider on a loopback port: its base URL.
async fn provider() -> (String, Arc<Provider>) {
    let state = Arc::new(Provider::default());
    let app = Router::new()
        .route("/token", post(token))
        .route("/user", axum::routing::get(user))
        .route(
            "/user-list",
            axum::routing::get(|| async { axum::Json(json!(["octocat"])) }),
        )
        .route(
            "/user-refused",
            // A well-formed account, only under an error status: refused for the status alone.
            axum::routing::get(|| async {
                (
                    StatusCode::UNAUTHORIZED,
                    axum::Json(json!({"login": "octocat"})),
                )
            }),
        )
        .route(
            "/user-huge",
            // A well-formed account, only too large: refused for its size alone.
            axum::routing::get(|| async { axum::Json(json!({"login": "x".repeat(70_000)})) }),
        )
        .route(
            "/user-moved",
            // The real account endpoint, one redirect away: refused for the redirect alone.
            axum::routing::get(|| async { Redirect::temporary("/user") }),
        )
        .route(
            "/token-moved",
            // The real token endpoint, one `307` away (which keeps the `POST` and its body):
            // followed, the exchange would succeed.
            post(|| async { Redirect::temporary("/token") }),
        )
        .route(
            "/token-huge",
            // A token, only in an answer over 64 KiB: refused for its size alone.
            post(|| async {
                let padding = "x".repeat(70_000);
                axum::Json(json!({"access_token": "gho_token", "token_type": "bearer", "padding": padding}))
            }),
        )
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, state)
}

/// The application: the browser user is the `x-user` header; tokens are kept by user.
#[derive(Default)]
struct App {
    tokens: Mutex<HashMap<String, String>>,
    accounts: Mutex<Vec<Option<Value>>>,
}

/// The browser user: the `x-user` header.
fn x_user(parts: &Parts) -> Result<String, (StatusCode, &'static str)> {
    let user = parts.headers.get("x-user").and_then(|v| v.to_str().ok());
    user.map(str::to_owned)
        .ok_or((StatusCode::UNAUTHORIZED, "sign in"))
}

impl OAuthHook for App {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        assert!(
            !format!("{c:?}").contains("gho_token"),
            "Debug shows no secret"
        );
        self.tokens
            .lock()
            .unwrap()
            .insert(c.user().to_owned(), c.access_token().to_owned());
        self.accounts.lock().unwrap().push(c.account().cloned());
        Ok(Some(
            json!({"repo": c.link().state()["repo"], "scopes": c.token().scopes()}),
        ))
    }
}

struct Setup {
    server: ElicitServer,
    store: Arc<Recording>,
    app: Router,
    hook: Arc<App>,
    provider: Arc<Provider>,
    caller: Caller,
}

async fn setup() -> Setup {
    setup_with(None).await
}

/// The setup, with the provider's account endpoint at this path of it.
async fn setup_with(account_path: Option<&str>) -> Setup {
    setup_at("/token", account_path).await
}

/// The setup, with the provider's token endpoint and account endpoint at these paths of it.
async fn setup_at(token_path: &str, account_path: Option<&str>) -> Setup {
    let (base, provider) = provider().await;
    let (store, server) = store_and_server(sealer());
    let hook = Arc::new(App::default());
    let github = OAuthProvider::new(
        "github",
        format!("{base}/authorize"),
        format!("{base}{token_path}"),
        CLIENT_ID,
    )
    .with_client_secret(CLIENT_SECRET)
    .with_scopes(["repo"])
    .with_redirect_url(CALLBACK);
    let github = match account_path {
        Some(path) => github.with_account_url(format!("{base}{path}")),
        None => github,
    };
    let app = served(OAuth::new(&server, github, x_user, hook.clone()).unwrap());
    let caller = Caller::new(&server, Some(ALICE));
    Setup {
        server,
        store,
        app,
        hook,
        provider,
        caller,
    }
}

/// What Confirm answered: the provider's authorization URL and the cookie it set.
struct Sent {
    state: String,
    cookie: String,
    set_cookie: String,
}

/// `user` opens the link and presses Confirm: the browser is sent to the provider.
fn confirm_as(setup: &Setup, handle: &str, user: &str) -> Sent {
    confirm_in(setup, handle, user, None)
}

/// [`confirm_as`] in a browser whose cookies are `cookie`.
fn confirm_in(setup: &Setup, handle: &str, user: &str, cookie: Option<&str>) -> Sent {
    let (status, response) = match cookie {
        None => confirm_response(&setup.app, handle, user),
        Some(cookie) => {
            let (status, html) = get(&setup.app, handle, Some(user));
            assert_eq!(status, StatusCode::OK, "{html}");
            let uri = format!("/connect?elicitation={handle}");
            let headers = [SAME_ORIGIN, &[("cookie", cookie)]].concat();
            let form = form(&token_in(&html), "confirm");
            send(&setup.app, Method::POST, &uri, Some(user), &headers, &form)
        }
    };
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned();
    let set_cookie = response.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    let query: HashMap<String, String> =
        form_urlencoded::parse(location.split_once('?').unwrap().1.as_bytes())
            .into_owned()
            .collect();
    assert!(location.starts_with("http://127.0.0.1:"), "{location}");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["scope"], "repo");
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(
        !query["state"].contains(handle),
        "the handle is never the state"
    );
    // The provider issues a code for this authorization.
    let code = format!("code-{}", setup.provider.codes.lock().unwrap().len());
    setup
        .provider
        .codes
        .lock()
        .unwrap()
        .insert(code.clone(), query["code_challenge"].clone());
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    Sent {
        state: format!("{}&code={code}", urlencode(&query["state"])),
        cookie,
        set_cookie,
    }
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The browser comes back from the provider: `GET <callback>?state=…&code=…` as `user` with
/// `cookie`.
async fn callback(
    app: &Router,
    query: &str,
    user: &str,
    cookie: Option<&str>,
) -> (StatusCode, String) {
    let mut request = Request::get(format!("/oauth/callback?state={query}")).header("x-user", user);
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    (response.status(), body(response))
}

fn flow_id(server: &ElicitServer, handle: &str) -> String {
    let page = LandingPage::new(server);
    pollster::block_on(page.open::<ConnectGithub>(handle, ALICE))
        .unwrap()
        .id()
        .to_owned()
}

#[tokio::test]
async fn confirm_then_the_provider_then_the_callback_connects_and_the_tool_reads_it() {
    let setup = setup().await;
    let (handle, state) = start(&setup.caller);
    let sent = confirm_as(&setup, &handle, ALICE);
    // Development over http on loopback: a cookie browsers keep there (no `__Host-`, no Secure).
    assert!(
        sent.set_cookie.starts_with("elicit_oauth="),
        "{}",
        sent.set_cookie
    );
    assert!(sent.set_cookie.contains("HttpOnly") && sent.set_cookie.contains("SameSite=Lax"));
    assert!(!sent.set_cookie.contains("Secure"), "{}", sent.set_cookie);
    let id = flow_id(&setup.server, &handle);
    assert_eq!(
        lookup(&setup.store, &id),
        None,
        "nothing recorded before the callback"
    );

    let (status, html) = callback(&setup.app, &sent.state, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(setup.hook.tokens.lock().unwrap()[ALICE], "gho_token");
    let exchange = setup.provider.exchanges.lock().unwrap()[0].clone();
    assert_eq!(exchange["grant_type"], "authorization_code");
    assert!(
        !exchange.contains_key("client_secret"),
        "the secret goes in the Authorization header"
    );
    assert_eq!(
        retry(&setup.caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(json!({"repo": "octo/hello", "scopes": ["repo"]})),
        }
    );
    // The same callback again (a replayed redirect) connects nothing more.
    let (status, _) = callback(&setup.app, &sent.state, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(setup.provider.exchanges.lock().unwrap().len(), 1);
}

/// Two connections under way in one browser (two links confirmed before either came back, or a
/// GitHub and a Google connection): both complete, the later one coming back first. The one cookie holds both
/// nonces; each callback spends only its own.
#[tokio::test]
async fn two_connections_under_way_in_one_browser_both_complete() {
    let setup = setup().await;
    let (first_handle, first_state) = start(&setup.caller);
    let (second_handle, second_state) = start(&setup.caller);
    let first = confirm_as(&setup, &first_handle, ALICE);
    let second = confirm_in(&setup, &second_handle, ALICE, Some(&first.cookie));
    let a = first.cookie.strip_prefix("elicit_oauth=").unwrap();
    let b = second.cookie.strip_prefix("elicit_oauth=").unwrap();
    let (held_a, _) = b.split_once('.').expect("both nonces in the cookie");
    assert_eq!(held_a, a);

    // The second comes back first: its nonce is spent, the first's kept.
    let request = Request::get(format!("/oauth/callback?state={}", second.state))
        .header("x-user", ALICE)
        .header(header::COOKIE, &second.cookie);
    let response = setup
        .app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let left = format!("elicit_oauth={a}");
    assert_eq!(
        response.headers()[header::SET_COOKIE],
        format!("{left}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600")
    );
    let (status, html) = callback(&setup.app, &first.state, ALICE, Some(&left)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    for state in [&first_state, &second_state] {
        assert!(matches!(
            retry(&setup.caller, state),
            UrlAnswer::Completed { .. }
        ));
    }
}

/// Login CSRF: the attacker authorizes their own account and makes the victim's browser
/// open the callback; or replays another browser's callback; or a callback comes for a user
/// who did not start it. Each is refused with the same page, and connects nothing.
#[tokio::test]
async fn a_callback_from_another_browser_or_user_connects_nothing() {
    let setup = setup().await;
    let (handle, _) = start(&setup.caller);
    let alice = confirm_as(&setup, &handle, ALICE);
    let mallory_caller = Caller::new(&setup.server, Some(MALLORY));
    let (mallory_handle, _) = start(&mallory_caller);
    let mallory = confirm_as(&setup, &mallory_handle, MALLORY);

    let refusals = [
        // No cookie: a browser that never pressed Confirm.
        (alice.state.as_str(), ALICE, None),
        // Mallory's authorization in alice's browser (alice's cookie), or alice's with mallory's.
        (mallory.state.as_str(), ALICE, Some(alice.cookie.as_str())),
        (alice.state.as_str(), ALICE, Some(mallory.cookie.as_str())),
        // Alice's state and cookie, but another signed-in user.
        (alice.state.as_str(), MALLORY, Some(alice.cookie.as_str())),
        // A forged state.
        ("es1.AAAA&code=code-0", ALICE, Some(alice.cookie.as_str())),
    ];
    let mut pages = Vec::new();
    for (query, user, cookie) in refusals {
        let (status, html) = callback(&setup.app, query, user, cookie).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{query} as {user} with {cookie:?}"
        );
        pages.push(html);
    }
    assert!(
        pages.windows(2).all(|w| w[0] == w[1]),
        "one page for every refusal"
    );
    assert!(
        setup.provider.exchanges.lock().unwrap().is_empty(),
        "no code was traded"
    );
    assert!(setup.hook.tokens.lock().unwrap().is_empty());
    assert_eq!(lookup(&setup.store, &flow_id(&setup.server, &handle)), None);

    // Alice's own browser still finishes her flow.
    let (status, _) = callback(&setup.app, &alice.state, ALICE, Some(&alice.cookie)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_provider_refusing_or_a_bad_code_fails_the_flow_with_a_reason() {
    let setup = setup().await;
    let (handle, state) = start(&setup.caller);
    let sent = confirm_as(&setup, &handle, ALICE);
    let only_state = sent.state.split('&').next().unwrap();
    let denied = format!("{only_state}&error=access_denied");
    let (status, html) = callback(&setup.app, &denied, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(
        html.contains("the provider did not authorize the connection (access_denied)"),
        "{html}"
    );
    assert_eq!(
        retry(&setup.caller, &state),
        UrlAnswer::Failed {
            state: bound(),
            reason: "the provider did not authorize the connection (access_denied)".into(),
        }
    );

    // A code the token endpoint refuses.
    let (handle, state) = start(&setup.caller);
    let id = flow_id(&setup.server, &handle);
    let sent = confirm_as(&setup, &handle, ALICE);
    let only_state = sent.state.split('&').next().unwrap();
    let wrong = format!("{only_state}&code=not-issued");
    let (status, _) = callback(&setup.app, &wrong, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(matches!(
        lookup(&setup.store, &id),
        Some(Completion::Failed { .. })
    ));
    assert!(
        matches!(retry(&setup.caller, &state), UrlAnswer::Failed { reason, .. } if reason == "the provider did not issue a token")
    );
}

/// The token request follows no redirect (a `307` to the real endpoint would carry the code,
/// the PKCE verifier and the client's credentials wherever it points) and reads no answer over
/// 64 KiB: either fails the flow with the plain reason, and the hook is never called.
#[tokio::test]
async fn the_token_request_follows_no_redirect_and_refuses_an_oversized_answer() {
    for path in ["/token-moved", "/token-huge"] {
        let setup = setup_at(path, None).await;
        fails_with(&setup, "the provider did not issue a token", path).await;
        assert!(
            setup.provider.exchanges.lock().unwrap().is_empty(),
            "{path}: the endpoint it points to is never asked"
        );
    }
}

/// A flow through Confirm and the provider's callback on `setup` that fails with `reason`:
/// shown on the callback's page and read by the tool, and no token kept (`case` says which).
async fn fails_with(setup: &Setup, reason: &str, case: &str) {
    let (handle, state) = start(&setup.caller);
    let sent = confirm_as(setup, &handle, ALICE);
    let (status, html) = callback(&setup.app, &sent.state, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::OK, "{case}");
    assert!(html.contains(reason), "{case}: {html}");
    assert!(
        setup.hook.tokens.lock().unwrap().is_empty(),
        "{case}: no token kept"
    );
    assert_eq!(
        retry(&setup.caller, &state),
        UrlAnswer::Failed {
            state: bound(),
            reason: reason.into(),
        },
        "{case}"
    );
}

/// The provider's account endpoint: asked with the token, its answer given to the hook; an
/// endpoint that gives no account object fails the flow, and the hook is never called.
#[tokio::test]
async fn the_account_endpoint_says_whose_token_it_is_or_the_flow_fails() {
    let setup = setup_with(Some("/user")).await;
    let (handle, state) = start(&setup.caller);
    let sent = confirm_as(&setup, &handle, ALICE);
    let (status, html) = callback(&setup.app, &sent.state, ALICE, Some(&sent.cookie)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(
        *setup.hook.accounts.lock().unwrap(),
        [Some(json!({"login": "octocat", "id": 1}))]
    );
    let asked = setup.provider.account_requests.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "asked once");
    assert_eq!(asked[0][header::ACCEPT], "application/json");
    assert_eq!(
        asked[0][header::USER_AGENT],
        concat!("elicit-axum/", env!("CARGO_PKG_VERSION"))
    );
    assert!(matches!(
        retry(&setup.caller, &state),
        UrlAnswer::Completed { .. }
    ));

    for path in ["/user-refused", "/user-list", "/user-huge", "/user-moved"] {
        let setup = setup_with(Some(path)).await;
        fails_with(
            &setup,
            "the provider did not say whose account this is",
            path,
        )
        .await;
    }
}

/// The connection's routes, its landing route served at [`ORIGIN`] (each request's `Host`
/// checked against it).
fn served<H: OAuthHook>(oauth: OAuth<H>) -> Router {
    let landing = oauth.clone().landing_route().with_origin(ORIGIN);
    oauth.callback_route().merge(landing.into_router())
}

/// Production over https: the binding cookie is `__Host-` and `Secure`. Wiring mistakes are
/// refused at start-up.
#[tokio::test]
async fn https_uses_a_host_cookie_and_bad_settings_are_refused_at_start_up() {
    let (store, server) = store_and_server(sealer());
    let _ = store;
    let github = OAuthProvider::github(CLIENT_ID, CLIENT_SECRET)
        .with_redirect_url("https://app.example.com/oauth/callback");
    // No links' origin: the landing route serves the redirect URL's, where the app is.
    let app: Router = OAuth::new(&server, github, x_user, App::default())
        .unwrap()
        .routes();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let uri = format!("/connect?elicitation={handle}");
    let rebound = [("host", "evil.example")];
    let (status, _) = send(&app, Method::GET, &uri, Some(ALICE), &rebound, "");
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "another name for the app's address"
    );
    let (status, response) = confirm_response(&app, &handle, ALICE);
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION].to_str().unwrap();
    assert!(
        location.starts_with("https://github.com/login/oauth/authorize?"),
        "{location}"
    );
    let set_cookie = response.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(
        set_cookie.starts_with("__Host-elicit_oauth="),
        "{set_cookie}"
    );
    assert!(
        set_cookie.ends_with("; Secure") && set_cookie.contains("Path=/"),
        "{set_cookie}"
    );

    let refused = |provider: OAuthProvider| {
        OAuth::new(&server, provider, x_user, App::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refused(
            OAuthProvider::github(CLIENT_ID, CLIENT_SECRET)
                .with_redirect_url("http://app.example.com/cb")
        ),
        "the redirect URL must be https (http only on localhost, 127.0.0.1 or [::1]): http://app.example.com/cb"
    );
    assert_eq!(
        refused(
            OAuthProvider::github("", CLIENT_SECRET)
                .with_redirect_url("https://app.example.com/oauth/callback")
        ),
        "the provider github has an empty client id (is its environment variable set?)"
    );
    assert_eq!(
        refused(
            OAuthProvider::github(CLIENT_ID, CLIENT_SECRET)
                .with_redirect_url("https://app.example.com")
        ),
        "the redirect URL needs a path for the callback route: https://app.example.com"
    );
    assert_eq!(
        refused(
            OAuthProvider::github(CLIENT_ID, CLIENT_SECRET)
                .with_redirect_url("https://app.example.com/connect")
        ),
        "the redirect URL's path is the landing route's (`/connect`): https://app.example.com/connect"
    );
    assert_eq!(
        refused(
            OAuthProvider::new(
                "p",
                "http://evil.example/authorize",
                "https://p/token",
                "id"
            )
            .with_redirect_url(CALLBACK)
        ),
        "the authorize URL must be https (http only on localhost, 127.0.0.1 or [::1]): http://evil.example/authorize"
    );
    assert_eq!(
        refused(
            OAuthProvider::github(CLIENT_ID, CLIENT_SECRET)
                .with_redirect_url(CALLBACK)
                .with_account_url("http://api.example.com/user")
        ),
        "the account URL must be https (http only on localhost, 127.0.0.1 or [::1]): http://api.example.com/user"
    );
}

/// A tool that asks for the scopes it needs: they go in the link, sealed.
#[elicit_runtime::elicit_url(
    message = "Connect your GitHub account",
    url = "https://app.example.com/connect",
    key = "connect_scoped"
)]
#[derive(Clone, Debug)]
struct ConnectWithScopes {
    scopes: String,
}

/// `OAuth::github` with the server's URL origin: the callback is that origin's
/// `/oauth/callback`, and the provider is asked the scopes the tool sealed into the link.
#[tokio::test]
async fn the_github_shortcut_calls_back_on_the_servers_origin_with_the_links_scopes() {
    let url = elicit_runtime::url::UrlSettings::new(Arc::new(Recording::default()))
        .with_origin("https://app.example.com")
        .unwrap();
    let server = ElicitServer::new(sealer()).with_url(url);
    let app: Router = OAuth::github(&server, CLIENT_ID, CLIENT_SECRET, x_user, App::default())
        .unwrap()
        .routes();
    let caller = Caller::new(&server, Some(ALICE));
    let state = ConnectWithScopes {
        scopes: "repo read:user".into(),
    };
    let ask = async move |cx: &mut elicit_runtime::ElicitContext| state.clone().ask(cx).await;
    let round = input_required(caller.call(&caller.first(), ask).await);
    let request = serde_json::to_value(&round.input_requests().unwrap()["connect_scoped"]).unwrap();
    let link = request["params"]["url"].as_str().unwrap();
    let handle = link
        .strip_prefix("https://app.example.com/connect?elicitation=")
        .expect("the link is on the server's origin");
    // The browser on the server's origin: open the link, press Confirm.
    let uri = format!("/connect?elicitation={handle}");
    let host = &SAME_ORIGIN[..1];
    let page = body(send(&app, Method::GET, &uri, Some(ALICE), host, "").1);
    let form = form(&token_in(&page), "confirm");
    let (status, response) = send(&app, Method::POST, &uri, Some(ALICE), SAME_ORIGIN, &form);
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION].to_str().unwrap();
    let query: HashMap<String, String> =
        form_urlencoded::parse(location.split_once('?').unwrap().1.as_bytes())
            .into_owned()
            .collect();
    assert_eq!(
        query["redirect_uri"],
        "https://app.example.com/oauth/callback"
    );
    assert_eq!(query["scope"], "repo read:user");

    let no_origin = ElicitServer::new(sealer());
    assert_eq!(
        OAuth::github(&no_origin, CLIENT_ID, CLIENT_SECRET, x_user, App::default())
            .unwrap_err()
            .to_string(),
        "the provider github has no redirect URL: `OAuthProvider::with_redirect_url`, or the server's URL origin (`UrlSettings::with_origin`)"
    );
}
