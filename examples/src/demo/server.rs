//! The demo MCP server: an ordinary rmcp server (`#[tool_router]`, typed `Parameters<T>`,
//! `#[elicit_rmcp::handler]` where `#[tool_handler]` stood) whose tools ask the user through
//! `elicit`.

use elicit_rmcp::state::{KeyRing, StateSealer};
use elicit_rmcp::url::UrlSettings;
use elicit_rmcp::{Answer, ElicitEnum, ElicitForm, ElicitServer, UrlAnswer};
use elicit_rmcp::{Asked, Elicit, ElicitHandler, Principal};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::Value;

use super::forms::{Booking, Confirm, ConnectAccount, ExportOptions, Travelers, TripDates};

/// The demo's account name at the providers it pretends to connect (`demo-user@github`).
/// Its requests run as `Principal::local()`: stdio has no authorization, so every request is
/// the one local user's.
pub const DEMO_USER: &str = "demo-user";

/// The demo server: rmcp's tool router, and elicit beside it.
#[derive(Clone, Debug)]
pub struct DemoServer {
    elicit: ElicitHandler,
}

impl DemoServer {
    /// The local demo's server (a fresh key ring, in-memory stores) whose URL-mode pages are
    /// served at `landing_origin`.
    pub fn new(landing_origin: &str) -> Self {
        let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "elicit-demo"))
            .with_server_info("elicit-demo", env!("CARGO_PKG_VERSION"))
            .with_url(
                UrlSettings::in_memory()
                    .with_origin(landing_origin)
                    .expect("the landing page listens on loopback")
                    .with_link_fallback(),
            );
        Self::with_elicitation(server)
    }

    /// The demo's tools over an elicitation server set up elsewhere (e.g. by
    /// [`DemoConfig::elicit_server`](super::config::DemoConfig::elicit_server): shared keys
    /// and Redis, for replicas).
    pub fn with_elicitation(server: ElicitServer) -> Self {
        DemoServer {
            elicit: ElicitHandler::new(server, Principal::local()),
        }
    }

    /// The settings the landing page shares with the tools.
    pub fn elicitation(&self) -> &ElicitServer {
        self.elicit.server()
    }
}

/// `book_table`'s arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BookTableArgs {
    /// Restaurant name
    pub restaurant: String,
}

/// `cancel_reservation`'s arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CancelReservationArgs {
    /// Reservation id
    pub reservation_id: String,
}

/// `connect_account`'s arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ConnectAccountArgs {
    /// Service name, e.g. github
    pub service: String,
}

/// `plan_trip`'s arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PlanTripArgs {
    /// Where to
    // Refused blank as the arguments are read, before anything is asked (the questions name it).
    #[serde(deserialize_with = "non_blank")]
    pub destination: String,
}

/// A string argument that must not be blank, refused as the arguments are read.
fn non_blank<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let value = String::deserialize(deserializer)?;
    if value.trim().is_empty() {
        return Err(serde::de::Error::custom("a non-empty string is required"));
    }
    Ok(value)
}

/// An argument that must not be blank.
fn non_empty(name: &str, value: String) -> Result<String, McpError> {
    if value.trim().is_empty() {
        return Err(McpError::invalid_params(
            format!("argument `{name}` (a non-empty string) is required"),
            None,
        ));
    }
    Ok(value)
}

#[tool_router]
impl DemoServer {
    #[tool(description = "Book a table; asks for date, time, guests, seating and extras")]
    async fn book_table(
        &self,
        Parameters(args): Parameters<BookTableArgs>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let restaurant = non_empty("restaurant", args.restaurant)?;
        let question = Booking::question().message(format!("Book a table at {restaurant}"));
        Ok(match question.ask(&mut cx).await? {
            Answer::Accepted(b) => {
                let extras: Vec<&str> = b.extras.iter().map(ElicitEnum::value).collect();
                let extras = if extras.is_empty() {
                    String::new()
                } else {
                    format!(", extras {}", extras.join(" + "))
                };
                let email = b
                    .email
                    .map(|e| format!(", confirmation to {e}"))
                    .unwrap_or_default();
                format!(
                    "accept: table for {} at {restaurant} on {} at {}, seating {}{extras}{email}",
                    b.guests,
                    b.date,
                    b.time,
                    b.seating.value(),
                )
            }
            Answer::Declined => format!("decline: no table booked at {restaurant}"),
            Answer::Cancelled => format!("cancel: booking at {restaurant} left open"),
        })
    }

    #[tool(description = "Cancel a reservation after the user confirms")]
    async fn cancel_reservation(
        &self,
        Parameters(args): Parameters<CancelReservationArgs>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let reservation = non_empty("reservation_id", args.reservation_id)?;
        // The answer is sealed with these very arguments: a retry for another reservation
        // cannot reuse this confirmation.
        let question = Confirm::question().message(format!(
            "Cancel reservation {reservation}? This cannot be undone."
        ));
        Ok(match question.ask(&mut cx).await? {
            Answer::Accepted(Confirm { confirm: true }) => {
                format!("accept: reservation {reservation} cancelled")
            }
            Answer::Accepted(Confirm { confirm: false }) => {
                format!("accept: reservation {reservation} kept (not confirmed)")
            }
            Answer::Declined => format!("decline: reservation {reservation} kept"),
            Answer::Cancelled => format!("cancel: reservation {reservation} kept"),
        })
    }

    #[tool(
        description = "Connect a third-party account through the browser (URL mode; for a client without URL mode, the result is a link to open, then call again)"
    )]
    async fn connect_account(
        &self,
        mut cx: Elicit,
        Parameters(args): Parameters<ConnectAccountArgs>,
    ) -> Result<String, McpError> {
        let service = non_empty("service", args.service)?;
        let state = ConnectAccount {
            service: service.clone(),
        };
        // Clients that cannot open URL elicitations (Claude Code, Codex by default) get the
        // link as this call's result (the server's `with_link_fallback`); the same call, once
        // the page finished, goes on here.
        Ok(match state.ask(&mut cx).await? {
            UrlAnswer::Completed { result, .. } => {
                let account = result
                    .as_ref()
                    .and_then(|r| r.get("account"))
                    .and_then(Value::as_str)
                    .unwrap_or("your account");
                format!("accept: connected {service} as {account}")
            }
            UrlAnswer::Failed { reason, .. } => {
                format!("accept: connecting {service} failed: {reason}")
            }
            UrlAnswer::Expired => format!("accept: the {service} link expired before it was used"),
            UrlAnswer::Declined => format!("decline: {service} not connected"),
            UrlAnswer::Cancelled => format!("cancel: {service} not connected"),
            // An outcome a later version adds.
            _ => format!("{service} not connected"),
        })
    }

    /// A long job: a task when the client declared the tasks extension (its question on
    /// `tasks/get`, the answer by `tasks/update`), in the call otherwise.
    #[tool(
        description = "Export the reservations report (a task when the client runs tasks); asks whether to include cancelled ones"
    )]
    async fn export_reservations(&self, cx: Elicit) -> Result<CallToolResponse, McpError> {
        cx.task(|mut input| async move {
            let ran = if input.is_task() { "task" } else { "call" };
            Ok(match ExportOptions::ask(&mut input).await? {
                Answer::Accepted(ExportOptions { include_cancelled }) => format!(
                    "accept: reservations exported{} (in a {ran})",
                    if include_cancelled {
                        " with the cancelled ones"
                    } else {
                        ""
                    }
                ),
                Answer::Declined => format!("decline: nothing exported (in a {ran})"),
                Answer::Cancelled => format!("cancel: nothing exported (in a {ran})"),
            })
        })
        .await
    }

    /// Both questions are parameters, asked before the body runs: one round.
    #[elicit_rmcp::asks]
    #[tool(description = "Plan a trip; asks two questions in one round")]
    async fn plan_trip(
        &self,
        Parameters(PlanTripArgs { destination }): Parameters<PlanTripArgs>,
        #[ask(message = format!("When do you travel to {destination}?"))] dates: Asked<TripDates>,
        travelers: Asked<Travelers>,
    ) -> Result<String, McpError> {
        Ok(match (dates, travelers) {
            (Answer::Accepted(d), Answer::Accepted(t)) => format!(
                "accept: {} nights in {destination} from {} for {} adults and {} children",
                d.nights, d.start, t.adults, t.children
            ),
            (Answer::Declined, _) | (_, Answer::Declined) => {
                format!("decline: no trip to {destination} planned")
            }
            _ => format!("cancel: trip to {destination} left open"),
        })
    }
}

#[elicit_rmcp::handler(tasks)]
impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
            .with_server_info(Implementation::new("elicit-demo", env!("CARGO_PKG_VERSION")))
            .with_instructions("Tools that ask the user through elicitation: book_table, cancel_reservation, connect_account, plan_trip, export_reservations.")
    }
}
