use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect your account", url = "https://mcp.example.com/callback?code=xyz")]
struct Connect {
    provider: String,
}

fn main() {}
