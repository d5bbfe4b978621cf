//! The most a host takes from a server in one elicitation. A request over any of these is
//! refused before it is parsed further ([`RequestError::TooLarge`](crate::RequestError::TooLarge)),
//! so a hostile schema costs at most a maximal form's time: every step after the parse (the
//! form model, [`FormInput`](crate::FormInput), the renderers, [`html::read`](crate::html::read))
//! is linear in the form's size.
//!
//! The caps are generous for any form a person fills in: a form of 256 fields is already
//! more than anyone answers in one sitting, and 4,096 options hold every country, currency or
//! time zone.
//!
//! ```
//! use elicit_host::limits::{Cap, MAX_FIELDS};
//! use elicit_host::{Elicitation, RequestError};
//! use serde_json::{Map, Value, json};
//!
//! let properties: Map<String, Value> = (0..=MAX_FIELDS)
//!     .map(|i| (format!("f{i}"), json!({"type": "boolean"})))
//!     .collect();
//! let params = json!({"message": "So many questions",
//!     "requestedSchema": {"type": "object", "properties": properties}});
//! let error = Elicitation::from_params(&params).unwrap_err();
//! assert_eq!(error, RequestError::TooLarge(Cap::Fields));
//! assert_eq!(error.to_string(), "the request is too large: a form has more than 256 fields");
//! ```

use std::fmt;

use serde_json::Value;

/// The most a whole request may hold, 1 MiB: about the length of its JSON text (every string
/// and key by its UTF-8 length and quotes, a number or `true`, `false`, `null` as 4 bytes, and
/// the punctuation between).
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// The longest one text may be, in UTF-8 bytes (16 KiB): every string and key of the request,
/// the message, a title, a description, a default, an option's value or label, a field's name,
/// a URL.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;

/// The most fields one form may have.
pub const MAX_FIELDS: usize = 256;

/// The most options one choice may list (and the longest list a field's schema may hold:
/// `enum`, `enumNames`, `oneOf`, `anyOf`, a multi-select's `default`).
pub const MAX_OPTIONS: usize = 4096;

/// Which cap a request is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cap {
    /// [`MAX_REQUEST_BYTES`]
    Request,
    /// [`MAX_TEXT_BYTES`]
    Text,
    /// [`MAX_FIELDS`]
    Fields,
    /// [`MAX_OPTIONS`]
    Options,
}

impl Cap {
    /// The cap's value.
    ///
    /// ```
    /// use elicit_host::limits::{Cap, MAX_OPTIONS};
    ///
    /// assert_eq!(Cap::Options.limit(), MAX_OPTIONS);
    /// ```
    pub fn limit(self) -> usize {
        match self {
            Cap::Request => MAX_REQUEST_BYTES,
            Cap::Text => MAX_TEXT_BYTES,
            Cap::Fields => MAX_FIELDS,
            Cap::Options => MAX_OPTIONS,
        }
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = self.limit();
        match self {
            Cap::Request => write!(f, "it is larger than {limit} bytes"),
            Cap::Text => write!(f, "a text in it is longer than {limit} bytes"),
            Cap::Fields => write!(f, "a form has more than {limit} fields"),
            Cap::Options => write!(f, "a field lists more than {limit} options"),
        }
    }
}

/// What a number, `true`, `false` or `null` counts for.
const SCALAR_BYTES: usize = 4;

/// Checks the request's size and every text in it, without recursion, stopping as soon as the
/// request is over [`MAX_REQUEST_BYTES`]: the time taken is linear in the smaller of the two.
/// The size is about the length of the request's JSON text: a string or key its UTF-8 length
/// and its quotes, a number or literal [`SCALAR_BYTES`], and the punctuation between.
pub(crate) fn check_request(request: &Value) -> Result<(), Cap> {
    let mut size = 0usize;
    let mut stack = vec![request];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => size += text_bytes(text)? + 2,
            Value::Array(items) => {
                // The brackets, and a comma (or the last one's bracket) for each item.
                size = size.saturating_add(items.len().saturating_add(2));
                stack.extend(items);
            }
            Value::Object(members) => {
                size = size.saturating_add(members.len().saturating_add(2));
                if size > MAX_REQUEST_BYTES {
                    return Err(Cap::Request);
                }
                for (key, member) in members {
                    // The key, its quotes and its colon.
                    size += text_bytes(key)? + 3;
                    stack.push(member);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => size += SCALAR_BYTES,
        }
        if size > MAX_REQUEST_BYTES {
            return Err(Cap::Request);
        }
    }
    Ok(())
}

fn text_bytes(text: &str) -> Result<usize, Cap> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(Cap::Text);
    }
    Ok(text.len())
}

/// Checks a form's schema (the raw `requestedSchema`) against [`MAX_FIELDS`] and
/// [`MAX_OPTIONS`], before the grammar is checked.
pub(crate) fn check_form(schema: &Value) -> Result<(), Cap> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Ok(());
    };
    if properties.len() > MAX_FIELDS {
        return Err(Cap::Fields);
    }
    for property in properties.values() {
        check_lists(property)?;
        if let Some(items) = property.get("items") {
            check_lists(items)?;
        }
    }
    Ok(())
}

/// Every list directly in `schema` (options, names, a default) is within [`MAX_OPTIONS`].
fn check_lists(schema: &Value) -> Result<(), Cap> {
    let Value::Object(members) = schema else {
        return Ok(());
    };
    for member in members.values() {
        if let Value::Array(list) = member
            && list.len() > MAX_OPTIONS
        {
            return Err(Cap::Options);
        }
    }
    Ok(())
}
