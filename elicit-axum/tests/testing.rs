//! The testing kit's browser through the real pages: a ready OAuth connection (GitHub, Google)
//! against the stand-in provider, its whole path (link, landing page, consent, callback, code
//! exchange, account, hook, tool) step by step and as a scripted person; a denial, a cancel
//! and another browser refused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::StatusCode;
use elicit_axum::LocalBrowser;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook, OAuthProvider};
use elicit_axum::testing::{Browser, StandInProvider};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::UrlSettings;
use elicit_runtime::{ElicitContext, ElicitServer, Interrupt, Reply, UrlAnswer, elicit_url};
use elicit_testing::{TestClient, UserReply};
use serde_json::{Value, json};

const ORIGIN: &str = "http://127.0.0.1:8765";

#[elicit_url(
    message = "Connect your GitHub account",
    url = "http://127.0.0.1:8765/connect"
)]
#[derive(Debug)]
struct ConnectGithub {
    scopes: String,
}

/// The app's vault of tokens, by user.
#[derive(Default)]
struct Tokens(Mutex<HashMap<String, String>>);

impl OAuthHook for Tokens {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        let login = c
            .account()
            .and_then(|a| a["login"].as_str())
            .map(str::to_owned);
        self.0
            .lock()
            .unwrap()
            .insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(Some(json!({ "login": login })))
    }
}

/// The tool: connect, then say as whom.
async fn connect(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let ask = ConnectGithub {
        scopes: "repo".into(),
    };
    Ok(match ask.ask(cx).await? {
        UrlAnswer::Completed { result, .. } => format!("connected as {}", result.unwrap()["login"]),
        UrlAnswer::Failed { reason, .. } => format!("not connected: {reason}"),
        other => format!("not connected: {other:?}"),
    })
}

struct App {
    server: ElicitServer,
    tokens: Arc<Tokens>,
    provider: StandInProvider,
    routes: Router,
    /// The person's browser (a clone shares its cookies; another person is a new one).
    browser: Browser,
}

/// A stdio server's app (its one local user, `LocalBrowser`) with `provider`'s connection.
async fn app(provider: impl FnOnce(&StandInProvider) -> OAuthProvider) -> App {
    let stand_in = StandInProvider::start().await;
    let url = UrlSettings::in_memory().with_origin(ORIGIN).unwrap();
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "desk")).with_url(url);
    let tokens = Arc::new(Tokens::default());
    let local = LocalBrowser::new(&server);
    let oauth = OAuth::new(&server, provider(&stand_in), local, tokens.clone()).unwrap();
    let routes: Router = oauth.routes();
    let browser = Browser::new(ORIGIN, routes.clone()).site(stand_in.origin(), stand_in.router());
    App {
        server,
        tokens,
        provider: stand_in,
        routes,
        browser,
    }
}

/// The tool's first round: the link the client shows, and the state to retry with.
async fn asked(client: &TestClient) -> (String, String) {
    let call = client.tool_params("connect", json!({}));
    let mut tool = connect;
    let Ok(Reply::InputRequired(ask)) = client.round("tools/call", &call, &mut tool).await else {
        panic!("the tool asks")
    };
    let request = serde_json::to_value(&ask.input_requests().unwrap()["connect_github"]).unwrap();
    let url = request["params"]["url"].as_str().unwrap().to_owned();
    (url, ask.request_state().unwrap().to_owned())
}

/// The client accepts and retries: what the tool says.
async fn retry(client: &TestClient, state: &str) -> String {
    let mut call = client.tool_params("connect", json!({}));
    call["requestState"] = state.into();
    call["inputResponses"] = json!({"connect_github": {"action": "accept"}});
    let mut tool = connect;
    match client.round("tools/call", &call, &mut tool).await {
        Ok(Reply::Result(said)) => said,
        other => panic!("no result: {other:?}"),
    }
}

/// `connect` run by a scripted person through the real pages in `app`'s browser: connected as
/// the stand-in's user, in one round. The client, for what the test does next.
async fn connects(app: &App) -> TestClient {
    let client = TestClient::new(app.server.clone())
        .principal("local")
        .browser(app.browser.clone());
    let run = client
        .call_tool("connect", json!({}), |_, _| UserReply::OpenUrl, connect)
        .await
        .unwrap();
    assert_eq!(run.result, r#"connected as "octocat""#);
    assert_eq!(run.rounds.len(), 1);
    client
}

#[tokio::test]
async fn a_github_connection_runs_whole_through_the_stand_in() {
    let app = app(StandInProvider::github).await;
    let client = TestClient::new(app.server.clone()).principal("local");
    let (link, state) = asked(&client).await;

    // The person opens the link: the landing page (after LocalBrowser's cookie redirect).
    let page = app.browser.open(&link).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.text().contains("Connect your GitHub account"),
        "{}",
        page.text()
    );
    assert_eq!(page.buttons(), ["Cancel", "Confirm"]);
    assert!(app.browser.cookie_value(ORIGIN, "elicit_browser").is_some());

    // Confirm: to the provider's consent page, with the scopes the link sealed.
    let consent = page.click("Confirm").await;
    assert!(
        consent.url().starts_with(app.provider.origin()),
        "{}",
        consent.url()
    );
    assert_eq!(consent.heading(), "Authorize the application");
    assert!(
        consent.text().contains("Signed in as octocat."),
        "{}",
        consent.text()
    );
    assert!(
        consent.text().contains("(scopes: repo)"),
        "{}",
        consent.text()
    );

    // Authorize: back to the callback, which trades the code and completes the flow.
    let done = consent.click("Authorize").await;
    assert_eq!(done.status(), StatusCode::OK, "{}", done.text());
    assert!(
        done.url().starts_with(&format!("{ORIGIN}/oauth/callback?")),
        "{}",
        done.url()
    );
    let issued = app.provider.issued();
    assert_eq!(issued.len(), 1);
    assert_eq!(issued[0].scopes, ["repo"]);
    // The token went to the app's hook, never through the client.
    assert_eq!(
        app.tokens.0.lock().unwrap()["local"],
        issued[0].access_token
    );
    // GitHub's way: the credentials in the token request's body, with the PKCE verifier.
    let request = &app.provider.token_requests()[0];
    let sent = |name: &str| request.iter().any(|(n, _)| n == name);
    assert!(
        sent("client_secret") && sent("code_verifier"),
        "{request:?}"
    );

    assert_eq!(retry(&client, &state).await, r#"connected as "octocat""#);

    // The spent link: the uniform refusal.
    assert_eq!(
        app.browser.open(&link).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_scripted_person_connects_and_another_browser_is_refused() {
    let app = app(StandInProvider::github).await;
    let client = connects(&app).await;

    // A link alice's browser opened first: another browser gets the uniform refusal, and
    // finishing it as a scripted person fails, saying so.
    let (link, _) = asked(&client).await;
    assert_eq!(app.browser.open(&link).await.status(), StatusCode::OK);
    let other = Browser::new(ORIGIN, app.routes.clone());
    assert_eq!(other.open(&link).await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deny_at_the_provider_and_cancel_on_the_page_fail_the_flow() {
    let app = app(StandInProvider::github).await;
    let client = TestClient::new(app.server.clone()).principal("local");

    let (link, state) = asked(&client).await;
    let consent = app.browser.open(&link).await.click("Confirm").await;
    let denied = consent.click("Deny").await;
    assert_eq!(denied.status(), StatusCode::OK);
    assert!(app.provider.issued().is_empty());
    assert_eq!(
        retry(&client, &state).await,
        "not connected: the provider did not authorize the connection (access_denied)"
    );

    let (link, state) = asked(&client).await;
    let cancelled = app.browser.open(&link).await.click("Cancel").await;
    assert_eq!(cancelled.status(), StatusCode::OK);
    assert_eq!(
        retry(&client, &state).await,
        "not connected: the user cancelled on the confirmation page"
    );
}

#[tokio::test]
async fn google_points_at_the_stand_in_too() {
    let app = app(StandInProvider::google).await;
    connects(&app).await;
    // Google's way: the credentials by HTTP Basic, none in the body.
    let request = &app.provider.token_requests()[0];
    assert!(
        !request.iter().any(|(n, _)| n == "client_secret"),
        "{request:?}"
    );
}
