use elicit_runtime::elicit_url;
use serde::{Deserialize, Serialize};

// A `#[derive]` written above `#[elicit_url]` is expanded before it and cannot be seen, so the
// attribute adds its own serde derives: write `#[elicit_url(…)]` above the derive list.
#[derive(Serialize, Deserialize)]
#[elicit_url(message = "Connect your account", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
