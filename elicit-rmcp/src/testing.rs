//! A scripted client for whole rmcp servers (feature `testing`): rmcp's own client drives
//! your [`ServerHandler`] in process, over rmcp's in-memory transport, on either protocol era,
//! answering each question the way the script says, and returns how the call ended (an
//! [`Ending`]: the final result, a JSON-RPC error, or the `input_required` round it stopped
//! at) together with every JSON-RPC message exchanged. A [`Session`] keeps one connection
//! for several calls, and sends hand-made ones ([`ToolCall`]: a recorded retry replayed, with
//! other arguments, another tool name, a tampered state).
//!
//! It checks what a real client checks, and fails the test with a message saying what the
//! server did wrong: an elicitation outside the declared capabilities (URL mode to a form-only
//! client, anything to a client without elicitation), a `requestedSchema` elicit's strict
//! parser refuses, a retry whose `requestState` is not the one the server sent, a question the
//! script has no reply for, a server that keeps asking past the round limit, or a handler that
//! panics (at once, with the panic's message, instead of a call that never ends).
//!
//! ```
//! use elicit_rmcp::{Elicit, ElicitHandler, Principal};
//! use elicit_rmcp::state::{KeyRing, StateSealer};
//! use elicit_rmcp::testing::{ScriptedClient, Side, UserReply};
//! use elicit_rmcp::wire::ProtocolEra;
//! use elicit_rmcp::{Answer, ElicitForm, ElicitServer};
//! use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
//! use serde_json::json;
//!
//! /// How many guests?
//! #[derive(ElicitForm)]
//! struct Guests {
//!     #[elicit(minimum = 1, maximum = 12)]
//!     count: u8,
//! }
//!
//! #[derive(Clone)]
//! struct Server {
//!     elicit: ElicitHandler,
//! }
//!
//! #[tool_router]
//! impl Server {
//!     #[tool(description = "Book a table")]
//!     async fn book(&self, mut cx: Elicit) -> Result<String, McpError> {
//!         Ok(match Guests::ask(&mut cx).await? {
//!             Answer::Accepted(guests) => format!("table for {}", guests.count),
//!             Answer::Declined | Answer::Cancelled => "not booked".to_owned(),
//!         })
//!     }
//! }
//!
//! #[elicit_rmcp::handler]
//! impl ServerHandler for Server {}
//!
//! fn server() -> Server {
//!     let sealer = StateSealer::new(KeyRing::generate(), "test");
//!     Server {
//!         elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
//!     }
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! for era in ProtocolEra::ALL {
//!     let run = ScriptedClient::new(era)
//!         .reply::<Guests>(UserReply::Accept(json!({"count": 4})))
//!         .call_tool(server(), "book", json!({}))
//!         .await;
//!     assert_eq!(run.text(), "table for 4");
//!     match era {
//!         // One `input_required` round, then the retry with the answer.
//!         ProtocolEra::Mrtr2026 => assert_eq!(run.transcript.rounds("tools/call").len(), 1),
//!         // The question pushed to the client as `elicitation/create`.
//!         ProtocolEra::Legacy2025 => {
//!             let pushed = run.transcript.requests(Side::Server, "elicitation/create");
//!             assert_eq!(pushed[0]["message"], "How many guests?");
//!         }
//!         _ => unreachable!("a newer era"),
//!     }
//!
//!     let declined = ScriptedClient::new(era)
//!         .reply::<Guests>(UserReply::Decline)
//!         .call_tool(server(), "book", json!({}))
//!         .await;
//!     assert_eq!(declined.text(), "not booked");
//! }
//! # });
//! ```

mod checks;
mod connect;
mod follow;
mod guard;
mod redact;
mod request;
mod round;
mod run;
mod script;
mod session;
mod transcript;
mod user;

use std::time::Duration;

use rmcp::ServerHandler;
use rmcp::model::{CallToolResult, GetPromptResult, JsonObject};
use serde_json::Value;

use crate::form::ElicitForm;
use crate::url::ElicitUrl;
use crate::wire::ProtocolEra;
use script::{Entry, form_properties, url_key};

/// The `elicit-testing` kit (`UserReply`, `Responses`, `TestClient`, `answers`, `review`): one
/// `testing` module for a server on rmcp, with one reply vocabulary for every client.
#[doc(no_inline)]
pub use elicit_testing::*;
pub use round::{Round, ToolCall};
pub use run::{Ending, Run};
pub use session::Session;
pub use transcript::{Message, Side, Transcript};

/// The elicitation capability the client declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capabilities {
    /// Form mode only.
    Form,
    /// Form and URL mode (the default).
    FormAndUrl,
    /// No elicitation at all.
    None,
}

/// A scripted MCP client: which era it speaks, what it declares, and how its user answers
/// each question (see the [module documentation](self) for an example).
///
/// Replies are keyed by question key. On 2026-07-28 every question arrives under its key; a
/// 2025-11-25 `elicitation/create` carries none, so there a form is recognised by its
/// property names (the form given to [`ScriptedClient::reply`], or the names given to
/// [`ScriptedClient::reply_to_form`]) and a URL request by the key sealed in its link (when
/// the [browser](ScriptedClient::browser) can tell, as a [`StandInPage`] can), else by its
/// message (the `#[elicit_url]` struct's), or as the only URL question of the script.
#[derive(Clone)]
pub struct ScriptedClient {
    era: ProtocolEra,
    capabilities: Capabilities,
    entries: Vec<Entry>,
    browser: Option<std::sync::Arc<dyn UrlBrowser>>,
    max_rounds: usize,
    timeout: Duration,
    tasks: bool,
}

impl std::fmt::Debug for ScriptedClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedClient")
            .field("era", &self.era)
            .field("replies", &self.entries.len())
            .field("browser", &self.browser.is_some())
            .field("max_rounds", &self.max_rounds)
            .field("timeout", &self.timeout)
            .field("tasks", &self.tasks)
            .finish_non_exhaustive()
    }
}

impl ScriptedClient {
    /// The round limit: more `input_required` rounds (or pushed questions) than this fail.
    pub const MAX_ROUNDS: usize = 16;

    /// A client speaking `era`, declaring form and URL elicitation, with no replies yet.
    pub fn new(era: ProtocolEra) -> Self {
        ScriptedClient {
            era,
            capabilities: Capabilities::FormAndUrl,
            entries: Vec::new(),
            browser: None,
            max_rounds: Self::MAX_ROUNDS,
            timeout: Duration::from_secs(30),
            tasks: false,
        }
    }

    /// Declares `capabilities` instead of form and URL elicitation.
    pub fn capabilities(mut self, capabilities: Capabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Declares the tasks extension (`io.modelcontextprotocol/tasks`), as a client that runs
    /// tasks does: a tool may then answer a 2026-07-28 call with a task. The client polls
    /// `tasks/get` (as often as the task's `pollIntervalMs` says, at most every 50 ms),
    /// answers each new question it shows with `tasks/update` (the same replies as in a call),
    /// and ends with the task's result (`completed`), its error (`failed`), [`Ending::Cancelled`]
    /// (`cancelled`), or [`Ending::InputRequired`] with the last `tasks/get` when the script
    /// leaves what it shows unanswered. On 2025-11-25 the declaration is in `initialize`, and a
    /// tool asks in the call.
    ///
    /// ```
    /// use elicit_rmcp::testing::{ScriptedClient, Side, UserReply};
    /// use elicit_rmcp::wire::ProtocolEra;
    /// use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler};
    /// use rmcp::model::CallToolResponse;
    /// use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
    /// use serde_json::json;
    ///
    /// /// Overwrite last week's export?
    /// #[derive(ElicitForm)]
    /// struct Overwrite {
    ///     overwrite: bool,
    /// }
    ///
    /// #[derive(Clone)]
    /// struct Server {
    ///     elicit: ElicitHandler,
    /// }
    ///
    /// #[tool_router]
    /// impl Server {
    ///     #[tool(description = "Export the reports")]
    ///     async fn export(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
    ///         cx.task(|mut input| async move {
    ///             Ok(match Overwrite::ask(&mut input).await? {
    ///                 Answer::Accepted(Overwrite { overwrite: true }) => "exported".to_owned(),
    ///                 _ => "kept last week's".to_owned(),
    ///             })
    ///         })
    ///         .await
    ///     }
    /// }
    ///
    /// #[elicit_rmcp::handler(tasks)]
    /// impl ServerHandler for Server {}
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// for era in ProtocolEra::ALL {
    ///     let run = ScriptedClient::new(era)
    ///         .tasks()
    ///         .reply::<Overwrite>(UserReply::Accept(json!({"overwrite": true})))
    ///         .call_tool(Server { elicit: ElicitHandler::local("exports") }, "export", json!({}))
    ///         .await;
    ///     assert_eq!(run.text(), "exported");
    ///     // On 2026-07-28 the question came through `tasks/get`, the answer by `tasks/update`.
    ///     let updates = run.transcript.requests(Side::Client, "tasks/update").len();
    ///     assert_eq!(updates, usize::from(era == ProtocolEra::Mrtr2026));
    /// }
    /// # });
    /// ```
    pub fn tasks(mut self) -> Self {
        self.tasks = true;
        self
    }

    /// Answers form `T`, asked under its own key, with `reply` (every time it is asked).
    pub fn reply<T: ElicitForm>(self, reply: UserReply) -> Self {
        self.reply_as::<T>(T::key(), reply)
    }

    /// Answers form `T`'s first asking with the first of `replies`, the question asked again
    /// (an invalid answer re-asked, see the guide's chapter 6) with the next, and so on; the
    /// last reply answers every later asking. The user who types a wrong value, then corrects it:
    ///
    /// ```
    /// use elicit_rmcp::ElicitForm;
    /// use elicit_rmcp::testing::{ScriptedClient, UserReply};
    /// use elicit_rmcp::wire::ProtocolEra;
    /// use serde_json::json;
    ///
    /// /// How many guests?
    /// #[derive(ElicitForm)]
    /// struct Guests {
    ///     #[elicit(minimum = 1, maximum = 12)]
    ///     count: u8,
    /// }
    ///
    /// let client = ScriptedClient::new(ProtocolEra::Mrtr2026).replies::<Guests>([
    ///     UserReply::Accept(json!({"count": 40})),
    ///     UserReply::Accept(json!({"count": 4})),
    /// ]);
    /// # let _ = client;
    /// ```
    ///
    /// # Panics
    ///
    /// If `replies` is empty.
    pub fn replies<T: ElicitForm>(self, replies: impl IntoIterator<Item = UserReply>) -> Self {
        let replies: Vec<UserReply> = replies.into_iter().collect();
        assert!(
            !replies.is_empty(),
            "ScriptedClient::replies needs at least one reply"
        );
        self.set_entry(T::key(), replies, Some(form_properties::<T>()))
    }

    /// Answers form `T` asked under `key` (a question whose key was changed at the call site).
    pub fn reply_as<T: ElicitForm>(self, key: &str, reply: UserReply) -> Self {
        self.reply_to_form(key, form_properties::<T>(), reply)
    }

    /// Accepts form `T` with `form`'s content.
    pub fn accept<T: ElicitForm>(self, form: &T) -> Self {
        self.reply::<T>(UserReply::accept_form(form))
    }

    /// Answers the form asked under `key`, whose `requestedSchema` has these `properties`
    /// (how it is recognised on 2025-11-25), with `reply`.
    pub fn reply_to_form<S: Into<String>>(
        self,
        key: &str,
        properties: impl IntoIterator<Item = S>,
        reply: UserReply,
    ) -> Self {
        let properties = properties.into_iter().map(Into::into).collect();
        self.set_entry(key, vec![reply], Some(properties))
    }

    /// Scripts the question under `key` (replacing what was scripted for it).
    fn set_entry(
        mut self,
        key: &str,
        replies: Vec<UserReply>,
        properties: Option<Vec<String>>,
    ) -> Self {
        self.entries.retain(|e| e.key != key);
        self.entries.push(Entry {
            key: key.to_owned(),
            replies,
            properties,
            message: None,
        });
        self
    }

    /// Answers URL elicitation `T` with `reply` (usually [`UserReply::OpenUrl`], the person
    /// going through the page in the [browser](ScriptedClient::browser)).
    pub fn reply_url<T: ElicitUrl>(mut self, reply: UserReply) -> Self {
        self = self.reply_url_as(&url_key::<T>(), reply);
        if let Some(entry) = self.entries.iter_mut().find(|e| e.key == T::KEY) {
            entry.message = Some(T::MESSAGE.to_owned());
        }
        self
    }

    /// Answers the URL-mode question asked under `key` with `reply`.
    pub fn reply_url_as(self, key: &str, reply: UserReply) -> Self {
        self.set_entry(key, vec![reply], None)
    }

    /// The person's browser, which URL-mode links are opened in: a [`UserReply::OpenUrl`] goes
    /// through the real page in it (`elicit_axum::testing::Browser`, your app's own router), a
    /// [`UserReply::CompleteUrl`] is recorded by it ([`StandInPage`]); then the client accepts.
    /// The guide's testing chapter has a whole URL flow, on both eras.
    pub fn browser(mut self, browser: impl UrlBrowser) -> Self {
        self.browser = Some(std::sync::Arc::new(browser));
        self
    }

    /// Fails after `rounds` rounds instead of [`ScriptedClient::MAX_ROUNDS`].
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Fails when the call has no result after `timeout` (30 seconds by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Calls tool `name` with `arguments` (a JSON object) on `server` until it completes, or
    /// until the script has nothing new to answer (see [`Ending`]).
    ///
    /// Panics, saying why, if the server breaks a rule a client enforces or a handler panics
    /// (see the [module documentation](self)).
    pub async fn call_tool<S: ServerHandler>(
        &self,
        server: S,
        name: &str,
        arguments: Value,
    ) -> Run<CallToolResult> {
        let session = self.connect(server).await;
        let mut run = session.call_tool(name, arguments).await;
        run.transcript = session.transcript();
        session.close().await;
        run
    }

    /// Gets prompt `name` with `arguments` (a JSON object) from `server` until it completes.
    pub async fn get_prompt<S: ServerHandler>(
        &self,
        server: S,
        name: &str,
        arguments: Value,
    ) -> Run<GetPromptResult> {
        let session = self.connect(server).await;
        let mut run = session.get_prompt(name, arguments).await;
        run.transcript = session.transcript();
        session.close().await;
        run
    }
}

/// `value` as a JSON object (panics otherwise: arguments are always an object).
#[track_caller]
fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be a JSON object, not {other}"),
    }
}
