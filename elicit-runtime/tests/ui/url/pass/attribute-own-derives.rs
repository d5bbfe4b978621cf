use elicit_runtime::{ElicitUrl, elicit_url};
use serde::{Deserialize, Serialize};

// The user's own serde derives (in two lists) and attributes: nothing is derived twice (no E0119).
#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[derive(serde::Deserialize)]
struct ConnectAccount {
    provider_name: String,
    #[serde(default)]
    scopes: Vec<String>,
}

// Through `use`d names too.
#[elicit_url(message = "Pay", url = "https://pay.example.com/checkout")]
#[derive(Serialize, Deserialize)]
struct Checkout {
    order: u64,
}

fn main() {
    assert_eq!(ConnectAccount::KEY, "connect_account");
    let state = ConnectAccount { provider_name: "github".into(), scopes: vec![] };
    let json = serde_json::to_value(state.clone()).unwrap();
    assert_eq!(json, serde_json::json!({"providerName": "github", "scopes": []}));
    let back: ConnectAccount = serde_json::from_value(json).unwrap();
    assert_eq!(back, state);
    assert_eq!(Checkout::KEY, "checkout");
    let _ = Checkout { order: 1 }.order;
}
