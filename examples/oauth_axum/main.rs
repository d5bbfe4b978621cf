//! Collecting an OAuth grant through URL mode on an axum app (the cookbook's `oauth_on_axum`).
//!
//! A tool asks the user to connect GitHub. The link goes to this app's `/connect` (elicit's
//! ready landing route), whose `ConnectHook` redirects the browser to the provider; the
//! provider redirects back to `/oauth/callback`, which trades the code for a token, keeps the
//! token on the server and completes the elicitation. The tool then reads the completion.
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
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use elicit_axum::{ConnectHook, ConnectStep, OpenedLink, landing_routes};
use elicit_rmcp::{Elicit, ElicitHandler, Principal};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{LandingPage, MemoryCompletionStore, PageError};
use elicit_runtime::{ElicitServer, ElicitUrl, UrlAnswer, elicit_url};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::ProtocolVersion;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// The URL-mode elicitation: its fields are sealed into the link and come back to the
/// landing route and to the tool. The origin is the production one; in this example
/// `ElicitServer::with_url_origin` swaps in the loopback port.
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

/// The app's OAuth client: who the browser's user is, and where to send them.
struct GithubOAuth {
    /// Session cookies of signed-in users (your session store).
    sessions: HashMap<String, String>,
    provider: String,
    callback: String,
}

impl GithubOAuth {
    /// The signed-in user of a request, from its `session` cookie.
    fn user(&self, parts: &Parts) -> Option<String> {
        let cookies = parts.headers.get("cookie")?.to_str().ok()?;
        let session = cookies
            .split(';')
            .find_map(|c| c.trim().strip_prefix("session="))?;
        self.sessions.get(session).cloned()
    }
}

impl ConnectHook for GithubOAuth {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.user(parts)
            .ok_or_else(|| (StatusCode::UNAUTHORIZED, "sign in first").into_response())
    }

    /// The handle is open for its own user: send the browser to the provider. Nothing is
    /// recorded yet; the callback records the outcome.
    async fn connect(&self, link: &OpenedLink, _parts: &Parts) -> ConnectStep {
        let wanted = match link.state_as::<ConnectGithub>() {
            Ok(wanted) => wanted,
            Err(other_kind) => return ConnectStep::refuse(other_kind),
        };
        // The handle is the OAuth `state`: unguessable, sealed, and the callback opens it
        // again for the signed-in user, which refuses a callback started by anyone else.
        let authorize = format!(
            "{}/authorize?client_id={}&redirect_uri={}&scope={}&state={}",
            self.provider,
            provider::CLIENT_ID,
            self.callback,
            wanted.scopes,
            link.handle()
        );
        ConnectStep::respond(Redirect::to(&authorize).into_response())
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

/// `GET /oauth/callback?code=…&state=<handle>`: trade the code, keep the token, complete.
async fn oauth_callback(
    State(app): State<Callback>,
    Query(q): Query<CallbackQuery>,
    parts: Parts,
) -> Response {
    let user = match app.oauth.subject(&parts).await {
        Ok(user) => user,
        Err(sign_in) => return sign_in,
    };
    // The same checks as the landing route: ours, not expired, this user's, not finished.
    let opened = match app.page.open_raw(&q.state, &user).await {
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
    match recorded {
        Ok(()) => {
            Html("Done. You can close this tab and return to your assistant.").into_response()
        }
        Err(refused) => refused_page(&refused),
    }
}

/// The uniform text for a refused handle (its precise `reason()` belongs in your logs).
fn refused_page(error: &PageError) -> Response {
    let status = match error {
        PageError::WrongSubject => StatusCode::FORBIDDEN,
        PageError::Expired => StatusCode::GONE,
        PageError::AlreadyRecorded => StatusCode::CONFLICT,
        _ => StatusCode::BAD_REQUEST,
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
        .with_completion_store(Arc::new(MemoryCompletionStore::new()))
        .with_url_origin(&origin)?;
    let page = LandingPage::new(&server);
    let sessions = [("s-alice", "alice"), ("s-bob", "bob")];
    let oauth = Arc::new(GithubOAuth {
        sessions: sessions.map(|(s, u)| (s.into(), u.into())).into(),
        provider: provider.clone(),
        callback: format!("{origin}/oauth/callback"),
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
    let alice = client::Browser {
        app_origin: origin.clone(),
        cookie: "session=s-alice".into(),
    };
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
        let bob = client::Browser {
            app_origin: origin.clone(),
            cookie: "session=s-bob".into(),
        };
        let refused = bob.visit(link).await?;
        check(refused.status == 403, "another user's browser is refused")?;
        // And alice's again: the flow is finished.
        let again = alice.visit(link).await?;
        check(again.status == 409, "a finished flow is not finished twice")?;
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
