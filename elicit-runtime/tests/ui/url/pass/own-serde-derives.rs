use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

// The user's own serde derives and attributes, with no second derive injected (no E0119).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ElicitUrl)]
#[serde(rename_all = "camelCase")]
#[elicit(message = "Connect your account", url = "https://mcp.example.com/connect")]
struct ConnectAccount {
    provider_name: String,
    #[serde(default)]
    scopes: Vec<String>,
}

fn main() {
    assert_eq!(ConnectAccount::KEY, "connect_account");
    assert_eq!(ConnectAccount::MESSAGE, "Connect your account");
    let state = ConnectAccount { provider_name: "github".into(), scopes: vec![] };
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json, serde_json::json!({"providerName": "github", "scopes": []}));
}
