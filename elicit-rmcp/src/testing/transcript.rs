//! The raw JSON-RPC lines a [`ScriptedClient`](super::ScriptedClient) run exchanged, and the
//! tap that records them between rmcp's client and the server.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::round::{Round, ToolCall};
use crate::wire::ElicitParams;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Notify;

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The scripted client.
    Client,
    /// The server under test.
    Server,
}

/// One JSON-RPC message as it went over the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Who sent it.
    pub from: Side,
    /// The message, parsed from its line (object keys in wire order).
    pub json: Value,
}

/// Every JSON-RPC message of a run, in the order the tap saw them.
///
/// The helpers pick requests, notifications and responses out of it; [`Transcript::messages`]
/// gives everything for assertions they do not cover.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transcript(pub(super) Vec<Message>);

impl Transcript {
    /// A transcript of these messages (for tests of your own helpers over transcripts).
    pub fn new(messages: Vec<Message>) -> Self {
        Transcript(messages)
    }

    /// Every message, in order.
    pub fn messages(&self) -> &[Message] {
        &self.0
    }

    /// The messages `from` sent.
    pub fn from(&self, from: Side) -> impl Iterator<Item = &Value> + '_ {
        self.0
            .iter()
            .filter(move |m| m.from == from)
            .map(|m| &m.json)
    }

    /// The `params` of every request named `method` that `from` sent.
    pub fn requests(&self, from: Side, method: &str) -> Vec<&Value> {
        self.from(from)
            .filter(|m| m["method"] == method && m.get("id").is_some())
            .map(|m| &m["params"])
            .collect()
    }

    /// The `params` of every notification named `method` that `from` sent.
    pub fn notifications(&self, from: Side, method: &str) -> Vec<&Value> {
        self.from(from)
            .filter(|m| m["method"] == method && m.get("id").is_none())
            .map(|m| &m["params"])
            .collect()
    }

    /// The server's responses (whole messages, `result` or `error`) to the client's requests
    /// named `method`, in order.
    pub fn responses_to(&self, method: &str) -> Vec<&Value> {
        self.responses(Side::Client, method)
    }

    /// The client's responses (whole messages, `result` or `error`) to the server's requests
    /// named `method`, in order: on 2025-11-25, what the user answered each pushed
    /// `elicitation/create` with. The mirror of [`Transcript::responses_to`].
    pub fn client_responses_to(&self, method: &str) -> Vec<&Value> {
        self.responses(Side::Server, method)
    }

    /// The other side's responses to the requests named `method` that `asker` sent.
    fn responses(&self, asker: Side, method: &str) -> Vec<&Value> {
        let ids: Vec<&Value> = self
            .from(asker)
            .filter(|m| m["method"] == method && m.get("id").is_some())
            .map(|m| &m["id"])
            .collect();
        let answerer = match asker {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        };
        self.from(answerer)
            .filter(|m| m.get("method").is_none() && ids.contains(&&m["id"]))
            .collect()
    }

    /// The `inputResponses` of every request named `method` the client sent with some
    /// (2026-07-28 retries), in order.
    pub fn input_responses(&self, method: &str) -> Vec<&Value> {
        self.requests(Side::Client, method)
            .into_iter()
            .filter_map(|params| params.get("inputResponses"))
            .collect()
    }

    /// Every answer the client gave to an elicitation, on either era, in order, as the bare
    /// result object (`{"action": "accept", "content": {…}}`): each value of the
    /// `inputResponses` of its retries (2026-07-28), and each `result` it answered a pushed
    /// `elicitation/create` with (2025-11-25). The same script gives the same list on both
    /// eras.
    pub fn answers(&self) -> Vec<&Value> {
        let pushed: Vec<&Value> = self
            .from(Side::Server)
            .filter(|m| m["method"] == "elicitation/create" && m.get("id").is_some())
            .map(|m| &m["id"])
            .collect();
        let mut answers = Vec::new();
        for message in self.from(Side::Client) {
            if let Some(Value::Object(responses)) = message["params"].get("inputResponses") {
                answers.extend(responses.values());
            }
            if message.get("method").is_none()
                && pushed.contains(&&message["id"])
                && let Some(result) = message.get("result")
            {
                answers.push(result);
            }
        }
        answers
    }

    /// Every `tools/call` the client sent, first call and retries, as [`ToolCall`]s to send
    /// again (as they are, or changed) with [`Session::send`](super::Session::send).
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        self.requests(Side::Client, "tools/call")
            .into_iter()
            .map(ToolCall::from_params)
            .collect()
    }

    /// The transcript as one JSON array, `{"from": "client" | "server", "message": …}` per
    /// message, for snapshots (see [`Transcript::redacted`]).
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.0
                .iter()
                .map(|m| {
                    let from = match m.from {
                        Side::Client => "client",
                        Side::Server => "server",
                    };
                    serde_json::json!({"from": from, "message": m.json})
                })
                .collect(),
        )
    }

    /// The `input_required` results the server answered `method` with (2026-07-28 rounds).
    pub fn rounds(&self, method: &str) -> Vec<&Value> {
        self.responses_to(method)
            .into_iter()
            .map(|m| &m["result"])
            .filter(|r| r["resultType"] == "input_required")
            .collect()
    }

    /// The `input_required` results the server answered `method` with (2026-07-28 rounds), as
    /// [`Round`]s to read (keys, messages, schemas, links, the state to echo) and, for
    /// `tools/call`, to [`retry`](Round::retry) by hand.
    ///
    /// ```
    /// use elicit_rmcp::testing::{Message, Side, Transcript};
    /// use serde_json::json;
    ///
    /// let transcript = Transcript::new(vec![
    ///     Message { from: Side::Client, json: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
    ///         "params": {"name": "book", "arguments": {}}}) },
    ///     Message { from: Side::Server, json: json!({"jsonrpc": "2.0", "id": 1, "result": {
    ///         "resultType": "input_required",
    ///         "inputRequests": {"guests": {"method": "elicitation/create", "params": {
    ///             "mode": "form", "message": "How many guests?",
    ///             "requestedSchema": {"type": "object", "properties": {"count": {"type": "integer"}}}}}},
    ///         "requestState": "es1.sealed"}}) },
    /// ]);
    /// let [round] = &transcript.input_required("tools/call")[..] else { panic!("one round") };
    /// assert_eq!(round.keys(), ["guests"]);
    /// assert_eq!(round.message("guests"), Some("How many guests?"));
    /// assert_eq!(round.call().unwrap().name, "book");
    /// ```
    pub fn input_required(&self, method: &str) -> Vec<Round> {
        let requests: Vec<&Value> = self
            .from(Side::Client)
            .filter(|m| m["method"] == method && m.get("id").is_some())
            .collect();
        self.from(Side::Server)
            .filter(|m| m.get("method").is_none() && m["result"]["resultType"] == "input_required")
            .filter_map(|m| {
                let request = requests.iter().find(|r| r["id"] == m["id"])?;
                let call =
                    (method == "tools/call").then(|| ToolCall::from_params(&request["params"]));
                Some(Round::new(m["result"].clone(), call))
            })
            .collect()
    }

    /// Every elicitation the server asked the user, on either era, in order, as typed params
    /// (the message, and the form's schema or the link): each `elicitation/create` in the
    /// `inputRequests` of an `input_required` result (2026-07-28), and each one it pushed as
    /// a request (2025-11-25). The same script gives the same list on both eras: the mirror
    /// of [`Transcript::answers`]. Panics on params the wire model refuses.
    ///
    /// ```
    /// use elicit_rmcp::testing::{Message, Side, Transcript};
    /// use elicit_rmcp::wire::ElicitParams;
    /// use serde_json::json;
    ///
    /// // A 2025-11-25 server pushes its question as a request of its own.
    /// let transcript = Transcript::new(vec![Message {
    ///     from: Side::Server,
    ///     json: json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": {
    ///         "mode": "url", "elicitationId": "e-1", "message": "Connect your account",
    ///         "url": "https://app.example.com/connect?elicitation=h"}}),
    /// }]);
    /// let [ElicitParams::Url(asked)] = &transcript.elicitations()[..] else { panic!("one link") };
    /// assert_eq!(asked.message, "Connect your account");
    /// assert_eq!(asked.url, "https://app.example.com/connect?elicitation=h");
    /// ```
    #[track_caller]
    pub fn elicitations(&self) -> Vec<ElicitParams> {
        let mut asked = Vec::new();
        for message in self.from(Side::Server) {
            if message["method"] == "elicitation/create" && message.get("id").is_some() {
                asked.push(&message["params"]);
            }
            if message.get("method").is_none()
                && message["result"]["resultType"] == "input_required"
                && let Some(Value::Object(requests)) = message["result"].get("inputRequests")
            {
                asked.extend(
                    requests
                        .values()
                        .filter(|r| r["method"] == "elicitation/create")
                        .map(|r| &r["params"]),
                );
            }
        }
        asked
            .into_iter()
            .map(|params| {
                serde_json::from_value(params.clone()).unwrap_or_else(|e| {
                    panic!(
                        "the server sent elicitation params the wire model refuses ({e}): {params}"
                    )
                })
            })
            .collect()
    }
}

/// The lines the tap has seen so far, shared with its pump tasks, and a signal for each new one.
#[derive(Clone, Default)]
pub(super) struct Tap(Arc<(Mutex<Lines>, Notify)>);

/// Each line as it went over the wire, and who sent it.
type Lines = Vec<(Side, String)>;

impl Tap {
    fn push(&self, from: Side, line: &str) {
        self.lines().push((from, line.to_owned()));
        self.0.1.notify_waiters();
    }

    fn lines(&self) -> std::sync::MutexGuard<'_, Lines> {
        self.0
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// How many lines the tap has seen.
    pub(super) fn len(&self) -> usize {
        self.lines().len()
    }

    /// The transcript so far (panics on a line that is not JSON: no client would take it).
    pub(super) fn transcript(&self) -> Transcript {
        self.transcript_from(0)
    }

    /// The transcript of the lines from the `start`th on.
    pub(super) fn transcript_from(&self, start: usize) -> Transcript {
        Transcript(
            self.lines()
                .iter()
                .skip(start)
                .map(|(from, line)| Message {
                    from: *from,
                    json: serde_json::from_str(line).unwrap_or_else(|e| {
                        panic!("the {from:?} sent a line that is not JSON ({e}): {line}")
                    }),
                })
                .collect(),
        )
    }

    /// Waits until a message from the `start`th line on matches `seen`.
    pub(super) async fn wait_for(&self, start: usize, seen: impl Fn(&Message) -> bool) {
        loop {
            let notified = self.0.1.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if self.transcript_from(start).0.iter().any(&seen) {
                return;
            }
            notified.await;
        }
    }

    /// Copies lines from `from` to `to`, recording each as sent by `who`.
    pub(super) async fn pump(
        self,
        from: impl AsyncRead + Unpin,
        mut to: impl AsyncWrite + Unpin,
        who: Side,
    ) {
        let mut lines = BufReader::new(from).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            self.push(who, &line);
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
}
