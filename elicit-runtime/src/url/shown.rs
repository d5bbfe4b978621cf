//! What a confirmation page shows of a URL elicitation's bound state: the fields the author
//! marked `#[elicit(show)]`, each as a label and a text, sealed in the handle beside the
//! message so a page that knows no types can show them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One field of a URL elicitation's bound state that its confirmation page shows the user
/// (what is being confirmed: which repository, which amount), from
/// `#[elicit(show)]` or `#[elicit(show = "Label")]` on the field. A value longer than
/// [`Shown::MAX_CHARS`] characters keeps its first `MAX_CHARS`, so it cannot swell the link
/// twice over, and says how many it left out ([`Shown::hidden`]): a page must then say so, and
/// must not let the user confirm what it could not show (`elicit-axum`'s page offers only
/// Cancel). A label longer than that is cut with an ellipsis.
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
#[serde(from = "Sealed", into = "Sealed")]
pub struct Shown {
    label: String,
    value: String,
    hidden: usize,
}

impl Shown {
    /// The most characters a label or a value keeps.
    pub const MAX_CHARS: usize = 2_000;

    /// A label and its value, each kept up to [`Shown::MAX_CHARS`] characters.
    ///
    /// ```
    /// use elicit_runtime::url::Shown;
    ///
    /// let shown = Shown::new("Amount", "12.50 EUR");
    /// assert_eq!((shown.label(), shown.value(), shown.hidden()), ("Amount", "12.50 EUR", 0));
    /// let long = Shown::new("Note", "x".repeat(Shown::MAX_CHARS + 500));
    /// assert_eq!(long.value(), "x".repeat(Shown::MAX_CHARS));
    /// assert_eq!(long.hidden(), 500);
    /// ```
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Shown {
        let (value, hidden) = keep(value.into());
        Shown {
            label: cut(label.into()),
            value,
            hidden,
        }
    }

    /// How many characters of the value are left out of [`value`](Shown::value): 0 when it is
    /// whole. A page that shows a value with any left out must say so, and must not let the
    /// user confirm it.
    ///
    /// ```
    /// use elicit_runtime::url::Shown;
    ///
    /// assert_eq!(Shown::new("Repository", "octo/hello").hidden(), 0);
    /// assert_eq!(Shown::new("Note", "y".repeat(Shown::MAX_CHARS + 1)).hidden(), 1);
    /// ```
    pub fn hidden(&self) -> usize {
        self.hidden
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

/// A [`Shown`] as the handle seals it: `[label, value]`, with the count of characters left
/// out as a third element when there are any.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Sealed {
    Whole(String, String),
    Cut(String, String, usize),
}

impl From<Sealed> for Shown {
    fn from(sealed: Sealed) -> Shown {
        let (label, value, hidden) = match sealed {
            Sealed::Whole(label, value) => (label, value, 0),
            Sealed::Cut(label, value, hidden) => (label, value, hidden),
        };
        let shown = Shown::new(label, value);
        Shown {
            hidden: shown.hidden.saturating_add(hidden),
            ..shown
        }
    }
}

impl From<Shown> for Sealed {
    fn from(shown: Shown) -> Sealed {
        match shown.hidden {
            0 => Sealed::Whole(shown.label, shown.value),
            hidden => Sealed::Cut(shown.label, shown.value, hidden),
        }
    }
}

/// `text`'s first [`Shown::MAX_CHARS`] characters, and how many more it has.
fn keep(text: String) -> (String, usize) {
    match text.char_indices().nth(Shown::MAX_CHARS) {
        None => (text, 0),
        Some((end, _)) => {
            let hidden = text[end..].chars().count();
            let mut text = text;
            text.truncate(end);
            (text, hidden)
        }
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
    fn values_are_texts_and_long_ones_say_how_much_is_left_out() {
        assert_eq!(Shown::of("n", &12).value(), "12");
        assert_eq!(Shown::of("n", &Option::<u8>::None).value(), "");
        assert_eq!(Shown::of("s", "a\"b").value(), "a\"b");
        assert_eq!(Shown::of("l", &["a", "b"]).value(), r#"["a","b"]"#);
        // Seventeen repository names of 30 characters: all kept.
        let repos: Vec<String> = (0..17)
            .map(|i| format!("octo-org/repository-number-{i:03}"))
            .collect();
        let list = Shown::of("Repositories", &repos);
        assert_eq!(list.value(), serde_json::to_string(&repos).unwrap());
        assert_eq!(list.hidden(), 0);
        let long = Shown::new(
            "é".repeat(Shown::MAX_CHARS + 1),
            "ü".repeat(Shown::MAX_CHARS + 7),
        );
        assert_eq!(long.label().chars().count(), Shown::MAX_CHARS);
        assert!(long.label().ends_with('…'));
        assert_eq!(long.value(), "ü".repeat(Shown::MAX_CHARS));
        assert_eq!(long.hidden(), 7);
        let whole = Shown::new("x", "y".repeat(Shown::MAX_CHARS));
        assert_eq!((whole.value().len(), whole.hidden()), (Shown::MAX_CHARS, 0));
        // Sealed as a pair, with the count left out when there is one; read back as sealed.
        let json = serde_json::to_value(Shown::new("a", "b")).unwrap();
        assert_eq!(json, serde_json::json!(["a", "b"]));
        let json = serde_json::to_value(&long).unwrap();
        assert_eq!(json[2], 7);
        assert_eq!(serde_json::from_value::<Shown>(json).unwrap(), long);
        let read: Shown =
            serde_json::from_value(serde_json::json!(["a", "b".repeat(Shown::MAX_CHARS + 3)]))
                .unwrap();
        assert_eq!((read.value().len(), read.hidden()), (Shown::MAX_CHARS, 3));
        let read: Shown = serde_json::from_value(serde_json::json!(["a", "b", 4])).unwrap();
        assert_eq!((read.value(), read.hidden()), ("b", 4));
    }
}
