use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect?access_token=abc")]
struct Connect {
    provider: String,
}

fn main() {}
