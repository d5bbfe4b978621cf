//! One request to the landing route. First, for any method: the route's own host. `GET`: the
//! handle from the query, the browser's user, open, the confirmation page. `POST` (the page's
//! form): same origin, the form, the user, open with the token, then cancel or the
//! application's step, record, the page.

use ::axum::extract::Request;
use ::axum::response::Response;
use http::request::Parts;
use http::{HeaderValue, Method, StatusCode, header};

use super::confirm::{self, Confirmation};
use super::form::{self, Decision};
use super::hook::{ConnectHook, ConnectStep, OpenedLink, StepKind};
use super::origin;
use super::spent::Spent;
use super::texts::PageTexts;
use elicit_runtime::url::{LandingPage, OpenedHandleKey, PageError};

/// The query parameter that carries the handle (what `#[elicit_url]` appends).
pub(super) const HANDLE_PARAM: &str = "elicitation";

/// What a cancel records: the tool handler reads `UrlAnswer::Failed` with this reason.
pub(super) const CANCELLED: &str = "the user cancelled on the confirmation page";

/// What serves the route.
pub(super) struct Route<H> {
    pub(super) page: LandingPage,
    pub(super) hook: H,
    pub(super) texts: PageTexts,
    /// The route's own origins: the links' (the server's `UrlSettings::with_origin`), then those set
    /// with `with_origin`. Empty: only loopback hosts are served, and a `POST`'s `Origin` is compared
    /// with the request's `Host`.
    pub(super) origins: Vec<String>,
    /// The tokens already posted to a page that asks for secrets or asked again.
    pub(super) spent: Spent,
}

impl<H: ConnectHook> Route<H> {
    pub(super) async fn serve(&self, request: Request) -> Response {
        let (parts, body) = request.into_parts();
        // DNS rebinding: an attacker's name for our address reads the page as its own origin.
        if let Err(reason) = origin::check_host(&parts, &self.origins) {
            tracing::warn!(target: "elicit", status = 404, reason = %reason.escape_debug(), "landing page refused a request for another host");
            return self.texts.refused_page(StatusCode::NOT_FOUND);
        }
        if parts.method == Method::POST {
            self.decide(parts, body).await
        } else {
            self.ask(parts).await
        }
    }

    /// `GET`: the confirmation page. Records nothing, whoever sends it.
    async fn ask(&self, parts: Parts) -> Response {
        let handle = match handle_in(&parts) {
            Ok(handle) => handle,
            Err(reason) => return self.refuse_request(reason),
        };
        let subject = match self.hook.subject(&parts).await {
            Ok(subject) => subject,
            Err(response) => return guarded(response),
        };
        let (opened, _) = match self.page.open_raw(&handle, &subject).await {
            Ok(opened) => opened,
            Err(error) => return self.refuse(&error),
        };
        let token = match self.page.confirmation_token(&opened, &subject) {
            Ok(token) => token,
            Err(error) => return self.refuse(&error),
        };
        tracing::info!(target: "elicit", id = opened.id(), key = opened.key(), "landing page asked for confirmation");
        self.page_for(&opened, &subject, &token, None)
    }

    /// The confirmation page of `opened` for `subject`, with the form's `token`, and `notice`
    /// when the person is asked again.
    fn page_for(
        &self,
        opened: &OpenedHandleKey,
        subject: &str,
        token: &str,
        notice: Option<&str>,
    ) -> Response {
        self.texts.confirmation_page(&Confirmation {
            server: self.texts.server_name().unwrap_or(self.page.audience()),
            message: opened.message(),
            user: subject,
            shown: opened.shown(),
            token,
            secrets: self.hook.secrets(),
            notice,
        })
    }

    /// `POST`: the confirmation form. Cross-site requests are refused before anything else.
    async fn decide(&self, parts: Parts, body: ::axum::body::Body) -> Response {
        if let Err(reason) = origin::check(&parts, &self.origins) {
            tracing::warn!(target: "elicit", status = 403, reason = %reason.escape_debug(), "landing page refused a cross-site request");
            return self.texts.refused_page(StatusCode::FORBIDDEN);
        }
        let handle = match handle_in(&parts) {
            Ok(handle) => handle,
            Err(reason) => return self.refuse_request(reason),
        };
        let fields = self.hook.secrets();
        let posted = match form::read(body, fields.len()).await {
            Ok(posted) => posted,
            Err(reason) => return self.refuse_request(reason),
        };
        let subject = match self.hook.subject(&parts).await {
            Ok(subject) => subject,
            Err(response) => return guarded(response),
        };
        let (opened, state) = match self
            .page
            .open_confirmed(&handle, &subject, &posted.token)
            .await
        {
            Ok(opened) => opened,
            Err(error) => return self.refuse(&error),
        };
        // A page with secrets, or one asked again: its token is good for one post, so a
        // replay reaches no hook.
        let replayed = if fields.is_empty() {
            self.spent.contains(&posted.token)
        } else {
            !self.spent.spend(&posted.token, opened.expires_at())
        };
        if replayed {
            return self.refuse(&PageError::Unconfirmed);
        }
        let secrets = fields
            .iter()
            .map(|f| f.name().to_owned())
            .zip(posted.secrets)
            .collect();
        let link = OpenedLink {
            handle,
            opened,
            state,
            secrets,
        };
        if posted.decision == Decision::Cancel {
            return match self.page.fail_raw(&link.opened, CANCELLED).await {
                Ok(()) => {
                    tracing::info!(target: "elicit", id = link.id(), key = link.key(), "landing page cancelled a flow");
                    self.texts.cancelled_page()
                }
                Err(error) => self.refuse(&error),
            };
        }
        if !confirm::shows_all(link.opened.shown()) {
            // Its page offered no Confirm: a value was not shown whole. The hook never sees it.
            return match self.page.fail_raw(&link.opened, confirm::NOT_SHOWN).await {
                Ok(()) => {
                    tracing::warn!(target: "elicit", id = link.id(), key = link.key(), "landing page failed a flow whose page could not show all it acts on");
                    self.texts.failed_page(None, None)
                }
                Err(error) => self.refuse(&error),
            };
        }
        let ConnectStep {
            kind,
            heading,
            message,
        } = match fields
            .iter()
            .zip(&link.secrets)
            .find(|(_, (_, s))| s.is_empty())
        {
            // A browser checks `required`; a post without it is asked again, the hook not run.
            Some((field, _)) => ConnectStep::retry(format!("Enter your {}.", field.label())),
            None => self.hook.connect(&link, &parts).await,
        };
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
            StepKind::Retry(notice) => {
                self.spent.spend(&posted.token, link.opened.expires_at());
                match self.page.confirmation_token(&link.opened, &subject) {
                    Ok(token) => {
                        tracing::info!(target: "elicit", id = link.id(), key = link.key(), "landing page asked again");
                        self.page_for(&link.opened, &subject, &token, Some(&notice))
                    }
                    Err(error) => self.refuse(&error),
                }
            }
        }
    }

    /// A request refused before any handle was opened (no handle, a bad form): the uniform
    /// page; why, to the log only.
    fn refuse_request(&self, reason: &str) -> Response {
        tracing::info!(target: "elicit", status = 404, reason = %reason.escape_debug(), "landing page refused a request");
        self.texts.refused_page(StatusCode::NOT_FOUND)
    }

    /// The page for `error` (uniform unless the server itself failed); its precise reason
    /// goes to the log only, escaped.
    fn refuse(&self, error: &PageError) -> Response {
        let response = self.texts.error_page(error);
        let status = response.status().as_u16();
        let reason = error.reason();
        let reason = reason.escape_debug();
        match error {
            PageError::NoStore | PageError::Store(_) => {
                tracing::error!(target: "elicit", status, reason = %reason, "landing page refused a handle");
            }
            PageError::Invalid(_) | PageError::WrongSubject | PageError::Unconfirmed => {
                tracing::warn!(target: "elicit", status, reason = %reason, "landing page refused a handle");
            }
            _ => {
                tracing::info!(target: "elicit", status, reason = %reason, "landing page refused a handle")
            }
        }
        response
    }
}

/// The one non-empty `elicitation` value of the query, percent-decoded; else why not.
pub(super) fn handle_in(parts: &Parts) -> Result<String, &'static str> {
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
