//! Transcripts with their random values replaced by numbered placeholders, so that a snapshot
//! of a run is the same on every run and still shows which values are the same.

use std::collections::BTreeMap;

use serde_json::Value;

use super::transcript::{Message, Transcript};

/// The members whose string values differ on every run.
const RANDOM_MEMBERS: [&str; 3] = ["requestState", "elicitationId", "taskId"];

impl Transcript {
    /// This transcript with every value that differs from run to run replaced by a numbered
    /// placeholder: each `requestState` by `[requestState 1]`, `[requestState 2]`, …; each
    /// `elicitationId` and `taskId` likewise; and the sealed handle in a URL-mode link
    /// (`…?elicitation=<handle>`) by `[handle 1]`, …. The same value gets the same number
    /// wherever it appears, so a retry that echoes its round's state reads
    /// `"requestState": "[requestState 1]"` on both sides. Ready for
    /// `insta::assert_json_snapshot!(run.transcript.redacted().to_json())`.
    ///
    /// ```
    /// use elicit_rmcp::testing::{Message, Side, Transcript};
    /// use serde_json::json;
    ///
    /// let transcript = Transcript::new(vec![
    ///     Message { from: Side::Server, json: json!({"jsonrpc": "2.0", "id": 1, "result": {
    ///         "resultType": "input_required",
    ///         "inputRequests": {"pay": {"method": "elicitation/create", "params": {"mode": "url",
    ///             "message": "Pay", "url": "https://shop.example.com/pay?elicitation=v1.Zx9q&lang=en"}}},
    ///         "requestState": "es1.Qm9v"}}) },
    ///     Message { from: Side::Client, json: json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
    ///         "params": {"name": "pay", "inputResponses": {"pay": {"action": "accept"}},
    ///                    "requestState": "es1.Qm9v"}}) },
    /// ]);
    /// assert_eq!(transcript.redacted().to_json(), json!([
    ///     {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
    ///         "resultType": "input_required",
    ///         "inputRequests": {"pay": {"method": "elicitation/create", "params": {"mode": "url",
    ///             "message": "Pay", "url": "https://shop.example.com/pay?elicitation=[handle 1]&lang=en"}}},
    ///         "requestState": "[requestState 1]"}}},
    ///     {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
    ///         "params": {"name": "pay", "inputResponses": {"pay": {"action": "accept"}},
    ///                    "requestState": "[requestState 1]"}}},
    /// ]));
    /// ```
    pub fn redacted(&self) -> Transcript {
        let mut placeholders = Placeholders::default();
        Transcript(
            self.0
                .iter()
                .map(|m| Message {
                    from: m.from,
                    json: placeholders.redact(m.json.clone()),
                })
                .collect(),
        )
    }
}

/// The placeholder of each random value seen so far, numbered per kind.
#[derive(Default)]
struct Placeholders {
    seen: BTreeMap<(String, String), String>,
    counts: BTreeMap<String, usize>,
}

impl Placeholders {
    fn placeholder(&mut self, kind: &str, value: &str) -> String {
        let key = (kind.to_owned(), value.to_owned());
        if let Some(known) = self.seen.get(&key) {
            return known.clone();
        }
        let count = self.counts.entry(kind.to_owned()).or_default();
        *count += 1;
        let placeholder = format!("[{kind} {count}]");
        self.seen.insert(key, placeholder.clone());
        placeholder
    }

    fn redact(&mut self, value: Value) -> Value {
        match value {
            Value::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(name, value)| {
                        let value = match (&value, RANDOM_MEMBERS.contains(&name.as_str())) {
                            (Value::String(random), true) => {
                                Value::String(self.placeholder(&name, random))
                            }
                            _ => self.redact(value),
                        };
                        (name, value)
                    })
                    .collect(),
            ),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| self.redact(v)).collect())
            }
            Value::String(text) => Value::String(self.redact_handle(text)),
            other => other,
        }
    }

    /// A link's `elicitation=<handle>` query parameter, with the handle replaced.
    fn redact_handle(&mut self, text: String) -> String {
        let Some(at) = text.find("elicitation=").map(|i| i + "elicitation=".len()) else {
            return text;
        };
        if !text[..at].contains('?') {
            return text;
        }
        let end = text[at..].find('&').map_or(text.len(), |i| at + i);
        let placeholder = self.placeholder("handle", &text[at..end]);
        format!("{}{placeholder}{}", &text[..at], &text[end..])
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::transcript::{Message, Side, Transcript};

    fn one(json: serde_json::Value) -> serde_json::Value {
        let t = Transcript::new(vec![Message {
            from: Side::Server,
            json,
        }]);
        t.redacted().messages()[0].json.clone()
    }

    #[test]
    fn each_kind_is_numbered_apart_and_a_repeated_value_keeps_its_number() {
        let redacted = one(json!({"a": {"requestState": "s1", "elicitationId": "e1"},
            "b": [{"requestState": "s2"}, {"requestState": "s1"}, {"taskId": "t"}]}));
        assert_eq!(
            redacted,
            json!({"a": {"requestState": "[requestState 1]", "elicitationId": "[elicitationId 1]"},
                "b": [{"requestState": "[requestState 2]"}, {"requestState": "[requestState 1]"},
                      {"taskId": "[taskId 1]"}]})
        );
    }

    #[test]
    fn only_a_query_parameter_named_elicitation_is_a_handle() {
        let redacted = one(json!({
            "last": "https://x.example/p?elicitation=h1",
            "first": "https://x.example/p?elicitation=h2&lang=en",
            "text": "see elicitation=h3 in the docs",
            "number": 7,
            "requestState": 7
        }));
        assert_eq!(
            redacted,
            json!({
                "last": "https://x.example/p?elicitation=[handle 1]",
                "first": "https://x.example/p?elicitation=[handle 2]&lang=en",
                "text": "see elicitation=h3 in the docs",
                "number": 7,
                "requestState": 7
            })
        );
    }
}
