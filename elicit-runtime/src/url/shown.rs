//! What a confirmation page shows of a URL elicitation's bound state: the fields the author
//! marked `#[elicit(show)]`, each as a label and a text, sealed in the handle beside the
//! message so a page that knows no types can show them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One field of a URL elicitation's bound state that its confirmation page shows the user
/// (what is being confirmed: which repository, which amount), from
/// `#[elicit(show)]` or `#[elicit(show = "Label")]` on the field. Both texts are cut at
/// [`Shown::MAX_CHARS`] characters (an ellipsis marks the cut), so a long value cannot swell
/// the link.
///
/// ```
/// use elicit_runtime::{ElicitUrl, elicit_url};
///
/// #[elicit_url(message = "Connect GitHub for this repository", url = "https://example.com/connect")]
/// struct ConnectRepo {
///     #[elicit(show = "Repository")]
///     repo: String,
///     #[elicit(show)]
///     read_only: bool,
///     scopes: String,
/// }
///
/// let state = ConnectRepo { repo: "octo/hello".into(), read_only: true, scopes: "repo".into() };
/// let shown = state.shown();
/// assert_eq!((shown[0].label(), shown[0].value()), ("Repository", "octo/hello"));
/// assert_eq!((shown[1].label(), shown[1].value()), ("Read only", "true"));
/// assert_eq!(shown.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(String, String)", into = "(String, String)")]
pub struct Shown {
    label: String,
    value: String,
}

impl Shown {
    /// The most characters a label or a value keeps.
    pub const MAX_CHARS: usize = 200;

    /// A label and its value, each cut at [`Shown::MAX_CHARS`] characters.
    ///
    /// ```
    /// use elicit_runtime::url::Shown;
    ///
    /// let shown = Shown::new("Amount", "12.50 EUR");
    /// assert_eq!(shown.label(), "Amount");
    /// assert_eq!(Shown::new("Note", "x".repeat(500)).value().chars().count(), Shown::MAX_CHARS);
    /// ```
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Shown {
        Shown {
            label: cut(label.into()),
            value: cut(value.into()),
        }
    }

    /// What the value is ("Repository").
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The value as text: a string as it is, `null` as nothing, anything else as compact JSON.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// `value` (any serializable field) under `label`.
    pub(crate) fn of<T: Serialize + ?Sized>(label: &str, value: &T) -> Shown {
        let text = match serde_json::to_value(value) {
            Ok(Value::String(text)) => text,
            Ok(Value::Null) | Err(_) => String::new(),
            Ok(other) => other.to_string(),
        };
        Shown::new(label, text)
    }
}

impl From<(String, String)> for Shown {
    fn from((label, value): (String, String)) -> Shown {
        Shown::new(label, value)
    }
}

impl From<Shown> for (String, String) {
    fn from(shown: Shown) -> (String, String) {
        (shown.label, shown.value)
    }
}

/// `text` cut at [`Shown::MAX_CHARS`] characters, the last one an ellipsis when cut.
fn cut(text: String) -> String {
    match text.char_indices().nth(Shown::MAX_CHARS) {
        None => text,
        Some(_) => {
            let keep: String = text.chars().take(Shown::MAX_CHARS - 1).collect();
            keep + "…"
        }
    }
}

/// A URL elicitation's bound state as it is sealed in its handle: the state as JSON and what
/// its page shows.
#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub state: Value,
    pub shown: Vec<Shown>,
}

impl Bound {
    /// State that shows nothing.
    #[cfg(any(test, fuzzing))]
    pub(crate) fn plain(state: Value) -> Bound {
        Bound {
            state,
            shown: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_texts_and_long_ones_are_cut() {
        assert_eq!(Shown::of("n", &12).value(), "12");
        assert_eq!(Shown::of("n", &Option::<u8>::None).value(), "");
        assert_eq!(Shown::of("s", "a\"b").value(), "a\"b");
        assert_eq!(Shown::of("l", &["a", "b"]).value(), r#"["a","b"]"#);
        let long = Shown::new("é".repeat(300), "ü".repeat(201));
        assert_eq!(long.label().chars().count(), Shown::MAX_CHARS);
        assert!(long.value().ends_with('…'));
        assert_eq!(Shown::new("x", "y".repeat(200)).value(), "y".repeat(200));
        // Sealed as a pair; read back cut as well.
        let json = serde_json::to_value(Shown::new("a", "b")).unwrap();
        assert_eq!(json, serde_json::json!(["a", "b"]));
        let read: Shown =
            serde_json::from_value(serde_json::json!(["a", "b".repeat(300)])).unwrap();
        assert_eq!(read.value().chars().count(), Shown::MAX_CHARS);
    }
}
