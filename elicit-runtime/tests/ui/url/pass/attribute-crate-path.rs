//! `crate = "…"` with the attribute, in an `#[elicit(…)]` below it or among its arguments: the
//! derive and the serde derives it adds name the runtime where a re-exporting crate put it.

mod reexport {
    pub use elicit_runtime as runtime;
}

use reexport::runtime::{ElicitUrl, elicit_url};

#[elicit_url(message = "Connect your account", url = "https://example.com/connect")]
#[elicit(crate = "crate::reexport::runtime")]
struct Connect {
    provider: String,
}

#[elicit_url(crate = "crate::reexport::runtime", message = "Pay", url = "https://example.com/pay")]
struct Pay {
    order: u64,
}

fn main() {
    assert_eq!(Connect::MESSAGE, "Connect your account");
    assert_eq!(Pay::KEY, "pay");
    let _ = serde_json::to_value(Connect { provider: "github".into() }).unwrap();
    let _ = serde_json::to_value(Pay { order: 1 }).unwrap();
}
