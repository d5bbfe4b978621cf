//! The HTML renderer without a browser: what a server sends is escaped everywhere, the
//! posted answer is read by the server's rules (problems by field), and a refused link gets no
//! Open button.

use elicit_host::{Elicitation, FieldProblem, FormInput, UrlReport, html};
use serde_json::json;

fn posted(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn everything_a_server_sends_is_escaped() {
    let params = json!({"message": "<script>alert(1)</script>", "requestedSchema": {
        "type": "object", "title": "<u>Registration</u>", "description": "<s>who</s>",
        "properties": {"a\"b": {"type": "string", "title": "<b>x</b>", "description": "it's \"quoted\" & <i>"}}
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let page = html::form("<img src=x>", &FormInput::new(&form), "/a?b=\"c\"", &[]);
    for raw in ["<script>", "<img", "<b>x", "<i>", "\"c\"", "<u>", "<s>"] {
        assert!(!page.contains(raw), "{raw} in {page}");
    }
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // The schema's own title and description, below the message.
    assert!(page.contains(
        "<p class=\"elicit-form-title\"><strong>&lt;u&gt;Registration&lt;/u&gt;</strong></p>\n  \
         <p class=\"elicit-form-description\">&lt;s&gt;who&lt;/s&gt;</p>\n"
    ));
    assert!(page.contains("it&#39;s &quot;quoted&quot; &amp; &lt;i&gt;"));
    assert!(page.contains(r#"name="field:a&quot;b""#));
    assert!(page.contains(r#"id="elicit-a_22b""#));
}

#[test]
fn a_posted_answer_is_read_by_the_servers_rules() {
    let params = json!({"message": "Deploy", "requestedSchema": {
        "type": "object",
        "properties": {
            "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
            "notify": {"type": "array", "items": {"type": "string", "enum": ["email", "chat"]}, "maxItems": 1},
            "canary": {"type": "boolean"}
        },
        "required": ["replicas"]
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let refused = html::read(
        &form,
        posted(&[
            ("elicit-action", "accept"),
            ("field:replicas", "40"),
            ("field:notify", "email"),
            ("field:notify", "chat"),
        ]),
    );
    assert_eq!(
        refused.unwrap_err(),
        html::ReadError::Problems(vec![
            FieldProblem {
                field: "replicas".into(),
                reason: "must be at most 10".into()
            },
            FieldProblem {
                field: "notify".into(),
                reason: "must choose at most 1 option".into()
            },
        ])
    );
    let sent = html::read(
        &form,
        posted(&[
            ("elicit-action", "accept"),
            ("field:replicas", "3"),
            ("field:notify", "chat"),
        ]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        json!({"action": "accept", "content": {"replicas": 3, "notify": ["chat"], "canary": false}})
    );
    let declined = html::read(
        &form,
        posted(&[("elicit-action", "decline"), ("field:replicas", "40")]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(declined).unwrap(),
        json!({"action": "decline"})
    );
    let nothing = html::read(&form, posted(&[])).unwrap();
    assert_eq!(
        serde_json::to_value(nothing).unwrap(),
        json!({"action": "cancel"})
    );

    // Shown again with the problems at their fields.
    let mut input = FormInput::empty(&form);
    input.set_text("replicas", "3").unwrap();
    let problems = [FieldProblem {
        field: "replicas".into(),
        reason: "must be at most 10".into(),
    }];
    let page = html::form("Desk", &input, "/answer", &problems);
    assert!(page.contains(r#"<p id="elicit-replicas-problem" class="elicit-problem" role="alert">must be at most 10</p>"#), "{page}");
    assert!(
        page.contains(
            r#"aria-describedby="elicit-replicas-help elicit-replicas-problem" aria-invalid="true""#
        ),
        "{page}"
    );
}

#[test]
fn a_refused_link_gets_no_open_button() {
    let report = UrlReport::assess("javascript:alert(1)", None);
    let panel = html::consent("Desk", "Open", &report, "/answer");
    assert!(!panel.contains(r#"value="accept""#));
    assert!(panel.contains("This link will not be opened."));
    assert!(!panel.contains("<a "));
}

/// A form with a field named like the page's buttons, and `accept` as its default.
fn named_like_the_buttons() -> elicit_host::FormModel {
    let params = json!({"message": "Delete the repository?", "requestedSchema": {
        "type": "object",
        "properties": {
            "elicit-action": {"type": "string", "default": "accept"},
            "reason": {"type": "string"}
        }
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    form
}

#[test]
fn a_field_named_like_the_buttons_cannot_answer_for_the_person() {
    let form = named_like_the_buttons();
    let page = html::form("Desk", &FormInput::new(&form), "/answer", &[]);
    // The field posts under its own name; only the buttons post as `elicit-action`.
    assert!(
        page.contains(r#"name="field:elicit-action" type="text" value="accept""#),
        "{page}"
    );
    assert_eq!(page.matches(r#"name="elicit-action""#).count(), 3);

    // What a browser posts on Decline and Cancel: the field's value first, then the button.
    for (button, answer) in [("decline", "decline"), ("cancel", "cancel")] {
        let result = html::read(
            &form,
            posted(&[
                ("field:elicit-action", "accept"),
                ("field:reason", "typed"),
                ("elicit-action", button),
            ]),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(result).unwrap(),
            json!({ "action": answer })
        );
    }
    let sent = html::read(
        &form,
        posted(&[
            ("field:elicit-action", "accept"),
            ("field:reason", ""),
            ("elicit-action", "accept"),
        ]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        json!({"action": "accept", "content": {"elicit-action": "accept"}})
    );
}

#[test]
fn a_post_the_page_cannot_send_is_refused_whatever_its_order() {
    let form = named_like_the_buttons();
    let refused = |pairs: &[(&str, &str)]| match html::read(&form, posted(pairs)) {
        Err(html::ReadError::NotThisForm(why)) => why,
        other => panic!("taken: {other:?}"),
    };
    // Two actions, either order: neither is taken.
    for pairs in [
        [("elicit-action", "accept"), ("elicit-action", "decline")],
        [("elicit-action", "decline"), ("elicit-action", "accept")],
    ] {
        assert_eq!(refused(&pairs), "`elicit-action` is posted more than once");
    }
    // The field's name without the prefix (the old way of posting), or one the form lacks.
    assert_eq!(
        refused(&[("elicit-action", "decline"), ("reason", "x")]),
        "`reason` is not a name this page posts"
    );
    assert_eq!(
        refused(&[("field:other", "x"), ("elicit-action", "accept")]),
        "`field:other` is not a name this page posts"
    );
    // A one-value field twice, and an action the buttons do not have.
    assert_eq!(
        refused(&[
            ("field:reason", "a"),
            ("field:reason", "b"),
            ("elicit-action", "accept")
        ]),
        "`field:reason` is posted more than once"
    );
    assert_eq!(
        refused(&[("elicit-action", "Accept")]),
        "`elicit-action` is `Accept`, not accept, decline or cancel"
    );
    assert_eq!(
        html::read(
            &form,
            posted(&[("elicit-action", "accept"), ("elicit-action", "accept")])
        )
        .unwrap_err()
        .to_string(),
        "not a post of this page: `elicit-action` is posted more than once"
    );

    // The consent panel: one action and nothing else.
    assert_eq!(
        html::read_consent(posted(&[("elicit-action", "decline")])),
        Ok(elicit_host::Consent::Declined)
    );
    for pairs in [
        &[("elicit-action", "accept"), ("elicit-action", "decline")][..],
        &[("field:x", "1"), ("elicit-action", "accept")][..],
    ] {
        assert!(matches!(
            html::read_consent(posted(pairs)),
            Err(html::ReadError::NotThisForm(_))
        ));
    }

    // Shown again from such a post: a repeated one-value field is a problem, not its first value.
    let (input, problems) = html::filled(
        &form,
        &posted(&[("field:reason", "a"), ("field:reason", "b")]),
    );
    assert_eq!(input.value("reason"), None);
    assert_eq!(problems[0].to_string(), "`reason`: was sent more than once");
}

#[test]
fn every_field_has_its_own_ids_and_each_label_points_at_its_own_control() {
    let params = json!({"message": "Flags", "requestedSchema": {"type": "object", "properties": {
        "a.b": {"type": "boolean", "title": "Dot"},
        "a_b": {"type": "boolean", "title": "Underscore"},
        "a-b": {"type": "string", "title": "Dash"},
        "a b": {"type": "string", "title": "Space"},
        "title": {"type": "string", "title": "Title"},
        "a": {"type": "string", "title": "A"},
        "a-help": {"type": "string", "title": "Not a's help"},
        "é": {"type": "array", "title": "Accent", "items": {"type": "string", "enum": ["x", "y"]}},
        "_c3_a9": {"type": "array", "title": "Escaped", "items": {"type": "string", "enum": ["x", "y"]}}
    }}});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let page = html::form("Desk", &FormInput::new(&form), "/answer", &[]);
    let attributes = |name: &str| -> Vec<String> {
        page.split(&format!(" {name}=\""))
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
            .collect()
    };
    let ids = attributes("id");
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "an id used twice: {ids:?}");
    for target in attributes("for") {
        assert!(
            ids.contains(&target),
            "label for {target} points at nothing"
        );
    }
    // Each label is for its own field's control (named `field:` and the field's name).
    for (name, id) in [
        ("a.b", "elicit-a_2eb"),
        ("a_b", "elicit-a_5fb"),
        ("a-b", "elicit-a_2db"),
        ("a b", "elicit-a_20b"),
        ("title", "elicit-title"),
        ("a-help", "elicit-a_2dhelp"),
    ] {
        assert!(
            page.contains(&format!(r#"id="{id}" name="field:{name}""#)),
            "{name}: {page}"
        );
        assert_eq!(page.matches(&format!(r#"<label for="{id}">"#)).count(), 1);
    }
    assert!(page.contains(r#"<label for="elicit-a_2eb">Dot</label>"#));
    assert!(page.contains(r#"<label for="elicit-a_5fb">Underscore</label>"#));
    assert!(page.contains(r#"<h2 id="elicit--title">"#));
    assert!(page.contains(r#"<p id="elicit-a-help" class="elicit-help">"#));
    assert!(page.contains(
        r#"<label for="elicit-_c3_a9-0"><input type="checkbox" id="elicit-_c3_a9-0" name="field:é""#
    ));
    assert!(page.contains(r#"<label for="elicit-_5fc3_5fa9-0"><input type="checkbox" id="elicit-_5fc3_5fa9-0" name="field:_c3_a9""#));
}

#[test]
fn an_option_with_a_comma_in_its_value_is_read_back_whole() {
    let params = json!({"message": "Where?", "requestedSchema": {"type": "object", "properties": {
        "city": {"type": "string", "enum": ["Paris, France", "Paris, Texas"]},
        "stops": {"type": "array", "items": {"type": "string", "enum": ["Rome, Italy", "Oslo"]}}
    }}});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let sent = html::read(
        &form,
        posted(&[
            ("field:city", "Paris, Texas"),
            ("field:stops", "Rome, Italy"),
            ("field:stops", "Oslo"),
            ("elicit-action", "accept"),
        ]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        json!({"action": "accept", "content": {"city": "Paris, Texas", "stops": ["Rome, Italy", "Oslo"]}})
    );
}

#[test]
fn values_the_browser_posts_back_are_the_servers_own_and_their_labels_show_what_hides() {
    // A field name and option values with a zero-width space and a right-to-left mark: shown
    // marked in the labels, posted back exactly as the server wrote them.
    let params = json!({"message": "Pick", "requestedSchema": {
        "type": "object",
        "properties": {
            "pick\u{200b}": {"type": "string", "title": "Pick",
                "oneOf": [{"const": "a\u{200b}b", "title": "A\u{200b}B"},
                          {"const": "c\u{200f}", "title": "C"}]},
            "tags": {"type": "array", "title": "Tags",
                "items": {"anyOf": [{"const": "x\u{200b}", "title": "X\u{200b}"}]}}
        },
        "required": ["pick\u{200b}"]
    }});
    let Elicitation::Form(form) = Elicitation::from_params(&params).unwrap() else {
        unreachable!()
    };
    let page = html::form("Desk", &FormInput::new(&form), "/answer", &[]);
    assert!(page.contains("name=\"field:pick\u{200b}\""), "{page}");
    assert!(page.contains("<option value=\"a\u{200b}b\">A&lt;U+200B&gt;B</option>"));
    assert!(page.contains("value=\"x\u{200b}\"> X&lt;U+200B&gt;</label>"));
    let result = html::read(
        &form,
        posted(&[
            ("elicit-action", "accept"),
            ("field:pick\u{200b}", "a\u{200b}b"),
            ("field:tags", "x\u{200b}"),
        ]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(result).unwrap(),
        json!({"action": "accept", "content": {"pick\u{200b}": "a\u{200b}b", "tags": ["x\u{200b}"]}})
    );
}
