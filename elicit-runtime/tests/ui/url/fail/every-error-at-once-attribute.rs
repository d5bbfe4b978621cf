use elicit_runtime::{ElicitUrl, elicit_url};

// Every mistake is reported in one compile, and code naming the type reports nothing more.
#[elicit_url(message = " ", url = "http://mcp.example.com/connect")]
struct Connect {
    api_key: String,
    password: String,
}

fn main() {
    let _ = Connect::URL_TEMPLATE;
    let _ = Connect { api_key: String::new(), password: String::new() };
    let _ = serde_json::to_string(&Connect { api_key: String::new(), password: String::new() });
}
