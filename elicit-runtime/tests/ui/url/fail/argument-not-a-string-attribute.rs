use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect your account", url = connect::URL)]
struct Connect {
    provider: String,
}

mod connect {
    pub const URL: &str = "https://mcp.example.com/connect";
}

fn main() {}
