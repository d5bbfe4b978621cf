#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod answers;
mod browser;
mod invalid;
mod reply;
mod review;

pub use browser::{BrowserError, BrowserFuture, StandInPage, UrlBrowser};
pub use invalid::InvalidAnswer;
/// The proptest this crate's [`answers`] strategies are built with.
pub use proptest;
pub use reply::UserReply;
pub use review::review;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use elicit_runtime::form::ElicitForm;
use elicit_runtime::request::{ElicitContext, Reply};
use elicit_runtime::url::ElicitUrl;
use elicit_runtime::wire::ElicitParams;
use elicit_runtime::wire::{InputRequest, InputRequiredResult, JsonRpcError, PROTOCOL_2026_07_28};
use elicit_runtime::{ElicitServer, Interrupt};

/// `inputResponses` built from form types, keyed by each form's key, with the same
/// [`UserReply`] a [`TestClient`] (and `elicit_rmcp::testing::ScriptedClient`) answers with.
///
/// ```
/// use elicit_runtime::ElicitForm;
/// use elicit_testing::{Responses, UserReply};
/// use serde_json::json;
///
/// /// Guests?
/// #[derive(ElicitForm)]
/// struct Guests { count: u8 }
///
/// /// Which day?
/// #[derive(ElicitForm)]
/// struct Day { date: String }
///
/// let responses = Responses::new()
///     .accept(&Guests { count: 3 })
///     .reply::<Day>(UserReply::Decline)
///     .into_value();
/// assert_eq!(responses, json!({
///     "day": {"action": "decline"},
///     "guests": {"action": "accept", "content": {"count": 3}}
/// }));
/// // Content the form would refuse, to test the server's checks:
/// let bad = Responses::new().reply::<Guests>(UserReply::Accept(json!({"count": -1})));
/// assert_eq!(bad.into_value()["guests"]["content"], json!({"count": -1}));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Responses(BTreeMap<String, Value>);

impl Responses {
    /// No responses.
    pub fn new() -> Self {
        Self::default()
    }
    /// Accepts form `T` with `value`'s content.
    pub fn accept<T: ElicitForm>(self, value: &T) -> Self {
        self.reply::<T>(UserReply::accept_form(value))
    }
    /// Answers form `T`, under its own key, with `reply`.
    pub fn reply<T: ElicitForm>(self, reply: UserReply) -> Self {
        self.reply_as(T::key(), reply)
    }
    /// Answers URL elicitation `T`, under its key, with `reply` (usually
    /// [`UserReply::AcceptUrl`], after the test finished the page itself).
    pub fn reply_url<T: ElicitUrl>(self, reply: UserReply) -> Self {
        self.reply_as(T::KEY, reply)
    }
    /// Answers the question under `key` with `reply` ([`UserReply::Unanswered`] leaves it out).
    pub fn reply_as(mut self, key: impl Into<String>, reply: UserReply) -> Self {
        let key = key.into();
        match reply.result() {
            Some(result) => self.raw(key, result),
            None => {
                self.0.remove(&key);
                self
            }
        }
    }
    /// Any response under any key (a shape no reply has, to test the server's parsing).
    pub fn raw(mut self, key: impl Into<String>, response: Value) -> Self {
        self.0.insert(key.into(), response);
        self
    }
    /// The `inputResponses` object.
    pub fn into_value(self) -> Value {
        Value::Object(self.0.into_iter().collect())
    }
}

/// A scripted 2026-07-28 client: sends a request, answers each round's input requests with a
/// closure, retries with `inputResponses` and the echoed `requestState`, and records rounds.
///
/// ```
/// use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_testing::{TestClient, UserReply};
/// use pollster::block_on;
/// use serde_json::json;
///
/// /// How many guests?
/// #[derive(ElicitForm)]
/// struct Guests { count: u8 }
///
/// async fn handler(cx: &mut ElicitContext) -> Result<String, Interrupt> {
///     Ok(match Guests::ask(cx).await? {
///         Answer::Accepted(g) => format!("{} guests", g.count),
///         _ => "no answer".into(),
///     })
/// }
///
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "test"));
/// let client = TestClient::new(server);
/// let run = block_on(client.call_tool(
///     "book", json!({}),
///     |_key, _request| UserReply::accept_form(&Guests { count: 4 }),
///     handler,
/// )).unwrap();
/// assert_eq!(run.result, "4 guests");
/// assert_eq!(run.rounds.len(), 1);
/// ```
#[derive(Clone)]
pub struct TestClient {
    server: ElicitServer,
    capabilities: Value,
    principal: Option<String>,
    max_rounds: usize,
    browser: Option<Arc<dyn UrlBrowser>>,
}

impl std::fmt::Debug for TestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestClient")
            .field("capabilities", &self.capabilities)
            .field("principal", &self.principal)
            .field("max_rounds", &self.max_rounds)
            .field("browser", &self.browser.is_some())
            .finish_non_exhaustive()
    }
}

/// What [`TestClient`] saw: the final result and every `InputRequiredResult` before it.
#[derive(Debug, Clone)]
pub struct TestRun<R> {
    /// The handler's final result.
    pub result: R,
    /// Each round's `InputRequiredResult`, in order.
    pub rounds: Vec<InputRequiredResult>,
}

impl TestClient {
    /// A client declaring form and URL elicitation, sampling and roots.
    pub fn new(server: ElicitServer) -> Self {
        TestClient {
            server,
            capabilities: json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
            principal: None,
            max_rounds: 10,
            browser: None,
        }
    }
    /// Declares these client capabilities instead (`json!({})` for none).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }
    /// Calls as this authenticated principal.
    pub fn principal(mut self, principal: impl Into<String>) -> Self {
        self.principal = Some(principal.into());
        self
    }
    /// The person's browser, which URL-mode links are opened in: a [`UserReply::OpenUrl`] goes
    /// through the real page in it (`elicit_axum::testing::Browser`), a
    /// [`UserReply::CompleteUrl`] is recorded by it ([`StandInPage`]); then the client accepts.
    ///
    /// ```
    /// use elicit_runtime::state::{KeyRing, StateSealer};
    /// use elicit_runtime::url::{LandingPage, UrlSettings};
    /// use elicit_runtime::{ElicitContext, ElicitServer, Interrupt, UrlAnswer, elicit_url};
    /// use elicit_testing::{StandInPage, TestClient, UserReply};
    /// use pollster::block_on;
    /// use serde_json::json;
    ///
    /// #[elicit_url(message = "Connect your calendar", url = "https://app.example.com/connect")]
    /// #[derive(Debug)]
    /// struct ConnectCalendar {
    ///     provider: String,
    /// }
    ///
    /// async fn sync(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    ///     let connect = ConnectCalendar { provider: "google".into() };
    ///     Ok(match connect.ask(cx).await? {
    ///         UrlAnswer::Completed { result, .. } => format!("synced {}", result.unwrap()["account"]),
    ///         other => format!("not synced: {other:?}"),
    ///     })
    /// }
    ///
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "calendar"))
    ///     .with_url(UrlSettings::in_memory());
    /// let client = TestClient::new(server.clone())
    ///     .principal("alice")
    ///     .browser(StandInPage::new(LandingPage::new(&server), "alice"));
    /// let reply = |_: &str, _: &_| UserReply::CompleteUrl(Some(json!({"account": "a@example.com"})));
    /// let run = block_on(client.call_tool("sync", json!({}), reply, sync)).unwrap();
    /// assert_eq!(run.result, r#"synced "a@example.com""#);
    ///
    /// // Another browser user cannot finish alice's flow.
    /// let mallory = TestClient::new(server.clone())
    ///     .principal("alice")
    ///     .browser(StandInPage::new(LandingPage::new(&server), "mallory"));
    /// let refused = block_on(mallory.call_tool("sync", json!({}), reply, sync)).unwrap_err();
    /// assert!(refused.message.starts_with("the test client could not complete"), "{}", refused.message);
    /// ```
    pub fn browser(mut self, browser: impl UrlBrowser) -> Self {
        self.browser = Some(Arc::new(browser));
        self
    }

    /// `params` for a first `tools/call` with the 2026-07-28 `_meta` envelope.
    pub fn tool_params(&self, name: &str, arguments: Value) -> Value {
        json!({
            "name": name,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": PROTOCOL_2026_07_28,
                "io.modelcontextprotocol/clientCapabilities": self.capabilities,
                "io.modelcontextprotocol/clientInfo": {"name": "elicit-test-client", "version": "0"}
            }
        })
    }

    /// Runs one round: builds the context, runs `handler`, finishes.
    pub async fn round<R>(
        &self,
        method: &str,
        params: &Value,
        handler: &mut impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
    ) -> Result<Reply<R>, JsonRpcError> {
        let mut cx = self
            .server
            .context(method, params)
            .principal(self.principal.as_deref())
            .build()
            .map_err(|e| e.error)?;
        let result = handler(&mut cx).await;
        cx.respond(result).await
    }

    /// Calls tool `name` until it completes, answering every input request with the reply
    /// `answer` gives for its key and request.
    pub async fn call_tool<R>(
        &self,
        name: &str,
        arguments: Value,
        mut answer: impl FnMut(&str, &InputRequest) -> UserReply,
        mut handler: impl AsyncFnMut(&mut ElicitContext) -> Result<R, Interrupt>,
    ) -> Result<TestRun<R>, JsonRpcError> {
        let first = self.tool_params(name, arguments);
        let mut params = first.clone();
        let mut rounds = Vec::new();
        for _ in 0..self.max_rounds {
            match self.round("tools/call", &params, &mut handler).await? {
                Reply::Result(result) => return Ok(TestRun { result, rounds }),
                Reply::InputRequired(ask) => {
                    let mut responses = Map::new();
                    for (key, request) in ask.input_requests().into_iter().flatten() {
                        let reply = answer(key, request);
                        if let Some(result) = self.send(key, request, reply).await? {
                            responses.insert(key.clone(), result);
                        }
                    }
                    params = first.clone();
                    if !responses.is_empty() {
                        params["inputResponses"] = Value::Object(responses);
                    }
                    if let Some(state) = ask.request_state() {
                        params["requestState"] = Value::from(state);
                    }
                    rounds.push(ask);
                }
                // Only `round` shows a link: a test of the link fallback reads the reply itself.
                Reply::Link(link) => {
                    return Err(JsonRpcError::new(
                        elicit_runtime::wire::INTERNAL_ERROR,
                        format!("the call ended with a link instead of a result: {link}"),
                        Some(serde_json::json!({"url": link.url})),
                    ));
                }
                _ => lockstep("reply"),
            }
        }
        Err(JsonRpcError::new(
            elicit_runtime::wire::INTERNAL_ERROR,
            format!("no result after {} rounds", self.max_rounds),
            None,
        ))
    }
}

impl TestClient {
    /// What the client sends for `reply` to the question under `key`: the browser goes
    /// through the page first for [`UserReply::OpenUrl`] and [`UserReply::CompleteUrl`].
    async fn send(
        &self,
        key: &str,
        request: &InputRequest,
        reply: UserReply,
    ) -> Result<Option<Value>, JsonRpcError> {
        if !matches!(reply, UserReply::OpenUrl | UserReply::CompleteUrl(_)) {
            return Ok(reply.result());
        }
        let failed = |why: String| {
            JsonRpcError::new(
                elicit_runtime::wire::INTERNAL_ERROR,
                format!("the test client could not complete {key}: {why}"),
                None,
            )
        };
        let Some(browser) = &self.browser else {
            return Err(failed(format!(
                "`UserReply::{reply:?}` needs a browser: `TestClient::browser`"
            )));
        };
        let InputRequest::Elicit(ElicitParams::Url(link)) = request else {
            return Err(failed("it is not a URL-mode question".into()));
        };
        let visited = match &reply {
            UserReply::CompleteUrl(result) => {
                browser.complete_url(&link.url, result.as_ref()).await
            }
            _ => browser.open_url(&link.url).await,
        };
        visited.map_err(failed)?;
        Ok(reply.result())
    }
}

/// The arm for a variant of one of the core's `#[non_exhaustive]` enums that this crate does
/// not know. It cannot be reached: this crate requires the exact `elicit-runtime` version it
/// is released with, so it knows every variant there is.
#[cold]
fn lockstep(what: &str) -> ! {
    panic!(
        "elicit-testing {} met a {what} it does not know; it must be used with elicit-runtime {0}",
        env!("CARGO_PKG_VERSION")
    )
}
