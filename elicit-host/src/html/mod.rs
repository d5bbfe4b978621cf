//! An HTML renderer for web hosts: a form as an accessible `<form>` (labels, descriptions,
//! defaults, the schema's constraints as HTML attributes the browser checks before sending,
//! decline and cancel), the posted answer read back through the server's rules
//! ([`read`]), and the URL consent panel with the site emphasised. Strings in, strings out:
//! no web framework, no script; every text from the server is escaped.
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
//!
//! // What the browser posts back, checked by the server's rules.
//! let posted = [("elicit-action", "accept"), ("replicas", "3")];
//! let result = html::read(&form, posted.iter().map(|(k, v)| (k.to_string(), v.to_string())));
//! assert_eq!(
//!     serde_json::to_value(result.unwrap())?,
//!     json!({"action": "accept", "content": {"replicas": 3}})
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod consent;
mod form;
mod read;

pub use consent::consent;
pub use form::form;
pub use read::{filled, read};

/// `text` escaped for HTML text and attribute values.
fn escape(text: &str) -> String {
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

/// A field's element id.
fn id_of(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("elicit-{safe}")
}

/// The three buttons every screen ends with: the first submits (checked by the browser), the
/// other two skip the checks.
fn actions(accept: &str) -> String {
    format!(
        "  <div class=\"elicit-actions\">\n    \
         <button type=\"submit\" name=\"elicit-action\" value=\"accept\">{accept}</button>\n    \
         <button type=\"submit\" name=\"elicit-action\" value=\"decline\" formnovalidate>Decline</button>\n    \
         <button type=\"submit\" name=\"elicit-action\" value=\"cancel\" formnovalidate>Cancel</button>\n  \
         </div>\n"
    )
}
