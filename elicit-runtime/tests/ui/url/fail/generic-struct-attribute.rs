use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
struct Connect<T> {
    provider: T,
}

fn main() {}
