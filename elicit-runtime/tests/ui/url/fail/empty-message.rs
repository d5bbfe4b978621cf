use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
