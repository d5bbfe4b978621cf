//! One request to the landing route: the handle from the query, the browser's user, open,
//! the application's step, record, the page.

use ::axum::extract::Request;
use ::axum::response::Response;
use http::request::Parts;
use http::{HeaderValue, header};

use super::hook::{ConnectHook, ConnectStep, OpenedLink, StepKind};
use super::html::{PageTexts, status_of};
use elicit_runtime::url::{LandingPage, PageError};

/// The query parameter that carries the handle (what `#[elicit_url]` appends).
pub(super) const HANDLE_PARAM: &str = "elicitation";

/// What serves the route.
pub(super) struct Route<H> {
    pub(super) page: LandingPage,
    pub(super) hook: H,
    pub(super) texts: PageTexts,
}

impl<H: ConnectHook> Route<H> {
    pub(super) async fn serve(&self, request: Request) -> Response {
        let (parts, _body) = request.into_parts();
        let handle = match handle_in(&parts) {
            Ok(handle) => handle,
            Err(reason) => {
                tracing::info!(target: "elicit", status = 400, reason, "landing page refused a request");
                return self.texts.no_handle_page();
            }
        };
        let subject = match self.hook.subject(&parts).await {
            Ok(subject) => subject,
            Err(response) => return guarded(response),
        };
        let (opened, state) = match self.page.open_raw(&handle, &subject).await {
            Ok(opened) => opened,
            Err(error) => return self.refuse(&error),
        };
        let link = OpenedLink {
            handle,
            opened,
            state,
        };
        let ConnectStep {
            kind,
            heading,
            message,
        } = self.hook.connect(&link, &parts).await;
        let (heading, message) = (heading.as_deref(), message.as_deref());
        match kind {
            StepKind::Complete(result) => {
                match self.page.complete_raw(&link.opened, result).await {
                    Ok(()) => {
                        tracing::info!(target: "elicit", id = link.id(), key = link.key(), "landing page completed a flow");
                        self.texts.completed_page(heading, message)
                    }
                    Err(error) => self.refuse(&error),
                }
            }
            StepKind::Fail(reason) => match self.page.fail_raw(&link.opened, reason).await {
                Ok(()) => {
                    tracing::info!(target: "elicit", id = link.id(), key = link.key(), "landing page failed a flow");
                    self.texts.failed_page(heading, message)
                }
                Err(error) => self.refuse(&error),
            },
            StepKind::Refuse(error) => self.refuse(&error),
            StepKind::Respond(response) => guarded(response),
        }
    }

    /// The uniform page for `error`; its precise reason goes to the log only.
    fn refuse(&self, error: &PageError) -> Response {
        let status = status_of(error).as_u16();
        let reason = error.reason();
        match error {
            PageError::NoStore | PageError::Store(_) => {
                tracing::error!(target: "elicit", status, reason, "landing page refused a handle");
            }
            PageError::Invalid(_) | PageError::WrongSubject => {
                tracing::warn!(target: "elicit", status, reason, "landing page refused a handle");
            }
            _ => tracing::info!(target: "elicit", status, reason, "landing page refused a handle"),
        }
        self.texts.refused_page(error)
    }
}

/// The one non-empty `elicitation` value of the query, percent-decoded; else why not.
fn handle_in(parts: &Parts) -> Result<String, &'static str> {
    let query = parts.uri.query().unwrap_or_default();
    let mut found = None;
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name == HANDLE_PARAM {
            if found.is_some() {
                return Err("more than one `elicitation` parameter in the query");
            }
            found = Some(value.into_owned());
        }
    }
    match found {
        Some(handle) if !handle.is_empty() => Ok(handle),
        Some(_) => Err("empty `elicitation` parameter in the query"),
        None => Err("no `elicitation` parameter in the query"),
    }
}

/// The application's own response, with `no-store` and `no-referrer` unless it set them: the
/// URL it answers carries the handle.
fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("no-referrer"));
    response
}
