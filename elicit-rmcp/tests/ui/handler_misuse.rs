use elicit_rmcp::ElicitHandler;
use rmcp::model::{CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, tool_handler, tool_router};

#[derive(Clone)]
struct Server {
    elicit: ElicitHandler,
}

#[tool_router(allow_empty)]
impl Server {}

// Not a trait impl.
#[elicit_rmcp::handler]
impl Server {
    fn helper(&self) {}
}

#[derive(Clone)]
struct Twice {
    elicit: ElicitHandler,
}

#[tool_router(allow_empty)]
impl Twice {}

// rmcp's attribute as well, a `call_tool` of its own, and an argument that does not exist:
// every mistake, in one compile.
#[elicit_rmcp::handler(router = self.tool_router)]
#[tool_handler]
impl ServerHandler for Twice {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let _ = (request, context);
        Err(McpError::internal_error("no", None))
    }
}

#[derive(Clone)]
struct Prompts {
    elicit: ElicitHandler,
}

#[tool_router(allow_empty)]
impl Prompts {}

impl Prompts {
    fn prompt_router() -> rmcp::handler::server::router::prompt::PromptRouter<Self> {
        Default::default()
    }
}

// `get_prompt` by hand beside `prompts`, which writes it.
#[elicit_rmcp::handler(prompts)]
impl ServerHandler for Prompts {
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let _ = (request, context);
        Err(McpError::internal_error("no", None))
    }
}

#[derive(Clone)]
struct Tasks {
    elicit: ElicitHandler,
}

#[tool_router(allow_empty)]
impl Tasks {}

// `get_task` by hand beside `tasks`, which writes it.
#[elicit_rmcp::handler(tasks)]
impl ServerHandler for Tasks {
    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, McpError> {
        let _ = (request, context);
        Err(McpError::internal_error("no", None))
    }
}

fn main() {}
