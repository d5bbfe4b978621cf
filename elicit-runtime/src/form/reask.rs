//! Asking a form question again when its accepted answer fails the form's checks: what the
//! re-asked question says (the original message and one line per bad field), what it
//! pre-fills (the values the user gave that passed), and how many times it may happen.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::defaults::with_defaults;
use super::prepared::Prepared;
use crate::channel::Reask;
use crate::interrupt::Interrupt;
use crate::schema::{ContentError, RequestedSchema};
use crate::wire::{INTERNAL_ERROR, JsonRpcError};

/// The line between the original message and the list of what was wrong.
const HEADING: &str = "Please correct and send again:";
/// How many characters of one reason a re-asked message quotes; a reason written by a custom
/// field decoder may repeat what the user typed, at any length.
const REASON_CHARS: usize = 120;

/// The next re-ask of `original` after `content` failed with `errors`, `earlier` being the
/// re-ask that content answered (if any).
pub(crate) fn next(
    original: &Prepared,
    earlier: Option<&Reask>,
    content: &Map<String, Value>,
    errors: &ContentError,
) -> Reask {
    let schema = original.schema();
    let failed = |name: &str| errors.errors().iter().any(|e| e.field == name);
    let mut defaults = earlier.map(|r| r.defaults.clone()).unwrap_or_default();
    defaults.retain(|name, _| !failed(name));
    for (name, property) in &schema.properties {
        match content.get(name) {
            Some(value) if !value.is_null() && !failed(name) && property.check(value).is_ok() => {
                defaults.insert(name.clone(), value.clone());
            }
            _ => {}
        }
    }
    Reask {
        origin: original.digest().to_owned(),
        count: earlier.map_or(1, |r| r.count.saturating_add(1)),
        message: message(original.message(), schema, errors),
        defaults,
    }
}

/// The question as `reask` puts it: `original`'s key, the re-ask's message, and `original`'s
/// schema with the pre-filled values as defaults (those fields leave `required`).
pub(crate) fn question(reask: &Reask, original: &Prepared) -> Result<Prepared, Interrupt> {
    let schema: Cow<'static, RequestedSchema> = if reask.defaults.is_empty() {
        original.shared_schema()
    } else {
        let schema = with_defaults(original.schema(), &reask.defaults).map_err(|reason| {
            Interrupt::error(JsonRpcError::new(
                INTERNAL_ERROR,
                format!("cannot ask `{}` again: {reason}", original.key()),
                None,
            ))
        })?;
        Cow::Owned(schema)
    };
    let digest = crate::state::question_digest(original.key(), &reask.message, &schema);
    Ok(Prepared {
        key: original.key().to_owned(),
        message: reask.message.clone(),
        schema,
        digest,
    })
}

/// `original`, a blank line, [`HEADING`], and one line per error: the field's title (or
/// name) and the reason the form's checks gave, as in the `-32602` error data.
pub(crate) fn message(original: &str, schema: &RequestedSchema, errors: &ContentError) -> String {
    let mut message = String::with_capacity(original.len() + 64 * errors.errors().len());
    message.push_str(original);
    message.push_str("\n\n");
    message.push_str(HEADING);
    for error in errors.errors() {
        message.push_str("\n- ");
        if error.is_root() {
            message.push_str("The answer");
        } else {
            let title = schema
                .properties
                .iter()
                .find(|(name, _)| *name == error.field)
                .and_then(|(_, property)| property.annotations().title.as_deref());
            // A name a hand-written decoder reports is not checked against the form: it is
            // quoted like a reason.
            push_plain(&mut message, title.unwrap_or(&error.field));
        }
        message.push(' ');
        push_plain(&mut message, &error.reason);
    }
    message
}

/// Appends at most [`REASON_CHARS`] characters of `reason`, each control or bidirectional
/// formatting character as a space, so a quoted answer can neither start a line of its own
/// nor reorder what the user reads.
fn push_plain(out: &mut String, reason: &str) {
    let mut chars = reason.chars();
    for c in chars.by_ref().take(REASON_CHARS) {
        out.push(if c.is_control() || is_bidi_control(c) {
            ' '
        } else {
            c
        });
    }
    if chars.next().is_some() {
        out.push('…');
    }
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests;
