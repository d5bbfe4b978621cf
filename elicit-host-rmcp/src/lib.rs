//! Elicitation for hosts built on [rmcp](https://docs.rs/rmcp)'s client: the server's
//! questions parsed strictly ([`elicit_host`]), asked through your [`Host`] (your terminal,
//! window or web page), checked before they are sent, and 2026-07-28 `input_required` rounds
//! driven as a person would answer them, with every outcome named.
//!
//! - [`Host`]: what you write. `fill` shows a form, `open` shows the URL consent screen (with
//!   its [`UrlReport`](elicit_host::UrlReport)) and opens the page on consent.
//! - [`Answerer`]: answers through the host. It refuses unseen what must not be shown (a
//!   malformed or out-of-grammar schema, a mode not declared, a URL the report refuses, a
//!   replayed `elicitationId`), gives the person a timeout, withdraws a question the server
//!   cancels, and never sends content the form's schema refuses.
//! - [`Answerer::call_tool`] (and `get_prompt`, `read_resource`): the rounds, with new ids,
//!   answers under the round's keys, the exact `requestState`, bounded rounds, and a page
//!   the person opened waited for rather than shown again; a 2025-11-25 `-32042` is driven
//!   too. The [`Call`] names each elicitation's [`Outcome`] and why a call has no result
//!   ([`CallError`]).
//! - [`ElicitingClient`]: a ready `ClientHandler`; or forward two methods of yours to the
//!   [`Answerer`].
//!
//! The [guide] is a chapter for host authors: which of the spec's client duties each piece
//! keeps, a host on the terminal renderer, a complete run, how calls end, and testing.
//!
//! ```
//! use elicit_host::{Consent, FormInput, FormModel, UrlReport, UrlRequest, safe_text};
//! use elicit_host_rmcp::{Asker, Host};
//! use elicit_wire::ElicitResult;
//!
//! /// A host that shows each question on the terminal: every text from the server through
//! /// `safe_text`, so that none of it can act on the terminal (an escape sequence) or hide.
//! struct Terminal;
//!
//! impl Host for Terminal {
//!     async fn fill(&self, asker: &Asker, form: &FormModel) -> ElicitResult {
//!         println!("{} asks: {}", safe_text(asker.shown_name()), safe_text(form.message()));
//!         let input = FormInput::new(form); // defaults pre-filled
//!         for field in form.fields() {
//!             println!("  {} ({})", safe_text(field.label()), field.hint());
//!             // …read a line, `input.set_text(field.name(), &line)`, show its error…
//!         }
//!         input.accept().unwrap_or_else(|_| ElicitResult::cancel())
//!     }
//!
//!     async fn open(&self, asker: &Asker, request: &UrlRequest, report: &UrlReport) -> Consent {
//!         println!("{} wants to open {}", safe_text(asker.shown_name()), safe_text(report.sent()));
//!         for finding in report.findings() {
//!             println!("  ! {}", safe_text(&finding.to_string()));
//!         }
//!         // …ask "open it? [y/N/esc]"; on yes, open the system browser…
//!         # let _ = request;
//!         Consent::Declined
//!     }
//! }
//! ```

/// A chapter for host authors: what the spec asks of a client and who does it, a host in a
/// few lines, how calls end, and testing.
#[doc = include_str!("guide.md")]
pub mod guide {}

mod answerer;
mod ask;
mod asker;
mod client;
mod host;
mod limits;
mod links;
mod outcome;
mod rounds;

pub use answerer::{Answerer, OriginError};
pub use asker::Asker;
pub use client::ElicitingClient;
pub use elicit_host;
pub use elicit_host::Consent;
pub use host::Host;
pub use limits::{
    DEFAULT_ANSWER_TIMEOUT, DEFAULT_MAX_ROUNDS, DEFAULT_MAX_WAIT, Limits, MAX_ELICITATION_ID_BYTES,
    MAX_REMEMBERED_BYTES, MAX_URL_BYTES, MAX_URL_MESSAGE_BYTES, REMEMBERED_URL_REQUESTS,
};
pub use outcome::{Call, CallError, Elicited, Mode, Outcome};
