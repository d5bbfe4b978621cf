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
    assert!(page.contains(r#"name="a&quot;b""#));
    assert!(page.contains(r#"id="elicit-a_b""#));
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
            ("replicas", "40"),
            ("notify", "email"),
            ("notify", "chat"),
        ]),
    );
    assert_eq!(
        refused.unwrap_err(),
        [
            FieldProblem {
                field: "replicas".into(),
                reason: "must be at most 10".into()
            },
            FieldProblem {
                field: "notify".into(),
                reason: "must choose at most 1 option".into()
            },
        ]
    );
    let sent = html::read(
        &form,
        posted(&[
            ("elicit-action", "accept"),
            ("replicas", "3"),
            ("notify", "chat"),
        ]),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        json!({"action": "accept", "content": {"replicas": 3, "notify": ["chat"], "canary": false}})
    );
    let declined = html::read(
        &form,
        posted(&[("elicit-action", "decline"), ("replicas", "40")]),
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
