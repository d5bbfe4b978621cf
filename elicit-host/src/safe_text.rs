//! Text from a server made safe to show: nothing in it can act on a terminal or a page, and
//! nothing in it is invisible.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` from a server, safe to show: every character that could act on a terminal or hide
/// in the text is replaced by a visible `<U+XXXX>` (its code point in hex, at least four
/// digits), so the person sees that something was there and nothing happens.
///
/// Replaced:
/// - control characters, C0 and C1 (ESC, the one-byte CSI U+009B, BEL, backspace, a lone
///   carriage return, DEL…): no escape sequence can reach a terminal, so no clipboard write
///   (OSC 52), hidden link (OSC 8), cleared screen (CSI 2J) or hidden text (SGR 8);
/// - format characters (Unicode category Cf): the bidi controls that reorder text (U+202A–202E,
///   U+2066–2069, U+200E, U+200F, U+061C), the zero-width ones (U+200B–200D, U+2060–2064,
///   U+FEFF), the soft hyphen U+00AD, the interlinear annotations U+FFF9–FFFB and the tag
///   characters U+E0000–E007F;
/// - the line and paragraph separators U+2028 and U+2029, and the invisible Hangul fillers
///   (U+115F, U+1160, U+3164, U+FFA0);
/// - private-use and unassigned code points (as of Unicode 16), which a font may draw as
///   anything or nothing.
///
/// Kept: a newline (`\n`, and `\r\n` counts as one), since a message may have several lines,
/// and every printable character in any script. A tab becomes four spaces. Where you print
/// server text among lines of your own, mark every line after the first so that the text
/// cannot pose as one of yours: the [terminal renderer](crate::terminal) indents them under a
/// `┆` bar.
///
/// The text is returned borrowed when nothing needed replacing; the cost is linear in its
/// length.
///
/// ```
/// use elicit_host::safe_text;
///
/// // A server's message that would write the clipboard, then reverse the rest of the line.
/// let message = "Deploy?\u{1b}]52;c;Y3VybCBldmlsLnNo\u{7}\u{202e}gnp.exe";
/// assert_eq!(
///     safe_text(message),
///     "Deploy?<U+001B>]52;c;Y3VybCBldmlsLnNo<U+0007><U+202E>gnp.exe"
/// );
/// // Clean text, several lines or another script, comes back as it was, not copied.
/// assert!(matches!(safe_text("Déployer ?\n第二行"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn safe_text(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find(replaced) else {
        return Cow::Borrowed(text);
    };
    let mut safe = String::with_capacity(text.len() + 16);
    safe.push_str(&text[..first]);
    let mut chars = text[first..].chars().peekable();
    while let Some(c) = chars.next() {
        if !replaced(c) {
            safe.push(c);
        } else if c == '\t' {
            safe.push_str("    ");
        } else if c == '\r' && chars.peek() == Some(&'\n') {
            // A CRLF line ending: the newline that follows is kept.
        } else {
            let _ = write!(safe, "<U+{:04X}>", u32::from(c));
        }
    }
    Cow::Owned(safe)
}

/// Whether `c` is not shown as it is: a tab (four spaces), or a character shown marked.
fn replaced(c: char) -> bool {
    c == '\t' || elicit_formats::is_marked(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text is shown as its pair.
    fn assert_shown(cases: &[(&str, &str)]) {
        for (text, shown) in cases {
            assert_eq!(safe_text(text), *shown, "{text:?}");
        }
    }

    #[test]
    fn clean_text_is_borrowed() {
        for text in [
            "",
            "Deploy checkout?",
            "Déployer ?\nligne deux",
            "東京 🚀",
            "a\u{301}",
        ] {
            assert!(
                matches!(safe_text(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn escape_sequences_are_shown_not_sent() {
        assert_shown(&[
            // OSC 52: write the clipboard.
            (
                "\u{1b}]52;c;ZXZpbA==\u{7}",
                "<U+001B>]52;c;ZXZpbA==<U+0007>",
            ),
            // OSC 8: a hidden link, ended by ST.
            (
                "\u{1b}]8;;https://evil.example\u{1b}\\here\u{1b}]8;;\u{1b}\\",
                "<U+001B>]8;;https://evil.example<U+001B>\\here<U+001B>]8;;<U+001B>\\",
            ),
            // CSI 2J: clear the screen; SGR 8: hidden text.
            ("\u{1b}[2J\u{1b}[8mx", "<U+001B>[2J<U+001B>[8mx"),
            // The one-byte C1 CSI.
            ("\u{9b}2J", "<U+009B>2J"),
            // A lone carriage return overwrites the line; backspace and DEL too.
            ("safe\rEVIL", "safe<U+000D>EVIL"),
            ("a\u{8}b\u{7f}", "a<U+0008>b<U+007F>"),
            ("\0", "<U+0000>"),
        ]);
    }

    #[test]
    fn bidi_and_invisible_characters_are_shown() {
        assert_shown(&[
            ("invoice\u{202e}fdp.exe", "invoice<U+202E>fdp.exe"),
            (
                "\u{2066}a\u{2069}\u{200e}\u{200f}\u{61c}",
                "<U+2066>a<U+2069><U+200E><U+200F><U+061C>",
            ),
            (
                "pay\u{200b}pal\u{200d}\u{2060}\u{feff}",
                "pay<U+200B>pal<U+200D><U+2060><U+FEFF>",
            ),
            ("soft\u{ad}hyphen", "soft<U+00AD>hyphen"),
            ("\u{fff9}a\u{fffb}", "<U+FFF9>a<U+FFFB>"),
            ("tag\u{e0041}\u{e007f}", "tag<U+E0041><U+E007F>"),
            ("\u{2028}\u{2029}", "<U+2028><U+2029>"),
            ("\u{3164}\u{115f}", "<U+3164><U+115F>"),
            ("\u{e000}\u{10ffff}\u{fffe}", "<U+E000><U+10FFFF><U+FFFE>"),
        ]);
    }

    #[test]
    fn newlines_are_kept_and_tabs_become_spaces() {
        assert_eq!(safe_text("one\r\ntwo\nthree"), "one\ntwo\nthree");
        assert_eq!(safe_text("a\tb"), "a    b");
        assert_eq!(safe_text("end\r"), "end<U+000D>");
    }
}
