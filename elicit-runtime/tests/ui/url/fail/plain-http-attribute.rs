use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = "http://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
