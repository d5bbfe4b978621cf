use elicit_runtime::elicit_url;

// The struct derives `Serialize` itself (with serde's own attributes): the attribute adds only
// `Deserialize`, which reads the same `#[serde(…)]` attributes.
#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Connect {
    provider_name: String,
}

fn main() {
    let json = serde_json::json!({"providerName": "github"});
    let state: Connect = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&state).unwrap(), json);
}
