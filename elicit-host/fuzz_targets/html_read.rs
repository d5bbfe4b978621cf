//! `html_read`: any post, for any form, read back as the HTML renderer's `read` does.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::Elicitation;
use crate::form::{Control, FormModel};
use crate::html::{self, ReadError};
use crate::wire::ElicitAction;

/// The input's first line is the form's params (a fixed form with a field of each kind, and
/// one named like the buttons, when it is not a form), the rest the posted body
/// (`application/x-www-form-urlencoded`).
///
/// Reading never panics. A post with more than one `elicit-action`, or a name that is neither
/// `elicit-action` nor `field:` and one of the form's fields, is never taken as an answer; an
/// accepted answer passes the form's schema; a decline or cancel is exactly what the one
/// action said. `filled` and `read_consent` never panic.
pub fn html_read(data: &[u8]) {
    let (params, body) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[][..], data),
    };
    let form = serde_json::from_slice::<Value>(params)
        .ok()
        .and_then(|params| match Elicitation::from_params(&params) {
            Ok(Elicitation::Form(form)) => Some(form),
            _ => None,
        })
        .unwrap_or_else(fixed_form);
    let posted: Vec<(String, String)> = url::form_urlencoded::parse(body).into_owned().collect();
    let actions: Vec<&str> = posted
        .iter()
        .filter(|(name, _)| name == "elicit-action")
        .map(|(_, value)| value.as_str())
        .collect();
    let strays = posted.iter().any(|(name, _)| {
        name != "elicit-action"
            && name
                .strip_prefix("field:")
                .is_none_or(|field| form.field(field).is_none())
    });
    let _ = html::filled(&form, &posted);
    let consent = html::read_consent(posted.clone());
    if actions.len() > 1 || !posted.iter().all(|(name, _)| name == "elicit-action") {
        assert!(consent.is_err(), "a consent taken from {posted:?}");
    }
    match html::read(&form, posted.clone()) {
        Ok(result) => {
            assert!(actions.len() <= 1 && !strays, "taken: {posted:?}");
            let said = match actions.first() {
                None | Some(&"cancel") => ElicitAction::Cancel,
                Some(&"decline") => ElicitAction::Decline,
                Some(&"accept") => ElicitAction::Accept,
                Some(other) => panic!("the action {other:?} was taken"),
            };
            assert_eq!(result.action, said, "{posted:?}");
            if let Some(content) = &result.content {
                let content = Value::Object(content.clone());
                assert!(form.schema().validate(&content).is_ok(), "{content}");
            }
        }
        Err(ReadError::NotThisForm(_)) => {
            let unknown_action = actions
                .iter()
                .any(|action| !["accept", "decline", "cancel"].contains(action));
            let mut one_value = HashSet::new();
            let twice = posted.iter().any(|(name, _)| {
                name.strip_prefix("field:")
                    .and_then(|field| form.field(field))
                    .is_some_and(|field| {
                        field.control() != Control::MultiChoice && !one_value.insert(field.name())
                    })
            });
            assert!(
                actions.len() > 1 || unknown_action || strays || twice,
                "a post of this page refused: {posted:?}"
            );
        }
        Err(ReadError::Problems(problems)) => {
            assert_eq!(
                actions,
                ["accept"],
                "problems without an accept: {posted:?}"
            );
            assert!(!problems.is_empty());
        }
    }
}

fn fixed_form() -> FormModel {
    let params = json!({"message": "?", "requestedSchema": {"type": "object", "properties": {
        "elicit-action": {"type": "string", "default": "accept"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
        "env": {"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b,c", "title": "B"}]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y,z"]}, "maxItems": 1},
        "ok": {"type": "boolean"},
        "a.b": {"type": "string", "format": "email"}
    }, "required": ["replicas"]}});
    match Elicitation::from_params(&params) {
        Ok(Elicitation::Form(form)) => form,
        _ => unreachable!("the fixed form parses"),
    }
}

/// Posts a browser sends and posts it cannot, for the fixed form (an empty first line).
pub(super) fn seeds() -> Vec<Vec<u8>> {
    let custom = serde_json::to_string(
        &json!({"message": "?", "requestedSchema": {"type": "object",
        "properties": {"x": {"type": "string"}}}}),
    )
    .expect("JSON");
    [
        "\nfield%3Aelicit-action=accept&field%3Areplicas=3&field%3Aenv=b%2Cc&field%3Atags=y%2Cz&field%3Aok=true&field%3Aa.b=ada%40example.com&elicit-action=accept",
        "\nfield%3Aelicit-action=accept&field%3Areplicas=30&elicit-action=accept",
        "\nfield%3Aelicit-action=accept&elicit-action=decline",
        "\nfield%3Aelicit-action=accept&elicit-action=cancel",
        "\nelicit-action=accept&elicit-action=decline",
        "\nelicit-action=decline&elicit-action=accept",
        "\nelicit-action=Accept",
        "\nreplicas=3&elicit-action=accept",
        "\nfield%3Areplicas=3&field%3Areplicas=4&elicit-action=accept",
        "\nfield%3Atags=x&field%3Atags=y%2Cz&field%3Areplicas=2&elicit-action=accept",
        "\nfield%3Aother=1&elicit-action=decline",
        "\n",
        "\nelicit-action",
        "\n%FF%FE=%00&elicit-action=accept",
    ]
    .into_iter()
    .map(|seed| seed.as_bytes().to_vec())
    .chain([format!("{custom}\nfield%3Ax=hi&elicit-action=accept").into_bytes()])
    .collect()
}
