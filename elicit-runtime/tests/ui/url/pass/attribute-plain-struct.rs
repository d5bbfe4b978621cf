// No serde in sight: the attribute derives `Serialize` and `Deserialize` through the runtime.
use elicit_runtime::{ElicitUrl, elicit_url};

/// Doc comments and other attributes stay on the struct.
#[elicit_url(message = "Connect your GitHub account", url = "https://auth.example.com/connect/github")]
struct Connect {
    provider: String,
    scopes: String,
}

fn main() {
    assert_eq!(Connect::KEY, "connect");
    assert_eq!(Connect::MESSAGE, "Connect your GitHub account");
    assert_eq!(
        Connect::URL_TEMPLATE,
        "https://auth.example.com/connect/github?elicitation={handle}"
    );
    let state = Connect { provider: "github".into(), scopes: "repo".into() };
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json, serde_json::json!({"provider": "github", "scopes": "repo"}));
    let back: Connect = serde_json::from_value(json).unwrap();
    assert_eq!(back.provider, "github");
}
