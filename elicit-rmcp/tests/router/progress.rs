//! While a request waits for the person on a URL-mode page (a held 2026-07-28 retry, a
//! 2025-11-25 call after the accept), a client whose request carried a `progressToken` is told
//! once a second that the server waits for the page and for how long at most; a client that
//! sent no token is told nothing. Tokio's clock is paused: the seconds are the runtime's.

use std::time::Duration;

use elicit_rmcp::Principal;
use elicit_rmcp::url::LandingPage;
use rmcp::model::{CallToolResponse, ElicitRequestParams, ElicitationAction};
use serde_json::{Value, json};

use super::expect::*;
use super::harness::{ERAS, Era, From, User, call, connect, result, text_of};
use super::servers::Wired;

/// The page records the account 3.5 s after `url` went out.
fn finish_later(page: &LandingPage, url: &str) {
    let (page, handle) = (page.clone(), handle_of(url));
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(3_500)).await;
        let (opened, _) = page.open_raw(&handle, "alice").await.unwrap();
        page.complete_raw(&opened, Some(json!({"account": "octocat"})))
            .await
            .unwrap();
    });
}

/// Runs `connect_account` with rmcp's client (which puts a progress token on every request)
/// through one wait on the page (the page finishing 3.5 s in): the token the waiting request
/// carried, and the progress notifications the server sent.
async fn progress_of_one_wait(era: Era) -> (Value, Vec<Value>) {
    let elicit = super::servers::elicit_server();
    let url = elicit.url_settings().clone();
    let elicit = elicit.with_url(url.with_hold(Duration::from_secs(30)));
    let server = Wired::with_server(elicit, Principal::fixed("alice"));
    let page = LandingPage::new(server.elicit.server());
    let person = page.clone();
    let user = User::answering(move |request| {
        let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            panic!("not a URL request: {request:?}");
        };
        finish_later(&person, url);
        result(ElicitationAction::Accept, None)
    });
    let session = connect(server, era, user).await;
    let connect_call = || call("connect_account", json!({"service": "github"}));
    let waiting = match era {
        Era::Mrtr => {
            let Ok(CallToolResponse::InputRequired(round)) =
                session.client.call_tool_once(connect_call()).await
            else {
                panic!("the link first");
            };
            let link = &session.wire.responses_to("tools/call")[0]["result"]["inputRequests"];
            finish_later(&page, link["connect"]["params"]["url"].as_str().unwrap());
            connect_call()
                .with_input_responses(input_responses(json!({"connect": {"action": "accept"}})))
                .with_request_state(round.request_state.expect("a sealed state"))
        }
        Era::Legacy => connect_call(),
    };
    let Ok(CallToolResponse::Complete(done)) = session.client.call_tool_once(waiting).await else {
        panic!("{era:?}: the call completes");
    };
    assert_eq!(
        text_of(&done),
        json!({"isError": false, "text": ["accept: connected github as octocat"]}),
        "{era:?}"
    );
    // Every report went out before the answer.
    let lines = session.wire.messages(From::Server);
    let answered = lines
        .iter()
        .rposition(|m| m["result"]["content"].is_array())
        .unwrap();
    assert!(
        lines[answered..]
            .iter()
            .all(|m| m["method"] != "notifications/progress"),
        "{era:?}: {lines:#?}"
    );
    let calls = session.wire.params_of(From::Client, "tools/call");
    let token = calls.last().unwrap()["_meta"]["progressToken"].clone();
    // On 2026-07-28 the first call carried a token of its own, which no wait was for.
    let first = calls[0]["_meta"]["progressToken"].clone();
    assert_eq!(calls.len(), if era == Era::Mrtr { 2 } else { 1 }, "{era:?}");
    assert_eq!(first == token, era == Era::Legacy, "{era:?}: {calls:#?}");
    (
        token,
        session
            .wire
            .notifications(From::Server, "notifications/progress"),
    )
}

#[tokio::test(start_paused = true)]
async fn a_request_waiting_on_the_page_reports_its_wait_to_a_client_that_asked() {
    for era in ERAS {
        let (token, reports) = progress_of_one_wait(era).await;
        assert!(token.is_number(), "{era:?}: {token}");
        // A held retry waits at most the hold (30 s); a 2025-11-25 call until the link expires
        // (10 minutes, give or take a second: the link's expiry is in whole seconds).
        let (total, up_to) = match era {
            Era::Mrtr => (json!(30.0), "30 s"),
            Era::Legacy => (reports[0]["total"].clone(), "10 min"),
        };
        if era == Era::Legacy {
            assert!(
                [json!(599.0), json!(600.0), json!(601.0)].contains(&total),
                "{reports:#?}"
            );
        }
        let expected: Vec<Value> = (0..4)
            .map(|waited| {
                json!({
                    "progressToken": token,
                    "progress": f64::from(waited),
                    "total": total,
                    "message": format!("Waiting for you to finish on the page (up to {up_to})")
                })
            })
            .collect();
        assert_eq!(reports, expected, "{era:?}");
    }
}

/// rmcp's client puts a progress token on every request it sends, so the client that sends
/// none speaks JSON lines itself.
struct RawClient {
    to: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    from: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    seen: Vec<Value>,
}

impl RawClient {
    fn serve(server: Wired) -> Self {
        use rmcp::ServiceExt;
        use tokio::io::AsyncBufReadExt;
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = elicit_rmcp::WireFix::new(server).serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (from, to) = tokio::io::split(client_io);
        let from = tokio::io::BufReader::new(from).lines();
        RawClient {
            to,
            from,
            seen: Vec::new(),
        }
    }

    async fn send(&mut self, message: Value) {
        use tokio::io::AsyncWriteExt;
        self.to
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// Reads until the message with `id`, answering the server's `elicitation/create` with an
    /// accept after `on_link` saw its URL.
    async fn until(&mut self, id: u64, on_link: &dyn Fn(&str)) -> Value {
        loop {
            let line = self
                .from
                .next_line()
                .await
                .unwrap()
                .expect("the server answers");
            let message: Value = serde_json::from_str(&line).unwrap();
            self.seen.push(message.clone());
            if message["method"] == "elicitation/create" {
                on_link(message["params"]["url"].as_str().unwrap());
                let accept =
                    json!({"jsonrpc": "2.0", "id": message["id"], "result": {"action": "accept"}});
                self.send(accept).await;
            } else if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_request_without_a_progress_token_gets_no_progress() {
    for era in ERAS {
        let server = Wired::new(Principal::fixed("alice"));
        let page = LandingPage::new(server.elicit.server());
        let mut client = RawClient::serve(server);
        let call = |id: u64, extra: Value| {
            let mut params = json!({"name": "connect_account", "arguments": {"service": "github"}});
            params
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
        };
        let done = match era {
            Era::Mrtr => {
                let meta = json!({"_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}
                }});
                client.send(call(1, meta.clone())).await;
                let round = client.until(1, &|_| {}).await;
                let round = &round["result"];
                finish_later(
                    &page,
                    round["inputRequests"]["connect"]["params"]["url"]
                        .as_str()
                        .unwrap(),
                );
                let mut retry = meta;
                retry["inputResponses"] = json!({"connect": {"action": "accept"}});
                retry["requestState"] = round["requestState"].clone();
                client.send(call(2, retry)).await;
                client.until(2, &|_| {}).await
            }
            Era::Legacy => {
                client
                    .send(
                        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                            "protocolVersion": "2025-11-25",
                            "capabilities": {"elicitation": {"url": {}}},
                            "clientInfo": {"name": "raw", "version": "0"}
                        }}),
                    )
                    .await;
                client.until(0, &|_| {}).await;
                client
                    .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                    .await;
                client.send(call(1, json!({}))).await;
                client.until(1, &|url| finish_later(&page, url)).await
            }
        };
        assert_eq!(
            done["result"]["content"][0]["text"], "accept: connected github as octocat",
            "{era:?}: {done}"
        );
        let progress: Vec<&Value> = client
            .seen
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .collect();
        assert!(progress.is_empty(), "{era:?}: {progress:?}");
    }
}
