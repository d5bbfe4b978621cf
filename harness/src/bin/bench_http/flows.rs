//! The three flows the bench runs, as data: each tool's arguments, the user's answers, and the
//! final text, computed by hand. The floor answers with that text; the demo's own answer must
//! be equal to it (so both sides run the same rounds and the load generator checks each).

use rmcp::model::InputResponses;
use serde_json::{Map, Value, json};

/// A form round, a two-question round, a URL flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Form,
    TwoQuestions,
    Url,
}

impl Kind {
    pub(crate) const ALL: [Kind; 3] = [Kind::Form, Kind::TwoQuestions, Kind::Url];

    pub(crate) fn tool(self) -> &'static str {
        match self {
            Kind::Form => "book_table",
            Kind::TwoQuestions => "plan_trip",
            Kind::Url => "connect_account",
        }
    }

    pub(crate) fn of_tool(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.tool() == name)
    }

    pub(crate) fn arguments(self, tag: &str) -> Map<String, Value> {
        let value = match self {
            Kind::Form => json!({"restaurant": format!("Chez {tag}")}),
            Kind::TwoQuestions => json!({"destination": format!("Rome {tag}")}),
            Kind::Url => json!({"service": format!("svc-{tag}")}),
        };
        match value {
            Value::Object(map) => map,
            _ => unreachable!("arguments are objects"),
        }
    }

    pub(crate) fn answers(self) -> InputResponses {
        let accept = |content: Value| json!({"action": "accept", "content": content});
        let mut answers = InputResponses::new();
        match self {
            Kind::Form => {
                let booking = json!({
                    "date": "2026-12-24", "time": "20:00", "guests": 4, "seating": "terrace",
                    "extras": ["high_chair", "birthday_cake"], "email": "ada@example.com",
                });
                answers.insert("booking".into(), accept(booking));
            }
            Kind::TwoQuestions => {
                let dates = json!({"start": "2026-12-24", "nights": 2});
                answers.insert("dates".into(), accept(dates));
                answers.insert(
                    "travelers".into(),
                    accept(json!({"adults": 2, "children": 1})),
                );
            }
            Kind::Url => {
                answers.insert("connect".into(), json!({"action": "accept"}));
            }
        }
        answers
    }
}

/// The final text for `arguments` and accepted `answers`, as a bare server computes it (the
/// demo's wording); `None` when something it needs is missing.
pub(crate) fn final_text(
    kind: Kind,
    arguments: &Map<String, Value>,
    answers: &InputResponses,
) -> Option<String> {
    let arg = |key: &str| arguments.get(key)?.as_str();
    let field = |question: &str, key: &str| answers.get(question)?["content"].get(key).cloned();
    let text = |value: Option<Value>| match value? {
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    };
    Some(match kind {
        Kind::Form => {
            let extras = field("booking", "extras")?;
            let extras: Vec<&str> = extras
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            format!(
                "accept: table for {} at {} on {} at {}, seating {}, extras {}, confirmation to {}",
                text(field("booking", "guests"))?,
                arg("restaurant")?,
                text(field("booking", "date"))?,
                text(field("booking", "time"))?,
                text(field("booking", "seating"))?,
                extras.join(" + "),
                text(field("booking", "email"))?,
            )
        }
        Kind::TwoQuestions => format!(
            "accept: {} nights in {} from {} for {} adults and {} children",
            text(field("dates", "nights"))?,
            arg("destination")?,
            text(field("dates", "start"))?,
            text(field("travelers", "adults"))?,
            text(field("travelers", "children"))?,
        ),
        Kind::Url => {
            let service = arg("service")?;
            format!("accept: connected {service} as demo-user@{service}")
        }
    })
}
