//! What the demo server does with bad lines on stdio (issue 32): the session survives every
//! one of them and loses nothing that follows.
//!
//! rmcp (3.11) answers well-formed JSON that is no JSON-RPC message with `-32600 Invalid
//! Request` and, on purpose, answers text that is not JSON at all with nothing: there is no
//! id to answer, and an answer to garbage can start an error storm with a peer that echoes it
//! (modelcontextprotocol/rust-sdk#938; the other official SDKs also ignore it). A JSON-RPC
//! parse error (`-32700`) would need a transport of our own under rmcp's, so the server keeps
//! rmcp's behaviour, and this test pins it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn bad_lines_on_stdio_lose_nothing_that_follows() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_demo-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();

    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "bad-lines", "version": "1"}
        }
    });
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let input = [
        "this is not json".to_owned(),
        "{\"unterminated\": ".to_owned(),
        "\u{0}\u{1}\u{7f}".to_owned(),
        r#"{"jsonrpc": "2.0", "no": "method"}"#.to_owned(),
        initialize.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        "[1, 2".to_owned(),
        list.to_string(),
    ];
    for line in &input {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();

    let mut next = || -> Value { serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap() };
    // The well-formed non-message: Invalid Request, with no id to answer.
    let invalid = next();
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    assert_eq!(invalid["id"], Value::Null, "{invalid}");
    // Nothing for the three lines that are not JSON; the session goes on.
    let initialized = next();
    assert_eq!(initialized["id"], 1, "{initialized}");
    assert_eq!(
        initialized["result"]["protocolVersion"], "2025-11-25",
        "{initialized}"
    );
    let tools = next();
    assert_eq!(tools["id"], 2, "{tools}");
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"connect_account"), "{names:?}");

    drop(stdin);
    assert!(server.wait().unwrap().success());
}
