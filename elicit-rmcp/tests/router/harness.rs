//! An rmcp client and an rmcp server in one process, joined by a tap that records every
//! JSON-RPC line each way, so tests can assert what really went over the wire.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use elicit_rmcp::adapter::WireFix;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    InitializeRequestParams, JsonObject, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData as McpError, RoleClient,
    ServerHandler, ServiceExt,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// Which revision the client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// 2026-07-28: `server/discover`, per-request `_meta`, `InputRequiredResult` and retries.
    Mrtr,
    /// 2025-11-25: `initialize`, and `elicitation/create` pushed to the client.
    Legacy,
}

pub(crate) const ERAS: [Era; 2] = [Era::Mrtr, Era::Legacy];

/// Who sent a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum From {
    Client,
    Server,
}

/// Every line that crossed the tap, in order.
#[derive(Clone, Default)]
pub(crate) struct Wire(Arc<Mutex<Vec<(From, String)>>>);

impl Wire {
    fn push(&self, from: From, line: &str) {
        self.0.lock().unwrap().push((from, line.to_owned()));
    }

    /// The raw lines `from` sent.
    pub(crate) fn lines(&self, from: From) -> Vec<String> {
        let lines = self.0.lock().unwrap();
        lines
            .iter()
            .filter(|(f, _)| *f == from)
            .map(|(_, l)| l.clone())
            .collect()
    }

    /// The messages `from` sent, parsed.
    pub(crate) fn messages(&self, from: From) -> Vec<Value> {
        self.lines(from)
            .iter()
            .map(|l| serde_json::from_str(l).expect("every line is JSON"))
            .collect()
    }

    /// The requests `from` sent with `method`, as `params`.
    pub(crate) fn params_of(&self, from: From, method: &str) -> Vec<Value> {
        self.messages(from)
            .into_iter()
            .filter(|m| m["method"] == method && m.get("id").is_some())
            .map(|m| m["params"].clone())
            .collect()
    }

    /// The notifications `from` sent with `method`, as `params`.
    pub(crate) fn notifications(&self, from: From, method: &str) -> Vec<Value> {
        self.messages(from)
            .into_iter()
            .filter(|m| m["method"] == method && m.get("id").is_none())
            .map(|m| m["params"].clone())
            .collect()
    }

    /// The server's answers to the client's requests named `method`, each the raw line of
    /// the response with its `id` as sent.
    pub(crate) fn responses_to(&self, method: &str) -> Vec<Value> {
        let client = self.messages(From::Client);
        let ids: Vec<Value> = client
            .iter()
            .filter(|m| m["method"] == method)
            .map(|m| m["id"].clone())
            .collect();
        self.messages(From::Server)
            .into_iter()
            .filter(|m| m.get("method").is_none() && ids.contains(&m["id"]))
            .collect()
    }
}

/// Copies lines `from` one side `to` the other, recording each; with `strip_progress_tokens`,
/// without the `progressToken` of a request's `_meta`.
async fn pump(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    who: From,
    wire: Wire,
    strip_progress_tokens: bool,
) {
    let mut lines = BufReader::new(from).lines();
    while let Ok(Some(mut line)) = lines.next_line().await {
        if strip_progress_tokens {
            let mut message: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if let Some(meta) = message["params"]["_meta"].as_object_mut()
                && meta.remove("progressToken").is_some()
            {
                line = message.to_string();
            }
        }
        wire.push(who, &line);
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

/// How the scripted user answers one elicitation.
pub(crate) type Respond = Arc<
    dyn Fn(ElicitRequestParams) -> Pin<Box<dyn Future<Output = ElicitResult> + Send>> + Send + Sync,
>;

/// The rmcp client's handler: a user who answers every elicitation with `respond`.
#[derive(Clone)]
pub(crate) struct User {
    era: Era,
    respond: Respond,
    capabilities: ClientCapabilities,
    progress_tokens: bool,
}

impl User {
    /// A user answering with `answer` (synchronously), declaring form and URL elicitation.
    pub(crate) fn answering(
        answer: impl Fn(&ElicitRequestParams) -> ElicitResult + Send + Sync + 'static,
    ) -> Self {
        let answer = Arc::new(answer);
        User::answering_async(move |request| {
            let answer = answer.clone();
            async move { answer(&request) }
        })
    }

    /// A user whose answer takes a while (opens a page, say).
    pub(crate) fn answering_async<F: Future<Output = ElicitResult> + Send + 'static>(
        answer: impl Fn(ElicitRequestParams) -> F + Send + Sync + 'static,
    ) -> Self {
        let elicitation = ElicitationCapability::new()
            .with_form(FormElicitationCapability::default())
            .with_url(UrlElicitationCapability::default());
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        User {
            era: Era::Mrtr,
            respond: Arc::new(move |request| Box::pin(answer(request))),
            capabilities,
            progress_tokens: true,
        }
    }

    /// Declares form elicitation only (no URL mode), as Claude Code does.
    pub(crate) fn form_only(&mut self) {
        self.capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
    }

    /// Declares the tasks extension (`io.modelcontextprotocol/tasks`) too.
    pub(crate) fn with_tasks(&mut self) {
        self.capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(
                "io.modelcontextprotocol/tasks".to_owned(),
                JsonObject::new(),
            );
    }

    /// Declares no elicitation capability at all.
    pub(crate) fn without_elicitation(&mut self) {
        self.capabilities.elicitation = None;
    }

    /// Sends its requests without a `progressToken`: rmcp's client puts one on every request,
    /// so the tap takes it out of `_meta` before the server (and the recorded wire) sees it.
    pub(crate) fn without_progress_tokens(&mut self) {
        self.progress_tokens = false;
    }

    /// The same user always giving `action` (with `content` on accept).
    pub(crate) fn always(action: ElicitationAction, content: Option<Value>) -> Self {
        User::answering(move |_| result(action.clone(), content.clone()))
    }
}

/// An `ElicitResult`.
pub(crate) fn result(action: ElicitationAction, content: Option<Value>) -> ElicitResult {
    let result = ElicitResult::new(action);
    match content {
        Some(content) => result.with_content(content),
        None => result,
    }
}

impl ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        Ok((self.respond)(request).await)
    }

    fn get_info(&self) -> ClientConfig {
        let version = match self.era {
            Era::Mrtr => ProtocolVersion::V_2026_07_28,
            Era::Legacy => ProtocolVersion::V_2025_11_25,
        };
        InitializeRequestParams::new(
            self.capabilities.clone(),
            Implementation::new("rmcp-router-test-client", "0.0.0"),
        )
        .with_protocol_version(version)
    }
}

/// A connected pair: the rmcp client, and the tap between it and the server.
pub(crate) struct Session {
    pub client: RunningService<RoleClient, User>,
    pub wire: Wire,
}

/// Serves `server` (wrapped in [`WireFix`]) and connects rmcp's client to it in `era`.
pub(crate) async fn connect<S: ServerHandler>(server: S, era: Era, mut user: User) -> Session {
    user.era = era;
    let strip_progress_tokens = !user.progress_tokens;
    let wire = Wire::default();
    let (client_io, client_tap) = tokio::io::duplex(1 << 16);
    let (server_tap, server_io) = tokio::io::duplex(1 << 16);
    let (client_tap_read, client_tap_write) = tokio::io::split(client_tap);
    let (server_tap_read, server_tap_write) = tokio::io::split(server_tap);
    tokio::spawn(pump(
        client_tap_read,
        server_tap_write,
        From::Client,
        wire.clone(),
        strip_progress_tokens,
    ));
    tokio::spawn(pump(
        server_tap_read,
        client_tap_write,
        From::Server,
        wire.clone(),
        false,
    ));
    tokio::spawn(async move {
        if let Ok(running) = WireFix::new(server).serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = match era {
        Era::Mrtr => user
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("the client discovers the server"),
        Era::Legacy => user
            .serve(client_io)
            .await
            .expect("the client initializes with the server"),
    };
    Session { client, wire }
}

/// `tools/call` params for `name` with `arguments`.
pub(crate) fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name).with_arguments(object(arguments))
}

/// `value` as a JSON object.
pub(crate) fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The one text block of a tool result, as JSON (`{"isError", "text"}`).
pub(crate) fn text_of(result: &rmcp::model::CallToolResult) -> Value {
    let texts: Vec<&str> = result
        .content
        .iter()
        .map(|c| c.as_text().expect("a text block").text.as_str())
        .collect();
    json!({"isError": result.is_error, "text": texts})
}
