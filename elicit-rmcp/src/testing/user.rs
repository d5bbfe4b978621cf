//! The scripted user behind the client: which question a request is, what the script
//! answers, completing URL flows on the landing page, and rmcp's `ClientHandler` around it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationCapability,
    FormElicitationCapability, Implementation, InitializeRequestParams, ProtocolVersion,
    UrlElicitationCapability,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient};
use serde_json::Value;

use tokio::sync::Notify;

use super::UserReply;
use super::script::{action, property_names};
use super::transcript::{Message, Side, Tap};
use super::{Capabilities, ScriptedClient};
use crate::wire::ProtocolEra;

/// The scripted user behind rmcp's client: answers rounds (2026-07-28) and pushed
/// `elicitation/create` requests (2025-11-25), and notes every problem for the test.
pub(super) struct User {
    pub(super) script: ScriptedClient,
    problems: Mutex<Vec<String>>,
    pushed: AtomicUsize,
    /// How many times each question was answered in this call (which scripted reply is next).
    answered: Mutex<std::collections::HashMap<String, usize>>,
    /// The id of the pushed URL-mode request (2025-11-25) the user accepted without opening
    /// its page, and a signal when it is set.
    unopened: Mutex<Option<Value>>,
    unopened_set: Notify,
}

impl User {
    pub(super) fn new(script: ScriptedClient) -> Self {
        User {
            script,
            problems: Mutex::new(Vec::new()),
            pushed: AtomicUsize::new(0),
            answered: Mutex::default(),
            unopened: Mutex::new(None),
            unopened_set: Notify::new(),
        }
    }

    /// A new call: no problems, no pushed questions, no page left unopened yet.
    pub(super) fn begin(&self) {
        self.problems
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        self.pushed.store(0, Ordering::SeqCst);
        self.answered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        *self.unopened.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// The scripted reply to the next asking of the question under `key`.
    pub(super) fn reply_of(&self, key: &str) -> Option<&UserReply> {
        let entry = self.script.entries.iter().find(|e| e.key == key)?;
        let answered = self
            .answered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(key)
            .copied()
            .unwrap_or(0);
        entry.replies.get(answered).or_else(|| entry.replies.last())
    }

    /// Resolves once the user has accepted a pushed URL-mode request without opening its
    /// page (2025-11-25) and that accept is on the wire (from the `start`th line of `tap`).
    pub(super) async fn left_url_unopened(&self, tap: &Tap, start: usize) {
        let id = loop {
            let notified = self.unopened_set.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if let Some(id) = self
                .unopened
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone()
            {
                break id;
            }
            notified.await;
        };
        let answered = |m: &Message| {
            m.from == Side::Client && m.json.get("method").is_none() && m.json["id"] == id
        };
        tap.wait_for(start, answered).await;
    }

    fn left_unopened(&self, id: Value) {
        *self.unopened.lock().unwrap_or_else(|p| p.into_inner()) = Some(id);
        self.unopened_set.notify_waiters();
    }
    pub(super) fn problem(&self, problem: String) {
        self.problems
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(problem);
    }

    pub(super) fn problems(&self) -> Vec<String> {
        self.problems
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The key of a question: given (2026-07-28), or recognised (2025-11-25).
    pub(super) async fn key_of(&self, request: &ElicitRequestParams) -> Result<String, String> {
        let entries = &self.script.entries;
        match request {
            ElicitRequestParams::FormElicitationParams {
                requested_schema, ..
            } => {
                let schema = serde_json::to_value(requested_schema).unwrap_or(Value::Null);
                let mut names = property_names(&schema);
                names.sort();
                let found = entries.iter().find(|e| {
                    e.properties.as_ref().is_some_and(|p| {
                        let mut p = p.clone();
                        p.sort();
                        p == names
                    })
                });
                // A form asked with some of its fields only (a filled-in form, `form::fill_in`):
                // the one scripted form that has them all.
                let found = found.or_else(|| {
                    let mut wider = entries.iter().filter(|e| {
                        e.properties.as_ref().is_some_and(|p| {
                            !names.is_empty() && names.iter().all(|n| p.contains(n))
                        })
                    });
                    let first = wider.next();
                    first.filter(|_| wider.next().is_none())
                });
                found
                    .map(|e| e.key.clone())
                    .ok_or_else(|| format!("unanswered question with properties {names:?}: the script has no reply for a form with these properties"))
            }
            ElicitRequestParams::UrlElicitationParams { url, message, .. } => {
                if let Some(browser) = &self.script.browser
                    && let Some(key) = browser.key_of(url).await
                {
                    return Ok(key);
                }
                let urls = || entries.iter().filter(|e| e.properties.is_none());
                let mut said = urls().filter(|e| e.message.as_deref() == Some(message.as_str()));
                if let (Some(only), None) = (said.next(), said.next()) {
                    return Ok(only.key.clone());
                }
                let mut urls = urls();
                match (urls.next(), urls.next()) {
                    (Some(only), None) => Ok(only.key.clone()),
                    _ => Err(format!(
                        "unanswered URL-mode question {url}: script exactly one URL reply, reply with `reply_url::<T>` (recognised by its message), or give the client a browser that reads the link's key"
                    )),
                }
            }
            other => Err(format!("unanswered question of an unknown kind: {other:?}")),
        }
    }

    /// The `ElicitResult` JSON for one question, or `None` to leave it unanswered.
    pub(super) async fn answer(&self, key: &str, request: &ElicitRequestParams) -> Option<Value> {
        let Some(reply) = self.reply_of(key) else {
            self.problem(format!(
                "unanswered question {key}: the script has no reply for it"
            ));
            return None;
        };
        *self
            .answered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key.to_owned())
            .or_default() += 1;
        let url = match request {
            ElicitRequestParams::UrlElicitationParams { url, .. } => Some(url.as_str()),
            _ => None,
        };
        match (reply, url) {
            (UserReply::Accept(content), None) => {
                Some(serde_json::json!({"action": "accept", "content": content}))
            }
            (UserReply::Decline, _) => Some(action("decline")),
            (UserReply::Cancel, _) => Some(action("cancel")),
            (UserReply::Unanswered, _) => None,
            (UserReply::AcceptUrl, Some(_)) => Some(action("accept")),
            (UserReply::OpenUrl | UserReply::CompleteUrl(_), Some(url)) => {
                self.visit(key, url, reply).await
            }
            (reply, _) => {
                self.problem(format!(
                    "question {key} is {} mode, which the scripted reply {reply:?} does not fit",
                    if url.is_some() { "URL" } else { "form" }
                ));
                None
            }
        }
    }

    /// The browser goes through the link's page (or records its outcome, for a stand-in
    /// page), then the client accepts.
    pub(super) async fn visit(&self, key: &str, url: &str, reply: &UserReply) -> Option<Value> {
        let Some(browser) = &self.script.browser else {
            self.problem(format!(
                "question {key} is answered `{reply:?}`, which needs a browser: `ScriptedClient::browser`"
            ));
            return None;
        };
        let visited = match reply {
            UserReply::CompleteUrl(result) => browser.complete_url(url, result.as_ref()).await,
            _ => browser.open_url(url).await,
        };
        match visited {
            Ok(()) => Some(action("accept")),
            Err(e) => {
                self.problem(format!("the browser could not finish {key}: {e}"));
                None
            }
        }
    }
}

/// rmcp's client handler: the scripted user, shared with the test's task.
pub(super) struct Handler(pub(super) Arc<User>);

impl ClientHandler for Handler {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let user = &self.0;
        let pushed = user.pushed.fetch_add(1, Ordering::SeqCst) + 1;
        if pushed > user.script.max_rounds {
            user.problem(format!(
                "no final result after {} pushed questions: the server keeps asking",
                user.script.max_rounds
            ));
            return Err(ErrorData::internal_error("too many questions", None));
        }
        let key = match user.key_of(&request).await {
            Ok(key) => key,
            Err(problem) => {
                user.problem(problem);
                return Err(ErrorData::internal_error("unanswered question", None));
            }
        };
        if user.reply_of(&key) == Some(&UserReply::AcceptUrl) {
            // The page will never be opened: once the accept is out, the client gives up
            // the call instead of waiting as long as the link lives.
            user.left_unopened(serde_json::to_value(&context.id).unwrap_or(Value::Null));
        }
        match user.answer(&key, &request).await {
            Some(answer) => serde_json::from_value(answer)
                .map_err(|e| ErrorData::internal_error(format!("bad scripted answer: {e}"), None)),
            None => Err(ErrorData::internal_error(
                format!("unanswered question {key}"),
                None,
            )),
        }
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = match self.0.script.capabilities {
            Capabilities::None => None,
            Capabilities::Form => {
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()))
            }
            Capabilities::FormAndUrl => Some(
                ElicitationCapability::new()
                    .with_form(FormElicitationCapability::default())
                    .with_url(UrlElicitationCapability::default()),
            ),
        };
        if self.0.script.tasks {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(crate::wire::TASKS_EXTENSION.to_owned(), Default::default());
        }
        let version = match self.0.script.era {
            ProtocolEra::Legacy2025 => ProtocolVersion::V_2025_11_25,
            _ => ProtocolVersion::V_2026_07_28,
        };
        InitializeRequestParams::new(
            capabilities,
            Implementation::new("elicit-scripted-client", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(version)
    }
}
