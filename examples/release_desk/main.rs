//! The release desk: an rmcp server over authenticated streamable HTTP, end to end.
//!
//! One axum app serves everything: `/mcp` (rmcp's streamable HTTP, behind elicit-axum-auth's
//! bearer-token check, whose user is the principal, with the resource metadata MCP clients
//! read at `/.well-known/oauth-protected-resource/mcp`), `/connect` and `/oauth/callback`
//! (elicit-axum's ready OAuth connection to GitHub) and `/signin/callback` (elicit-axum-auth's
//! `SignIn`: the browser that opens a link signs in at the same authorization server that
//! issued the MCP client's token, and comes back). That server and GitHub are fakes, each on a
//! loopback port of its own (`examples/stand_ins/`): `issuer.rs` stands in for your identity
//! provider, with the users alice and bob.
//! Its tools ask: `deploy` a form, then a confirmation sealed to the arguments for
//! production; `list_repos` a GitHub connection through URL mode (a link in the text for
//! clients without URL mode); the prompt `release_notes` a form too.
//!
//! Run it with `cargo run -p elicit-examples --example release_desk` (`-- --port 0` for
//! any free port) and point an MCP client at the printed URL with `Authorization: Bearer
//! alice-token`. The real GitHub is `OAuth::github(&server, client_id, client_secret,
//! sign_in, hook)`. `tests/interop/release_desk.py` drives it with the Python SDK's client
//! over HTTP on both protocol eras, a person signing in and clicking through the pages.
//!
//! By hand on 2026-07-28, each `POST` carries the era in its headers as well as in `_meta`
//! (rmcp answers `-32020` header mismatch without them); the first round asks the deploy form:
//!
//! ```sh
//! curl -s http://127.0.0.1:8765/mcp -H 'Authorization: Bearer alice-token' \
//!   -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
//!   -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: deploy' \
//!   -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy",
//!        "arguments":{"service":"api","version":"1.2.3"},"_meta":{
//!        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!        "io.modelcontextprotocol/clientInfo":{"name":"curl","version":"1"},
//!        "io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}}'
//! # data: {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"target":…
//! ```

// The third parties, faked on loopback in `examples/stand_ins/` (replace them, don't copy
// them): your identity provider, and GitHub (shared with the `oauth_axum` example).
#[path = "../stand_ins/issuer.rs"]
mod issuer;
#[path = "../stand_ins/github.rs"]
mod provider;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use elicit_axum::oauth::{Connection, OAuth, OAuthHook};
use elicit_axum_auth::{Authenticated, BearerAuth, SignIn};
use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::url::UrlSettings;
use elicit_rmcp::{Answer, Elicit, ElicitEnum, ElicitForm, ElicitHandler, ElicitServer};
use elicit_rmcp::{Principal, elicit_url};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{PromptMessage, Role};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ErrorData as McpError, ServerHandler, schemars};
use rmcp::{prompt, prompt_router, tool, tool_router};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use issuer::Issuer;

// ---- What the tools ask ------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Environment {
    #[elicit(title = "Staging")]
    Staging,
    #[elicit(title = "Production")]
    Production,
}

/// Where should it go?
#[derive(ElicitForm)]
struct Target {
    #[elicit(title = "Environment")]
    environment: Environment,
    /// A line for the release log
    #[elicit(title = "Note", max_length = 200)]
    note: Option<String>,
}

/// Please confirm
#[derive(ElicitForm)]
struct Confirm {
    #[elicit(title = "Yes, deploy to production")]
    confirm: bool,
}

/// Which tone?
#[derive(ElicitForm)]
struct Tone {
    #[elicit(title = "Formal")]
    formal: bool,
}

/// The URL-mode question: its fields are sealed into the link (the OAuth connection asks
/// GitHub for these `scopes`). The origin is the production one; `UrlSettings::with_origin`
/// swaps in this app's.
#[elicit_url(
    message = "Connect your GitHub account to list your repositories",
    url = "https://desk.example.com/connect"
)]
struct ConnectGithub {
    scopes: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct DeployArgs {
    /// The service to deploy
    service: String,
    /// Its version
    version: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NotesArgs {
    /// The service the notes are for
    service: String,
}

// ---- The MCP server ----------------------------------------------------------------------

/// GitHub tokens by user: they stay on the server and never pass through the MCP client.
type Tokens = Arc<Mutex<HashMap<String, String>>>;

#[derive(Clone)]
struct Desk {
    elicit: ElicitHandler,
    tokens: Tokens,
}

#[tool_router]
impl Desk {
    #[tool(description = "Deploy a service: asks where, and confirms a production deploy")]
    async fn deploy(
        &self,
        Parameters(DeployArgs { service, version }): Parameters<DeployArgs>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let Answer::Accepted(target) = Target::ask(&mut cx).await? else {
            return Ok(format!("{service} {version} not deployed"));
        };
        if target.environment == Environment::Production {
            // Sealed to these arguments: a yes here cannot deploy another service or version.
            let sure =
                Confirm::question().message(format!("Deploy {service} {version} to production?"));
            if !matches!(
                sure.ask(&mut cx).await?,
                Answer::Accepted(Confirm { confirm: true })
            ) {
                return Ok(format!("{service} {version} not deployed to production"));
            }
        }
        let note = target
            .note
            .map(|note| format!(" ({note})"))
            .unwrap_or_default();
        Ok(format!(
            "deployed {service} {version} to {}{note}",
            target.environment.value()
        ))
    }

    #[tool(description = "List your GitHub repositories (connects your GitHub account first)")]
    async fn list_repos(&self, mut cx: Elicit) -> Result<String, McpError> {
        let connect = ConnectGithub {
            scopes: "repo".into(),
        };
        Ok(match connect.ask(&mut cx).await?.completed() {
            Ok(result) => {
                let login = result
                    .as_ref()
                    .and_then(|r| r["login"].as_str())
                    .unwrap_or("?");
                let user = cx.principal().unwrap_or_default();
                let stored = self.tokens.lock().unwrap().contains_key(user);
                format!("connected GitHub as {login} (token kept on the server: {stored})")
            }
            Err(why) => format!("GitHub not connected: {why}"),
        })
    }
}

#[prompt_router]
impl Desk {
    #[prompt(description = "Draft release notes in the tone you pick")]
    async fn release_notes(
        &self,
        Parameters(NotesArgs { service }): Parameters<NotesArgs>,
        mut cx: Elicit,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let formal = matches!(
            Tone::ask(&mut cx).await?,
            Answer::Accepted(Tone { formal: true })
        );
        let tone = if formal { "formal" } else { "casual" };
        let text = format!("Draft {tone} release notes for {service}");
        Ok(vec![PromptMessage::new_text(Role::User, text)])
    }
}

// Tools and prompts run through elicit.
#[elicit_rmcp::handler(prompts)]
impl ServerHandler for Desk {}

// ---- The browser-facing side: elicit-axum's ready OAuth connection -----------------------

/// What to do with the token: keep it, and tell the tool whose account it is.
struct GithubConnect {
    tokens: Tokens,
}

impl OAuthHook for GithubConnect {
    async fn connected(&self, c: Connection<'_>) -> Result<Option<Value>, String> {
        // Whose account it is: GitHub's `/user`, asked by the callback. No login, no
        // connection: the flow fails with this reason.
        let login = c.account().and_then(|a| a["login"].as_str());
        let login = login.ok_or("GitHub did not say whose account this is")?;
        let mut tokens = self.tokens.lock().unwrap();
        tokens.insert(c.user().to_owned(), c.access_token().to_owned());
        Ok(Some(json!({ "login": login })))
    }
}

// ---- The app -----------------------------------------------------------------------------

/// The whole app at `origin`, its users signed in by `issuer`, connecting to the provider
/// at `provider`.
fn app(origin: &str, issuer: Issuer, provider: &str) -> Result<Router, Box<dyn std::error::Error>> {
    // In production: `KeyRing::from_env("ELICIT_KEYS")` and a Redis completion store.
    let url = UrlSettings::in_memory()
        .with_origin(origin)?
        .with_link_fallback();
    let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "release-desk"))
        .with_required_principal()
        .with_url(url);

    let tokens = Tokens::default();
    let hook = GithubConnect {
        tokens: tokens.clone(),
    };
    // Who the browser's user is: signed in at the issuer, back at `{origin}/signin/callback`.
    let sign_in = SignIn::new(&server, issuer.provider())?;
    // GitHub itself is `OAuth::github(&server, client_id, client_secret, sign_in, hook)`; its
    // callback is `{origin}/oauth/callback`.
    let github = provider::fake_github(provider);
    let oauth = OAuth::new(&server, github, sign_in.clone(), hook)?;

    let desk = Desk {
        // The user the bearer check put into the request.
        elicit: ElicitHandler::new(
            server,
            Principal::from_http_extension(|u: &Authenticated| Some(u.subject().to_owned())),
        ),
        tokens,
    };
    let mcp = elicit_rmcp::streamable_http(desk, StreamableHttpServerConfig::default());
    // The bearer check in front of `/mcp`, and the metadata clients read first.
    let bearer = BearerAuth::new(&format!("{origin}/mcp"), issuer)?;
    let mcp = bearer.protect(Router::new().nest_service("/mcp", mcp));
    Ok(mcp.merge(oauth.routes()).merge(sign_in.routes()))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip_while(|arg| arg != "--port").skip(1);
    let port: u16 = args.next().map_or(Ok(8765), |port| port.parse())?;

    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    let origin = format!("http://{}", listener.local_addr()?);

    // The issuer, where the desk is registered with its sign-in's way back.
    let issuer_listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let issuer_origin = format!("http://{}", issuer_listener.local_addr()?);
    let issuer = Issuer::new(
        issuer_origin.clone(),
        format!("{origin}/signin/callback"),
        &[("alice-token", "alice"), ("bob-token", "bob")],
    );
    let routes = issuer.routes();
    tokio::spawn(async move { axum::serve(issuer_listener, routes).await });

    let provider = TcpListener::bind(("127.0.0.1", 0)).await?;
    let provider_origin = format!("http://{}", provider.local_addr()?);
    tokio::spawn(async move { axum::serve(provider, provider::routes()).await });

    let app = app(&origin, issuer, &provider_origin)?;
    println!("release desk: MCP at {origin}/mcp (Authorization: Bearer alice-token, or bob-token)");
    println!("  browsers sign in at the issuer (fake) at {issuer_origin}, as alice or bob");
    println!("  GitHub (fake) at {provider_origin}");
    axum::serve(listener, app).await?;
    Ok(())
}
