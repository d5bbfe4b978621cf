//! An adapter for another MCP SDK, written with the core's public API only, as `elicit-rmcp`
//! is for rmcp: the SDK's extractor is an input channel whose asks fail with the SDK's own
//! error type (so `?` works in the SDK's handlers), the context is built from the parts the SDK
//! parsed already, and the handler's result becomes the response.

use elicit_runtime::request::{AdapterChannel, ElicitContext, RequestParts};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::wire::JsonRpcError;
use elicit_runtime::{Answer, ElicitForm, ElicitServer, Interrupt, Reply};
use pollster::block_on;
use serde_json::{Map, Value, json};

/// The other SDK's error type, which its handlers return.
#[derive(Debug, Clone, PartialEq)]
enum SdkError {
    /// A JSON-RPC error for the client.
    Rpc { code: i64, message: String },
    /// "Input required": the adapter answers with the round's result instead.
    Suspended,
}

/// The extractor the other SDK's handlers take.
struct SdkContext(ElicitContext);

impl AsRef<ElicitContext> for SdkContext {
    fn as_ref(&self) -> &ElicitContext {
        &self.0
    }
}

impl AsMut<ElicitContext> for SdkContext {
    fn as_mut(&mut self) -> &mut ElicitContext {
        &mut self.0
    }
}

/// All an adapter says: what its handlers' error is. Asking goes through the context.
impl AdapterChannel for SdkContext {
    type SdkError = SdkError;

    fn sdk_error(&self, interrupt: Interrupt) -> SdkError {
        match interrupt.into_error() {
            Some(error) => SdkError::Rpc {
                code: error.code,
                message: error.message,
            },
            None => SdkError::Suspended,
        }
    }
}

/// How many guests?
#[derive(Debug, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

/// A handler of the other SDK: `?` on the ask returns the SDK's error.
async fn book(cx: &mut SdkContext) -> Result<String, SdkError> {
    Ok(match Guests::ask(cx).await? {
        Answer::Accepted(guests) => format!("booked for {}", guests.count),
        Answer::Declined | Answer::Cancelled => "not booked".to_owned(),
    })
}

/// The other SDK's dispatch of one `tools/call` it parsed into `parts`: the response as JSON
/// (the handler's text, the `InputRequiredResult`, or the JSON-RPC error).
fn dispatch(server: &ElicitServer, parts: RequestParts) -> Value {
    let cx = match server.context("tools/call", parts).build() {
        Ok(cx) => cx,
        Err(refused) => return json!({"error": refused.error}),
    };
    let mut cx = SdkContext(cx);
    let result = block_on(book(&mut cx)).map_err(|error| match error {
        SdkError::Suspended => Interrupt::input_required(),
        SdkError::Rpc { code, message } => JsonRpcError::new(code, message, None).into(),
    });
    match block_on(cx.0.respond(result)) {
        Ok(Reply::Result(text)) => json!({"result": text}),
        Ok(Reply::InputRequired(round)) => json!({"result": round}),
        Ok(other) => panic!("unexpected reply {other:?}"),
        Err(error) => json!({"error": error}),
    }
}

fn object(value: Value) -> Option<Map<String, Value>> {
    value.as_object().cloned()
}

fn parts(capabilities: Value) -> RequestParts {
    let mut parts = RequestParts::new("book");
    parts.arguments = object(json!({"restaurant": "Chez Nous"}));
    parts.meta = object(json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities
    }));
    parts
}

fn server() -> ElicitServer {
    ElicitServer::new(StateSealer::new(KeyRing::generate(), "other-sdk"))
}

#[test]
fn a_round_and_its_retry_through_another_sdk_s_channel() {
    let server = server();
    let first = dispatch(&server, parts(json!({"elicitation": {"form": {}}})));
    let round = &first["result"];
    assert_eq!(round["resultType"], "input_required");
    assert_eq!(
        round["inputRequests"]["guests"]["params"]["requestedSchema"]["properties"]["count"],
        json!({"type": "integer", "minimum": 1, "maximum": 12})
    );
    let state = round["requestState"].as_str().expect("a sealed state");

    let mut retry = parts(json!({"elicitation": {"form": {}}}));
    retry.input_responses = object(json!({
        "guests": {"action": "accept", "content": {"count": 4}}
    }));
    retry.request_state = Some(state.to_owned());
    assert_eq!(dispatch(&server, retry), json!({"result": "booked for 4"}));
}

#[test]
fn a_failed_ask_reaches_the_handler_as_the_sdk_s_error_and_the_client_as_its_code() {
    let server = server();
    // The client declared no elicitation: the ask fails with -32021 in the SDK's error type.
    let mut cx = SdkContext(
        server
            .context("tools/call", parts(json!({})))
            .build()
            .unwrap(),
    );
    match block_on(book(&mut cx)) {
        Err(SdkError::Rpc { code, .. }) => assert_eq!(code, -32021),
        other => panic!("expected the SDK's error, got {other:?}"),
    }
    assert_eq!(
        dispatch(&server, parts(json!({})))["error"]["code"],
        json!(-32021)
    );
}

#[test]
fn an_answer_out_of_range_is_asked_again_through_the_adapter() {
    let server = server();
    let caps = json!({"elicitation": {"form": {}}});
    let first = dispatch(&server, parts(caps.clone()));
    let mut retry = parts(caps);
    retry.input_responses = object(json!({
        "guests": {"action": "accept", "content": {"count": 40}}
    }));
    retry.request_state = first["result"]["requestState"].as_str().map(str::to_owned);
    let again = dispatch(&server, retry);
    let message = &again["result"]["inputRequests"]["guests"]["params"]["message"];
    assert_eq!(
        message,
        "How many guests?\n\nPlease correct and send again:\n- count must be at most 12"
    );
}
