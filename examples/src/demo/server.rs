//! The demo MCP server: an rmcp `ServerHandler` whose tools ask through `elicit`.

use std::sync::Arc;

use elicit_runtime::adapters::rmcp::call_tool;
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::MemoryCompletionStore;
use elicit_runtime::{
    Answer, ElicitContext, ElicitForm, ElicitServer, ElicitUrl, Interrupt, UrlAnswer,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::forms::{Booking, Confirm, ConnectAccount, Travelers, TripDates};

/// The principal of the local demo: stdio has no authorization, so every request is hers.
pub const DEMO_USER: &str = "demo-user";

/// The demo server's state.
#[derive(Clone)]
pub struct DemoServer {
    elicit: ElicitServer,
}

impl DemoServer {
    /// A server whose URL-mode pages are served at `landing_origin`.
    pub fn new(landing_origin: &str) -> Self {
        let elicit = ElicitServer::new(StateSealer::new(KeyRing::generate(), "elicit-demo"))
            .with_server_info("elicit-demo", env!("CARGO_PKG_VERSION"))
            .with_completion_store(Arc::new(MemoryCompletionStore::new()))
            .with_url_origin(landing_origin)
            .expect("the landing page listens on loopback");
        DemoServer { elicit }
    }

    /// The settings the landing page shares with the tools.
    pub fn elicitation(&self) -> &ElicitServer {
        &self.elicit
    }
}

fn text(s: String) -> Result<CallToolResult, Interrupt> {
    Ok(CallToolResult::success(vec![ContentBlock::text(s)]))
}

fn string_arg(args: &Value, name: &str) -> Result<String, Interrupt> {
    args.get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned)
        .ok_or_else(|| {
            Interrupt::error(elicit_runtime::wire::JsonRpcError::invalid_params(
                format!("argument `{name}` (a non-empty string) is required"),
                None,
            ))
        })
}

async fn book_table(cx: &mut ElicitContext) -> Result<CallToolResult, Interrupt> {
    let restaurant = string_arg(cx.arguments(), "restaurant")?;
    let question = Booking::question().message(format!("Book a table at {restaurant}"));
    match question.ask(cx).await? {
        Answer::Accepted(b) => {
            let extras: Vec<&str> = b
                .extras
                .iter()
                .map(elicit_runtime::ElicitEnum::value)
                .collect();
            let email = b
                .email
                .map(|e| format!(", confirmation to {e}"))
                .unwrap_or_default();
            text(format!(
                "accept: table for {} at {restaurant} on {} at {}, seating {}{}{email}",
                b.guests,
                b.date,
                b.time,
                elicit_runtime::ElicitEnum::value(&b.seating),
                if extras.is_empty() {
                    String::new()
                } else {
                    format!(", extras {}", extras.join(" + "))
                },
            ))
        }
        Answer::Declined => text(format!("decline: no table booked at {restaurant}")),
        Answer::Cancelled => text(format!("cancel: booking at {restaurant} left open")),
    }
}

async fn cancel_reservation(cx: &mut ElicitContext) -> Result<CallToolResult, Interrupt> {
    let reservation = string_arg(cx.arguments(), "reservation_id")?;
    // The answer is sealed with these very arguments: a retry for another reservation
    // cannot reuse this confirmation.
    let question = Confirm::question().message(format!(
        "Cancel reservation {reservation}? This cannot be undone."
    ));
    match question.ask(cx).await? {
        Answer::Accepted(Confirm { confirm: true }) => {
            text(format!("accept: reservation {reservation} cancelled"))
        }
        Answer::Accepted(Confirm { confirm: false }) => text(format!(
            "accept: reservation {reservation} kept (not confirmed)"
        )),
        Answer::Declined => text(format!("decline: reservation {reservation} kept")),
        Answer::Cancelled => text(format!("cancel: reservation {reservation} kept")),
    }
}

async fn connect_account(cx: &mut ElicitContext) -> Result<CallToolResult, Interrupt> {
    let service = string_arg(cx.arguments(), "service")?;
    match (ConnectAccount {
        service: service.clone(),
    })
    .ask(cx)
    .await?
    {
        UrlAnswer::Completed { result, .. } => {
            let account = result
                .as_ref()
                .and_then(|r| r.get("account"))
                .and_then(Value::as_str)
                .unwrap_or("your account");
            text(format!("accept: connected {service} as {account}"))
        }
        UrlAnswer::Failed { reason, .. } => {
            text(format!("accept: connecting {service} failed: {reason}"))
        }
        UrlAnswer::Expired => text(format!(
            "accept: the {service} link expired before it was used"
        )),
        UrlAnswer::Declined => text(format!("decline: {service} not connected")),
        UrlAnswer::Cancelled => text(format!("cancel: {service} not connected")),
    }
}

async fn plan_trip(cx: &mut ElicitContext) -> Result<CallToolResult, Interrupt> {
    let destination = string_arg(cx.arguments(), "destination")?;
    // Both questions go out in one round: ask both before the first `?`.
    let dates = TripDates::question()
        .message(format!("When do you travel to {destination}?"))
        .ask(cx)
        .await;
    let travelers = Travelers::ask(cx).await;
    match (dates?, travelers?) {
        (Answer::Accepted(d), Answer::Accepted(t)) => text(format!(
            "accept: {} nights in {destination} from {} for {} adults and {} children",
            d.nights, d.start, t.adults, t.children
        )),
        (Answer::Declined, _) | (_, Answer::Declined) => {
            text(format!("decline: no trip to {destination} planned"))
        }
        _ => text(format!("cancel: trip to {destination} left open")),
    }
}

fn tool(name: &'static str, description: &'static str, arg: &str, arg_description: &str) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {arg: {"type": "string", "description": arg_description}},
        "required": [arg]
    });
    let Value::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    Tool::new(name, description, Arc::new(schema))
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("elicit-demo", env!("CARGO_PKG_VERSION")))
            .with_instructions("Tools that ask the user through elicitation: book_table, cancel_reservation, connect_account, plan_trip.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![
            tool(
                "book_table",
                "Book a table; asks for date, time, guests, seating and extras",
                "restaurant",
                "Restaurant name",
            ),
            tool(
                "cancel_reservation",
                "Cancel a reservation after the user confirms",
                "reservation_id",
                "Reservation id",
            ),
            tool(
                "connect_account",
                "Connect a third-party account through the browser (URL mode)",
                "service",
                "Service name, e.g. github",
            ),
            tool(
                "plan_trip",
                "Plan a trip; asks two questions in one round",
                "destination",
                "Where to",
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        call_tool(
            &self.elicit,
            request,
            context,
            Some(DEMO_USER),
            async |cx| match name.as_str() {
                "book_table" => book_table(cx).await,
                "cancel_reservation" => cancel_reservation(cx).await,
                "connect_account" => connect_account(cx).await,
                "plan_trip" => plan_trip(cx).await,
                other => Err(Interrupt::error(
                    elicit_runtime::wire::JsonRpcError::invalid_params(
                        format!("unknown tool `{other}`"),
                        None,
                    ),
                )),
            },
        )
        .await
    }
}
