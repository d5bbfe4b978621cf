//! Collecting an OAuth grant through URL mode on an axum app (the cookbook's `oauth_on_axum`).
//!
//! A tool asks the user to connect GitHub. The link goes to this app's `/connect` (elicit's
//! ready landing route), which shows a confirmation page; when the user confirms, its
//! `ConnectHook` redirects the browser to the provider with a fresh nonce as the OAuth
//! `state`, and sets the same nonce in a `__Host-` cookie. The provider redirects back to
//! `/oauth/callback`, which accepts only the browser holding that nonce, trades the code for a
//! token, keeps the token on the server and completes the elicitation. The tool then reads
//! the completion.
//!
//! Everything runs offline: a fake provider listens on loopback, and a scripted browser and
//! MCP client (in `client.rs`) stand in for the user, on both protocol eras. Run it with
//! `cargo run -p elicit-examples --example oauth_axum` (it exits 0 when every step held), or
//! `cargo test -p elicit-examples --example oauth_axum`.

mod client;
mod http;
mod provider;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use elicit_axum::{ConnectHook, ConnectStep, OpenedLink, landing_routes};
use elicit_rmcp::{Elicit, ElicitHandler, Principal};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{LandingPage, MemoryCompletionStore, PageError, UrlSettings};
use elicit_runtime::{ElicitServer, ElicitUrl, UrlAnswer, elicit_url};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::ProtocolVersion;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// The URL-mode elicitation: its fields are sealed into the link and come back to the
/// landing route and to the tool. The origin is the production one; in this example
/// `UrlSettings::with_origin` swaps in the loopback port.
#[elicit_url(
    message = "Connect your GitHub account to continue",
    url = "https://mcp.example.com/connect"
)]
struct ConnectGithub {
    scopes: String,
}

/// Access tokens by user: they stay on the server and never pass through the MCP client.
type Tokens = Arc<Mutex<HashMap<String, String>>>;

// ---- The MCP server -----------------------------------------------------------------------

#[derive(Clone)]
struct Github {
    tool_router: ToolRouter<Self>,
    elicit: ElicitHandler,
    tokens: Tokens,
}

#[tool_router]
impl Github {
    #[tool(description = "Connect your GitHub account, then list your repositories")]
    async fn list_repos(&self, mut cx: Elicit) -> Result<String, McpError> {
        let wanted = ConnectGithub {
            scopes: "repo".into(),
        };
        Ok(match wanted.ask(&mut cx).await? {
            UrlAnswer::Completed { state, result } => {
                let login = result.as_ref().and_then(|r| r["login"].as_str());
                let user = cx.principal().unwrap_or_default();
                let stored = self.tokens.lock().unwrap().contains_key(user);
                format!(
                    "connected GitHub as {} (scope {}, token stored: {stored})",
                    login.unwrap_or("?"),
                    state.scopes
                )
            }
            UrlAnswer::Failed { reason, .. } => format!("GitHub not connected: {reason}"),
            UrlAnswer::Expired => "the GitHub link expired; call again for a new one".into(),
            UrlAnswer::Declined | UrlAnswer::Cancelled => "GitHub not connected".into(),
        })
    }
}

#[tool_handler(router = self.elicit.tools(&self.tool_router))]
impl ServerHandler for Github {}

// ---- The browser-facing side: `/connect` and `/oauth/callback` ----------------------------

/// The cookie that binds the OAuth `state` to the browser that confirmed: `__Host-` (only
/// this origin sets it, on `/`, over HTTPS or loopback), HttpOnly, and SameSite=Lax so the
/// provider's top-level redirect back carries it.
const NONCE_COOKIE: &str = "__Host-oauth_state";

/// An authorization this app started: its flow's handle and its user.
struct Pending {
    handle: String,
    user: String,
}

/// The app's OAuth client: who the browser's user is, where to send them, and the
/// authorizations under way.
struct GithubOAuth {
    /// Session cookies of signed-in users (your session store).
    sessions: HashMap<String, String>,
    provider: String,
    callback: String,
    /// Started authorizations by nonce (in production: your session store, with an expiry).
    pending: Mutex<HashMap<String, Pending>>,
}

impl GithubOAuth {
    /// The signed-in user of a request, from its `session` cookie.
    fn user(&self, parts: &Parts) -> Option<String> {
        self.sessions.get(cookie(parts, "session")?).cloned()
    }

    /// Takes the authorization the callback's `state` names, if this browser started it (its
    /// nonce cookie is the `state`) for `user`; single use.
    fn take(&self, parts: &Parts, state: &str, user: &str) -> Option<Pending> {
        if !cookie(parts, NONCE_COOKIE).is_some_and(|nonce| same(nonce, state)) {
            return None;
        }
        let mut pending = self.pending.lock().unwrap();
        match pending.get(state) {
            Some(started) if started.user == user => pending.remove(state),
            _ => None,
        }
    }
}

/// A cookie of the request, by name.
fn cookie<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    let cookies = parts.headers.get("cookie")?.to_str().ok()?;
    cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
}

/// Equality in time independent of where the texts differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

impl ConnectHook for GithubOAuth {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.user(parts)
            .ok_or_else(|| (StatusCode::UNAUTHORIZED, "sign in first").into_response())
    }

    /// The user confirmed on the landing route's page: send the browser to the provider,
    /// with a fresh nonce as the OAuth `state` and in this browser's cookie. Nothing is
    /// recorded yet; the callback records the outcome.
    async fn connect(&self, link: &OpenedLink, parts: &Parts) -> ConnectStep {
        let wanted = match link.state_as::<ConnectGithub>() {
            Ok(wanted) => wanted,
            Err(other_kind) => return ConnectStep::refuse(other_kind),
        };
        let Some(user) = self.user(parts) else {
            return ConnectStep::fail("signed out");
        };
        // Never the handle itself: a leaked link would let anyone send this user back with a
        // code for *their* account. 122 random bits from the OS.
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let handle = link.handle().to_owned();
        let started = Pending { handle, user };
        self.pending.lock().unwrap().insert(nonce.clone(), started);
        let authorize = format!(
            "{}/authorize?client_id={}&redirect_uri={}&scope={}&state={nonce}",
            self.provider,
            provider::CLIENT_ID,
            self.callback,
            wanted.scopes,
        );
        let mut response = Redirect::to(&authorize).into_response();
        let cookie =
            format!("{NONCE_COOKIE}={nonce}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=600");
        response
            .headers_mut()
            .insert(SET_COOKIE, HeaderValue::from_str(&cookie).unwrap());
        ConnectStep::respond(response)
    }
}

/// What the callback route shares.
#[derive(Clone)]
struct Callback {
    page: LandingPage,
    oauth: Arc<GithubOAuth>,
    tokens: Tokens,
}

#[derive(Deserialize)]
struct CallbackQuery {
    state: String,
    code: Option<String>,
    error: Option<String>,
}

/// `GET /oauth/callback?code=…&state=<nonce>`: from the browser that confirmed only; trade
/// the code, keep the token, complete.
async fn oauth_callback(
    State(app): State<Callback>,
    Query(q): Query<CallbackQuery>,
    parts: Parts,
) -> Response {
    let user = match app.oauth.subject(&parts).await {
        Ok(user) => user,
        Err(sign_in) => return sign_in,
    };
    // The provider echoes the nonce as `state`; the browser that confirmed holds it.
    let Some(started) = app.oauth.take(&parts, &q.state, &user) else {
        let refused = (StatusCode::FORBIDDEN, "this sign-in was not started here");
        return refused.into_response();
    };
    // The same checks as the landing route: ours, not expired, this user's, not finished.
    let opened = match app.page.open_raw(&started.handle, &user).await {
        Ok((opened, _state)) => opened,
        Err(refused) => return refused_page(&refused),
    };
    let outcome = match (q.code, q.error) {
        (Some(code), None) => exchange(&app.oauth, &code).await,
        (_, error) => Err(error.unwrap_or_else(|| "no code".into())),
    };
    let recorded = match outcome {
        Ok((token, login)) => {
            app.tokens.lock().unwrap().insert(user, token);
            app.page
                .complete_raw(&opened, Some(json!({"login": login})))
                .await
        }
        Err(reason) => app.page.fail_raw(&opened, reason).await,
    };
    let mut response = match recorded {
        Ok(()) => {
            Html("Done. You can close this tab and return to your assistant.").into_response()
        }
        Err(refused) => refused_page(&refused),
    };
    let spent = format!("{NONCE_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0");
    response
        .headers_mut()
        .insert(SET_COOKIE, HeaderValue::from_str(&spent).unwrap());
    response
}

/// One answer for every refused handle, as the landing route gives (its precise `reason()`
/// belongs in your logs): the status must not tell a forged handle from a spent one.
fn refused_page(error: &PageError) -> Response {
    let status = if error.is_unavailable() {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::NOT_FOUND
    };
    (status, error.to_string()).into_response()
}

/// The provider's token endpoint, then its user endpoint: `(access token, login)`.
async fn exchange(oauth: &GithubOAuth, code: &str) -> Result<(String, String), String> {
    let form = format!(
        "grant_type=authorization_code&code={code}&client_id={}&client_secret={}&redirect_uri={}",
        provider::CLIENT_ID,
        provider::CLIENT_SECRET,
        oauth.callback
    );
    let headers = [("content-type", "application/x-www-form-urlencoded")];
    let url = format!("{}/token", oauth.provider);
    let token = http::send("POST", &url, &headers, &form).await;
    let token: Value = json_of(token.map_err(|e| e.to_string())?)?;
    let access = token["access_token"].as_str().ok_or("no access token")?;
    let bearer = format!("Bearer {access}");
    let url = format!("{}/user", oauth.provider);
    let user = http::send("GET", &url, &[("authorization", &bearer)], "").await;
    let user: Value = json_of(user.map_err(|e| e.to_string())?)?;
    let login = user["login"].as_str().ok_or("no login")?;
    Ok((access.to_owned(), login.to_owned()))
}

fn json_of(response: http::Response) -> Result<Value, String> {
    match response.status {
        200 => serde_json::from_str(&response.body).map_err(|e| e.to_string()),
        status => Err(format!("the provider answered {status}")),
    }
}

/// The app: elicit's landing route at `/connect` and the OAuth callback beside it. An app
/// serving MCP over streamable HTTP mounts it on the same router:
/// `.nest_service("/mcp", WireFix::new(StreamableHttpService::new(…)))`.
fn app(page: &LandingPage, oauth: &Arc<GithubOAuth>, tokens: &Tokens) -> Router {
    let callback = Callback {
        page: page.clone(),
        oauth: oauth.clone(),
        tokens: tokens.clone(),
    };
    landing_routes(page.clone(), oauth.clone()).merge(
        Router::new()
            .route("/oauth/callback", get(oauth_callback))
            .with_state(callback),
    )
}

// ---- Running it --------------------------------------------------------------------------

async fn listen(router: Router) -> std::io::Result<String> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let origin = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(origin)
}

/// The whole flow on both eras; fails on the first step that does not hold.
async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let provider = listen(provider::routes()).await?;
    // The app's port first, so the links and the callback can name it.
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let origin = format!("http://{}", listener.local_addr()?);

    // In production: `KeyRing::from_env("ELICIT_KEYS")`, a Redis completion store, and the
    // principal your MCP authentication established (`Principal::from_request`).
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "github-example"))
        .with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())).with_origin(&origin)?);
    let page = LandingPage::new(&server);
    let sessions = [("s-alice", "alice"), ("s-bob", "bob")];
    let oauth = Arc::new(GithubOAuth {
        sessions: sessions.map(|(s, u)| (s.into(), u.into())).into(),
        provider: provider.clone(),
        callback: format!("{origin}/oauth/callback"),
        pending: Mutex::default(),
    });
    let tokens = Tokens::default();
    let router = app(&page, &oauth, &tokens);
    tokio::spawn(async move { axum::serve(listener, router).await });
    println!("app at {origin} (/connect, /oauth/callback); provider at {provider}");

    let github = Github {
        tool_router: Github::tool_router(),
        elicit: ElicitHandler::new(server, Principal::fixed("alice")),
        tokens: tokens.clone(),
    };
    let alice = client::Browser::new(&origin, "s-alice");
    for era in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        println!("protocol {era}:");
        tokens.lock().unwrap().clear();
        let (text, links) =
            client::call_tool(github.clone(), era, alice.clone(), "list_repos").await?;
        println!("  tool: {text}");
        check(
            text == "connected GitHub as octocat (scope repo, token stored: true)",
            &text,
        )?;
        check(
            tokens.lock().unwrap()["alice"] == "gho_example_token",
            "token kept",
        )?;
        let [link] = links.as_slice() else {
            return Err(format!("one link expected, got {links:?}").into());
        };
        check(
            link.starts_with(&format!("{origin}/connect?elicitation=")),
            link,
        )?;

        // The same link in another user's browser: refused, whatever state the flow is in.
        let bob = client::Browser::new(&origin, "s-bob");
        let refused = bob.visit(link).await?;
        check(refused.status == 404, "another user's browser is refused")?;
        // And alice's again: the flow is finished (the same answer: nothing to tell apart).
        let again = alice.visit(link).await?;
        check(again.status == 404, "a finished flow is not finished twice")?;
        // A callback alice's browser did not start (bob's own code, a forged `state`): refused.
        let forged = format!("{origin}/oauth/callback?code=bobs-code&state=not-hers");
        let forged = alice.visit(&forged).await?;
        check(
            forged.status == 403,
            "a callback started elsewhere is refused",
        )?;
    }
    println!("every step held");
    Ok(())
}

fn check(held: bool, what: &str) -> Result<(), String> {
    if held {
        Ok(())
    } else {
        Err(format!("did not hold: {what}"))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    run().await
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn the_oauth_flow_completes_on_both_eras() {
        super::run().await.unwrap();
    }
}
