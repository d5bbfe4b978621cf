use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect your account", url = "ftp://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
