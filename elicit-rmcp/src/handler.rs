//! The wiring of a router-based rmcp server: [`ElicitHandler`] runs rmcp's tool and prompt
//! routers so that methods taking [`Elicit`](super::Elicit) can ask, and [`Principal`] says
//! who is asking.

use std::fmt;
use std::sync::Arc;

use rmcp::handler::server::prompt::PromptContext;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, ListPromptsResult, ProtocolVersion,
    ResultType, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};

use super::channel::is_input_required;
use super::convert::from_mcp_error;
use super::extract::{Params, Pending, Reclaimed, Slot, SlotHandle};
use super::service::is_bridged;
use super::task_store::{TaskSettings, TaskStore};
use crate::ElicitServer;
use crate::Interrupt;

/// Who is asking: the principal that sealed state and URL handles are bound to, read from
/// each request.
///
/// There is no default: choose [`Principal::local`] for a local stdio server with one user
/// (what [`ElicitHandler::local`] uses), [`Principal::fixed`] for a single known user,
/// `Principal::from_http_extension`
/// (feature `http`) for the user an HTTP authentication layer left in the HTTP request, or
/// [`Principal::from_request`] to read it from the request yourself. URL mode and
/// single-use completions refuse to run for a request without a principal; with
/// [`ElicitServer::with_required_principal`](crate::ElicitServer::with_required_principal)
/// every request without one is refused.
///
/// Over streamable HTTP, rmcp puts the HTTP request's
/// [`Parts`](https://docs.rs/http/latest/http/request/struct.Parts.html) into the request
/// context's extensions: what an authentication middleware inserted into the HTTP request is
/// **one level down**, in `Parts::extensions`. Reading
/// `request.extensions.get::<User>()` directly finds nothing over HTTP, and every request
/// would silently have no principal.
///
/// ```
/// use elicit_rmcp::Principal;
///
/// /// What the authentication middleware inserts into the HTTP request's extensions.
/// #[derive(Clone)]
/// struct User(String);
///
/// // What `Principal::from_http_extension(|user: &User| Some(user.0.clone()))` does.
/// let principal = Principal::from_request(|request| {
///     let http = request.extensions.get::<http::request::Parts>()?;
///     http.extensions.get::<User>().map(|user| user.0.clone())
/// });
/// # let _ = principal;
/// ```
#[derive(Clone)]
pub struct Principal(Source);

#[derive(Clone)]
enum Source {
    Anonymous,
    Local,
    Fixed(Arc<str>),
    FromRequest(Arc<PrincipalFn>),
}

type PrincipalFn = dyn Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync;

impl Principal {
    /// No principal: state is sealed unbound to any user, URL mode refuses to run, and a
    /// resolver's [`remember`](crate::form::Resolve::remember) keyed on the principal keeps
    /// nothing (the user is asked on every call). A local stdio server wants
    /// [`Principal::local`] instead.
    pub fn anonymous() -> Self {
        Principal(Source::Anonymous)
    }

    /// The one user of a local transport (a stdio server on the person's own machine):
    /// every request is [`LOCAL_PRINCIPAL`](crate::LOCAL_PRINCIPAL)'s, the user
    /// `elicit_axum::LocalBrowser` finishes links for, so URL mode and resolvers that
    /// remember work, and the page and the tools cannot name the user differently.
    /// [`ElicitHandler::local`] uses it.
    ///
    /// ```
    /// let principal = elicit_rmcp::Principal::local();
    /// assert_eq!(format!("{principal:?}"), "Principal::local()");
    /// ```
    pub fn local() -> Self {
        Principal(Source::Local)
    }

    /// Every request is this user's (a single-user server over HTTP, a test). On stdio, use
    /// [`Principal::local`]: `elicit_axum::LocalBrowser` finishes links for that user only.
    pub fn fixed(principal: impl Into<String>) -> Self {
        Principal(Source::Fixed(principal.into().into()))
    }

    /// Reads the principal from each request (e.g. from an authentication extension); `None`
    /// means the request is unauthenticated. It is read once per call, before rmcp's
    /// extractors run, so it sees the request context as it came in whatever order a
    /// method's parameters stand.
    pub fn from_request(
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        Principal(Source::FromRequest(Arc::new(principal)))
    }

    fn of(&self, request: &RequestContext<RoleServer>) -> Option<String> {
        match &self.0 {
            Source::Anonymous => None,
            Source::Local => Some(crate::LOCAL_PRINCIPAL.to_owned()),
            Source::Fixed(principal) => Some(principal.to_string()),
            Source::FromRequest(read) => read(request),
        }
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The principal's value is never printed.
        f.write_str(match self.0 {
            Source::Anonymous => "Principal::anonymous()",
            Source::Local => "Principal::local()",
            Source::Fixed(_) => "Principal::fixed(..)",
            Source::FromRequest(_) => "Principal::from_request(..)",
        })
    }
}

/// Runs an rmcp server's tool and prompt routers so that methods taking
/// [`Elicit`](super::Elicit) can ask: keep it in the server and wire it once per handler
/// method (or let `#[elicit_rmcp::handler]` do it).
///
/// ```no_run
/// use elicit_rmcp::{Elicit, ElicitHandler, Principal};
/// use elicit_rmcp::state::{KeyRing, StateSealer};
/// use elicit_rmcp::{Answer, ElicitForm, ElicitServer};
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::*;
/// use rmcp::service::RequestContext;
/// use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, schemars};
/// use rmcp::{prompt, prompt_router, tool, tool_router};
///
/// /// Which tone?
/// #[derive(ElicitForm)]
/// struct Tone {
///     #[elicit(title = "Formal")]
///     formal: bool,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Topic {
///     topic: String,
/// }
///
/// #[derive(Clone)]
/// struct Server {
///     elicit: ElicitHandler,
/// }
///
/// #[tool_router]
/// impl Server {
///     #[tool(description = "Write a note")]
///     async fn note(&self, Parameters(t): Parameters<Topic>, mut cx: Elicit) -> Result<String, McpError> {
///         let formal = matches!(Tone::ask(&mut cx).await?, Answer::Accepted(Tone { formal: true }));
///         Ok(format!("a {} note on {}", if formal { "formal" } else { "casual" }, t.topic))
///     }
/// }
///
/// #[prompt_router]
/// impl Server {
///     #[prompt(description = "Draft an email")]
///     async fn email(&self, Parameters(t): Parameters<Topic>, mut cx: Elicit) -> Result<Vec<PromptMessage>, McpError> {
///         let formal = matches!(Tone::ask(&mut cx).await?, Answer::Accepted(Tone { formal: true }));
///         let text = format!("Draft a {} email about {}", if formal { "formal" } else { "casual" }, t.topic);
///         Ok(vec![PromptMessage::new_text(Role::User, text)])
///     }
/// }
///
/// // Tools and prompts through elicit (and a `get_info` announcing both).
/// #[elicit_rmcp::handler(prompts)]
/// impl ServerHandler for Server {}
///
/// let sealer = StateSealer::new(KeyRing::generate(), "notes");
/// let server = Server {
///     elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
/// };
/// ```
///
/// A tool that takes no [`Elicit`](super::Elicit) behaves exactly as with rmcp alone; its
/// only cost is one copy of the call's arguments and one read of the [`Principal`]. See [`Elicit`](super::Elicit) for a
/// complete server.
#[derive(Clone)]
pub struct ElicitHandler {
    server: ElicitServer,
    principal: Principal,
    /// The tasks its tools started ([`Elicit::task`](super::Elicit::task)).
    tasks: Arc<TaskStore>,
}

impl fmt::Debug for ElicitHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitHandler")
            .field("principal", &self.principal)
            .finish_non_exhaustive()
    }
}

/// A tool router seen through an [`ElicitHandler`]: what
/// [`#[elicit_rmcp::handler]`](crate::handler) hands rmcp's `#[tool_handler]`.
pub struct Tools<'a, S> {
    handler: &'a ElicitHandler,
    router: &'a ToolRouter<S>,
    /// Whether this server serves `tasks/*`, so its tools may answer with a task.
    serves_tasks: bool,
}

impl<S> fmt::Debug for Tools<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tools")
            .field("handler", self.handler)
            .field("serves_tasks", &self.serves_tasks)
            .finish_non_exhaustive()
    }
}

impl ElicitHandler {
    /// Asks with `server`'s settings, on behalf of `principal`.
    pub fn new(server: ElicitServer, principal: Principal) -> Self {
        ElicitHandler {
            server,
            principal,
            tasks: Arc::new(TaskStore::new(TaskSettings::default())),
        }
    }

    /// Runs the tasks of its tools ([`Elicit::task`](super::Elicit::task)) with `settings`
    /// instead of [`TaskSettings::default`]. Tasks started before are forgotten.
    pub fn with_tasks(mut self, settings: TaskSettings) -> Self {
        self.tasks = Arc::new(TaskStore::new(settings));
        self
    }

    /// `tasks/get`: the task with its status (its outstanding questions while it waits for
    /// input, its result or error once over), if the requester's principal is the one whose
    /// call created it; anyone else, and an unknown or forgotten id, gets `-32602`
    /// "no such task". What [`#[elicit_rmcp::handler(tasks)]`](crate::handler) writes.
    pub async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.tasks
            .get(&request.task_id, self.principal_of(&context).as_deref())
    }

    /// `tasks/update`: delivers the answers to the task's outstanding questions (other keys
    /// are ignored, a partial set leaves the rest outstanding), for the task's own principal
    /// alone, as [`ElicitHandler::get_task`].
    pub async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let principal = self.principal_of(&context);
        self.tasks.update(request, principal.as_deref())
    }

    /// `tasks/cancel`: stops the task's work (its questions leave `tasks/get`) and marks it
    /// `cancelled`; a task already over keeps its outcome. For the task's own principal
    /// alone, as [`ElicitHandler::get_task`].
    pub async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let principal = self.principal_of(&context);
        self.tasks.cancel(&request.task_id, principal.as_deref())
    }

    /// For a server with one user on a local transport (stdio): a fresh in-memory key ring
    /// (states do not outlive the process), the audience `server_name`, and
    /// [`Principal::local`], so a resolver remembers that user's answers. Add
    /// [`with_url`](Self::with_url) for URL mode, and build its page from
    /// [`server`](Self::server) with `elicit_axum::LocalBrowser`, whose user is the same.
    /// Over HTTP, or with several replicas, build an [`ElicitServer`] from configured keys and
    /// say who is asking with [`ElicitHandler::new`].
    ///
    /// ```
    /// let handler = elicit_rmcp::ElicitHandler::local("my-server");
    /// assert_eq!(handler.server().sealer().audience(), "my-server");
    /// ```
    pub fn local(server_name: &str) -> Self {
        let sealer = crate::state::StateSealer::new(crate::state::KeyRing::generate(), server_name);
        Self::new(ElicitServer::new(sealer), Principal::local())
    }

    /// Asks URL-mode questions with `settings` (what
    /// [`ElicitServer::with_url`](crate::ElicitServer::with_url) gives the handler's server):
    /// `ElicitHandler::local(…).with_url(…)` is a stdio server with a page, whose
    /// [`server`](Self::server) the page is built from.
    ///
    /// ```
    /// use elicit_rmcp::ElicitHandler;
    /// use elicit_rmcp::url::UrlSettings;
    ///
    /// let url = UrlSettings::in_memory().with_origin("http://127.0.0.1:8765")?;
    /// let handler = ElicitHandler::local("console").with_url(url);
    /// assert_eq!(handler.server().url_settings().origin(), Some("http://127.0.0.1:8765"));
    /// # Ok::<(), elicit_rmcp::url::OriginError>(())
    /// ```
    pub fn with_url(mut self, settings: crate::url::UrlSettings) -> Self {
        self.server = self.server.with_url(settings);
        self
    }

    /// The settings questions are asked with (the landing page of URL mode shares them).
    pub fn server(&self) -> &ElicitServer {
        &self.server
    }

    fn principal_of(&self, request: &RequestContext<RoleServer>) -> Option<String> {
        self.principal.of(request)
    }

    /// `router` as rmcp's `#[tool_handler(router = …)]` uses it (what
    /// [`#[elicit_rmcp::handler]`](crate::handler) writes): calls run through elicit, the tool
    /// list is the router's own.
    pub fn tools<'a, S>(&'a self, router: &'a ToolRouter<S>) -> Tools<'a, S> {
        Tools {
            handler: self,
            router,
            serves_tasks: false,
        }
    }

    /// Runs one `tools/call` through `router` (for a hand-written `call_tool`).
    pub async fn call_tool<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        service: &S,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        self.tools(router)
            .call(ToolCallContext::new(service, request, context))
            .await
    }

    /// Runs one `prompts/get` through `router`.
    pub async fn get_prompt<S: Send + Sync + 'static>(
        &self,
        router: &PromptRouter<S>,
        service: &S,
        request: GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let params = Params {
            name: request.name.clone(),
            arguments: request.arguments.clone(),
            meta: context.meta.clone(),
            input_responses: request.input_responses,
            request_state: request.request_state,
        };
        let slot = self.slot("prompts/get", params, &mut context, false);
        let bridged = is_bridged(&context);
        let result = router
            .get_prompt(PromptContext::new(
                service,
                request.name,
                request.arguments,
                context,
            ))
            .await;
        finish(
            &slot,
            result,
            GetPromptResponse::InputRequired,
            |_| None,
            bridged,
        )
        .await
    }

    fn slot(
        &self,
        method: &'static str,
        params: Params,
        context: &mut RequestContext<RoleServer>,
        serves_tasks: bool,
    ) -> Arc<Slot> {
        let slot = Slot::new(Pending {
            server: self.server.clone(),
            method,
            params,
            principal: self.principal_of(context),
            tasks: serves_tasks.then(|| self.tasks.clone()),
        });
        context.extensions.insert(SlotHandle(slot.clone()));
        slot
    }
}

impl<S: Send + Sync + 'static> Tools<'_, S> {
    /// The server serves `tasks/get`, `tasks/update` and `tasks/cancel` (through
    /// [`ElicitHandler::get_task`] and the others) and announces the tasks extension, so its
    /// tools may answer with a task ([`Elicit::task`](super::Elicit::task)). What
    /// [`#[elicit_rmcp::handler(tasks)]`](crate::handler) writes.
    pub fn with_tasks(mut self) -> Self {
        self.serves_tasks = true;
        self
    }

    /// Runs one tool call.
    pub async fn call(
        &self,
        mut call: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, McpError> {
        let params = Params {
            name: call.name.to_string(),
            arguments: call.arguments.clone(),
            meta: call.request_context.meta.clone(),
            input_responses: call.input_responses.clone(),
            request_state: call.request_state.clone(),
        };
        let slot = self.handler.slot(
            "tools/call",
            params,
            &mut call.request_context,
            self.serves_tasks,
        );
        let bridged = is_bridged(&call.request_context);
        let result = self.router.call(call).await;
        finish(
            &slot,
            result,
            CallToolResponse::InputRequired,
            super::round::link_result,
            bridged,
        )
        .await
    }

    /// The router's tools.
    pub fn list_all(&self) -> Vec<Tool> {
        self.router.list_all()
    }

    /// One of the router's tools.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.router.get(name)
    }
}

/// The prompts of `router` as `prompts/list` answers them: what rmcp's `#[prompt_handler]`
/// answers (cache hints on 2026-07-28), for the `list_prompts` that
/// [`#[elicit_rmcp::handler(prompts)]`](crate::handler) writes.
pub fn list_prompts<S: Send + Sync + 'static>(
    router: &PromptRouter<S>,
    context: &RequestContext<RoleServer>,
) -> ListPromptsResult {
    let cache_hints = context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
    ListPromptsResult {
        result_type: Some(ResultType::COMPLETE),
        prompts: router.list_all(),
        meta: None,
        next_cursor: None,
        ttl_ms: cache_hints.then_some(0),
        cache_scope: cache_hints.then_some(CacheScope::Public),
    }
}

/// Turns what the router returned into the response: untouched when the method did not ask;
/// otherwise the result, the round's `InputRequiredResult`, or the error.
async fn finish<R>(
    slot: &Slot,
    result: Result<R, McpError>,
    input: fn(rmcp::model::InputRequiredResult) -> R,
    link: fn(crate::url::UrlLink) -> Option<R>,
    bridged: bool,
) -> Result<R, McpError> {
    let cx = match slot.reclaim() {
        Reclaimed::Unused => return result,
        Reclaimed::StillLent => {
            return match result {
                Err(e) if is_input_required(&e) => Err(McpError::internal_error(
                    "input required, but the method's `Elicit` outlived the call (was it moved into a task?)",
                    None,
                )),
                other => other,
            };
        }
        Reclaimed::Back(cx) => cx,
    };
    let result = result.map_err(|e| {
        if is_input_required(&e) {
            Interrupt::input_required()
        } else {
            Interrupt::error(from_mcp_error(e))
        }
    });
    super::round::respond(*cx, result, bridged, |value| value, input, link).await
}
