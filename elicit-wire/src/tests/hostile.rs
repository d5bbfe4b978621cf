//! Hostile input: every parser on junk never panics, and what parses writes back stably.

use super::era_2026::input_required_example;
use super::*;

fn junk_values() -> Vec<Value> {
    let mut deep = json!(1);
    for _ in 0..64 {
        deep = json!([deep, {"k": deep.clone()}]);
        if to_string(&deep).len() > 512 {
            break;
        }
    }
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e308),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("x"),
        json!("\u{0}\u{feff}\u{10ffff}"),
        json!("accept"),
        json!("form"),
        json!("url"),
        json!("input_required"),
        json!("elicitation/create"),
        json!("sampling/createMessage"),
        json!("roots/list"),
        json!([]),
        json!([null]),
        json!([1, "a", {}]),
        json!({}),
        json!({"action":"accept","content":null}),
        json!({"mode":"url"}),
        json!({"method":"elicitation/create","params":[]}),
        json!({"roots":{}}),
        json!({"resultType":"input_required"}),
        deep,
    ]
}

/// JSON pointers of every node of `value`, the root included.
fn pointers(value: &Value, prefix: String, out: &mut Vec<String>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                pointers(v, format!("{prefix}/{escaped}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{prefix}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// If `value` parses as `T`, its serialization must parse back to the same `T`.
/// Checked both from a `Value` and from text (the streaming path).
fn stable<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(value: &Value) {
    if let Ok(first) = serde_json::from_value::<T>(value.clone()) {
        let json = serde_json::to_value(&first).expect("a parsed value serializes");
        let second: T = serde_json::from_value(json.clone())
            .unwrap_or_else(|e| panic!("re-parse of {json} failed: {e}"));
        assert_eq!(first, second, "unstable round trip of {value}");
    }
    if let Ok(first) = serde_json::from_str::<T>(&value.to_string()) {
        let text = serde_json::to_string(&first).expect("a parsed value serializes");
        let second: T = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("re-parse of {text} failed: {e}"));
        assert_eq!(first, second, "unstable round trip of {text}");
    }
}

/// Feeds `value` to every parser of the module.
fn parse_everything(value: &Value) {
    stable::<ElicitAction>(value);
    stable::<ElicitMode>(value);
    stable::<ElicitResult>(value);
    stable::<FormParams>(value);
    stable::<UrlParams>(value);
    stable::<ElicitParams>(value);
    stable::<ElicitRequestParams>(value);
    stable::<ElicitationCompleteNotification>(value);
    stable::<InputRequest>(value);
    stable::<InputRequiredResult>(value);
    stable::<InputResponse>(value);
    stable::<InputResponses>(value);
    stable::<RetryFields>(value);
    stable::<ClientCapabilities>(value);
    stable::<ElicitationCapability>(value);
    stable::<RequestMeta>(value);
    stable::<JsonRpcError>(value);
    stable::<TaskInputRequired>(value);
    stable::<TasksUpdateParams>(value);
    stable::<TasksUpdateAck>(value);
    let _ = RequestMeta::from_params(value);
    let _ = RetryFields::from_params(value);
    let _ = RetryFields::take_from(&mut value.clone());
    let _ = InputResponse::from_value(value.clone());
    if let Ok(error) = serde_json::from_value::<JsonRpcError>(value.clone()) {
        let _ = error.url_elicitations();
    }
    let _ = JsonRpcError::missing_capability(value.clone());
    if let Some(s) = value.as_str() {
        let _ = ProtocolEra::from_version(s);
    }
}

fn documents() -> Vec<Value> {
    vec![
        json!({"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"_meta":{"progressToken":1},"task":{"ttl":1}}),
        json!({"mode":"url","elicitationId":"id","url":"https://a.example","message":"m"}),
        json!({"action":"accept","content":{"name":"x","n":1,"b":true,"l":["a"]},"_meta":{}}),
        json!({"elicitationId":"id"}),
        input_required_example()["result"].clone(),
        json!({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"c"},"io.modelcontextprotocol/logLevel":"info"},"name":"t","inputResponses":{"a":{"action":"accept"},"b":{"roots":[]},"c":{"role":"user"}},"requestState":"s"}),
        json!({"code":-32042,"message":"m","data":{"elicitations":[{"mode":"url","elicitationId":"i","url":"u","message":"m"}]}}),
        json!({"status":"input_required","taskId":"t","inputRequests":{"k":{"method":"roots/list"},"s":{"method":"sampling/createMessage","params":{}}}}),
        json!({"taskId":"t","inputResponses":{"name":{"action":"decline"}},"_meta":{}}),
        json!({"resultType":"complete"}),
    ]
}

#[test]
fn hostile_input_never_panics() {
    let junk = junk_values();
    for value in &junk {
        parse_everything(value);
    }
    for doc in documents() {
        parse_everything(&doc);
        let mut paths = Vec::new();
        pointers(&doc, String::new(), &mut paths);
        for path in &paths {
            for value in &junk {
                let mut mutated = doc.clone();
                if let Some(slot) = mutated.pointer_mut(path) {
                    *slot = value.clone();
                }
                parse_everything(&mutated);
                // The same junk as an extra member of every object.
                if let Some(Value::Object(map)) = doc.clone().pointer_mut(path).map(|v| v.take()) {
                    let mut extended = map;
                    extended.insert("zz-extra".to_owned(), value.clone());
                    let mut with_extra = doc.clone();
                    if let Some(slot) = with_extra.pointer_mut(path) {
                        *slot = Value::Object(extended);
                    }
                    parse_everything(&with_extra);
                }
            }
        }
    }
}
