//! Helpers shared by the URL-mode tests (`url_flows.rs`, and by path `elicit-redis`'s
//! `replicas.rs` and `elicit-axum`'s tests): one URL elicitation,
//! the handler that asks it, a scripted 2026-07-28 caller and readers for what it gets back.

#![allow(dead_code)]

use std::fmt::Debug;

use elicit_runtime::url::UrlSettings;
use elicit_runtime::wire::{InputRequiredResult, JsonRpcError};
use elicit_runtime::{ElicitContext, ElicitServer, ElicitUrl, Interrupt, Reply, UrlAnswer};
use elicit_testing::TestClient;
use serde_json::{Value, json};

/// The user who starts every flow.
pub(crate) const ALICE: &str = "alice";
/// Another authenticated user, who must never finish alice's flow.
pub(crate) const MALLORY: &str = "mallory";
/// The tool every test calls.
pub(crate) const TOOL: &str = "import_issues";
/// The key `ConnectGithub` is asked under.
pub(crate) const KEY: &str = "connect_github";
/// Its message.
pub(crate) const MESSAGE: &str = "Connect your GitHub account to import issues";

/// The URL elicitation under test; its fields are the state bound to the request.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(
    message = "Connect your GitHub account to import issues",
    url = "https://connect.example.com/github",
    key = "connect_github"
)]
pub(crate) struct ConnectGithub {
    pub provider: String,
    #[elicit(show = "Repository")]
    pub repo: String,
}

/// The state every handler binds.
pub(crate) fn bound() -> ConnectGithub {
    ConnectGithub {
        provider: "github".into(),
        repo: "octo/hello".into(),
    }
}

/// The tool's arguments.
pub(crate) fn tool_args() -> Value {
    json!({"repo": "octo/hello"})
}

/// The handler: asks `ConnectGithub` through the macro's `ask`.
pub(crate) async fn connect(cx: &mut ElicitContext) -> Result<UrlAnswer<ConnectGithub>, Interrupt> {
    bound().ask(cx).await
}

/// `server` with its URL settings changed by `change` (same store, same waits).
pub(crate) fn tuned(
    server: &ElicitServer,
    change: impl FnOnce(UrlSettings) -> UrlSettings,
) -> ElicitServer {
    server
        .clone()
        .with_url(change(server.url_settings().clone()))
}

/// `inputResponses` with one bare result under the elicitation's key.
pub(crate) fn answer(action: &str) -> Value {
    json!({ KEY: {"action": action} })
}

/// A scripted 2026-07-28 client of `server`.
pub(crate) struct Caller {
    client: TestClient,
    first: Value,
}

impl Caller {
    /// A client declaring form and URL elicitation, calling as `principal`.
    pub(crate) fn new(server: &ElicitServer, principal: Option<&str>) -> Self {
        Self::with_capabilities(server, principal, None)
    }

    /// As [`Caller::new`], declaring `capabilities` instead when given.
    pub(crate) fn with_capabilities(
        server: &ElicitServer,
        principal: Option<&str>,
        capabilities: Option<Value>,
    ) -> Self {
        let mut client = TestClient::new(server.clone());
        if let Some(p) = principal {
            client = client.principal(p);
        }
        if let Some(c) = capabilities {
            client = client.capabilities(c);
        }
        let first = client.tool_params(TOOL, tool_args());
        Caller { client, first }
    }

    /// The params of the first call.
    pub(crate) fn first(&self) -> Value {
        self.first.clone()
    }

    /// The params of a retry: the original request plus `requestState` and `inputResponses`.
    pub(crate) fn retry(&self, state: &str, responses: Option<Value>) -> Value {
        let mut params = self.first.clone();
        params["requestState"] = Value::from(state);
        if let Some(responses) = responses {
            params["inputResponses"] = responses;
        }
        params
    }

    /// One round of `tools/call` with `params`.
    pub(crate) async fn call<R>(
        &self,
        params: &Value,
        mut handler: impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
    ) -> Result<Reply<R>, JsonRpcError> {
        self.client.round("tools/call", params, &mut handler).await
    }
}

#[track_caller]
pub(crate) fn input_required<R: Debug>(
    outcome: Result<Reply<R>, JsonRpcError>,
) -> InputRequiredResult {
    match outcome {
        Ok(Reply::InputRequired(ask)) => ask,
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    }
}

#[track_caller]
pub(crate) fn complete<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> R {
    match outcome {
        Ok(Reply::Result(r)) => r,
        other => panic!("expected a complete result, got {other:?}"),
    }
}

#[track_caller]
pub(crate) fn error<R: Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> JsonRpcError {
    match outcome {
        Err(e) => e,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// The `requestState` of `ask` (always present in URL flows).
#[track_caller]
pub(crate) fn state_of(ask: &InputRequiredResult) -> String {
    ask.request_state()
        .expect("every URL round carries requestState")
        .to_owned()
}

/// The 2026 URL request of the first round, checked for shape; returns its `url`.
#[track_caller]
pub(crate) fn url_request(ask: &InputRequiredResult) -> String {
    let requests = ask.input_requests().expect("round 1 asks something");
    assert_eq!(
        requests.keys().collect::<Vec<_>>(),
        [KEY],
        "asked under the macro's key"
    );
    let request = serde_json::to_value(&requests[KEY]).unwrap();
    assert_eq!(request["method"], "elicitation/create");
    let params = &request["params"];
    assert_eq!(params["mode"], "url");
    assert_eq!(params["message"], MESSAGE);
    assert!(
        params.get("elicitationId").is_none(),
        "2026-07-28 URL requests carry no elicitationId: {params}"
    );
    assert_eq!(
        params.as_object().unwrap().len(),
        3,
        "exactly mode, message, url: {params}"
    );
    let url = params["url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with("https://connect.example.com/github?elicitation=eu1."),
        "{url}"
    );
    url
}

/// The sealed handle in a link's query (`elicitation=…`).
#[track_caller]
pub(crate) fn handle_of(url: &str) -> String {
    let (_, query) = url.split_once('?').expect("the link has a query");
    let handle = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("elicitation="))
        .expect("the link carries `elicitation=`");
    assert!(handle.starts_with("eu1."), "{handle}");
    handle.to_owned()
}

/// `token` with one character in the middle changed.
pub(crate) fn tamper(token: &str) -> String {
    let mut bytes = token.as_bytes().to_vec();
    let at = bytes.len() / 2;
    bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).unwrap()
}

/// A round that asks the URL question again (the page recorded nothing while the retry was
/// held): the link to the same flow, and the sealed state to retry with. Returns the link's
/// handle.
#[track_caller]
pub(crate) fn assert_asked_again(ask: &InputRequiredResult) -> String {
    let handle = handle_of(&url_request(ask));
    assert!(
        ask.request_state().is_some_and(|s| s.starts_with("es1.")),
        "a round asked again carries a sealed state: {ask:?}"
    );
    handle
}

/// A state-only round: no questions, just the sealed state to retry with.
#[track_caller]
pub(crate) fn assert_state_only(ask: &InputRequiredResult) {
    assert!(
        ask.input_requests().is_none_or(|r| r.is_empty()),
        "a state-only round asks nothing: {ask:?}"
    );
    assert!(
        ask.request_state().is_some_and(|s| s.starts_with("es1.")),
        "a state-only round carries a sealed state: {ask:?}"
    );
}

/// The uniform refusal of a bad `requestState`.
#[track_caller]
pub(crate) fn assert_invalid_state(e: &JsonRpcError) {
    assert_eq!(e.code, -32602, "{e:?}");
    assert_eq!(e.message, "Invalid or expired requestState");
    assert_eq!(e.data, Some(json!({"reason": "invalid_request_state"})));
}

/// The refusal of a second redemption of a single-use completion.
#[track_caller]
pub(crate) fn assert_already_redeemed(e: &JsonRpcError) {
    assert_eq!(e.code, -32602, "{e:?}");
    assert_eq!(e.data, Some(json!({"reason": "already_redeemed"})), "{e:?}");
}
