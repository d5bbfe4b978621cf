use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect")]
struct Connect {
    provider: String,
}

fn main() {}
