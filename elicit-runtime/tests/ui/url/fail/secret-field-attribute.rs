use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
    refresh_token: String,
}

fn main() {}
