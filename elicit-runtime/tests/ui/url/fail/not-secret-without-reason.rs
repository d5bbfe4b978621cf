use elicit_runtime::ElicitUrl;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Pay", url = "https://pay.example.com/checkout")]
struct Checkout {
    #[elicit(not_secret = " ")]
    order_token: String,
}

fn main() {}
