use elicit_runtime::elicit_url;

// Derives other than serde's may sit above the attribute: it adds the serde derives below them.
#[derive(Debug, Clone, PartialEq)]
#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {
    let state = Connect { provider: "github".into() };
    assert_eq!(state.clone(), state);
    assert_eq!(format!("{state:?}"), r#"Connect { provider: "github" }"#);
    assert_eq!(serde_json::to_value(&state).unwrap(), serde_json::json!({"provider": "github"}));
}
