//! `bench-floor`, the like-for-like floor of `scripts/bench-whole-call`, answers with
//! `bench/floor_answers.json`. These tests keep that fixture what `demo-server` sends, and the
//! floor's lines the demo's, byte for byte: only the value of the sealed `requestState` differs
//! (its length stays within [`STATE_SLACK`] bytes of the demo's).
//!
//! The floor runs as the bench runs it, as a process on stdio; the demo runs as `demo-server`
//! runs on stdio (its `DemoServer` inside `WireFix`, rmcp's line transport), here in this
//! process on a pipe, because `demo-server` is another package's binary. Both get the lines
//! the bench's client (the Python SDK, mcp 2.3.0, protocol 2026-07-28) sends: `tools/call
//! book_table`, the retry declining, `tools/list`; then `server/discover`, and `initialize` on
//! a second connection. (elicit's in-process `ScriptedClient` lists no tools, and serves any
//! server inside `WireFix`, so it could not run the floor bare.)
//!
//! After changing what the demo sends, capture the fixture again:
//!
//! ```text
//! ELICIT_FLOOR_FIXTURE=write cargo test -p elicit-harness --test bench_floor
//! ```

use std::process::Stdio;
use std::time::Duration;

use elicit_examples::demo::config::DemoConfig;
use elicit_examples::demo::server::DemoServer;
use elicit_rmcp::adapter::WireFix;
use rmcp::ServiceExt;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, Command};

const FLOOR: &str = env!("CARGO_BIN_EXE_bench-floor");
/// The fixture as `bench-floor` embeds it.
const FIXTURE: &str = include_str!("../bench/floor_answers.json");
const FIXTURE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/floor_answers.json");
const ABOUT: &str = "What demo-server answers to the requests of scripts/bench-whole-call, \
    as bench-floor sends them. Captured by harness/tests/bench_floor.rs \
    (ELICIT_FLOOR_FIXTURE=write), which fails when the demo sends anything else.";
/// How many bytes the captured `requestState` may be longer or shorter than the demo's.
const STATE_SLACK: usize = 4;
/// Each answer's deadline (debug builds on a busy machine).
const DEADLINE: Duration = Duration::from_secs(30);
/// The fixture's keys, in order, after `about`.
const KEYS: [&str; 4] = [
    "initialize",
    "tools/list",
    "book_table/input_required",
    "book_table/declined",
];
/// The origin the in-process demo's links would point at (the bench's flow has none).
const ORIGIN: &str = "http://127.0.0.1:1";

/// Which server answers.
#[derive(Clone, Copy)]
enum Bin {
    Demo,
    Floor,
}

/// A server under test on a line transport: the floor's process (killed when dropped) or the
/// demo's task.
struct Server {
    _child: Option<Child>,
    stdin: Box<dyn AsyncWrite + Unpin + Send>,
    stdout: Lines<BufReader<Box<dyn AsyncRead + Unpin + Send>>>,
}

impl Server {
    async fn start(bin: Bin) -> Server {
        match bin {
            Bin::Floor => {
                let mut child = Command::new(FLOOR)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .kill_on_drop(true)
                    .spawn()
                    .unwrap_or_else(|e| panic!("cannot start {FLOOR}: {e}"));
                let stdin = Box::new(child.stdin.take().expect("piped stdin"));
                let stdout: Box<dyn AsyncRead + Unpin + Send> =
                    Box::new(child.stdout.take().expect("piped stdout"));
                Server {
                    _child: Some(child),
                    stdin,
                    stdout: BufReader::new(stdout).lines(),
                }
            }
            Bin::Demo => {
                let elicitation = DemoConfig::local()
                    .elicit_server(ORIGIN)
                    .await
                    .expect("the demo's elicit server");
                let demo = WireFix::new(DemoServer::with_elicitation(elicitation));
                let (ours, theirs) = tokio::io::duplex(1 << 16);
                tokio::spawn(async move {
                    if let Ok(running) = demo.serve(tokio::io::split(theirs)).await {
                        let _ = running.waiting().await;
                    }
                });
                let (read, write) = tokio::io::split(ours);
                let stdout: Box<dyn AsyncRead + Unpin + Send> = Box::new(read);
                Server {
                    _child: None,
                    stdin: Box::new(write),
                    stdout: BufReader::new(stdout).lines(),
                }
            }
        }
    }

    /// Sends request `id`, `method` with `params`; returns the line the server answers with.
    async fn ask(&mut self, id: u64, method: &str, params: Value) -> String {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let line = format!("{request}\n");
        self.stdin.write_all(line.as_bytes()).await.unwrap();
        self.stdin.flush().await.unwrap();
        match tokio::time::timeout(DEADLINE, self.stdout.next_line()).await {
            Ok(Ok(Some(answer))) => answer,
            other => panic!("no answer to {method}: {other:?}"),
        }
    }
}

/// `params` with the `_meta` the Python SDK puts on every 2026-07-28 request.
fn with_meta(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "mcp", "version": "0.1.0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
    });
    params
}

/// The `result` of a response line (panics on an error).
fn result(line: &str) -> Value {
    let mut message: Value = serde_json::from_str(line).expect("a JSON line");
    match message.get_mut("result") {
        Some(result) => result.take(),
        None => panic!("not a result: {line}"),
    }
}

/// The lines a server answered, in the fixture's order, and `server/discover`'s.
struct Replies {
    lines: [String; 4],
    discover: String,
}

impl Replies {
    /// The answers as the fixture holds them (`about` first).
    fn fixture(&self) -> Value {
        let mut fixture = Map::new();
        fixture.insert("about".to_owned(), json!(ABOUT));
        for (key, line) in KEYS.iter().zip(&self.lines) {
            fixture.insert((*key).to_owned(), result(line));
        }
        Value::Object(fixture)
    }

    /// Every line, named, with the `requestState` value blanked.
    fn blanked(&self) -> Vec<(&str, String)> {
        let state = request_state(&result(&self.lines[2]));
        KEYS.iter()
            .copied()
            .chain(["server/discover"])
            .zip(self.lines.iter().chain([&self.discover]))
            .map(|(key, line)| (key, line.replace(&state, "<requestState>")))
            .collect()
    }
}

fn request_state(input_required: &Value) -> String {
    input_required["requestState"]
        .as_str()
        .expect("input_required carries a requestState")
        .to_owned()
}

/// Runs the bench's requests on `bin`.
async fn replies(bin: Bin) -> Replies {
    let arguments = json!({"restaurant": "Chez Rust"});
    let mut server = Server::start(bin).await;
    let call = json!({"name": "book_table", "arguments": arguments});
    let input_required = server.ask(1, "tools/call", with_meta(call)).await;
    let asked = result(&input_required);
    let declined: Map<String, Value> = asked["inputRequests"]
        .as_object()
        .expect("input_required asks something")
        .keys()
        .map(|key| (key.clone(), json!({"action": "decline"})))
        .collect();
    let retry = json!({
        "inputResponses": declined,
        "requestState": asked["requestState"],
        "name": "book_table",
        "arguments": arguments,
    });
    let declined = server.ask(2, "tools/call", with_meta(retry)).await;
    let tools = server.ask(3, "tools/list", with_meta(json!({}))).await;
    let discover = server.ask(4, "server/discover", with_meta(json!({}))).await;

    let mut legacy = Server::start(bin).await;
    let hello = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {"form": {}, "url": {}}},
        "clientInfo": {"name": "mcp", "version": "0.1.0"},
    });
    let initialize = legacy.ask(1, "initialize", hello).await;
    Replies {
        lines: [initialize, tools, input_required, declined],
        discover,
    }
}

#[tokio::test]
async fn the_fixture_is_what_the_demo_sends() {
    let mut sent = replies(Bin::Demo).await.fixture();
    if std::env::var("ELICIT_FLOOR_FIXTURE").as_deref() == Ok("write") {
        let text = serde_json::to_string_pretty(&sent).unwrap() + "\n";
        std::fs::write(FIXTURE_PATH, text).unwrap();
        return;
    }
    let fixture: Value = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    let kept = request_state(&fixture["book_table/input_required"]);
    let fresh = request_state(&sent["book_table/input_required"]);
    assert!(
        kept.len().abs_diff(fresh.len()) <= STATE_SLACK,
        "the demo's requestState is {} bytes, the fixture's {}: capture it again \
         (ELICIT_FLOOR_FIXTURE=write)",
        fresh.len(),
        kept.len(),
    );
    sent["book_table/input_required"]["requestState"] = json!(kept);
    // As text: key order is part of the bytes, and `Value`'s equality ignores it (serde_json
    // keeps it here, `preserve_order` being on through elicit-runtime's rmcp feature).
    let keys: Vec<&str> = fixture
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..],
        ["about", KEYS[0], KEYS[1], KEYS[2], KEYS[3]],
        "the fixture's keys"
    );
    for key in KEYS {
        assert_eq!(
            fixture[key].to_string(),
            sent[key].to_string(),
            "{key}: the demo now sends something else; capture the fixture again \
             (ELICIT_FLOOR_FIXTURE=write)"
        );
    }
}

#[tokio::test]
async fn the_floor_sends_the_demos_bytes() {
    let (demo, floor) = tokio::join!(replies(Bin::Demo), replies(Bin::Floor));
    for ((key, demo), (_, floor)) in demo.blanked().into_iter().zip(floor.blanked()) {
        assert_eq!(
            floor, demo,
            "{key}: bench-floor's line differs from demo-server's"
        );
    }
    let state = |replies: &Replies| request_state(&result(&replies.lines[2]));
    let fixture: Value = serde_json::from_str(FIXTURE).unwrap();
    assert_eq!(
        state(&floor),
        request_state(&fixture["book_table/input_required"]),
        "the floor sends the captured requestState"
    );
}
