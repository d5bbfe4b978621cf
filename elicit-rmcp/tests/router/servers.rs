//! The servers under test: rmcp's own `#[tool_router]` / `#[prompt_router]`, with typed
//! `Parameters<T>` and the `Elicit` extractor, wired three ways (`#[tool_handler(router =
//! …)]`, a hand-written `call_tool`, and not at all).

use std::sync::Arc;

use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::url::{MemoryCompletionStore, UrlSettings};
use elicit_rmcp::{Answer, ElicitEnum, ElicitForm, ElicitServer, ElicitUrl, Filled, UrlAnswer};
use elicit_rmcp::{Elicit, ElicitHandler, Principal};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, PromptMessage, RequestMetaObject,
    Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, schemars};
use rmcp::{prompt, prompt_router, tool, tool_handler, tool_router};
use serde_json::{Value, json};

/// Please confirm
#[derive(Debug, ElicitForm)]
#[elicit(key = "confirm")]
pub(crate) struct Confirm {
    #[elicit(title = "Yes, go ahead")]
    pub confirm: bool,
}

/// When do you travel?
#[derive(Debug, ElicitForm)]
#[elicit(key = "dates")]
pub(crate) struct TripDates {
    #[elicit(title = "First day", format = "date")]
    pub start: String,
    #[elicit(title = "Nights", minimum = 1, maximum = 30, default = 3)]
    pub nights: u8,
}

/// Who travels?
#[derive(Debug, ElicitForm)]
#[elicit(key = "travelers")]
pub(crate) struct Travelers {
    #[elicit(title = "Adults", minimum = 1, maximum = 9)]
    pub adults: u8,
}

/// Which tone?
#[derive(Debug, ElicitForm)]
#[elicit(key = "tone")]
pub(crate) struct Tone {
    #[elicit(title = "Formal")]
    pub formal: bool,
}

/// Connect a third-party account on our page.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(
    message = "Connect your account in the browser to continue",
    url = "http://127.0.0.1/connect",
    key = "connect"
)]
pub(crate) struct ConnectAccount {
    pub service: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct CancelArgs {
    /// Reservation id
    pub reservation_id: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct TripArgs {
    /// Where to
    pub destination: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct ConnectArgs {
    /// Service name
    pub service: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct EchoArgs {
    /// What to echo
    pub text: String,
    /// How often
    pub times: u8,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct TopicArgs {
    /// What the email is about
    pub topic: String,
}

/// The body both orders of `cancel_*` share.
async fn cancel(args: CancelArgs, cx: &mut Elicit) -> Result<String, McpError> {
    let id = args.reservation_id;
    let question = Confirm::question().message(format!("Cancel reservation {id}?"));
    Ok(match question.ask(cx).await? {
        Answer::Accepted(Confirm { confirm: true }) => {
            format!("accept: reservation {id} cancelled")
        }
        Answer::Accepted(Confirm { confirm: false }) => format!("accept: reservation {id} kept"),
        Answer::Declined => format!("decline: reservation {id} kept"),
        Answer::Cancelled => format!("cancel: reservation {id} left open"),
    })
}

/// The same tools on every server kind, so their results can be compared.
macro_rules! shop_tools {
    ($server:ident) => {
        #[tool_router]
        impl $server {
            #[tool(description = "Cancel a reservation (Parameters, then Elicit)")]
            async fn cancel_args_first(
                &self,
                Parameters(args): Parameters<CancelArgs>,
                mut cx: Elicit,
            ) -> Result<String, McpError> {
                cancel(args, &mut cx).await
            }

            #[tool(description = "Cancel a reservation (Elicit, then Parameters)")]
            async fn cancel_elicit_first(
                &self,
                mut cx: Elicit,
                Parameters(args): Parameters<CancelArgs>,
            ) -> Result<String, McpError> {
                cancel(args, &mut cx).await
            }

            #[tool(description = "Plan a trip: two questions in one round")]
            async fn plan_trip(
                &self,
                Parameters(args): Parameters<TripArgs>,
                mut cx: Elicit,
            ) -> Result<String, McpError> {
                let to = args.destination;
                let dates = TripDates::question()
                    .message(format!("When do you travel to {to}?"))
                    .ask(&mut cx)
                    .await;
                let travelers = Travelers::ask(&mut cx).await;
                Ok(match (dates?, travelers?) {
                    (Answer::Accepted(d), Answer::Accepted(t)) => format!(
                        "accept: {} nights in {to} from {} for {} adults",
                        d.nights, d.start, t.adults
                    ),
                    (d, t) => format!("not planned: dates {d:?}, travelers {t:?}"),
                })
            }

            #[tool(description = "Connect an account in the browser (URL mode)")]
            async fn connect_account(
                &self,
                mut cx: Elicit,
                Parameters(args): Parameters<ConnectArgs>,
            ) -> Result<String, McpError> {
                let service = args.service;
                let state = ConnectAccount {
                    service: service.clone(),
                };
                Ok(match state.ask(&mut cx).await? {
                    UrlAnswer::Completed { result, .. } => {
                        format!("accept: connected {service} as {}", account(&result))
                    }
                    UrlAnswer::Failed { reason, .. } => format!("failed: {reason}"),
                    UrlAnswer::Expired => "expired".to_owned(),
                    UrlAnswer::Declined => format!("decline: {service} not connected"),
                    UrlAnswer::Cancelled => format!("cancel: {service} not connected"),
                    other => format!("unexpected: {other:?}"),
                })
            }

            #[tool(description = "Connect an account: URL mode, or the link as text")]
            async fn connect_or_link(
                &self,
                mut cx: Elicit,
                Parameters(args): Parameters<ConnectArgs>,
            ) -> Result<String, McpError> {
                let service = args.service;
                let state = ConnectAccount {
                    service: service.clone(),
                };
                // A form-only client gets the link as this result where the server has the
                // link fallback (`UrlSettings::with_link_fallback`).
                Ok(match state.ask(&mut cx).await? {
                    UrlAnswer::Completed { result, .. } => {
                        format!("connected {service} as {}", account(&result))
                    }
                    other => format!("not connected: {other:?}"),
                })
            }

            #[tool(description = "rmcp's own `_meta` extractor before Elicit")]
            async fn inspect(
                &self,
                meta: RequestMetaObject,
                mut cx: Elicit,
            ) -> Result<String, McpError> {
                let before = format!(
                    "{:?} {} principal {:?}",
                    cx.era(),
                    json!(cx.capabilities()),
                    cx.principal()
                );
                let answer = Confirm::ask(&mut cx).await?;
                Ok(format!(
                    "{before}; trace {}; {answer:?}",
                    meta.get("example.com/trace").unwrap_or(&Value::Null)
                ))
            }

            #[tool(description = "Summarize with the client's model (sampling, after its roots)")]
            async fn summarize(&self, mut cx: Elicit) -> Result<String, McpError> {
                let roots = cx.list_roots("where").await?;
                let params = json!({"messages": [], "maxTokens": 16, "roots": roots});
                Ok(cx.sample("summary", params).await?.to_string())
            }

            #[tool(description = "Poll a job that is never done")]
            async fn poll_job(&self, cx: Elicit) -> Result<String, McpError> {
                Err(cx.retry_later())
            }

            #[tool(description = "Echo: never asks")]
            async fn echo(
                &self,
                Parameters(args): Parameters<EchoArgs>,
            ) -> Result<String, McpError> {
                Ok(args.text.repeat(usize::from(args.times)))
            }

            #[tool(description = "Echo: takes Elicit, never asks")]
            async fn echo_with_elicit(
                &self,
                Parameters(args): Parameters<EchoArgs>,
                _cx: Elicit,
            ) -> Result<String, McpError> {
                Ok(args.text.repeat(usize::from(args.times)))
            }

            #[tool(description = "Fails: takes Elicit, never asks")]
            async fn refuse_with_elicit(
                &self,
                _cx: Elicit,
                Parameters(args): Parameters<EchoArgs>,
            ) -> Result<String, McpError> {
                Err(McpError::invalid_request(
                    format!("will not echo {}", args.text),
                    Some(json!({"times": args.times})),
                ))
            }

            #[tool(description = "Fails: never asks")]
            async fn refuse(
                &self,
                Parameters(args): Parameters<EchoArgs>,
            ) -> Result<String, McpError> {
                Err(McpError::invalid_request(
                    format!("will not echo {}", args.text),
                    Some(json!({"times": args.times})),
                ))
            }
        }
    };
}

/// The settings every wired server asks with.
pub(crate) fn elicit_server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(KeyRing::generate(), "rmcp-router-test"))
        .with_server_info("rmcp-router-test", "1.0.0")
        .with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())))
}

fn info() -> ServerConfig {
    ServerConfig::new(
        ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .build(),
    )
    .with_server_info(Implementation::new("rmcp-router-test", "1.0.0"))
}

/// A principal read from the request's `_meta` (a stand-in for an authentication layer's
/// extension: what matters is that it is read from the request).
pub(crate) fn user_from_meta() -> Principal {
    Principal::from_request(|request| {
        request
            .meta
            .get("example.com/user")
            .and_then(Value::as_str)
            .map(str::to_owned)
    })
}

/// Who reads it?
#[derive(Debug, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
pub(crate) enum Audience {
    Team,
    Board,
}

/// The memo
#[derive(Debug, ElicitForm)]
pub(crate) struct Memo {
    /// What the memo is about
    #[elicit(model_required)]
    pub topic: String,
    /// Who reads it
    pub audience: Audience,
}

/// Wired with `#[elicit_rmcp::handler(prompts)]`.
#[derive(Clone)]
pub(crate) struct Wired {
    pub elicit: ElicitHandler,
}

impl Wired {
    pub(crate) fn new(principal: Principal) -> Self {
        Self::with_server(elicit_server(), principal)
    }

    /// A server asking with `server`'s keys and stores (another user's connection to the
    /// same deployment, when `principal` differs).
    pub(crate) fn with_server(server: ElicitServer, principal: Principal) -> Self {
        Wired {
            elicit: ElicitHandler::new(server, principal),
        }
    }
}

shop_tools!(Wired);

#[prompt_router]
impl Wired {
    #[prompt(description = "Draft an email in the tone the user picks")]
    async fn email(
        &self,
        Parameters(args): Parameters<TopicArgs>,
        mut cx: Elicit,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let tone = match Tone::ask(&mut cx).await? {
            Answer::Accepted(Tone { formal: true }) => "formal",
            Answer::Accepted(Tone { formal: false }) => "casual",
            Answer::Declined => "declined",
            Answer::Cancelled => "cancelled",
        };
        Ok(vec![PromptMessage::new_text(
            Role::User,
            format!("Draft a {tone} email about {}", args.topic),
        )])
    }

    // The prompt's arguments are the form's fields; what the model left out is asked.
    #[elicit_rmcp::asks(otherwise = vec![PromptMessage::new_text(Role::User, "No memo")])]
    #[prompt(description = "Draft a memo")]
    async fn memo(&self, memo: Filled<Memo>) -> Result<Vec<PromptMessage>, McpError> {
        Ok(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Draft a memo about {} for the {:?}",
                memo.topic, memo.audience
            ),
        )])
    }
}

#[elicit_rmcp::handler(prompts)]
impl ServerHandler for Wired {
    fn get_info(&self) -> ServerConfig {
        info()
    }
}

/// Wired by hand: `call_tool` returns `self.elicit.call_tool(…)`.
#[derive(Clone)]
pub(crate) struct HandWired {
    elicit: ElicitHandler,
}

impl HandWired {
    pub(crate) fn new() -> Self {
        HandWired {
            elicit: ElicitHandler::new(elicit_server(), Principal::anonymous()),
        }
    }
}

shop_tools!(HandWired);

impl ServerHandler for HandWired {
    fn get_info(&self) -> ServerConfig {
        info()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        self.elicit
            .call_tool(&Self::tool_router(), self, request, context)
            .await
    }
}

/// Not wired: plain `#[tool_handler]` (which calls `Self::tool_router()`), the same tools.
#[derive(Clone)]
pub(crate) struct Plain;

shop_tools!(Plain);

#[tool_handler]
impl ServerHandler for Plain {
    fn get_info(&self) -> ServerConfig {
        info()
    }
}

/// The account a connect page recorded, as the URL-mode tools report it.
fn account(result: &Option<Value>) -> &str {
    result
        .as_ref()
        .and_then(|r| r.get("account"))
        .and_then(Value::as_str)
        .unwrap_or("an unnamed account")
}
