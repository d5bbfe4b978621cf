//! The confirmation page a `GET` of the link shows: which server asks, what for (the
//! elicitation's message), for which user, what is being confirmed (the bound state's fields
//! marked `#[elicit(show)]`), and a form that posts back with the CSRF token.

use ::axum::response::Response;
use http::StatusCode;

use elicit_runtime::url::Shown;

use super::html::{Escaped, document};
use super::texts::PageTexts;

/// The form field carrying the confirmation token.
pub(super) const TOKEN_FIELD: &str = "token";
/// The form field the pressed button sets: [`CONFIRM`] or [`CANCEL`].
pub(super) const DECISION_FIELD: &str = "decision";
/// The confirm button's value.
pub(super) const CONFIRM: &str = "confirm";
/// The cancel button's value.
pub(super) const CANCEL: &str = "cancel";

/// What the confirmation page shows.
pub(super) struct Confirmation<'a> {
    /// Which server asks.
    pub(super) server: &'a str,
    /// The elicitation's message (empty: a generic text).
    pub(super) message: &'a str,
    /// The browser's user.
    pub(super) user: &'a str,
    /// The bound state's fields marked to be shown.
    pub(super) shown: &'a [Shown],
    /// The CSRF token for the form.
    pub(super) token: &'a str,
}

impl PageTexts {
    /// The page. The form has no `action`: it posts to the page's own URL, link query and all,
    /// wherever the route is mounted. Its first button (what Enter presses) is Cancel.
    pub(super) fn confirmation_page(&self, c: &Confirmation<'_>) -> Response {
        let (heading, warning) = self.confirm();
        let (confirm, cancel) = self.buttons();
        let generic;
        let message = if c.message.is_empty() {
            generic = format!("Continue a request from {}.", c.server);
            &generic
        } else {
            c.message
        };
        let shown: String = c
            .shown
            .iter()
            .map(|s| {
                let (label, value) = (Escaped(s.label()), Escaped(s.value()));
                format!("<dt>{label}</dt><dd>{value}</dd>")
            })
            .collect();
        let main = format!(
            "<p class=\"from\">Request from {server}</p>\n\
             <h1>{heading}</h1>\n\
             <p class=\"ask\">{message}</p>\n\
             <dl><dt>Server</dt><dd>{server}</dd><dt>Your account</dt><dd>{user}</dd>{shown}</dl>\n\
             <p class=\"hint\">{warning}</p>\n\
             <form method=\"post\">\
             <input type=\"hidden\" name=\"{TOKEN_FIELD}\" value=\"{token}\">\n\
             <div class=\"actions\">\
             <button type=\"submit\" name=\"{DECISION_FIELD}\" value=\"{CANCEL}\" class=\"cancel\">{cancel}</button>\
             <button type=\"submit\" name=\"{DECISION_FIELD}\" value=\"{CONFIRM}\" class=\"confirm\">{confirm}</button>\
             </div></form>\n",
            server = Escaped(c.server),
            heading = Escaped(heading),
            message = Escaped(message),
            user = Escaped(c.user),
            warning = Escaped(warning),
            token = Escaped(c.token),
            cancel = Escaped(cancel),
            confirm = Escaped(confirm),
        );
        document(StatusCode::OK, heading, &main)
    }
}
