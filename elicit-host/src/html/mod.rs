//! An HTML renderer for web hosts: a form as an accessible `<form>` (labels, descriptions,
//! defaults, the schema's constraints as HTML attributes the browser checks before sending,
//! decline and cancel), the posted answer read back through the server's rules
//! ([`read`]), and the URL consent panel with the site emphasised. Strings in, strings out:
//! no web framework, no script; every text from the server is escaped.
//!
//! A field's name never steers the page: each control posts as `field:` and the field's
//! name (a field named `elicit-action` posts as `field:elicit-action`), the buttons alone as
//! `elicit-action`, and [`read`] refuses a post with anything else (a second action, a name
//! the form has no field for, a one-value field sent twice). Element ids are made from field
//! names one-to-one (see [`form`]): no label can point at another field's control.
//!
//! ```
//! use elicit_host::html;
//! use elicit_host::{Elicitation, FormInput};
//! use serde_json::json;
//!
//! let params = json!({"message": "How many replicas?", "requestedSchema": {
//!     "type": "object",
//!     "properties": {"replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 2}},
//!     "required": ["replicas"]
//! }});
//! let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
//! let page = html::form("Release <desk>", &FormInput::new(&form), "/answer", &[]);
//! assert!(page.contains(r#"<label for="elicit-replicas">Replicas"#));
//! assert!(page.contains(r#"type="number" min="1" max="10" step="1" value="2" required"#));
//! assert!(page.contains("Release &lt;desk&gt;"));
//! // Each field posts as `field:` and its name; the buttons as `elicit-action`.
//! assert!(page.contains(r#"name="field:replicas""#));
//!
//! // What the browser posts back, checked by the server's rules.
//! let posted = [("field:replicas", "3"), ("elicit-action", "accept")];
//! let result = html::read(&form, posted.iter().map(|(k, v)| (k.to_string(), v.to_string())));
//! assert_eq!(
//!     serde_json::to_value(result?)?,
//!     json!({"action": "accept", "content": {"replicas": 3}})
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

mod consent;
mod form;
mod read;

pub use consent::consent;
pub use form::form;
pub use read::{ReadError, filled, read, read_consent};

/// `text` from a server as the page shows it: [`safe_text`](crate::safe_text), then escaped
/// for HTML text and attribute values, so no bidi control reorders the page and no invisible
/// character hides in it.
fn escape(text: &str) -> String {
    exact(&crate::safe_text(text))
}

/// `text` escaped for an HTML attribute value and nothing else: for the values the browser
/// posts back (a field's name, an option's value), which the person never sees and which must
/// come back exactly as the server wrote them.
fn exact(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// A field's element id: `elicit-` and its name with every byte outside `A-Z`, `a-z` and
/// `0-9` written `_` and two hex digits (`a.b` is `elicit-a_2eb`, `a_b` is `elicit-a_5fb`).
/// One name, one id, and no two names the same id; a field's id has no `-` after `elicit-`,
/// so its help (`-help`), problem (`-problem`) and options (`-0`, `-1`, …) and the page's
/// own ids (`elicit--title`) are never another field's.
fn id_of(name: &str) -> String {
    let mut id = String::with_capacity("elicit-".len() + name.len());
    id.push_str("elicit-");
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() {
            id.push(char::from(byte));
        } else {
            let _ = write!(id, "_{byte:02x}");
        }
    }
    id
}

/// The name a field's control posts under: `field:` and the field's name, so no field can
/// post as the page's own [`ACTION`] (a field named `elicit-action` posts as
/// `field:elicit-action`).
fn name_of(name: &str) -> String {
    format!("{FIELD_PREFIX}{name}")
}

/// What every field's posted name starts with.
const FIELD_PREFIX: &str = "field:";

/// The name the buttons post under: `accept`, `decline` or `cancel`.
const ACTION: &str = "elicit-action";

/// The three buttons every screen ends with: the first submits (checked by the browser), the
/// other two skip the checks.
fn actions(accept: &str) -> String {
    format!(
        "  <div class=\"elicit-actions\">\n    \
         <button type=\"submit\" name=\"{ACTION}\" value=\"accept\">{accept}</button>\n    \
         <button type=\"submit\" name=\"{ACTION}\" value=\"decline\" formnovalidate>Decline</button>\n    \
         <button type=\"submit\" name=\"{ACTION}\" value=\"cancel\" formnovalidate>Cancel</button>\n  \
         </div>\n"
    )
}
