use elicit_runtime::{ElicitUrl, elicit_url};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, ElicitUrl)]
#[elicit(message = "Connect your account", url = "http://127.0.0.1:8080/connect")]
struct Local {
    provider: String,
}

// The attribute spelling, with `key`, `{handle}` and a field's `not_secret`.
#[elicit_url(message = "Pay", url = "https://pay.example.com/checkout/{handle}?currency=eur", key = "pay")]
struct Checkout {
    order: u64,
    #[elicit(not_secret = "the order's public token id, not a credential")]
    order_token: String,
}

fn main() {
    assert_eq!(Local::URL_TEMPLATE, "http://127.0.0.1:8080/connect?elicitation={handle}");
    assert_eq!(Local::KEY, "local");
    assert_eq!(Checkout::URL_TEMPLATE, "https://pay.example.com/checkout/{handle}?currency=eur");
    assert_eq!(Checkout::KEY, "pay");
    let _ = Local { provider: "github".into() };
    let _ = Checkout { order: 1, order_token: "t".into() };
}
