//! `#[elicit(crate = "…")]`: generated code names the runtime where a re-exporting crate put it,
//! and the attribute is taken out before the rest of `#[elicit(…)]` is read.

mod reexport {
    pub use elicit_runtime as runtime;
}

use elicit_runtime::{ElicitEnum, ElicitForm, ElicitUrl};

#[derive(Debug, ElicitEnum)]
#[elicit(crate = "crate::reexport::runtime", rename_all = "lowercase")]
enum Seat {
    Indoor,
    Bar,
}

#[derive(ElicitForm)]
#[elicit(crate = "crate::reexport::runtime", message = "How many guests?")]
struct Guests {
    #[elicit(minimum = 1)]
    count: u8,
    seat: Seat,
}

#[derive(serde::Serialize, serde::Deserialize, ElicitUrl)]
#[elicit(message = "Connect your account", crate = "crate::reexport::runtime", url = "https://example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {
    assert_eq!(Guests::message(), "How many guests?");
    assert_eq!(Connect::MESSAGE, "Connect your account");
    assert_eq!(Seat::Bar.value(), "bar");
}
