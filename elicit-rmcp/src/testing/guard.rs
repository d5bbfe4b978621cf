//! The server under test, served so that a handler that panics fails the test at once: the
//! panic is caught where rmcp would lose it (its request task ends and no response is ever
//! sent), answered with a JSON-RPC error so the client stops waiting, and recorded with its
//! message for the test's failure.

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;

use rmcp::model::{ClientNotification, ClientRequest, ProtocolVersion, ServerResult};
use rmcp::service::{NotificationContext, RequestContext, Service, ServiceRole};
use rmcp::{ErrorData, RoleServer};

/// The panics the server's handlers raised, each said as the test's failure message.
#[derive(Clone, Default)]
pub(super) struct Panics(Arc<Mutex<Vec<String>>>);

impl Panics {
    pub(super) fn first(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .first()
            .cloned()
    }

    fn push(&self, panic: String) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(panic);
    }
}

/// `S`, with every request's handler run under a panic catcher.
pub(super) struct Guarded<S> {
    pub(super) inner: S,
    pub(super) panics: Panics,
}

impl<S: Service<RoleServer>> Service<RoleServer> for Guarded<S> {
    async fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let method = request.method().to_owned();
        // Polled in this task (not spawned): rmcp's task-locals, which tie a pushed
        // `elicitation/create` to this request, stay in scope.
        let mut handler = pin!(self.inner.handle_request(request, context));
        let caught = std::future::poll_fn(|cx| {
            match std::panic::catch_unwind(AssertUnwindSafe(|| handler.as_mut().poll(cx))) {
                Ok(Poll::Pending) => Poll::Pending,
                Ok(Poll::Ready(result)) => Poll::Ready(Ok(result)),
                Err(payload) => Poll::Ready(Err(payload)),
            }
        })
        .await;
        caught.unwrap_or_else(|payload| {
            let message = panic_message(payload.as_ref());
            self.panics.push(format!(
                "the server panicked while handling `{method}`: {message}"
            ));
            Err(ErrorData::internal_error(
                format!("the handler panicked: {message}"),
                None,
            ))
        })
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.handle_notification(notification, context).await
    }

    fn get_info(&self) -> <RoleServer as ServiceRole>::Info {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
}

/// What a panic said (`panic!("…")` carries a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_owned()
    }
}
