//! The terminal renderer, driven as a person types: every field kind edited, a bad value
//! refused with the server's reason, the review screen, decline and cancel, the end of input,
//! and the URL consent screens (the site emphasised, a refused link never offered). The
//! screens are asserted whole.

use elicit_host::terminal::Terminal;
use elicit_host::{Consent, Elicitation, FormModel, UrlReport};
use serde_json::{Value, json};

fn release() -> FormModel {
    let params = json!({"message": "Deploy checkout", "requestedSchema": {
        "type": "object",
        "properties": {
            "environment": {"type": "string", "title": "Environment",
                "oneOf": [{"const": "staging", "title": "Staging"},
                          {"const": "production", "title": "Production"}],
                "default": "staging"},
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 2},
            "notify": {"type": "array", "title": "Notify",
                "items": {"type": "string", "enum": ["email", "chat", "pager"]}},
            "note": {"type": "string", "title": "Note", "description": "Shown in the changelog", "maxLength": 40},
            "canary": {"type": "boolean", "title": "Canary first"}
        },
        "required": ["environment", "replicas", "canary"]
    }});
    match Elicitation::from_params(&params).unwrap() {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => unreachable!(),
    }
}

fn fill(typed: &str) -> (Value, String) {
    let form = release();
    let mut screen = Vec::new();
    let result = Terminal::new(typed.as_bytes(), &mut screen)
        .plain()
        .fill("Release desk", &form)
        .unwrap();
    (
        serde_json::to_value(result).unwrap(),
        String::from_utf8(screen).unwrap(),
    )
}

#[test]
fn every_field_kind_is_edited_reviewed_and_sent() {
    // Keep Staging; 40 replicas refused, then 3; notify by numbers and a name; a note; canary
    // "maybe" refused, then y; on review change 1 to Production by number; send.
    let typed = "\n40\n3\n1, pager\nfirst deploy of the day\nmaybe\ny\n1\n2\ns\n";
    let (result, screen) = fill(typed);
    assert_eq!(
        result,
        json!({"action": "accept", "content": {
            "environment": "production", "replicas": 3, "notify": ["email", "pager"],
            "note": "first deploy of the day", "canary": true
        }})
    );
    // The person's typing is echoed by the terminal, not written here: each prompt is followed
    // directly by what comes next.
    let expected = [
        "── Release desk asks ──\n",
        "Deploy checkout\n",
        "(Enter keeps the value in brackets, - clears it; :d declines, :c cancels)\n",
        "  1. Environment * — choose one\n",
        "     1) Staging   2) Production\n",
        "     [Staging] > ",
        "  2. Replicas * — a whole number from 1 to 10\n",
        "     [2] >      ✗ must be at most 10\n",
        "     [2] > ",
        "  3. Notify — choose any\n",
        "     1) email   2) chat   3) pager\n",
        "     [(empty)] > ",
        "  4. Note — at most 40 characters\n",
        "     Shown in the changelog\n",
        "     [(empty)] > ",
        "  5. Canary first * — yes or no\n",
        "     [(empty)] >      ✗ answer yes or no\n",
        "     [(empty)] > ",
        "Your answer:\n",
        "  1. Environment *  Staging\n",
        "  2. Replicas *     3\n",
        "  3. Notify         email, pager\n",
        "  4. Note           first deploy of the day\n",
        "  5. Canary first * yes\n",
        "[s]end, a field's number to change it, [d]ecline, [c]ancel: ",
        "  1. Environment * — choose one\n",
        "     1) Staging   2) Production\n",
        "     [Staging] > ",
        "Your answer:\n",
        "  1. Environment *  Production\n",
        "  2. Replicas *     3\n",
        "  3. Notify         email, pager\n",
        "  4. Note           first deploy of the day\n",
        "  5. Canary first * yes\n",
        "[s]end, a field's number to change it, [d]ecline, [c]ancel: ",
    ]
    .concat();
    assert_eq!(screen, expected);
}

#[test]
fn send_with_a_required_field_missing_says_which_and_asks_again() {
    // Everything kept (canary has no default), send refused, then canary set on review.
    let (result, screen) = fill("\n\n\n\n\ns\n5\nno\ns\n");
    assert_eq!(
        result,
        json!({"action": "accept", "content": {"environment": "staging", "replicas": 2, "canary": false}})
    );
    assert!(
        screen.contains("  ✗ Canary first: is required\n"),
        "{screen}"
    );
}

#[test]
fn decline_and_cancel_work_at_every_prompt_and_the_end_of_input_cancels() {
    assert_eq!(fill(":d\n").0, json!({"action": "decline"}));
    assert_eq!(fill("\n:c\n").0, json!({"action": "cancel"}));
    assert_eq!(fill("\n\n\n\n\nd\n").0, json!({"action": "decline"}));
    assert_eq!(fill("\n\n\n\n\nc\n").0, json!({"action": "cancel"}));
    assert_eq!(fill("\n\n").0, json!({"action": "cancel"}));
}

#[test]
fn an_optional_field_is_cleared_with_a_dash_and_a_required_one_is_not() {
    let (result, screen) = fill("-\n\n2\n1\n\ny\n3\n-\ns\n");
    assert_eq!(
        result,
        json!({"action": "accept", "content": {"environment": "staging", "replicas": 2, "canary": true}})
    );
    assert!(screen.contains("✗ this field is required"), "{screen}");
}

fn consent(url: &str, server: Option<&str>, typed: &str, styled: bool) -> (Consent, String) {
    let report = UrlReport::assess(url, server);
    let mut screen = Vec::new();
    let terminal = Terminal::new(typed.as_bytes(), &mut screen);
    let mut terminal = if styled { terminal } else { terminal.plain() };
    let consent = terminal
        .consent("Release desk", "Connect GitHub", &report)
        .unwrap();
    (consent, String::from_utf8(screen).unwrap())
}

#[test]
fn the_consent_screen_shows_the_whole_url_with_its_site_emphasised() {
    let url = "https://github.com/login/oauth/authorize?client_id=abc&state=xyz";
    let (choice, screen) = consent(url, Some("https://desk.example.com"), "maybe\no\n", false);
    assert_eq!(choice, Consent::Opened);
    assert_eq!(
        screen,
        "\
── Release desk asks you to open a page ──
Connect GitHub
  goes to  https://[github.com]/login/oauth/authorize?client_id=abc&state=xyz
  site     github.com
  · the page is not on this server's site `example.com`
Nothing has been opened. Open it in your browser? [o]pen, [d]ecline, [c]ancel:   type o, d or c
Nothing has been opened. Open it in your browser? [o]pen, [d]ecline, [c]ancel: "
    );
    // In a terminal with styles, the site is bold and underlined.
    let (_, screen) = consent(url, None, "c\n", true);
    assert!(
        screen.contains("https://\x1b[1;4mgithub.com\x1b[0m/login/oauth"),
        "{screen:?}"
    );
    assert_eq!(consent(url, None, "d\n", false).0, Consent::Declined);
    assert_eq!(consent(url, None, "", false).0, Consent::Cancelled);
}

#[test]
fn a_lookalike_is_flagged_and_a_refused_link_is_never_offered() {
    let (choice, screen) = consent("https://xn--gthub-n4a.com/login", None, "d\n", false);
    assert_eq!(choice, Consent::Declined);
    assert!(screen.contains("  site     gıthub.com\n"), "{screen}");
    assert!(
        screen.contains("  ! `gıthub` is written in another alphabet but reads as `github`\n"),
        "{screen}"
    );
    assert!(
        screen.contains("  · the site name uses non-ASCII letters"),
        "{screen}"
    );

    let (choice, screen) = consent("javascript:alert(1)", None, "o\n", false);
    assert_eq!(choice, Consent::Declined);
    assert!(
        screen.ends_with("This link will not be opened.\n"),
        "{screen}"
    );
    assert!(!screen.contains("Open it"));
}

#[test]
fn a_schema_title_and_description_are_shown_below_the_message() {
    // What the Python SDK sends: the model's name as the root `title`.
    let params = json!({"message": "Please provide your registration details:", "requestedSchema": {
        "type": "object", "title": "Registration", "description": "Who you are",
        "properties": {"username": {"type": "string", "title": "Username"}},
        "required": ["username"]
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let mut screen = Vec::new();
    let result = Terminal::new("alice\ns\n".as_bytes(), &mut screen)
        .plain()
        .fill("legacy-elicitation-example", &form)
        .unwrap();
    assert_eq!(
        serde_json::to_value(result).unwrap(),
        json!({"action": "accept", "content": {"username": "alice"}})
    );
    let screen = String::from_utf8(screen).unwrap();
    assert!(
        screen.starts_with(
            "── legacy-elicitation-example asks ──\n\
             Please provide your registration details:\n\
             Registration\n\
             Who you are\n\
             (Enter keeps"
        ),
        "{screen}"
    );
}

#[test]
fn options_whose_values_hold_commas_are_picked_by_number_or_whole() {
    let params = json!({"message": "Where?", "requestedSchema": {
        "type": "object",
        "properties": {
            "cities": {"type": "array", "title": "Cities",
                "items": {"type": "string", "enum": ["Rome, Italy", "Paris, France", "Oslo"]}}
        },
        "required": ["cities"]
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    for (typed, picked) in [
        ("1, 3\ns\n", json!(["Rome, Italy", "Oslo"])),
        ("2\ns\n", json!(["Paris, France"])),
        ("Rome, Italy\ns\n", json!(["Rome, Italy"])),
        ("oslo\ns\n", json!(["Oslo"])),
    ] {
        let mut screen = Vec::new();
        let result = Terminal::new(typed.as_bytes(), &mut screen)
            .plain()
            .fill("Travel desk", &form)
            .unwrap();
        assert_eq!(
            serde_json::to_value(result).unwrap(),
            json!({"action": "accept", "content": {"cities": picked}}),
            "{typed:?}: {}",
            String::from_utf8_lossy(&screen)
        );
    }
}
