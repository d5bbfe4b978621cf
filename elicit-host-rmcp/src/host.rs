//! What a host provides: how the person is asked. The host renders; this crate parses,
//! checks, keeps the protocol and names what happened.

use std::future::Future;
use std::time::Duration;

use elicit_host::{Consent, FormModel, UrlReport, UrlRequest};
use elicit_wire::ElicitResult;

use crate::asker::Asker;
use crate::outcome::Elicited;

/// How a host asks the person. Implement [`fill`](Host::fill) and [`open`](Host::open); the
/// rest has defaults.
///
/// Everything reaching these methods has been parsed strictly already: a form's schema is in
/// the spec's restricted grammar, a URL has a [`UrlReport`] and is never offered when the
/// report refuses it. Show [`Asker::shown_name`] with each question, let the person review and
/// change every value (defaults pre-filled: [`elicit_host::FormInput::new`]), and always offer
/// decline and cancel. The server's texts (its name, the message, labels, the URL) are still
/// the server's: show them through [`elicit_host::safe_text`] (the terminal and HTML renderers
/// do), so that no escape sequence reaches the terminal and no invisible character hides.
///
/// ```
/// use elicit_host::{Consent, FormInput, FormModel, UrlReport, UrlRequest};
/// use elicit_host_rmcp::{Asker, Host};
/// use elicit_wire::ElicitResult;
///
/// /// Accepts every form with its defaults and refuses every page (a test double).
/// struct Defaults;
///
/// impl Host for Defaults {
///     async fn fill(&self, _asker: &Asker, form: &FormModel) -> ElicitResult {
///         FormInput::new(form).accept().unwrap_or_else(|_| ElicitResult::cancel())
///     }
///     async fn open(&self, _asker: &Asker, _url: &UrlRequest, _report: &UrlReport) -> Consent {
///         Consent::Declined
///     }
/// }
/// ```
pub trait Host: Send + Sync + 'static {
    /// Shows a form and returns the person's answer: [`FormInput::accept`]'s result, or
    /// [`ElicitResult::decline`] / [`ElicitResult::cancel`]. An `accept` whose content does
    /// not pass the form's schema is never sent: `cancel` goes instead, with
    /// [`Outcome::InvalidReply`](crate::Outcome::InvalidReply).
    ///
    /// [`FormInput::accept`]: elicit_host::FormInput::accept
    fn fill(&self, asker: &Asker, form: &FormModel) -> impl Future<Output = ElicitResult> + Send;

    /// Shows the URL consent screen (the full URL, [`UrlReport::highlighted`]'s site
    /// emphasised, every finding) and, on consent, opens the page. Never fetch the URL
    /// before: not for a preview, not for its title.
    fn open(
        &self,
        asker: &Asker,
        request: &UrlRequest,
        report: &UrlReport,
    ) -> impl Future<Output = Consent> + Send;

    /// The person opened the page `waited` ago and the server is still waiting for it to
    /// finish: keep waiting (`true`, the default), or stop (`false`: `cancel` is sent, the
    /// outcome is [`Outcome::Unfinished`](crate::Outcome::Unfinished)). A host shows
    /// "waiting for the page… \[Cancel\]" and answers from that button.
    fn keep_waiting(
        &self,
        asker: &Asker,
        request: &UrlRequest,
        waited: Duration,
    ) -> impl Future<Output = bool> + Send {
        let _ = (asker, request, waited);
        std::future::ready(true)
    }

    /// Every elicitation once it is answered or refused, on either revision (for a log, or a
    /// "this server tried to …" notice). The default ignores them.
    fn outcome(&self, elicited: &Elicited) {
        let _ = elicited;
    }
}
