//! The confirmation form's `POST` body: the token and the pressed button.

use ::axum::body::Body;

use super::confirm::{CANCEL, CONFIRM, DECISION_FIELD, TOKEN_FIELD};

/// The largest body read: the form is two short fields.
const MAX_BODY: usize = 8 * 1024;

/// What the user decided on the confirmation page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decision {
    Confirm,
    Cancel,
}

/// The posted form: its token and decision.
#[derive(Debug)]
pub(super) struct Posted {
    pub(super) token: String,
    pub(super) decision: Decision,
}

/// Reads and parses the form (`application/x-www-form-urlencoded`, what a browser posts);
/// else why not, for the log.
pub(super) async fn read(body: Body) -> Result<Posted, &'static str> {
    let bytes = ::axum::body::to_bytes(body, MAX_BODY)
        .await
        .map_err(|_| "the form body is too large or unreadable")?;
    let (mut token, mut decision) = (None, None);
    for (name, value) in form_urlencoded::parse(&bytes) {
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
    Ok(Posted { token, decision })
}
