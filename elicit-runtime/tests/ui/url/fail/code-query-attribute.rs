use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/callback?code=xyz")]
struct Connect {
    provider: String,
}

fn main() {}
