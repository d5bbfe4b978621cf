use elicit_runtime::{ElicitUrl, elicit_url};

#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
#[elicit(crate = elicit_runtime)]
struct Connect {
    provider: String,
}

fn main() {
    let _ = Connect::URL_TEMPLATE;
}
