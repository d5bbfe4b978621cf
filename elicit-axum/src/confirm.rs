//! The confirmation page a `GET` of the link shows: which server asks, what for (the
//! elicitation's message), for which user, what is being confirmed (the bound state's fields
//! marked `#[elicit(show)]`, each whole, its whitespace kept and its invisible characters
//! marked), and a form that posts back with the CSRF token. A value too long to seal whole
//! says how much of it is not shown, and the page then offers only Cancel: nobody confirms
//! what they were not shown.
//!
//! A page that asks for secrets ([`SecretField`]) shows one masked input per secret (no
//! autocomplete, at most [`MAX_SECRET`] characters) inside the same form, its Confirm first so
//! that Enter in an input submits them; a step that asks again shows its notice above them.

use ::axum::response::Response;
use http::StatusCode;

use elicit_runtime::url::Shown;

use super::html::{Escaped, document};
use super::secret::{SecretField, form_name};
use super::texts::PageTexts;
use super::visible::Visible;

/// The form field carrying the confirmation token.
pub(super) const TOKEN_FIELD: &str = "token";
/// The form field the pressed button sets: [`CONFIRM`] or [`CANCEL`].
pub(super) const DECISION_FIELD: &str = "decision";
/// The confirm button's value.
pub(super) const CONFIRM: &str = "confirm";
/// The cancel button's value.
pub(super) const CANCEL: &str = "cancel";
/// What the page says instead of its warning when a value is not shown whole.
const TOO_LONG: &str = "Part of this request is too long to show here, so it cannot be confirmed. \
     Cancel, and ask your assistant for a shorter request.";
/// What a confirm of such a page records (the page offered none).
pub(super) const NOT_SHOWN: &str =
    "the confirmation page could not show everything this request acts on";

/// The longest secret an input takes (an API key, a token; the form body is bounded too).
pub(super) const MAX_SECRET: usize = 4096;

/// Whether every shown value is whole (none has characters left out).
pub(super) fn shows_all(shown: &[Shown]) -> bool {
    shown.iter().all(|s| s.hidden() == 0)
}

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
    /// The secrets the form asks for (none: a Confirm/Cancel page).
    pub(super) secrets: &'a [SecretField],
    /// Why the person is asked again (a step refused what they typed).
    pub(super) notice: Option<&'a str>,
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
                let (label, value) = (Visible(s.label()), Visible(s.value()));
                let cut = match s.hidden() {
                    0 => String::new(),
                    1 => "<span class=\"cut\">1 more character not shown</span>".to_owned(),
                    n => format!("<span class=\"cut\">{n} more characters not shown</span>"),
                };
                format!("<dt>{label}</dt><dd>{value}{cut}</dd>")
            })
            .collect();
        // Nothing left out, or no Confirm.
        let (warning, confirm) = if shows_all(c.shown) {
            let button = format!(
                "<button type=\"submit\" name=\"{DECISION_FIELD}\" value=\"{CONFIRM}\" \
                 class=\"confirm\">{}</button>",
                Escaped(confirm)
            );
            (warning, button)
        } else {
            (TOO_LONG, String::new())
        };
        let inputs: String = c
            .secrets
            .iter()
            .enumerate()
            .map(|(i, field)| {
                format!(
                    "<p><label for=\"{name}\">{label}</label>\
                     <input type=\"password\" id=\"{name}\" name=\"{name}\" \
                     autocomplete=\"off\" spellcheck=\"false\" required maxlength=\"{MAX_SECRET}\"></p>\n",
                    name = form_name(i),
                    label = Escaped(field.label()),
                )
            })
            .collect();
        let notice = c.notice.map_or(String::new(), |n| {
            format!("<p class=\"ask\" role=\"alert\">{}</p>\n", Visible(n))
        });
        // Enter presses the first button: Cancel, unless the person is typing secrets (then
        // Cancel skips the browser's check that every input is filled).
        let buttons = if c.secrets.is_empty() {
            format!(
                "<button type=\"submit\" name=\"{DECISION_FIELD}\" value=\"{CANCEL}\" \
                 class=\"cancel\">{}</button>{confirm}",
                Escaped(cancel)
            )
        } else {
            format!(
                "{confirm}<button type=\"submit\" name=\"{DECISION_FIELD}\" value=\"{CANCEL}\" \
                 class=\"cancel\" formnovalidate>{}</button>",
                Escaped(cancel)
            )
        };
        let main = format!(
            "<p class=\"from\">Request from {server}</p>\n\
             <h1>{heading}</h1>\n\
             <p class=\"ask\">{message}</p>\n\
             <dl><dt>Server</dt><dd>{server}</dd><dt>Your account</dt><dd>{user}</dd>{shown}</dl>\n\
             <p class=\"hint\">{warning}</p>\n\
             <form method=\"post\">\
             <input type=\"hidden\" name=\"{TOKEN_FIELD}\" value=\"{token}\">\n\
             {notice}{inputs}\
             <div class=\"actions\">{buttons}</div></form>\n",
            server = Visible(c.server),
            heading = Escaped(heading),
            message = Visible(message),
            user = Visible(c.user),
            warning = Escaped(warning),
            token = Escaped(c.token),
        );
        document(StatusCode::OK, heading, &main)
    }
}
