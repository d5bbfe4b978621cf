//! The conformance fixtures: the tools and the prompt the suite calls, each one handler.
//!
//! The same handlers serve both protocol eras: on 2025-11-25 every `ask` sends
//! `elicitation/create` to the client and waits; on 2026-07-28 it ends the round with an
//! `InputRequiredResult` and reads the answer from the retry.
//!
//! The task tools serve the tasks extension (`io.modelcontextprotocol/tasks`): their calls
//! become tasks, whose workers ask through a [`TaskInput`],
//! so the questions show on `tasks/get` and the answers come with `tasks/update`
//! (`confirm_delete`, `multi_input`); `test_tool_with_task` asks in the call's input-required
//! rounds first and then becomes a task. `greet`, `slow_compute`, `failing_job` and
//! `protocol_error_job` are the suite's plain task fixtures around them.

use std::time::Duration;

use elicit_rmcp::adapter::{call_tool, get_prompt};
use elicit_runtime::tasks::TaskInput;
use elicit_runtime::wire::{INTERNAL_ERROR, JsonRpcError};
use elicit_runtime::{Answer, ElicitContext, ElicitForm, ElicitServer, Interrupt};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult, GetTaskParams,
    GetTaskResult, Implementation, ListPromptsResult, ListToolsResult, PaginatedRequestParams,
    Prompt, PromptMessage, Role, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::forms::{
    Choices, Confirm, ConfirmDelete, FavoriteColor, Name, Profile, PromptContext, UserInfo,
};
use crate::tasks::Tasks;

/// The tools, with their descriptions and input schemas.
const TOOLS: &[(&str, &str)] = &[
    (
        "test_elicitation",
        "Asks the user for a username and an email (form elicitation)",
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Asks a form whose every field has a default (SEP-1034)",
    ),
    (
        "test_elicitation_sep1330_enums",
        "Asks a form with all five enum shapes (SEP-1330)",
    ),
    (
        "test_input_required_result_elicitation",
        "Asks the user's name, then greets them",
    ),
    (
        "test_input_required_result_request_state",
        "Asks for a confirmation carried in requestState",
    ),
    (
        "test_input_required_result_multi_round",
        "Asks a name, then a favorite color, in two rounds",
    ),
    (
        "test_input_required_result_multiple_inputs",
        "Asks a form, a completion and the roots in one round",
    ),
    (
        "test_input_required_result_sampling",
        "Asks the client's model a question",
    ),
    (
        "test_input_required_result_list_roots",
        "Asks the client for its roots",
    ),
    (
        "test_input_required_result_tampered_state",
        "Asks for a confirmation under sealed requestState",
    ),
    (
        "test_input_required_result_capabilities",
        "Asks only for what the client declared it can do",
    ),
    ("greet", "Greets by name (never a task)"),
    (
        "slow_compute",
        "Sleeps `seconds`, as a task when the client declared the tasks extension",
    ),
    (
        "failing_job",
        "A task that ends in a tool error (tasks extension required)",
    ),
    (
        "protocol_error_job",
        "A task that fails with a JSON-RPC error (tasks extension required)",
    ),
    (
        "confirm_delete",
        "A task that asks to confirm deleting a file (tasks extension required)",
    ),
    (
        "multi_input",
        "A task that asks two questions at once (tasks extension required)",
    ),
    (
        "test_tool_with_task",
        "Asks the user's name in the call, then greets them from a task (tasks extension required)",
    ),
];

/// The tools whose calls become tasks: `slow_compute` when the client declared the tasks
/// extension (otherwise it answers in the call), the others only as tasks.
const TASK_TOOLS: &[&str] = &[
    "slow_compute",
    "failing_job",
    "protocol_error_job",
    "confirm_delete",
    "multi_input",
    "test_tool_with_task",
];

const PROMPT: &str = "test_input_required_result_prompt";

/// The fixture server: the elicitation settings shared by every request, and the tasks.
#[derive(Clone)]
pub(crate) struct Fixtures {
    elicit: ElicitServer,
    tasks: Tasks,
}

impl Fixtures {
    pub(crate) fn new(elicit: ElicitServer) -> Self {
        Fixtures {
            elicit,
            tasks: Tasks::default(),
        }
    }

    /// A call of a task tool: most become tasks at once; `test_tool_with_task` first asks the
    /// name in the call (input-required rounds), then greets from a task.
    async fn call_task_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let declared = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        if !declared {
            if request.name == "slow_compute" {
                return Ok(CallToolResponse::Complete(
                    slow_compute(pause(&request)).await,
                ));
            }
            // SEP-2663: a call the server can only serve as a task needs the extension.
            return Err(McpError::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ));
        }
        let capabilities = || -> Result<_, McpError> {
            let cx = elicit_rmcp::adapter::context(
                &self.elicit,
                "tools/call",
                &request,
                &context,
                None,
            )?;
            Ok(cx.capabilities().clone())
        };
        match request.name.as_ref() {
            "slow_compute" => {
                let pause = pause(&request);
                let task = self.tasks.spawn(capabilities()?, move |_| async move {
                    Ok(slow_compute(pause).await)
                });
                Ok(CallToolResponse::Task(task))
            }
            "failing_job" => {
                let task = self.tasks.spawn(capabilities()?, |_| async {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    Ok(CallToolResult::error(vec![ContentBlock::text(
                        "the job failed (a tool error, on purpose)",
                    )]))
                });
                Ok(CallToolResponse::Task(task))
            }
            "protocol_error_job" => {
                let task = self.tasks.spawn(capabilities()?, |_| async {
                    Err(Interrupt::from(JsonRpcError::new(
                        INTERNAL_ERROR,
                        "the job failed (a protocol error, on purpose)",
                        None,
                    )))
                });
                Ok(CallToolResponse::Task(task))
            }
            "confirm_delete" => {
                let filename = filename(&request)?;
                let task = self
                    .tasks
                    .spawn(capabilities()?, move |input| delete_file(input, filename));
                Ok(CallToolResponse::Task(task))
            }
            "multi_input" => {
                let task = self.tasks.spawn(capabilities()?, two_questions);
                Ok(CallToolResponse::Task(task))
            }
            _ => self.greet_from_task(request, context).await,
        }
    }

    /// `test_tool_with_task`: the name is asked in the call; the round that has it starts the
    /// task that greets.
    async fn greet_from_task(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let mut asked = None;
        let response = call_tool(&self.elicit, request, context, None, async |cx| {
            let name = match Name::ask(cx).await? {
                Answer::Accepted(form) => form.name,
                Answer::Declined | Answer::Cancelled => "stranger".to_owned(),
            };
            asked = Some((name, cx.capabilities().clone()));
            Ok(CallToolResult::success(Vec::new()))
        })
        .await?;
        Ok(match (response, asked) {
            (CallToolResponse::Complete(_), Some((name, capabilities))) => {
                CallToolResponse::Task(self.tasks.spawn(capabilities, move |_| async move {
                    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                        "Hello, {name}!"
                    ))]))
                }))
            }
            (response, _) => response,
        })
    }
}

/// `confirm_delete`'s argument `filename`.
fn filename(request: &CallToolRequestParams) -> Result<String, McpError> {
    request
        .arguments
        .as_ref()
        .and_then(|args| args.get("filename"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            McpError::invalid_params("the argument `filename` (a string) is required", None)
        })
}

impl ServerHandler for Fixtures {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new(
            "elicit-conformance-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = TOOLS
            .iter()
            .map(|(name, description)| Tool::new(*name, *description, input_schema(name)))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if TASK_TOOLS.contains(&name.as_str()) {
            return self.call_task_tool(request, context).await;
        }
        if !TOOLS.iter().any(|(tool, _)| *tool == name) {
            return Err(McpError::invalid_params(
                format!("unknown tool `{name}`"),
                None,
            ));
        }
        let argument = |key: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|args| args.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let message = argument("message");
        let greet_name = argument("name");
        call_tool(&self.elicit, request, context, None, async |cx| {
            let text = match name.as_str() {
                "test_elicitation" => user_info(cx, message).await?,
                "test_elicitation_sep1034_defaults" => defaults(cx).await?,
                "test_elicitation_sep1330_enums" => enums(cx).await?,
                "test_input_required_result_elicitation" => greet(cx).await?,
                "test_input_required_result_request_state"
                | "test_input_required_result_tampered_state" => confirm(cx).await?,
                "test_input_required_result_multi_round" => multi_round(cx).await?,
                "test_input_required_result_multiple_inputs" => multiple_inputs(cx).await?,
                "test_input_required_result_sampling" => capital(cx).await?,
                "test_input_required_result_list_roots" => roots(cx).await?,
                "greet" => greeting(greet_name),
                _ => capabilities(cx).await?,
            };
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        })
        .await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.tasks.get(&request.task_id)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks.update(request)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks.cancel(&request.task_id)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let prompt = Prompt::new(
            PROMPT,
            Some("A prompt that first asks which context to use"),
            None,
        );
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != PROMPT {
            return Err(McpError::invalid_params(
                format!("unknown prompt `{}`", request.name),
                None,
            ));
        }
        get_prompt(&self.elicit, request, context, None, async |cx| {
            let text = match PromptContext::ask(cx).await? {
                Answer::Accepted(form) => {
                    format!(
                        "Answer the next question using this context: {}",
                        form.context
                    )
                }
                Answer::Declined | Answer::Cancelled => {
                    "Answer the next question without any particular context.".to_owned()
                }
            };
            Ok(
                GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                    .with_description("A prompt built from the context the user gave"),
            )
        })
        .await
    }
}

/// The input schema of each tool.
fn input_schema(tool: &str) -> Map<String, Value> {
    let schema = match tool {
        "test_elicitation" => json!({
            "type": "object",
            "properties": {"message": {"type": "string", "description": "The message to show the user"}},
            "required": ["message"]
        }),
        "greet" => json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "Whom to greet"}},
            "required": ["name"]
        }),
        "slow_compute" => json!({
            "type": "object",
            "properties": {
                "seconds": {"type": "number", "description": "How long to work (default 1)"},
                "label": {"type": "string", "description": "A name for the run"}
            }
        }),
        "confirm_delete" => json!({
            "type": "object",
            "properties": {"filename": {"type": "string", "description": "The file to delete"}},
            "required": ["filename"]
        }),
        _ => json!({"type": "object", "properties": {}}),
    };
    match schema {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `<action: accept, content: {...}>`, or just the action for a decline or cancel.
fn describe<T: ElicitForm>(answer: &Answer<T>) -> String {
    let action = serde_json::to_value(answer.action()).unwrap_or(Value::Null);
    let action = action.as_str().unwrap_or("?");
    match answer {
        Answer::Accepted(form) => {
            format!(
                "action: {action}, content: {}",
                Value::Object(form.to_content())
            )
        }
        Answer::Declined | Answer::Cancelled => format!("action: {action}"),
    }
}

/// `test_elicitation`: the form from the suite's description, under the caller's message.
async fn user_info(cx: &mut ElicitContext, message: Option<String>) -> Result<String, Interrupt> {
    let message = message.ok_or_else(|| {
        JsonRpcError::invalid_params("the argument `message` (a string) is required", None)
    })?;
    let answer = UserInfo::question().message(message).ask(cx).await?;
    Ok(format!("User response: <{}>", describe(&answer)))
}

/// `test_elicitation_sep1034_defaults`: every primitive type with a default.
async fn defaults(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let answer = Profile::ask(cx).await?;
    Ok(format!("ElicitServer completed: {}", describe(&answer)))
}

/// `test_elicitation_sep1330_enums`: the five enum shapes.
async fn enums(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let answer = Choices::ask(cx).await?;
    Ok(format!("ElicitServer completed: {}", describe(&answer)))
}

/// `test_input_required_result_elicitation`: one question, then a greeting.
async fn greet(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    Ok(match Name::ask(cx).await? {
        Answer::Accepted(form) => format!("Hello, {}!", form.name),
        Answer::Declined | Answer::Cancelled => "Hello, stranger!".to_owned(),
    })
}

/// `test_input_required_result_request_state` and `…_tampered_state`: the answer is only
/// taken together with the sealed `requestState` of the round that asked.
async fn confirm(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    Ok(match Confirm::ask(cx).await? {
        Answer::Accepted(form) => format!("state-ok: confirmed={}", form.ok),
        Answer::Declined | Answer::Cancelled => "state-ok: not confirmed".to_owned(),
    })
}

/// `test_input_required_result_multi_round`: the second question is asked only once the
/// first is answered; the first answer travels in `requestState`.
async fn multi_round(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let step1 = Name::question()
        .key("step1")
        .message("Step 1: What is your name?")
        .ask(cx)
        .await?;
    let Answer::Accepted(name) = step1 else {
        return Ok("No name given, so no second question.".to_owned());
    };
    Ok(match FavoriteColor::ask(cx).await? {
        Answer::Accepted(color) => {
            format!(
                "Hello, {}! Your favorite color is {}.",
                name.name, color.color
            )
        }
        Answer::Declined | Answer::Cancelled => format!("Hello, {}!", name.name),
    })
}

/// A `sampling/createMessage` request for one user message.
fn sampling_params(text: &str, max_tokens: u32) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        "maxTokens": max_tokens
    })
}

/// The text of a `CreateMessageResult` (single content block or the first of several).
fn sampled_text(result: &Value) -> Result<String, Interrupt> {
    let content = result.get("content");
    let block = match content {
        Some(Value::Array(blocks)) => blocks.first(),
        other => other,
    };
    block
        .and_then(|b| b.get("text"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            Interrupt::from(JsonRpcError::invalid_params(
                "the sampling result has no text content",
                None,
            ))
        })
}

/// The root URIs of a `ListRootsResult` (`{"roots": [{"uri", "name"?}]}`).
///
/// Read by hand: rmcp marks its roots types deprecated (SEP-2577).
fn root_uris(result: &Value) -> Result<String, Interrupt> {
    let uris = result
        .get("roots")
        .and_then(Value::as_array)
        .and_then(|roots| {
            roots
                .iter()
                .map(|root| root.get("uri").and_then(Value::as_str))
                .collect::<Option<Vec<_>>>()
        });
    uris.map(|uris| uris.join(", ")).ok_or_else(|| {
        Interrupt::from(JsonRpcError::invalid_params(
            "the roots answer is not a ListRootsResult",
            None,
        ))
    })
}

/// `test_input_required_result_multiple_inputs`: a form, a completion and the roots, asked
/// together (nothing is `?`-ed before all three are in the round).
async fn multiple_inputs(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let name = Name::ask(cx).await;
    let greeting = cx
        .sample("greeting", sampling_params("Generate a greeting", 50))
        .await;
    let roots = cx.list_roots("client_roots").await;
    let name = match name? {
        Answer::Accepted(form) => form.name,
        Answer::Declined | Answer::Cancelled => "stranger".to_owned(),
    };
    let greeting = sampled_text(&greeting?)?;
    let roots = root_uris(&roots?)?;
    Ok(format!("{greeting} {name}, your roots are: {roots}"))
}

/// `test_input_required_result_sampling`: one question to the client's model.
async fn capital(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let reply = cx
        .sample(
            "capital_question",
            sampling_params("What is the capital of France?", 100),
        )
        .await?;
    Ok(format!("The model answered: {}", sampled_text(&reply)?))
}

/// `test_input_required_result_list_roots`: the client's roots.
async fn roots(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let roots = cx.list_roots("client_roots").await?;
    Ok(format!("Client roots: {}", root_uris(&roots)?))
}

/// `test_input_required_result_capabilities`: the name is a nice-to-have, asked only if the
/// client can show forms; the completion is asked only if it can sample.
async fn capabilities(cx: &mut ElicitContext) -> Result<String, Interrupt> {
    let name = Name::ask_if_supported(cx).await;
    let greeting = if cx.capabilities().supports_sampling() {
        Some(
            cx.sample("greeting", sampling_params("Generate a greeting", 50))
                .await,
        )
    } else {
        None
    };
    let name = match name? {
        Some(Answer::Accepted(form)) => form.name,
        Some(Answer::Declined | Answer::Cancelled) | None => "stranger".to_owned(),
    };
    Ok(match greeting.transpose()? {
        Some(reply) => format!("{} {name}", sampled_text(&reply)?),
        None => format!("Hello, {name}!"),
    })
}

/// `confirm_delete`'s task: one question, then the (pretend) deletion.
async fn delete_file(mut input: TaskInput, filename: String) -> Result<CallToolResult, Interrupt> {
    let answer = ConfirmDelete::question()
        .message(format!("Delete {filename}?"))
        .ask(&mut input)
        .await?;
    let text = match answer {
        Answer::Accepted(ConfirmDelete { confirm: true }) => format!("Deleted {filename}"),
        _ => format!("Kept {filename}"),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

/// `multi_input`'s task: two questions outstanding at once (two clones of the task's input,
/// so each ask waits for its own answer), answered in any order.
async fn two_questions(input: TaskInput) -> Result<CallToolResult, Interrupt> {
    let (mut first, mut second) = (input.clone(), input);
    let (name, confirm) = tokio::join!(Name::ask(&mut first), ConfirmDelete::ask(&mut second));
    let name = match name? {
        Answer::Accepted(form) => form.name,
        Answer::Declined | Answer::Cancelled => "stranger".to_owned(),
    };
    let confirmed = matches!(confirm?, Answer::Accepted(ConfirmDelete { confirm: true }));
    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
        "name: {name}, confirmed: {confirmed}"
    ))]))
}

/// `greet`: a plain synchronous tool.
fn greeting(name: Option<String>) -> String {
    format!("Hello, {}!", name.as_deref().unwrap_or("stranger"))
}

/// `slow_compute`'s `seconds` argument (default 1, at most a minute).
fn pause(request: &CallToolRequestParams) -> Duration {
    let seconds = request
        .arguments
        .as_ref()
        .and_then(|args| args.get("seconds"))
        .and_then(Value::as_f64)
        .unwrap_or(1.0);
    Duration::from_secs_f64(seconds.clamp(0.0, 60.0))
}

/// `slow_compute`: the work, in a task or in the call.
async fn slow_compute(pause: Duration) -> CallToolResult {
    tokio::time::sleep(pause).await;
    CallToolResult::success(vec![ContentBlock::text(format!(
        "computed in {} s",
        pause.as_secs_f64()
    ))])
}
