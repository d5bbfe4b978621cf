use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect?for=alice@example.com")]
struct Connect {
    provider: String,
}

fn main() {}
