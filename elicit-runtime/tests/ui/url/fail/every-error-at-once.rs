use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

// Every mistake is reported in one compile, and code naming the type reports nothing more.
#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = " ", url = "http://mcp.example.com/connect")]
struct Connect {
    api_key: String,
    password: String,
}

fn main() {
    let _ = Connect::URL_TEMPLATE;
    let _ = Connect { api_key: String::new(), password: String::new() };
}
