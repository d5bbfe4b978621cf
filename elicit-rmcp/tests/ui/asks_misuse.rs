use elicit_rmcp::form::{Resolve, Resolved};
use elicit_rmcp::{Accepted, Asked, ElicitContext, ElicitForm, ElicitHandler, Filled, Interrupt};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, schemars, tool, tool_router};

/// Please confirm
#[derive(Debug, ElicitForm)]
struct Confirm {
    confirm: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    id: String,
}

// Arguments not declared a form: `Filled` has neither the schema nor what to ask.
#[derive(Debug, serde::Deserialize)]
struct Booking {
    date: String,
}

struct Never;

impl Resolve<Confirm> for Never {
    async fn resolve(&self, _cx: &ElicitContext) -> Result<Resolved<Confirm>, Interrupt> {
        Ok(Resolved::ask())
    }
}

#[derive(Clone)]
struct Server {
    elicit: ElicitHandler,
}

#[tool_router]
impl Server {
    // No `otherwise` for an `Accepted`; `otherwise` on an `Asked`; `resolve` with a message;
    // the same form twice; `#[ask]` on the arguments: every mistake, in one compile.
    #[elicit_rmcp::asks]
    #[tool(description = "Cancel")]
    async fn cancel(
        &self,
        #[ask(message = "m")] Parameters(args): Parameters<Args>,
        first: Accepted<Confirm>,
        #[ask(otherwise = "no")] second: Asked<Confirm>,
        #[ask(resolve = Never, message = "which?", key = "third")] third: Asked<Confirm>,
    ) -> Result<String, McpError> {
        let _ = (args.id, first.confirm, second, third);
        Ok(String::new())
    }

    // Not a `Result`.
    #[elicit_rmcp::asks]
    #[tool(description = "Plain")]
    async fn plain(&self, #[ask(key = "p")] answer: Asked<Confirm>) -> String {
        format!("{answer:?}")
    }

    // Below `#[tool]`, which has made the method a plain `fn` already.
    #[tool(description = "Below")]
    #[elicit_rmcp::asks]
    async fn below(&self, #[ask(key = "b")] answer: Asked<Confirm>) -> Result<String, McpError> {
        Ok(format!("{answer:?}"))
    }

    // A `Filled` beside the `Parameters` it replaces, and without an `otherwise`.
    #[elicit_rmcp::asks]
    #[tool(description = "Filled")]
    async fn filled(
        &self,
        Parameters(args): Parameters<Args>,
        booking: Filled<Confirm>,
    ) -> Result<String, McpError> {
        Ok(format!("{} {}", args.id, booking.confirm))
    }

    // A type that is not a form: the same one clear message at each use.
    #[elicit_rmcp::asks(otherwise = "not booked")]
    #[tool(description = "Book")]
    async fn book(&self, booking: Filled<Booking>) -> Result<String, McpError> {
        Ok(booking.date.clone())
    }

    // Asks nothing.
    #[elicit_rmcp::asks]
    #[tool(description = "Nothing")]
    async fn nothing(&self) -> Result<String, McpError> {
        Ok(String::new())
    }
}

fn main() {}
