use elicit_runtime::{ElicitUrl, elicit_url};
use serde::{Deserialize, Serialize};

#[elicit_url(message = "Connect", url = "https://mcp.example.com/connect")]
struct Empty {
    #[elicit(show = "  ")]
    repo: String,
}

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect", url = "https://mcp.example.com/connect")]
struct Unnamed(#[elicit(show = "Repository")] String);

#[elicit_url(message = "Connect", url = "https://mcp.example.com/connect")]
struct NotText {
    #[elicit(show = 3)]
    repo: String,
}

fn main() {}
