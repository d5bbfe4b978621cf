//! The raw JSON-RPC lines a [`ScriptedClient`](super::ScriptedClient) run exchanged, and the
//! tap that records them between rmcp's client and the server.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

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
        let ids: Vec<&Value> = self
            .from(Side::Client)
            .filter(|m| m["method"] == method && m.get("id").is_some())
            .map(|m| &m["id"])
            .collect();
        self.from(Side::Server)
            .filter(|m| m.get("method").is_none() && ids.contains(&&m["id"]))
            .collect()
    }

    /// The `input_required` results the server answered `method` with (2026-07-28 rounds).
    pub fn rounds(&self, method: &str) -> Vec<&Value> {
        self.responses_to(method)
            .into_iter()
            .map(|m| &m["result"])
            .filter(|r| r["resultType"] == "input_required")
            .collect()
    }
}

/// The lines the tap has seen so far, shared with its pump tasks.
#[derive(Clone, Default)]
pub(super) struct Tap(Arc<Mutex<Vec<(Side, String)>>>);

impl Tap {
    fn push(&self, from: Side, line: &str) {
        self.lines().push((from, line.to_owned()));
    }

    fn lines(&self) -> std::sync::MutexGuard<'_, Vec<(Side, String)>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The transcript so far (panics on a line that is not JSON: no client would take it).
    pub(super) fn transcript(&self) -> Transcript {
        Transcript(
            self.lines()
                .iter()
                .map(|(from, line)| Message {
                    from: *from,
                    json: serde_json::from_str(line).unwrap_or_else(|e| {
                        panic!("the {from:?} sent a line that is not JSON ({e}): {line}")
                    }),
                })
                .collect(),
        )
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
