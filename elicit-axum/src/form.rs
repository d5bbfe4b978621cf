//! The confirmation form's `POST` body: the token, the pressed button, and the secrets typed
//! in its masked inputs, if it has any.

use ::axum::body::Body;

use super::confirm::{CANCEL, CONFIRM, DECISION_FIELD, MAX_SECRET, TOKEN_FIELD};
use super::secret::{Secret, form_name};

/// The largest body read for the token and the decision.
const MAX_BODY: usize = 8 * 1024;
/// What one secret may add: [`MAX_SECRET`] characters, each at most 9 bytes percent-encoded
/// (a 3-byte UTF-8 character; an astral one is 12 bytes but counts 2 toward `maxlength`).
const PER_SECRET: usize = MAX_SECRET * 9;

/// What the user decided on the confirmation page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decision {
    Confirm,
    Cancel,
}

/// The posted form: its token, decision and secrets (one per asked field, empty if not sent).
#[derive(Debug)]
pub(super) struct Posted {
    pub(super) token: String,
    pub(super) decision: Decision,
    pub(super) secrets: Vec<Secret>,
}

/// Reads and parses the form (`application/x-www-form-urlencoded`, what a browser posts) of a
/// page with `secrets` masked inputs; else why not, for the log (never a value).
pub(super) async fn read(body: Body, secrets: usize) -> Result<Posted, &'static str> {
    let bytes = ::axum::body::to_bytes(body, MAX_BODY + secrets * PER_SECRET)
        .await
        .map_err(|_| "the form body is too large or unreadable")?;
    let (mut token, mut decision) = (None, None);
    let names: Vec<String> = (0..secrets).map(form_name).collect();
    let mut typed: Vec<Option<Secret>> = vec![None; secrets];
    for (name, value) in form_urlencoded::parse(&bytes) {
        if let Some(at) = names.iter().position(|n| *n == name) {
            if typed[at].replace(Secret::new(value)).is_some() {
                return Err("a form field appears more than once");
            }
            continue;
        }
        let slot = match &*name {
            TOKEN_FIELD => &mut token,
            DECISION_FIELD => &mut decision,
            _ => continue,
        };
        if slot.replace(value.into_owned()).is_some() {
            return Err("a form field appears more than once");
        }
    }
    let token = token
        .filter(|t| !t.is_empty())
        .ok_or("no confirmation token in the form")?;
    let decision = match decision.as_deref() {
        Some(CONFIRM) => Decision::Confirm,
        Some(CANCEL) => Decision::Cancel,
        Some(_) => return Err("an unknown decision in the form"),
        None => return Err("no decision in the form"),
    };
    let secrets = typed
        .into_iter()
        .map(|s| s.unwrap_or_else(|| Secret::new("")))
        .collect();
    Ok(Posted {
        token,
        decision,
        secrets,
    })
}
