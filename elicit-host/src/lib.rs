//! The host (MCP client) half of elicitation, as a library: what a host written in Rust needs
//! to show a server's questions safely, with no SDK and no UI framework in its API.
//!
//! - [`Elicitation::from_params`] and [`Elicitation::from_input_request`] parse an incoming
//!   `elicitation/create` (a 2025-11-25 request, or one entry of a 2026-07-28
//!   `input_required` round) strictly: a schema outside the spec's restricted grammar is a
//!   [`RequestError`] that says where and why, never a form to render.
//! - A [`FormModel`] is what to render: each [`Field`]'s label, help, kind, constraints,
//!   default and a hint in words. [`FormInput`] holds the person's input, pre-filled with the
//!   defaults, checks each value as it is entered by the same rules the server applies (what
//!   the host accepts, an `elicit` server accepts), and builds the exact `ElicitResult`.
//! - Every request is held to the [`limits`] (1 MiB in all, 256 fields, 4,096 options a
//!   field, 16 KiB a text) before it is parsed further, and every step after is linear in the
//!   form's size: a hostile schema costs no more than a maximal form.
//! - A [`UrlReport`] is the consent screen for URL mode: the full URL with its registrable
//!   site to emphasise, and every reason for suspicion ([`Finding`]): a scheme other than
//!   https (http only to this computer), user info before the host, an IP address,
//!   internationalized names decoded with mixed-script and lookalike detection (Unicode's
//!   UTS #39), another site's name written in front of the real one
//!   (`paypal.com.secure-login.example`), credentials or personal data in the query, and where
//!   it leads compared with the server's own origin (a lookalike of it, its name in front of
//!   another site, a remote server's link to this computer or the local network). It never
//!   fetches the URL.
//!
//! ```
//! use elicit_host::{Elicitation, FormInput, UrlReport};
//! use serde_json::json;
//!
//! // A form arrives (the params of `elicitation/create`)…
//! let params = json!({
//!     "message": "Deploy checkout?",
//!     "requestedSchema": {
//!         "type": "object",
//!         "properties": {
//!             "environment": {"type": "string", "title": "Environment",
//!                 "oneOf": [{"const": "staging", "title": "Staging"},
//!                           {"const": "production", "title": "Production"}],
//!                 "default": "staging"},
//!             "replicas": {"type": "integer", "minimum": 1, "maximum": 10}
//!         },
//!         "required": ["environment", "replicas"]
//!     }
//! });
//! match Elicitation::from_params(&params)? {
//!     Elicitation::Form(form) => {
//!         // …the host renders `form.fields()` (labels, hints, defaults) and takes input…
//!         let mut input = FormInput::new(&form);
//!         input.set_text("environment", "Production")?; // by label or value
//!         assert!(input.set_text("replicas", "40").is_err()); // the server's own rule
//!         input.set_text("replicas", "3")?;
//!         // …and sends exactly what the server will accept.
//!         let result = input.accept()?;
//!         assert_eq!(
//!             serde_json::to_value(&result)?,
//!             json!({"action": "accept", "content": {"environment": "production", "replicas": 3}})
//!         );
//!     }
//!     Elicitation::Url(request) => {
//!         let report = UrlReport::assess(&request.url, Some("https://mcp.example.com"));
//!         // Show `report.highlighted()` and `report.findings()`; open only on consent.
//!         # let _ = report;
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Two renderers come with it, each std only: [`terminal::Terminal`] on any line-based
//! terminal, and [`html`] for web hosts (an accessible `<form>` with the schema's constraints
//! checked in the page, the posted answer read back by the server's rules, the consent panel).
//!
//! Every text from a server (its name, the message, titles, descriptions, option labels, the
//! URL) is shown, never obeyed: both renderers pass it through [`safe_text`], which replaces
//! control characters (so no terminal escape sequence), bidi controls and invisible
//! characters with a visible `<U+XXXX>`. A host that prints server text itself does the same:
//! `println!("{}", elicit_host::safe_text(form.message()))`.
//!
//! Decline and cancel need nothing parsed: answer `ElicitResult::decline()` or
//! `ElicitResult::cancel()` (re-exported here with the rest of the wire model as [`wire`]).

mod consent;
mod form;
pub mod html;
mod input;
pub mod limits;
mod request;
mod safe_text;
pub mod terminal;
mod url_report;

// The bodies of the fuzz targets `host_request` and `html_read`, outside `src/` and outside
// the published package: compiled only with `--cfg fuzzing` (cargo-fuzz sets it;
// `./scripts/test` replays the corpora with it).
#[cfg(fuzzing)]
#[doc(hidden)]
#[path = "../fuzz_targets/mod.rs"]
pub mod fuzz_targets;

pub use consent::Consent;
pub use elicit_wire as wire;
pub use form::{Control, Field, FormModel};
pub use input::{FieldProblem, FormInput};
pub use request::{Elicitation, RequestError, UrlRequest};
pub use safe_text::safe_text;
pub use url_report::{Finding, Highlighted, Relation, Sensitive, Severity, UrlReport};
