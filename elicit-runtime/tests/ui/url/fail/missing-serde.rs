use elicit_runtime::ElicitUrl;

// The derive injects no serde derives: forgetting them says what to add.
#[derive(ElicitUrl)]
#[elicit(message = "Connect your account", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
