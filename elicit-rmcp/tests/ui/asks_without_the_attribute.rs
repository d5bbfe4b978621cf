use elicit_rmcp::{Asked, ElicitForm, ElicitHandler};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};

/// Please confirm
#[derive(ElicitForm)]
struct Confirm {
    confirm: bool,
}

#[derive(Clone)]
struct Server {
    elicit: ElicitHandler,
}

#[tool_router]
impl Server {
    // `#[elicit_rmcp::asks]` forgotten.
    #[tool(description = "Cancel")]
    async fn cancel(&self, confirm: Asked<Confirm>) -> Result<String, McpError> {
        Ok(format!("{confirm:?}"))
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Server {}

fn main() {}
