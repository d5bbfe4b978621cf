use elicit_runtime::{ElicitUrl, elicit_url};
use serde::{Deserialize, Serialize};

// Every mistake of both spellings is reported in one compile, and code naming the types
// reports nothing more.
#[elicit_url(message = " ", url = "http://mcp.example.com/connect")]
struct Connect {
    api_key: String,
}

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Pay", url = "https://pay.example.com/checkout?token=1")]
struct Checkout {
    password: String,
}

fn main() {
    let _ = (Connect::URL_TEMPLATE, Checkout::KEY);
    let _ = serde_json::to_string(&Connect { api_key: String::new() });
    let _ = Checkout { password: String::new() }.password;
}
