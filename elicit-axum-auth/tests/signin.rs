//! The browser's sign-in at the authorization server (`SignIn`) against an issuer on
//! loopback: a browser without a session is sent to sign in and comes back signed in, the
//! callbacks an attacker can make a browser send sign nobody in (login CSRF), a cookie that is
//! not ours asks to sign in again, and the connect page of an OAuth connection serves only the
//! user who signed in.

#[path = "../../elicit-axum/tests/common/mod.rs"]
#[allow(dead_code)]
mod common;
#[path = "../../elicit-axum/tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Form, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::url::*;
use elicit_axum::BrowserUser;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook, OAuthProvider};
use elicit_axum_auth::{SignIn, discover};
use elicit_runtime::ElicitServer;
use elicit_runtime::state::{KeyRing, StateSealer};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::*;
use tower::ServiceExt;

const CLIENT_ID: &str = "mcp-server";
const CLIENT_SECRET: &str = "s3cret";
const CALLBACK: &str = "http://127.0.0.1:8080/signin/callback";

/// The issuer: the codes it gave (PKCE challenge, who signed in) and what it was sent.
#[derive(Default)]
struct Issuer {
    codes: Mutex<HashMap<String, (String, String)>>,
    exchanges: Mutex<Vec<HashMap<String, String>>>,
}

/// The token endpoint: a code once, with its verifier and the app's credentials.
async fn token(
    State(issuer): State<Arc<Issuer>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    issuer.exchanges.lock().unwrap().push(form.clone());
    let authorized = basic_credentials(&headers, CLIENT_ID, CLIENT_SECRET);
    let code = form
        .get("code")
        .and_then(|c| issuer.codes.lock().unwrap().remove(c));
    let user = match (code, form.get("code_verifier")) {
        (Some((challenge, user)), Some(verifier))
            if URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge =>
        {
            Some(user)
        }
        _ => None,
    };
    match user {
        Some(user) if authorized && form["redirect_uri"] == CALLBACK => {
            axum::Json(json!({"access_token": format!("at-{user}"), "token_type": "Bearer"}))
                .into_response()
        }
        _ => (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": "invalid_grant"})),
        )
            .into_response(),
    }
}

/// The userinfo endpoint: `sub` of the token's user (none for the user `nobody`).
async fn userinfo(headers: HeaderMap) -> Response {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    match token.and_then(|t| t.strip_prefix("Bearer at-")) {
        Some("nobody") => axum::Json(json!({"name": "No One"})).into_response(),
        Some(user) => axum::Json(json!({"sub": user, "name": user})).into_response(),
        None => StatusCode::UNAUTHORIZED.into_response(),
    }
}

/// The issuer's metadata (OpenID Connect Discovery) when it is at `base`.
fn metadata(base: &str) -> Value {
    json!({
        "issuer": base,
        // Not the paths `issuer()` names: the sign-in can only find these in the metadata.
        "authorization_endpoint": format!("{base}/oauth2/auth"),
        "token_endpoint": format!("{base}/oauth2/token"),
        "userinfo_endpoint": format!("{base}/me"),
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
    })
}

/// The issuer on a loopback port, and this app's registration there.
async fn issuer() -> (OAuthProvider, Arc<Issuer>) {
    let (base, state) = issuer_at().await;
    let provider = OAuthProvider::new(
        "issuer",
        format!("{base}/authorize"),
        format!("{base}/token"),
        CLIENT_ID,
    )
    .with_client_secret(CLIENT_SECRET)
    .with_account_url(format!("{base}/userinfo"))
    .with_redirect_url(CALLBACK);
    (provider, state)
}

/// The issuer on a loopback port: its base URL (the issuer identifier).
async fn issuer_at() -> (String, Arc<Issuer>) {
    let state = Arc::new(Issuer::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let discovery = metadata(&base);
    let app = Router::new()
        .route("/token", post(token))
        .route("/userinfo", get(userinfo))
        .route("/oauth2/token", post(token))
        .route("/me", get(userinfo))
        .route(
            "/.well-known/openid-configuration",
            get(move || async move { axum::Json(discovery) }),
        )
        .with_state(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, state)
}

/// A page that says who the browser's user is: `GET /whoami`.
fn whoami(sign_in: &SignIn) -> Router {
    let user = sign_in.clone();
    let page = get(move |parts: Parts| async move {
        match user.subject(&parts).await {
            Ok(user) => user.into_response(),
            Err(response) => response,
        }
    });
    sign_in.routes().route("/whoami", page)
}

/// `GET uri` with `cookies`, for the app's host.
async fn browse(app: &Router, uri: &str, cookies: &[&str]) -> Response {
    let mut request = Request::get(uri).header(header::HOST, "app.example.com");
    if !cookies.is_empty() {
        request = request.header(header::COOKIE, cookies.join("; "));
    }
    let request = request.body(Body::empty()).unwrap();
    app.clone().oneshot(request).await.unwrap()
}

/// The `Set-Cookie` headers of `response`.
fn set_cookies(response: &Response) -> Vec<String> {
    let values = response.headers().get_all(header::SET_COOKIE);
    values
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

/// `name=value` of the `Set-Cookie` naming `name`.
fn cookie_named(response: &Response, name: &str) -> Option<String> {
    set_cookies(response)
        .into_iter()
        .map(|c| c.split(';').next().unwrap().to_owned())
        .find(|c| c.starts_with(&format!("{name}=")))
}

fn location(response: &Response) -> String {
    response.headers()[header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned()
}

/// A sign-in the browser was sent to: the nonce cookie it got, and the callback's query the
/// issuer sends it back with, once `user` signed in there.
struct SentToSignIn {
    nonce: String,
    back: String,
}

/// The browser was sent to sign in (`response`); `user` signs in at the issuer.
fn signs_in_at_issuer(issuer: &Issuer, response: &Response, user: &str) -> SentToSignIn {
    signs_in_at(issuer, response, user, "/authorize")
}

/// [`signs_in_at_issuer`], its authorize endpoint's path `authorize`.
fn signs_in_at(issuer: &Issuer, response: &Response, user: &str, authorize: &str) -> SentToSignIn {
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = location(response);
    let (endpoint, query) = location.split_once('?').unwrap();
    assert!(endpoint.ends_with(authorize), "{location}");
    let query: HashMap<String, String> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["scope"], "openid");
    assert_eq!(query["code_challenge_method"], "S256");
    let code = format!("code-{}", issuer.codes.lock().unwrap().len());
    let grant = (query["code_challenge"].clone(), user.to_owned());
    issuer.codes.lock().unwrap().insert(code.clone(), grant);
    let state: String = form_urlencoded::byte_serialize(query["state"].as_bytes()).collect();
    SentToSignIn {
        nonce: cookie_named(response, "elicit_signin").expect("a nonce cookie"),
        back: format!("/signin/callback?state={state}&code={code}"),
    }
}

/// `sealed` (a cookie `name=es1.…` or a query `state=es1.…`) with the character in the middle of
/// its ciphertext changed: well-formed, so only the seal's integrity check can refuse it.
fn flip_middle(sealed: &str) -> String {
    let mut chars: Vec<char> = sealed.chars().collect();
    let middle =
        sealed.find("es1.").unwrap() + 4 + (sealed.len() - sealed.find("es1.").unwrap() - 4) / 2;
    chars[middle] = if chars[middle] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

#[tokio::test]
async fn a_browser_without_a_session_signs_in_at_the_issuer_and_comes_back_signed_in() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let app = whoami(&SignIn::new(&server, provider).unwrap());

    let sent = browse(&app, "/whoami?page=2", &[]).await;
    let nonce_cookie = set_cookies(&sent).remove(0);
    assert!(
        nonce_cookie.starts_with("elicit_signin=")
            && nonce_cookie.ends_with("; Path=/; HttpOnly; SameSite=Lax; Max-Age=600"),
        "development on http loopback: a cookie browsers keep there: {nonce_cookie}"
    );
    assert_eq!(sent.headers()[header::CACHE_CONTROL], "no-store");
    let signed = signs_in_at_issuer(&issuer, &sent, ALICE);

    let back = browse(&app, &signed.back, &[&signed.nonce]).await;
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&back), "/whoami?page=2", "back where it was");
    let cookies = set_cookies(&back);
    assert_eq!(
        cookies.len(),
        1,
        "the nonce cookie stays until its Max-Age: {cookies:?}"
    );
    assert!(
        cookies[0].starts_with("elicit_session=es1.")
            && cookies[0].ends_with("; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600"),
        "{}",
        cookies[0]
    );
    let exchange = issuer.exchanges.lock().unwrap()[0].clone();
    assert_eq!(exchange["grant_type"], "authorization_code");

    let session = cookie_named(&back, "elicit_session").unwrap();
    let page = browse(&app, "/whoami", &[&session]).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(body(page), ALICE);
}

/// The issuer's endpoints from its metadata (OpenID Connect Discovery, then RFC 8414): the
/// same sign-in, configured by the issuer's URL alone; no metadata, or another issuer's, is
/// refused at start-up.
#[tokio::test]
async fn the_issuers_endpoints_come_from_its_metadata() {
    let (base, issuer) = issuer_at().await;
    // The callback on the server's URL origin, as registered at the issuer.
    let url = elicit_runtime::url::UrlSettings::in_memory()
        .with_origin("http://127.0.0.1:8080")
        .unwrap();
    let server = ElicitServer::new(sealer()).with_url(url);
    let sign_in = SignIn::discover(&server, &base, CLIENT_ID, CLIENT_SECRET)
        .await
        .unwrap();
    assert_eq!(sign_in.redirect_url(), CALLBACK);
    let app = whoami(&sign_in);
    let sent = browse(&app, "/whoami", &[]).await;
    assert!(location(&sent).starts_with(&format!("{base}/oauth2/auth?")));
    let signed = signs_in_at(&issuer, &sent, ALICE, "/oauth2/auth");
    let back = browse(&app, &signed.back, &[&signed.nonce]).await;
    let session = cookie_named(&back, "elicit_session").unwrap();
    assert_eq!(body(browse(&app, "/whoami", &[&session]).await), ALICE);

    // An issuer at a path with RFC 8414 metadata only, and servers with none or another's.
    let rfc8414 = metadata("http://127.0.0.1:1/tenant");
    let wrong = metadata("https://evil.example.com");
    let app = Router::new()
        .route(
            "/.well-known/oauth-authorization-server/tenant",
            get(move || async move { axum::Json(rfc8414) }),
        )
        .route(
            "/other/.well-known/openid-configuration",
            get(move || async move { axum::Json(wrong) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let error =
        |issuer: String| async move { discover(&issuer, CLIENT_ID).await.unwrap_err().to_string() };
    // Served at `{other}/.well-known/oauth-authorization-server/tenant`, naming another
    // issuer than `{other}/tenant`: found by the RFC 8414 rule, refused for the name.
    assert_eq!(
        error(format!("{other}/tenant")).await,
        format!(
            "the issuer {other}/tenant: its metadata names another issuer, http://127.0.0.1:1/tenant (refused: a mix-up)"
        )
    );
    assert_eq!(
        error(format!("{other}/other")).await,
        format!(
            "the issuer {other}/other: its metadata names another issuer, https://evil.example.com (refused: a mix-up)"
        )
    );
    assert_eq!(
        error(format!("{other}/none")).await,
        format!(
            "the issuer {other}/none: no metadata ({other}/none/.well-known/openid-configuration: status 404 Not Found; {other}/.well-known/oauth-authorization-server/none: status 404 Not Found)"
        )
    );
    assert_eq!(
        error("http://auth.example.com".to_owned()).await,
        "the issuer must be https (http only on localhost, 127.0.0.1 or [::1]): http://auth.example.com"
    );
}

#[tokio::test]
async fn a_callback_the_browser_did_not_start_signs_nobody_in() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let app = whoami(&SignIn::new(&server, provider).unwrap());
    let forbidden = |response: &Response| {
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(cookie_named(response, "elicit_session"), None);
    };

    // The attacker's own sign-in, its callback sent to the victim's browser.
    let attackers = signs_in_at_issuer(&issuer, &browse(&app, "/whoami", &[]).await, "mallory");
    forbidden(&browse(&app, &attackers.back, &[]).await);
    let victims = signs_in_at_issuer(&issuer, &browse(&app, "/whoami", &[]).await, ALICE);
    forbidden(&browse(&app, &attackers.back, &[&victims.nonce]).await);
    let (state, code) = attackers.back.split_once('&').unwrap();
    let forged = format!("{}&{code}", flip_middle(state));
    forbidden(&browse(&app, &forged, &[&attackers.nonce]).await);
    forbidden(&browse(&app, "/signin/callback?code=code-0", &[&attackers.nonce]).await);

    // The victim's own callback works once; the same again is refused.
    let back = browse(&app, &victims.back, &[&victims.nonce]).await;
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    forbidden(&browse(&app, &victims.back, &[&victims.nonce]).await);
}

/// Two links opened before signing in (two tabs): both sign-ins come back, in either order.
/// They share the browser's one nonce (each its own single-use `state`), so the second does
/// not push the first out, and the first coming back does not end the second.
#[tokio::test]
async fn two_sign_ins_under_way_in_one_browser_both_come_back() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let app = whoami(&SignIn::new(&server, provider).unwrap());
    let first = signs_in_at_issuer(&issuer, &browse(&app, "/whoami?tab=1", &[]).await, ALICE);
    let second_sent = browse(&app, "/whoami?tab=2", &[&first.nonce]).await;
    let second = signs_in_at_issuer(&issuer, &second_sent, ALICE);
    assert_eq!(second.nonce, first.nonce, "the nonce is shared");
    assert_ne!(second.back, first.back, "each its own state");

    // The second tab comes back first; the first still does.
    let back = browse(&app, &second.back, &[&second.nonce]).await;
    assert_eq!(location(&back), "/whoami?tab=2");
    assert_eq!(
        cookie_named(&back, "elicit_signin"),
        None,
        "the nonce stays"
    );
    let back = browse(&app, &first.back, &[&first.nonce]).await;
    assert_eq!(location(&back), "/whoami?tab=1");
    let session = cookie_named(&back, "elicit_session").unwrap();
    assert_eq!(body(browse(&app, "/whoami", &[&session]).await), ALICE);
    // Each state once.
    let again = browse(&app, &first.back, &[&first.nonce]).await;
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
}

/// A page of this origin opened by another site (a link, a redirect, `window.open`: top-level
/// navigations, which carry `SameSite=Lax` cookies), as the other site's browser sends it.
async fn navigate_from_another_site(app: &Router, uri: &str, cookie: &str) -> Response {
    let request = Request::get(uri)
        .header(header::HOST, "app.example.com")
        .header("sec-fetch-site", "cross-site")
        .header("sec-fetch-mode", "navigate")
        .header(header::COOKIE, cookie);
    app.clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

/// While alice signs in at the issuer, another site makes her browser open pages behind the
/// sign-in again and again: each starts a sign-in of its own, but none pushes hers out (they
/// share her browser's nonce), and her callback still signs her in.
#[tokio::test]
async fn pages_another_site_opens_do_not_end_the_sign_in_under_way() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let app = whoami(&SignIn::new(&server, provider).unwrap());
    let alice = signs_in_at_issuer(&issuer, &browse(&app, "/whoami?mine", &[]).await, ALICE);

    // The browser keeps the nonce cookie each answer sets.
    let mut jar = alice.nonce.clone();
    for i in 0..8 {
        let forced = navigate_from_another_site(&app, &format!("/whoami?forced={i}"), &jar).await;
        assert_eq!(forced.status(), StatusCode::SEE_OTHER);
        assert!(location(&forced).contains("/authorize?"));
        if let Some(set) = cookie_named(&forced, "elicit_signin") {
            jar = set;
        }
    }
    let back = browse(&app, &alice.back, &[&jar]).await;
    assert_eq!(
        back.status(),
        StatusCode::SEE_OTHER,
        "her callback signs her in"
    );
    assert_eq!(location(&back), "/whoami?mine");
    let session = cookie_named(&back, "elicit_session").unwrap();
    assert_eq!(body(browse(&app, "/whoami", &[&session]).await), ALICE);
    assert_eq!(jar, alice.nonce, "one nonce, shared");
}

#[tokio::test]
async fn a_session_that_is_not_ours_or_has_ended_asks_to_sign_in_again() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let sign_in = SignIn::new(&server, provider.clone())
        .unwrap()
        .with_session_lifetime(Duration::from_secs(3));
    let app = whoami(&sign_in);
    let signed = signs_in_at_issuer(&issuer, &browse(&app, "/whoami", &[]).await, ALICE);
    let back = browse(&app, &signed.back, &[&signed.nonce]).await;
    let session = cookie_named(&back, "elicit_session").unwrap();
    assert!(set_cookies(&back)[0].ends_with("; Path=/; HttpOnly; SameSite=Lax; Max-Age=3"));
    assert_eq!(body(browse(&app, "/whoami", &[&session]).await), ALICE);

    let sent_to_sign_in = |response: Response| {
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        assert!(location(&response).contains("/authorize?"));
    };
    // One character of the ciphertext changed: the seal's tag refuses it.
    let tampered = flip_middle(&session);
    sent_to_sign_in(browse(&app, "/whoami", &[&tampered]).await);
    let other_keys = ElicitServer::new(StateSealer::new(KeyRing::new(1, [9; 32]), "issues-server"));
    let elsewhere = whoami(&SignIn::new(&other_keys, provider).unwrap());
    sent_to_sign_in(browse(&elsewhere, "/whoami", &[&session]).await);
    // Sealed in whole seconds: three seconds from its second at the latest.
    tokio::time::sleep(Duration::from_millis(4100)).await;
    sent_to_sign_in(browse(&app, "/whoami", &[&session]).await);
}

#[tokio::test]
async fn an_issuer_that_does_not_say_who_signed_in_or_refuses_signs_nobody_in() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let app = whoami(&SignIn::new(&server, provider).unwrap());
    let failed = async |uri: &str, nonce: &str, says: &str| {
        let response = browse(&app, uri, &[nonce]).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(set_cookies(&response), Vec::<String>::new(), "no session");
        let html = body(response);
        assert!(html.contains("<h1>Sign-in failed</h1>"), "{html}");
        assert!(html.contains(&format!("<p>{says}</p>")), "{html}");
    };

    let nobody = signs_in_at_issuer(&issuer, &browse(&app, "/whoami", &[]).await, "nobody");
    failed(
        &nobody.back,
        &nobody.nonce,
        "The provider did not say whose account this is.",
    )
    .await;
    let denied = signs_in_at_issuer(&issuer, &browse(&app, "/whoami", &[]).await, ALICE);
    let denied_back =
        denied.back.split("&code=").next().unwrap().to_owned() + "&error=access_denied";
    failed(
        &denied_back,
        &denied.nonce,
        "The sign-in was not completed at the provider.",
    )
    .await;
}

#[tokio::test]
async fn over_https_its_cookies_are_host_cookies_and_bad_settings_are_refused_at_start_up() {
    let (provider, _) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let https = provider
        .clone()
        .with_redirect_url("https://app.example.com/signin/callback");
    let app = whoami(&SignIn::new(&server, https).unwrap());
    let sent = browse(&app, "/whoami", &[]).await;
    let nonce_cookie = set_cookies(&sent).remove(0);
    assert!(
        nonce_cookie.starts_with("__Host-elicit_signin=")
            && nonce_cookie.ends_with("; Path=/; HttpOnly; SameSite=Lax; Max-Age=600; Secure"),
        "{nonce_cookie}"
    );

    let refused = |provider: OAuthProvider| SignIn::new(&server, provider).unwrap_err().to_string();
    let github = OAuthProvider::github(CLIENT_ID, CLIENT_SECRET);
    assert_eq!(
        refused(github.clone()),
        "the provider github has no redirect URL: `OAuthProvider::with_redirect_url`, or the server's URL origin (`UrlSettings::with_origin`)"
    );
    let no_userinfo = OAuthProvider::new(
        "issuer",
        "https://auth.example.com/authorize",
        "https://auth.example.com/token",
        CLIENT_ID,
    )
    .with_redirect_url(CALLBACK);
    assert_eq!(
        refused(no_userinfo),
        "the sign-in at issuer needs its userinfo endpoint, to learn who signed in: `OAuthProvider::with_account_url`"
    );
}

/// Where the connection keeps tokens.
#[derive(Default)]
struct App {
    tokens: Mutex<HashMap<String, String>>,
}

impl OAuthHook for App {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        let mut tokens = self.tokens.lock().unwrap();
        tokens.insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(None)
    }
}

#[tokio::test]
async fn the_connect_page_signs_the_browser_in_and_serves_only_the_user_who_did() {
    let (provider, issuer) = issuer().await;
    let (_, server) = store_and_server(sealer());
    let sign_in = SignIn::new(&server, provider).unwrap();
    let github = OAuthProvider::github("gh-id", "gh-secret")
        .with_redirect_url("http://127.0.0.1:8080/oauth/callback");
    let oauth = OAuth::new(&server, github, sign_in.clone(), App::default()).unwrap();
    let landing = oauth
        .clone()
        .landing_route()
        .with_origin(ORIGIN)
        .into_router();
    let app: Router = oauth
        .callback_route()
        .merge(landing)
        .merge(sign_in.routes());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let link = format!("/connect?elicitation={handle}");

    // alice opens her link: she signs in, and is back on its confirmation page.
    let alice = signs_in_at_issuer(&issuer, &browse(&app, &link, &[]).await, ALICE);
    let back = browse(&app, &alice.back, &[&alice.nonce]).await;
    assert_eq!(location(&back), link);
    let session = cookie_named(&back, "elicit_session").unwrap();
    let page = browse(&app, &link, &[&session]).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body(page);
    assert!(
        html.contains("name=\"token\""),
        "the confirmation page: {html}"
    );

    // bob, signed in as himself, opens alice's link: the uniform refusal.
    let bob = signs_in_at_issuer(&issuer, &browse(&app, &link, &[]).await, "bob");
    let bobs = browse(&app, &bob.back, &[&bob.nonce]).await;
    let bobs_session = cookie_named(&bobs, "elicit_session").unwrap();
    let page = browse(&app, &link, &[&bobs_session]).await;
    assert_eq!((page.status(), body(page)), refused());

    // alice's Confirm goes on to GitHub.
    let form = form(&token_in(&html), "confirm");
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(&link)
        .header(header::COOKIE, &session)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    for (name, value) in SAME_ORIGIN {
        request = request.header(*name, *value);
    }
    let confirmed = app
        .clone()
        .oneshot(request.body(Body::from(form)).unwrap())
        .await
        .unwrap();
    assert_eq!(confirmed.status(), StatusCode::SEE_OTHER);
    assert!(location(&confirmed).starts_with("https://github.com/login/oauth/authorize?"));
}
