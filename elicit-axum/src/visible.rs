//! Text from a tool call (the elicitation's message, the values it shows, the user's name)
//! as the page shows it: escaped for HTML, and nothing in it invisible. Every control
//! character but the newline and the tab, every format character (bidirectional overrides and
//! isolates, zero-width characters, the soft hyphen, tag characters), the line and paragraph
//! separators, the invisible Hangul fillers, and private-use and unassigned code points are
//! shown as a marked `<U+XXXX>`, so text cannot reorder itself, hide a part of itself, or look
//! like another text: the characters `elicit_formats::is_marked` names, which `elicit-host`'s
//! `safe_text` marks for a host too.

use std::fmt;

use super::html::Escaped;

/// `text` escaped for HTML element content, its invisible characters marked.
pub(super) struct Visible<'a>(pub(super) &'a str);

impl fmt::Display for Visible<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(elicit_formats::is_marked) {
            write!(f, "{}", Escaped(&rest[..at]))?;
            let c = rest[at..].chars().next().unwrap_or_default();
            write!(
                f,
                "<span class=\"esc\">&lt;U+{:04X}&gt;</span>",
                u32::from(c)
            )?;
            rest = &rest[at + c.len_utf8()..];
        }
        write!(f, "{}", Escaped(rest))
    }
}

#[cfg(test)]
mod tests {
    use super::Visible;

    fn shown(text: &str) -> String {
        Visible(text).to_string()
    }

    #[test]
    fn plain_text_is_only_escaped_and_keeps_its_whitespace() {
        assert_eq!(shown("octo/hello"), "octo/hello");
        assert_eq!(shown("a  b\n\tc"), "a  b\n\tc");
        assert_eq!(shown("<b>&\"'"), "&lt;b&gt;&amp;&quot;&#39;");
        assert_eq!(shown("東京 🚀 é"), "東京 🚀 é");
    }

    #[test]
    fn invisible_and_acting_characters_are_marked() {
        let esc = |code: &str| format!("<span class=\"esc\">&lt;U+{code}&gt;</span>");
        assert_eq!(
            shown("evil\u{202e}olleh/otco"),
            format!("evil{}olleh/otco", esc("202E"))
        );
        for (c, code) in [
            ('\u{1b}', "001B"),
            ('\r', "000D"),
            ('\0', "0000"),
            ('\u{7f}', "007F"),
            ('\u{9b}', "009B"),
            ('\u{200b}', "200B"),
            ('\u{200d}', "200D"),
            ('\u{2066}', "2066"),
            ('\u{feff}', "FEFF"),
            ('\u{ad}', "00AD"),
            ('\u{2028}', "2028"),
            ('\u{3164}', "3164"),
            ('\u{e0041}', "E0041"),
            ('\u{e000}', "E000"),
        ] {
            assert_eq!(
                shown(&format!("a{c}b")),
                format!("a{}b", esc(code)),
                "{code}"
            );
        }
    }
}
