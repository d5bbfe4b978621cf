//! The README's example: a form in, its `requestedSchema` out, an answer decoded.
//!
//! Run it with `cargo run -p elicit-examples --example quickstart`.

use elicit_runtime::{ElicitEnum, ElicitForm};

#[derive(Debug, Clone, Copy, PartialEq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Seating {
    Indoor,
    #[elicit(title = "On the terrace")]
    Terrace,
}

/// Which table would you like?
#[derive(Debug, ElicitForm)]
struct Booking {
    /// How many people, including you
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    #[elicit(format = "date")]
    date: String,
    seating: Seating,
    /// Where we send the confirmation
    #[elicit(format = "email")]
    email: Option<String>,
}

fn main() {
    println!("message: {}", Booking::message());
    let schema = serde_json::to_string_pretty(Booking::requested_schema()).unwrap();
    println!("requestedSchema: {schema}");

    let answer = serde_json::json!({"date": "2026-12-24", "seating": "terrace"});
    let booking = Booking::from_content(&answer).unwrap();
    println!("accepted: {booking:?}");

    let wrong = serde_json::json!({"guests": 40, "date": "soon", "seating": "roof"});
    println!("refused: {}", Booking::from_content(&wrong).unwrap_err());
}
