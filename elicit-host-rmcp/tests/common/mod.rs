//! What the tests share: an rmcp server built with elicit (a form tool and a URL tool), a
//! person who answers through the host callback (typing, refusing, or opening a page and
//! finishing it later), and an rmcp client joined to the server by a tap that records every
//! line.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_host::{FormInput, FormModel, UrlReport, UrlRequest};
use elicit_host_rmcp::{Answerer, Asker, Consent, Elicited, ElicitingClient, Host, Outcome};
use elicit_rmcp::adapter::WireFix;
use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::url::{LandingPage, MemoryCompletionStore, UrlSettings};
use elicit_rmcp::{
    Answer, Elicit, ElicitForm, ElicitHandler, ElicitServer, ElicitUrl, Principal, UrlAnswer,
};
use elicit_wire::ElicitResult;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, Implementation, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RunningService;
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ErrorData as McpError, RoleClient, ServerHandler,
    ServiceExt, schemars, tool, tool_router,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// Which revision the client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// 2026-07-28: rounds.
    Mrtr,
    /// 2025-11-25: `elicitation/create` pushed to the client.
    Legacy,
}

pub(crate) const ERAS: [Era; 2] = [Era::Mrtr, Era::Legacy];

/// Where to deploy
#[derive(Debug, ElicitForm)]
#[elicit(key = "deploy")]
pub(crate) struct Deploy {
    #[elicit(title = "Environment")]
    pub environment: Environment,
    #[elicit(title = "Replicas", minimum = 1, maximum = 10, default = 2)]
    pub replicas: u8,
    #[elicit(title = "Notify")]
    pub notify: Vec<Channel>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, elicit_rmcp::ElicitEnum)]
pub(crate) enum Environment {
    #[elicit(title = "Staging")]
    Staging,
    #[elicit(title = "Production")]
    Production,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, elicit_rmcp::ElicitEnum)]
pub(crate) enum Channel {
    #[elicit(title = "Email")]
    Email,
    #[elicit(title = "Chat")]
    Chat,
}

/// Connect a third-party account on our page.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(
    message = "Connect GitHub in the browser to continue",
    url = "http://127.0.0.1/connect",
    key = "connect"
)]
pub(crate) struct ConnectAccount {
    pub service: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct ServiceArgs {
    /// The service
    pub service: String,
}

/// The server under test.
#[derive(Clone)]
pub(crate) struct Desk {
    pub elicit: ElicitHandler,
}

#[tool_router]
impl Desk {
    #[tool(description = "Deploy, asking where")]
    async fn deploy(&self, mut cx: Elicit) -> Result<String, McpError> {
        Ok(match Deploy::ask(&mut cx).await? {
            Answer::Accepted(d) => format!(
                "deployed to {:?} with {} replicas, notifying {:?}",
                d.environment, d.replicas, d.notify
            ),
            Answer::Declined => "declined".to_owned(),
            Answer::Cancelled => "cancelled".to_owned(),
        })
    }

    #[tool(description = "Connect an account in the browser")]
    async fn connect(
        &self,
        mut cx: Elicit,
        Parameters(args): Parameters<ServiceArgs>,
    ) -> Result<String, McpError> {
        let state = ConnectAccount {
            service: args.service.clone(),
        };
        Ok(match state.ask(&mut cx).await? {
            UrlAnswer::Completed { result, .. } => format!(
                "connected {} as {}",
                args.service,
                result
                    .as_ref()
                    .and_then(|r| r["account"].as_str())
                    .unwrap_or("?")
            ),
            other => format!("not connected: {other:?}"),
        })
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Desk {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("release-desk", "1.0.0").with_title("Release desk"),
        )
    }
}

impl Desk {
    /// Asking as alice; a retry after a URL accept is held `hold` for the page.
    pub(crate) fn new(hold: Duration) -> Self {
        Desk::with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())).with_hold(hold))
    }

    /// Asking as alice, URL mode as `url` says.
    pub(crate) fn with_url(url: UrlSettings) -> Self {
        let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "release-desk"))
            .with_server_info("release-desk", "1.0.0")
            .with_url(url);
        Desk {
            elicit: ElicitHandler::new(server, Principal::fixed("alice")),
        }
    }

    pub(crate) fn page(&self) -> LandingPage {
        LandingPage::new(self.elicit.server())
    }
}

/// How the person answers a form.
#[derive(Clone)]
pub(crate) enum FormPlan {
    /// Types these values (by field name) over the defaults, then submits.
    Type(Vec<(&'static str, &'static str)>),
    /// Types these values into the fields each form has (the others are left as they are),
    /// then submits: one plan for a call that asks several forms.
    Fields(Vec<(&'static str, &'static str)>),
    /// Sends this, whatever it is.
    Send(ElicitResult),
    /// Never answers.
    Never,
}

/// How the person answers a URL consent screen.
#[derive(Clone)]
pub(crate) enum PagePlan {
    /// Consents at once; finishes the page as alice (account `octocat`) `after` later.
    OpenAndFinish { page: LandingPage, after: Duration },
    /// Consents, and never finishes the page.
    OpenOnly,
    /// Says this.
    Say(Consent),
}

/// What the person saw and did.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    pub askers: Vec<String>,
    pub forms: Vec<String>,
    pub pages: Vec<String>,
    pub waits: usize,
    pub outcomes: Vec<Outcome>,
}

/// The person behind the host.
#[derive(Clone)]
pub(crate) struct Person {
    pub form: FormPlan,
    pub page: PagePlan,
    /// Stops waiting for a page after this many "still waiting?" prompts.
    pub patience: usize,
    pub seen: Arc<Mutex<Seen>>,
}

impl Person {
    pub(crate) fn new(form: FormPlan, page: PagePlan) -> Self {
        Person {
            form,
            page,
            patience: usize::MAX,
            seen: Arc::default(),
        }
    }

    pub(crate) fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap()
    }
}

impl Host for Person {
    async fn fill(&self, asker: &Asker, form: &FormModel) -> ElicitResult {
        {
            let mut seen = self.seen();
            seen.askers.push(asker.shown_name().to_owned());
            seen.forms.push(form.message().to_owned());
        }
        match &self.form {
            FormPlan::Type(values) => typed(form, values, |_| true),
            FormPlan::Fields(values) => typed(form, values, |field| form.field(field).is_some()),
            FormPlan::Send(result) => result.clone(),
            FormPlan::Never => std::future::pending().await,
        }
    }

    async fn open(&self, asker: &Asker, request: &UrlRequest, report: &UrlReport) -> Consent {
        {
            let mut seen = self.seen();
            seen.askers.push(asker.shown_name().to_owned());
            seen.pages.push(report.sent().to_owned());
        }
        match &self.page {
            PagePlan::OpenAndFinish { page, after } => {
                // The browser opens; the person signs in later, after this returns.
                let (page, after, url) = (page.clone(), *after, request.url.clone());
                tokio::spawn(async move {
                    tokio::time::sleep(after).await;
                    let handle = url.split_once("elicitation=").expect("a handle").1;
                    let (opened, _) = page.open_raw(handle, "alice").await.expect("alice's link");
                    page.complete_raw(&opened, Some(json!({"account": "octocat"})))
                        .await
                        .unwrap();
                });
                Consent::Opened
            }
            PagePlan::OpenOnly => Consent::Opened,
            PagePlan::Say(consent) => *consent,
        }
    }

    async fn keep_waiting(&self, _: &Asker, _: &UrlRequest, _: Duration) -> bool {
        let mut seen = self.seen();
        seen.waits += 1;
        seen.waits <= self.patience
    }

    fn outcome(&self, elicited: &Elicited) {
        self.seen().outcomes.push(elicited.outcome.clone());
    }
}

/// The person types `values` over the defaults (those `types` says this form has), then
/// submits.
fn typed(form: &FormModel, values: &[(&str, &str)], types: impl Fn(&str) -> bool) -> ElicitResult {
    let mut input = FormInput::new(form);
    for (field, text) in values.iter().filter(|(field, _)| types(field)) {
        input
            .set_text(field, text)
            .expect("the person types a valid value");
    }
    input
        .accept()
        .expect("the person fills every required field")
}

/// Every line each way, in order.
#[derive(Clone, Default)]
pub(crate) struct Wire(Arc<Mutex<Vec<(bool, Value)>>>);

impl Wire {
    /// The `params` of each client request with `method`.
    pub(crate) fn client_params(&self, method: &str) -> Vec<Value> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(from_client, m)| {
                *from_client && m["method"] == method && m.get("id").is_some()
            })
            .map(|(_, m)| m["params"].clone())
            .collect()
    }

    /// Each client request's `id` with `method`.
    pub(crate) fn client_ids(&self, method: &str) -> Vec<Value> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(from_client, m)| *from_client && m["method"] == method)
            .map(|(_, m)| m["id"].clone())
            .collect()
    }

    /// Every server result with `resultType: input_required`.
    pub(crate) fn rounds(&self) -> Vec<Value> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(from_client, m)| {
                !*from_client && m["result"]["resultType"] == "input_required"
            })
            .map(|(_, m)| m["result"].clone())
            .collect()
    }

    /// The client's answers (results and errors) to the server's requests.
    pub(crate) fn client_answers(&self) -> Vec<Value> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(from_client, m)| *from_client && m.get("method").is_none())
            .map(|(_, m)| m.clone())
            .collect()
    }
}

async fn pump(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    client: bool,
    wire: Wire,
) {
    let mut lines = BufReader::new(from).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Ok(message) = serde_json::from_str(&line) {
            wire.0.lock().unwrap().push((client, message));
        }
        let sent = async {
            to.write_all(line.as_bytes()).await?;
            to.write_all(b"\n").await?;
            to.flush().await
        };
        if sent.await.is_err() {
            break;
        }
    }
}

pub(crate) type Client = RunningService<RoleClient, ElicitingClient<Person>>;

/// Serves `server` and connects an [`ElicitingClient`] answering through `answerer` in `era`.
pub(crate) async fn connect<S: ServerHandler>(
    server: S,
    era: Era,
    answerer: Answerer<Person>,
) -> (Client, Wire) {
    let wire = Wire::default();
    let (client_io, client_tap) = tokio::io::duplex(1 << 16);
    let (server_tap, server_io) = tokio::io::duplex(1 << 16);
    let (client_read, client_write) = tokio::io::split(client_tap);
    let (server_read, server_write) = tokio::io::split(server_tap);
    tokio::spawn(pump(client_read, server_write, true, wire.clone()));
    tokio::spawn(pump(server_read, client_write, false, wire.clone()));
    tokio::spawn(async move {
        if let Ok(running) = WireFix::new(server).serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    (join(client_io, era, answerer).await, wire)
}

/// Starts `server` (a server over stdio, as a host starts one) and connects an
/// [`ElicitingClient`] answering through `answerer` in `era`, through the same tap. The child
/// is killed when the returned handle drops.
pub(crate) async fn connect_child(
    mut server: tokio::process::Command,
    era: Era,
    answerer: Answerer<Person>,
) -> (Client, Wire, tokio::process::Child) {
    let mut child = server
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let wire = Wire::default();
    let (client_io, client_tap) = tokio::io::duplex(1 << 16);
    let (client_read, client_write) = tokio::io::split(client_tap);
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    tokio::spawn(pump(client_read, stdin, true, wire.clone()));
    tokio::spawn(pump(stdout, client_write, false, wire.clone()));
    (join(client_io, era, answerer).await, wire, child)
}

/// An [`ElicitingClient`] answering through `answerer`, joined over `io` in `era`.
async fn join(io: tokio::io::DuplexStream, era: Era, answerer: Answerer<Person>) -> Client {
    let client = ElicitingClient::new(answerer);
    match era {
        Era::Mrtr => client
            .serve_with_lifecycle(
                io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("the client discovers the server"),
        Era::Legacy => client
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .serve(io)
            .await
            .expect("the client initializes with the server"),
    }
}

/// `tools/call` params.
pub(crate) fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name).with_arguments(arguments)
}

/// The text of a result's one block.
pub(crate) fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content[0]
        .as_text()
        .expect("a text block")
        .text
        .clone()
}

/// `tools/call` of `name` driven through its rounds by the client's answerer.
pub(crate) async fn drive(
    client: &Client,
    name: &'static str,
    arguments: Value,
) -> elicit_host_rmcp::Call<rmcp::model::CallToolResult> {
    client
        .service()
        .answerer()
        .call_tool(client, call(name, arguments))
        .await
}
