//! Which characters of a text from the other side are shown as their code point rather than as
//! themselves: one rule for the host's renderers (`elicit_host::safe_text`) and the landing
//! page (`elicit-axum`), so both mark the same set.

use unicode_general_category::{GeneralCategory, get_general_category};

/// Whether `c`, in a text from the other side, is shown as its code point (`<U+XXXX>`) rather
/// than as itself, because it could act on a terminal or hide, reorder or fake text: every
/// control character (C0 and C1, DEL) but the newline and the tab; every format character
/// (bidi overrides and isolates, zero-width characters, the soft hyphen, interlinear
/// annotations, tag characters); the line and paragraph separators; the invisible Hangul
/// fillers; and private-use and unassigned code points, which a font may draw as anything or
/// nothing.
///
/// ```
/// use elicit_formats::is_marked;
///
/// assert!(is_marked('\u{1b}')); // ESC: an escape sequence's start
/// assert!(is_marked('\u{202e}')); // right-to-left override
/// assert!(is_marked('\u{200b}')); // zero-width space
/// assert!(!is_marked('\n') && !is_marked('\t'));
/// assert!(!is_marked('é') && !is_marked('東') && !is_marked('🚀'));
/// ```
pub fn is_marked(c: char) -> bool {
    if c == '\n' || c == '\t' {
        return false;
    }
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}')
        || matches!(
            get_general_category(c),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
                | GeneralCategory::PrivateUse
                | GeneralCategory::Surrogate
                | GeneralCategory::Unassigned
        )
}
