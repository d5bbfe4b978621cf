use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
    refresh_token: String,
}

fn main() {}
