//! The [`Elicit`] extractor of rmcp tool and prompt methods, and the slot that carries the
//! request's context from the wiring ([`ElicitHandler`](super::ElicitHandler)) to the method
//! and back.
//!
//! The wiring copies the request's parts (name, arguments, `_meta`, `inputResponses`,
//! `requestState`) and reads the principal before rmcp's router runs, because rmcp's own
//! extractors take parts out of the call (`Parameters<T>` takes the arguments,
//! `RequestMetaObject` the `_meta`). The context is built only when a method takes an
//! [`Elicit`]: a tool that never asks costs one copy of its arguments, one read of the
//! principal, and nothing else. When the method returns, the extractor is dropped and hands
//! the context back, and the wiring turns the method's result (or the input-required stop)
//! into rmcp's response.

use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::handler::server::common::{AsRequestContext, FromContextPart};
use rmcp::model::{InputResponses, JsonObject, RequestMetaObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};

use super::task_store::TaskStore;
use crate::ElicitServer;
use crate::request::{ElicitContext, RequestParts};

/// What a call fails with when a method takes [`Elicit`] but the call did not come through
/// [`ElicitHandler`](super::ElicitHandler).
pub(super) const MISSING_WIRING: &str = "this tool or prompt takes `elicit_rmcp::Elicit`, but \
     the call did not run through elicit: annotate the `ServerHandler` impl with \
     `#[elicit_rmcp::handler]` (`#[elicit_rmcp::handler(prompts)]` with prompts), or have \
     `call_tool` return `self.elicit.call_tool(&Self::tool_router(), self, request, context).await` \
     (for prompts, `get_prompt` returns `self.elicit.get_prompt(&Self::prompt_router(), self, \
     request, context).await`)";

/// The elicitation context of one rmcp tool or prompt call, taken as a method parameter.
///
/// It is an [`InputChannel`](crate::InputChannel): forms with `Form::ask(&mut cx)` or
/// `Form::question()…ask(&mut cx)`, URL mode with `state.ask(&mut cx)`. It reads the call
/// ([`era`](Elicit::era), [`capabilities`](Elicit::capabilities),
/// [`principal`](Elicit::principal), …); its [`ElicitContext`] is `cx.as_ref()`.
/// The `?` after an ask ends the method: on 2026-07-28 the call answers with an
/// `InputRequiredResult`; on 2025-11-25 the question went to the client through rmcp's peer
/// and the answer is already there. The method returns `Result<_, rmcp::ErrorData>`: the
/// asks on an `Elicit` fail with that type (its [`InputChannel::Error`](crate::InputChannel::Error)),
/// and so do its [`sample`](Elicit::sample), [`list_roots`](Elicit::list_roots) and
/// [`retry_later`](Elicit::retry_later). Other errors are yours to return as usual.
///
/// It may stand anywhere among the method's parameters, before or after `Parameters<T>`: the
/// sealed state always binds the tool name, the full arguments (not just what `Parameters<T>`
/// reads of them), the principal and the server's audience. It does **not** bind `_meta`:
/// that carries what is new in every request (a progress token, trace context) and what the
/// client declares afresh each round (protocol version, capabilities), so a retry's `_meta`
/// legitimately differs from the first call's. The context reads it from each request and
/// never from the sealed state; do not make security decisions on `_meta` you read yourself.
/// It needs the call to run through [`ElicitHandler`](super::ElicitHandler); without that
/// wiring, the call fails with an error that names what to add.
///
/// ```no_run
/// use elicit_rmcp::{Elicit, ElicitHandler, Principal};
/// use elicit_rmcp::{Answer, ElicitForm, ElicitServer};
/// use elicit_rmcp::state::{KeyRing, StateSealer};
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};
///
/// /// How many guests?
/// #[derive(ElicitForm)]
/// struct Guests {
///     #[elicit(minimum = 1, maximum = 12)]
///     count: u8,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct BookArgs {
///     restaurant: String,
/// }
///
/// #[derive(Clone)]
/// struct Server {
///     elicit: ElicitHandler,
/// }
///
/// #[tool_router]
/// impl Server {
///     #[tool(description = "Book a table")]
///     async fn book_table(
///         &self,
///         Parameters(args): Parameters<BookArgs>,
///         mut cx: Elicit,
///     ) -> Result<String, McpError> {
///         Ok(match Guests::ask(&mut cx).await? {
///             Answer::Accepted(g) => format!("booked {} at {}", g.count, args.restaurant),
///             Answer::Declined | Answer::Cancelled => "not booked".to_owned(),
///         })
///     }
/// }
///
/// #[elicit_rmcp::handler]
/// impl ServerHandler for Server {}
///
/// let sealer = StateSealer::new(KeyRing::generate(), "my-server");
/// let server = Server {
///     elicit: ElicitHandler::new(ElicitServer::new(sealer), Principal::anonymous()),
/// };
/// ```
pub struct Elicit {
    cx: Option<ElicitContext>,
    slot: Arc<Slot>,
    /// The handler's tasks, when the wiring serves `tasks/*` ([`Elicit::task`]).
    tasks: Option<Arc<TaskStore>>,
}

/// What the wiring stores in the call's extensions.
#[derive(Clone)]
pub(super) struct SlotHandle(pub(super) Arc<Slot>);

/// The context of one call: waiting to be built, lent to the method, or handed back.
pub(super) struct Slot(Mutex<SlotState>);

enum SlotState {
    Waiting(Box<Pending>),
    Lent,
    Back(Box<ElicitContext>),
    Done,
}

/// What a call becomes once it is over.
pub(super) enum Reclaimed {
    /// The method never took an [`Elicit`].
    Unused,
    /// The method kept its [`Elicit`] beyond its return (moved it into a task).
    StillLent,
    /// The context, to finish the round with.
    Back(Box<ElicitContext>),
}

/// The parts of a call the context is built from, copied before rmcp's router runs.
pub(super) struct Pending {
    pub(super) server: ElicitServer,
    pub(super) method: &'static str,
    pub(super) params: Params,
    /// Read from the request before the router runs: rmcp's extractors that stand before
    /// [`Elicit`] may take parts of the request context (`RequestMetaObject` takes `_meta`),
    /// and who is asking must not depend on the order of a method's parameters.
    pub(super) principal: Option<String>,
    /// The handler's tasks, when the wiring serves `tasks/*`.
    pub(super) tasks: Option<Arc<TaskStore>>,
}

/// A call's params as the client sent them (rmcp moved `_meta` into the request context).
pub(super) struct Params {
    pub(super) name: String,
    pub(super) arguments: Option<JsonObject>,
    pub(super) meta: RequestMetaObject,
    pub(super) input_responses: Option<InputResponses>,
    pub(super) request_state: Option<String>,
}

impl Params {
    /// The parts themselves (moved, not copied), as a context is built from them.
    fn into_parts(self) -> RequestParts {
        let mut parts = RequestParts::new(self.name);
        parts.arguments = self.arguments;
        // `RequestMetaObject` is a transparent wrapper of the object.
        parts.meta = Some(self.meta.0.0);
        parts.input_responses = self
            .input_responses
            .map(|responses| responses.into_iter().collect());
        parts.request_state = self.request_state;
        parts
    }
}

impl Slot {
    pub(super) fn new(pending: Pending) -> Arc<Slot> {
        Arc::new(Slot(Mutex::new(SlotState::Waiting(Box::new(pending)))))
    }

    fn state(&self) -> MutexGuard<'_, SlotState> {
        // A panic while the lock is held leaves a state that is still whole.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lend(&self) -> Result<Box<Pending>, McpError> {
        let mut state = self.state();
        match std::mem::replace(&mut *state, SlotState::Lent) {
            SlotState::Waiting(pending) => Ok(pending),
            other => {
                *state = other;
                Err(McpError::internal_error(
                    "a tool or prompt method takes at most one `Elicit` parameter",
                    None,
                ))
            }
        }
    }

    fn give_back(&self, cx: ElicitContext) {
        let mut state = self.state();
        if matches!(*state, SlotState::Lent) {
            *state = SlotState::Back(Box::new(cx));
        }
    }

    /// After the method returned: what became of the context.
    pub(super) fn reclaim(&self) -> Reclaimed {
        match std::mem::replace(&mut *self.state(), SlotState::Done) {
            SlotState::Waiting(_) | SlotState::Done => Reclaimed::Unused,
            SlotState::Lent => Reclaimed::StillLent,
            SlotState::Back(cx) => Reclaimed::Back(cx),
        }
    }
}

impl Pending {
    fn build(
        self,
        request: &RequestContext<RoleServer>,
    ) -> Result<(ElicitContext, Option<Arc<TaskStore>>), McpError> {
        let cx = super::round::build(
            self.server.context(self.method, self.params.into_parts()),
            request,
            self.principal.as_deref(),
        )?;
        Ok((cx, self.tasks))
    }
}

impl<C: AsRequestContext> FromContextPart<C> for Elicit {
    fn from_context_part(context: &mut C) -> Result<Self, McpError> {
        Elicit::from_request(context.as_request_context())
    }
}

impl Elicit {
    /// The context the wiring left in `request`, lent to the method.
    fn from_request(request: &RequestContext<RoleServer>) -> Result<Self, McpError> {
        let Some(SlotHandle(slot)) = request.extensions.get::<SlotHandle>().cloned() else {
            return Err(McpError::internal_error(MISSING_WIRING, None));
        };
        let pending = slot.lend()?;
        match pending.build(request) {
            Ok((cx, tasks)) => Ok(Elicit {
                cx: Some(cx),
                slot,
                tasks,
            }),
            Err(error) => {
                slot.reclaim();
                Err(error)
            }
        }
    }

    pub(super) fn cx(&self) -> &ElicitContext {
        self.cx.as_ref().expect("the context is only taken by drop")
    }

    pub(super) fn tasks(&self) -> Option<&Arc<TaskStore>> {
        self.tasks.as_ref()
    }

    pub(super) fn cx_mut(&mut self) -> &mut ElicitContext {
        self.cx.as_mut().expect("the context is only taken by drop")
    }
}

impl Drop for Elicit {
    fn drop(&mut self) {
        if let Some(cx) = self.cx.take() {
            self.slot.give_back(cx);
        }
    }
}

impl std::fmt::Debug for Elicit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Elicit").field(self.cx()).finish()
    }
}
