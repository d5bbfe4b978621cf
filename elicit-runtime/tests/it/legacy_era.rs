//! The 2025-11-25 era: the same handler body that serves 2026-07-28 rounds sends real
//! server-to-client `elicitation/create` requests through a `LegacyPeer` and waits for the reply.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::wire::{ClientCapabilities, InputRequest, JsonRpcError, ProtocolEra};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt, Reply};
use elicit_testing::{TestClient, UserReply};
use pollster::block_on;
use serde_json::{Value, json};

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

/// A scripted 2025-11-25 client: records every request and answers from a script.
#[derive(Default)]
struct FakePeer {
    sent: Mutex<Vec<(String, Value)>>,
    replies: Mutex<VecDeque<Result<Value, JsonRpcError>>>,
}

impl FakePeer {
    fn new(replies: impl IntoIterator<Item = Result<Value, JsonRpcError>>) -> Arc<Self> {
        Arc::new(FakePeer {
            sent: Mutex::default(),
            replies: Mutex::new(replies.into_iter().collect()),
        })
    }

    fn sent(&self) -> Vec<(String, Value)> {
        self.sent.lock().unwrap().clone()
    }
}

impl LegacyPeer for FakePeer {
    fn request<'a>(
        &'a self,
        request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        Box::pin(async move {
            // What a transport sends: the request's JSON, `{}` for absent params.
            let mut json = serde_json::to_value(request).unwrap();
            let params = json
                .get_mut("params")
                .map_or_else(|| json!({}), Value::take);
            self.sent
                .lock()
                .unwrap()
                .push((request.method().to_owned(), params));
            self.replies.lock().unwrap().pop_front().unwrap_or_else(|| {
                Err(JsonRpcError::new(
                    -32000,
                    "the script has no more replies",
                    None,
                ))
            })
        })
    }
}

fn server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(KeyRing::new(1, [3; 32]), "legacy-server"))
}

fn caps(value: Value) -> ClientCapabilities {
    serde_json::from_value(value).unwrap()
}

/// `tools/call` params as a 2025-11-25 client sends them: no per-request `_meta` keys.
fn params() -> Value {
    json!({"name": "book_table", "arguments": {"restaurant": "Chez Rust"}, "_meta": {"progressToken": 7}})
}

/// The handler both eras run.
async fn book(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let day = match Day::ask(cx).await? {
        Answer::Accepted(day) => day,
        Answer::Declined => return Ok("no day: declined".into()),
        Answer::Cancelled => return Ok("no day: cancelled".into()),
    };
    let question = Guests::question().message(format!("How many guests on {}?", day.date));
    Ok(match question.ask(cx).await? {
        Answer::Accepted(g) => format!("{} guests on {}", g.count, day.date),
        Answer::Declined => "guests declined".into(),
        Answer::Cancelled => "guests cancelled".into(),
    })
}

/// Runs `handler` on a 2025-11-25 session with `capabilities` and `peer`.
fn run_legacy<R>(
    capabilities: Value,
    peer: Option<Arc<FakePeer>>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    let server = server();
    let params = params();
    let peer = peer.map(|p| p as Arc<dyn LegacyPeer>);
    let mut cx = server
        .context("tools/call", &params)
        .legacy(caps(capabilities), peer)
        .build()
        .map_err(|e| e.error)?;
    assert_eq!(cx.era(), ProtocolEra::Legacy2025);
    let result = block_on(handler(&mut cx));
    block_on(cx.respond(result))
}

#[track_caller]
fn complete<R: std::fmt::Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> R {
    match outcome {
        Ok(Reply::Result(r)) => r,
        other => panic!("expected a complete result, got {other:?}"),
    }
}

#[track_caller]
fn error<R: std::fmt::Debug>(outcome: Result<Reply<R>, JsonRpcError>) -> JsonRpcError {
    match outcome {
        Err(e) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

fn accept(content: Value) -> Result<Value, JsonRpcError> {
    Ok(json!({"action": "accept", "content": content}))
}

fn day_request() -> (String, Value) {
    (
        "elicitation/create".to_owned(),
        json!({
            "mode": "form",
            "message": "Which day?",
            "requestedSchema": {
                "type": "object",
                "properties": {"date": {"type": "string", "format": "date"}},
                "required": ["date"]
            }
        }),
    )
}

fn guests_request(message: &str) -> (String, Value) {
    (
        "elicitation/create".to_owned(),
        json!({
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 12}},
                "required": ["count"]
            }
        }),
    )
}

// ---------------------------------------------------------------------------------------------

#[test]
fn the_same_handler_serves_both_eras() {
    let peer = FakePeer::new([
        accept(json!({"date": "2026-12-24"})),
        accept(json!({"count": 4})),
    ]);
    let legacy = complete(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        book,
    ));
    assert_eq!(legacy, "4 guests on 2026-12-24");
    assert_eq!(
        peer.sent(),
        [
            day_request(),
            guests_request("How many guests on 2026-12-24?")
        ]
    );

    let client = TestClient::new(server());
    let run = block_on(client.call_tool(
        "book_table",
        json!({"restaurant": "Chez Rust"}),
        |key, _| match key {
            "day" => UserReply::Accept(json!({"date": "2026-12-24"})),
            _ => UserReply::Accept(json!({"count": 4})),
        },
        book,
    ))
    .unwrap();
    assert_eq!(run.result, legacy);
    assert_eq!(run.rounds.len(), 2);
    // The embedded requests carry exactly the params the legacy peer received.
    let embedded: Vec<(String, Value)> = run
        .rounds
        .iter()
        .flat_map(|r| r.input_requests().unwrap().values())
        .map(|r| {
            let v = serde_json::to_value(r).unwrap();
            (
                v["method"].as_str().unwrap().to_owned(),
                v["params"].clone(),
            )
        })
        .collect();
    assert_eq!(embedded, peer.sent());
}

#[test]
fn a_declined_form_decodes_to_declined() {
    let peer = FakePeer::new([Ok(json!({"action": "decline"}))]);
    assert_eq!(
        complete(run_legacy(
            json!({"elicitation": {}}),
            Some(peer.clone()),
            book
        )),
        "no day: declined"
    );
    assert_eq!(peer.sent(), [day_request()]);
}

#[test]
fn a_cancelled_form_decodes_to_cancelled() {
    let peer = FakePeer::new([
        accept(json!({"date": "2026-01-01"})),
        Ok(json!({"action": "cancel"})),
    ]);
    assert_eq!(
        complete(run_legacy(
            json!({"elicitation": {"form": {}}}),
            Some(peer.clone()),
            book
        )),
        "guests cancelled"
    );
    assert_eq!(peer.sent().len(), 2);
}

#[test]
fn a_reply_with_meta_is_accepted() {
    let peer = FakePeer::new([
        Ok(json!({"action": "accept", "content": {"date": "2026-02-03"}, "_meta": {"x": 1}})),
        Ok(json!({"action": "decline", "_meta": {}})),
    ]);
    assert_eq!(
        complete(run_legacy(json!({"elicitation": {}}), Some(peer), book)),
        "guests declined"
    );
}

#[test]
fn a_reply_that_is_not_an_elicitation_result_is_invalid_params() {
    for reply in [
        json!({"foo": 1}),
        json!({"action": "sure"}),
        json!("accept"),
        json!(null),
    ] {
        let peer = FakePeer::new([Ok(reply.clone())]);
        let e = error(run_legacy(json!({"elicitation": {}}), Some(peer), book));
        assert_eq!(e.code, -32602, "{reply}");
        assert_eq!(
            e.data.as_ref().map(|d| d["key"].clone()),
            Some(json!("day")),
            "{reply}"
        );
    }
}

#[test]
fn a_peer_error_is_propagated_unchanged() {
    let refusal = JsonRpcError::new(
        -32600,
        "ElicitServer not supported",
        Some(json!({"why": "no callback"})),
    );
    let peer = FakePeer::new([Err(refusal.clone())]);
    assert_eq!(
        error(run_legacy(
            json!({"elicitation": {}}),
            Some(peer.clone()),
            book
        )),
        refusal
    );
    assert_eq!(peer.sent(), [day_request()]);
}

#[test]
fn without_a_peer_asking_is_an_internal_error() {
    let e = error(run_legacy(json!({"elicitation": {}}), None, book));
    assert_eq!(e.code, -32603);
    assert!(e.message.contains("legacy peer"), "{}", e.message);
}

#[test]
fn without_the_capability_nothing_is_sent() {
    for capabilities in [
        json!({}),
        json!({"elicitation": {"url": {}}}),
        json!({"sampling": {}, "roots": {}}),
    ] {
        let peer = FakePeer::new([accept(json!({"date": "2026-01-01"}))]);
        let e = error(run_legacy(capabilities.clone(), Some(peer.clone()), book));
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({
                "code": -32021,
                "message": "Server requires the elicitation capability (form mode) for this request",
                "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
            }),
            "{capabilities}"
        );
        assert!(peer.sent().is_empty(), "{capabilities}: {:?}", peer.sent());
    }
}

#[test]
fn ask_if_supported_sends_nothing_without_the_capability() {
    let peer = FakePeer::new([]);
    let got = complete(run_legacy(
        json!({}),
        Some(peer.clone()),
        async |cx: &mut ElicitContext| Day::ask_if_supported(cx).await,
    ));
    assert_eq!(got, None);
    assert!(peer.sent().is_empty());

    let peer = FakePeer::new([accept(json!({"date": "2026-04-05"}))]);
    let got = complete(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        async |cx: &mut ElicitContext| Day::ask_if_supported(cx).await,
    ));
    assert_eq!(
        got,
        Some(Answer::Accepted(Day {
            date: "2026-04-05".into()
        }))
    );
    assert_eq!(peer.sent(), [day_request()]);
}

#[test]
fn batched_asks_go_out_one_after_the_other() {
    let peer = FakePeer::new([
        accept(json!({"date": "2026-05-05"})),
        accept(json!({"count": 2})),
    ]);
    let got = complete(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        async |cx: &mut ElicitContext| {
            let a = Day::ask(cx).await;
            let b = Guests::ask(cx).await;
            Ok::<_, Interrupt>((a?, b?))
        },
    ));
    assert_eq!(
        got,
        (
            Answer::Accepted(Day {
                date: "2026-05-05".into()
            }),
            Answer::Accepted(Guests { count: 2 })
        )
    );
    assert_eq!(
        peer.sent(),
        [day_request(), guests_request("How many guests?")]
    );
}

#[test]
fn sampling_and_roots_go_to_the_peer() {
    let sample = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5});
    let reply =
        json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m"});
    let roots = json!({"roots": [{"uri": "file:///a"}]});
    let peer = FakePeer::new([Ok(reply.clone()), Ok(roots.clone())]);
    let sent = sample.clone();
    let got = complete(run_legacy(
        json!({"sampling": {}, "roots": {}}),
        Some(peer.clone()),
        async move |cx: &mut ElicitContext| {
            let s = cx.sample("s", sent).await?;
            let r = cx.list_roots("r").await?;
            Ok::<_, Interrupt>((s, r))
        },
    ));
    assert_eq!(got, (reply, roots));
    assert_eq!(
        peer.sent(),
        [
            ("sampling/createMessage".to_owned(), sample),
            ("roots/list".to_owned(), json!({}))
        ]
    );
}

#[test]
fn sampling_without_its_capability_sends_nothing() {
    let peer = FakePeer::new([]);
    let e = error(run_legacy(
        json!({"elicitation": {}}),
        Some(peer.clone()),
        async |cx: &mut ElicitContext| {
            cx.sample("s", json!({"messages": [], "maxTokens": 1}))
                .await
        },
    ));
    assert_eq!(e.code, -32021);
    assert_eq!(
        e.data,
        Some(json!({"requiredCapabilities": {"sampling": {}}}))
    );
    assert!(peer.sent().is_empty());
}

#[test]
fn retry_later_has_no_meaning_on_a_legacy_connection() {
    let e = error(run_legacy(
        json!({"elicitation": {}}),
        Some(FakePeer::new([])),
        async |cx: &mut ElicitContext| Err::<(), _>(cx.retry_later()),
    ));
    assert_eq!(e.code, -32603);
}

#[test]
fn retry_fields_are_ignored_on_a_legacy_connection() {
    let server = server();
    let mut params = params();
    params["requestState"] = json!("not a state at all");
    params["inputResponses"] =
        json!({"day": {"action": "accept", "content": {"date": "1999-01-01"}}});
    let peer = FakePeer::new([
        accept(json!({"date": "2026-06-06"})),
        accept(json!({"count": 3})),
    ]);
    let mut cx = server
        .context("tools/call", &params)
        .legacy(
            caps(json!({"elicitation": {}})),
            Some(peer.clone() as Arc<dyn LegacyPeer>),
        )
        .build()
        .unwrap();
    let result = block_on(book(&mut cx));
    assert_eq!(
        complete(block_on(cx.respond(result))),
        "3 guests on 2026-06-06"
    );
    assert_eq!(peer.sent().len(), 2);
}

#[test]
fn a_2025_protocol_version_in_meta_uses_the_session() {
    // The session's capabilities win over anything in `_meta`, and its peer is used.
    let server = server();
    let params = json!({
        "name": "book_table",
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2025-11-25",
            "io.modelcontextprotocol/clientCapabilities": {}
        }
    });
    let peer = FakePeer::new([Ok(json!({"action": "cancel"}))]);
    let mut cx = server
        .context("tools/call", &params)
        .legacy(
            caps(json!({"elicitation": {}})),
            Some(peer.clone() as Arc<dyn LegacyPeer>),
        )
        .build()
        .unwrap();
    assert_eq!(cx.era(), ProtocolEra::Legacy2025);
    let result = block_on(book(&mut cx));
    assert_eq!(complete(block_on(cx.respond(result))), "no day: cancelled");
    assert_eq!(peer.sent(), [day_request()]);
}

#[test]
fn a_2026_request_on_a_server_that_also_has_a_session_uses_rounds() {
    let server = server();
    let params = json!({
        "name": "book_table",
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
        }
    });
    let peer = FakePeer::new([]);
    let mut cx = server
        .context("tools/call", &params)
        .legacy(
            caps(json!({"elicitation": {}})),
            Some(peer.clone() as Arc<dyn LegacyPeer>),
        )
        .build()
        .unwrap();
    assert_eq!(cx.era(), ProtocolEra::Mrtr2026);
    let result = block_on(book(&mut cx));
    assert!(matches!(
        block_on(cx.respond(result)),
        Ok(Reply::InputRequired(_))
    ));
    assert!(peer.sent().is_empty());
}

#[test]
fn a_2025_version_in_meta_without_a_session_is_the_clients_error() {
    let server = server();
    let params = json!({
        "name": "book_table",
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2025-11-25",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
        }
    });
    let outcome = match server.context("tools/call", &params).build() {
        Err(e) => Err(e.error),
        Ok(mut cx) => {
            let result = block_on(book(&mut cx));
            block_on(cx.respond(result))
        }
    };
    let e = error(outcome);
    assert_eq!(e.code, -32602, "{e:?}");
}

mod bounded;
mod reask;
