use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect your account", url = "https://mcp.example.com/connect")]
enum Provider {
    GitHub,
    GitLab,
}

fn main() {}
