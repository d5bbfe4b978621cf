//! Collecting an OAuth grant through URL mode on an axum app (the cookbook's `oauth_on_axum`).
//!
//! A tool asks the user to connect GitHub. The link goes to this app's `/connect` (elicit's
//! ready landing route), which shows a confirmation page; on Confirm, elicit-axum's ready OAuth
//! connection (`elicit_axum::oauth`) sends the browser to the provider (PKCE, and a `state`
//! sealed to this flow, the browser's user and a nonce cookie). The provider redirects back to
//! `/oauth/callback`, which accepts only that browser and user, trades the code for a token,
//! and gives the token to the app's `OAuthHook::connected`, which keeps it on the server and
//! says which account it is. The tool then reads the completion.
//!
//! Everything runs offline: a fake provider listens on loopback, and a scripted browser and
//! MCP client (in `client.rs`) stand in for the user, on both protocol eras. Run it with
//! `cargo run -p elicit-examples --example oauth_axum` (it exits 0 when every step held), or
//! `cargo test -p elicit-examples --example oauth_axum`.

mod client;
mod http;
// GitHub, faked on loopback (shared with the `release_desk` example).
#[path = "../stand_ins/github.rs"]
mod provider;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::StatusCode;
use axum::http::request::Parts;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook};
use elicit_rmcp::{Elicit, ElicitHandler, Principal};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::UrlSettings;
use elicit_runtime::{ElicitServer, UrlAnswer, elicit_url};
use rmcp::model::ProtocolVersion;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
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
            // Declined, cancelled, or an outcome a later version adds.
            _ => "GitHub not connected".into(),
        })
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Github {}

// ---- The browser-facing side: elicit-axum's ready OAuth connection -----------------------

/// What the app does with a connection: keep the token, and tell the tool which account it is.
struct GithubConnect {
    tokens: Tokens,
}

/// Who the browser's user is: its session cookie (your session store; here two users).
fn signed_in(parts: &Parts) -> Result<String, (StatusCode, &'static str)> {
    let user = match cookie(parts, "session") {
        Some("s-alice") => "alice",
        Some("s-bob") => "bob",
        _ => return Err((StatusCode::UNAUTHORIZED, "sign in first")),
    };
    Ok(user.to_owned())
}

impl OAuthHook for GithubConnect {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        // Whose account it is: GitHub's `/user`, asked by the callback. No login, no
        // connection: the flow fails with this reason.
        let login = c.account().and_then(|a| a["login"].as_str());
        let login = login.ok_or("GitHub did not say whose account this is")?;
        self.tokens
            .lock()
            .unwrap()
            .insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(Some(json!({ "login": login })))
    }
}

/// A cookie of the request, by name.
fn cookie<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    let cookies = parts.headers.get("cookie")?.to_str().ok()?;
    cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
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
        .with_url(UrlSettings::in_memory().with_origin(&origin)?);
    // GitHub itself: `OAuthProvider::github(client_id, client_secret)` and its redirect URL.
    let github = provider::fake_github(&provider);
    let tokens = Tokens::default();
    let connect = GithubConnect {
        tokens: tokens.clone(),
    };
    // `/connect` (the confirmation page, which sends the browser to the provider) and
    // `/oauth/callback`. An app serving MCP over streamable HTTP mounts them on the same
    // router: `.nest_service("/mcp", elicit_rmcp::streamable_http(server, config))`.
    let router: Router = OAuth::new(&server, github, signed_in, connect)?.routes();
    tokio::spawn(async move { axum::serve(listener, router).await });
    println!("app at {origin} (/connect, /oauth/callback); provider at {provider}");

    let github = Github {
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
