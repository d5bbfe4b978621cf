//! The questions the demo server asks: plain Rust types, checked by the compiler.

// A form's doc comments are its questions' text (the derives read them), so these fields and
// variants say theirs in `#[elicit(title = …)]` and go without doc comments.
#![allow(missing_docs)]

use elicit_rmcp::{ElicitEnum, ElicitForm, elicit_url};

/// Where to sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
pub enum Seating {
    #[elicit(title = "Inside")]
    Indoor,
    #[elicit(title = "On the terrace")]
    Terrace,
    #[elicit(title = "At the bar")]
    Bar,
}

/// Something to prepare before the guests arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
#[elicit(rename_all = "snake_case")]
pub enum Extra {
    #[elicit(title = "High chair")]
    HighChair,
    #[elicit(title = "Birthday cake")]
    BirthdayCake,
    #[elicit(title = "Step-free access")]
    StepFreeAccess,
}

/// Book a table
#[derive(Debug, ElicitForm)]
#[elicit(key = "booking")]
pub struct Booking {
    /// The day of the booking
    #[elicit(title = "Date", format = "date")]
    pub date: String,
    /// 24-hour time, HH:MM
    #[elicit(title = "Time", min_length = 5, max_length = 5, default = "19:30")]
    pub time: String,
    #[elicit(title = "Guests", minimum = 1, maximum = 12, default = 2)]
    pub guests: u8,
    #[elicit(title = "Seating", default = "indoor")]
    pub seating: Seating,
    #[elicit(title = "Extras", max_items = 3, default = [])]
    pub extras: Vec<Extra>,
    /// Where the confirmation goes (optional)
    #[elicit(title = "Email", format = "email")]
    pub email: Option<String>,
}

/// Please confirm
#[derive(Debug, ElicitForm)]
#[elicit(key = "confirm")]
pub struct Confirm {
    #[elicit(title = "Yes, go ahead")]
    pub confirm: bool,
}

/// When do you travel?
#[derive(Debug, ElicitForm)]
#[elicit(key = "dates")]
pub struct TripDates {
    #[elicit(title = "First day", format = "date")]
    pub start: String,
    #[elicit(title = "Nights", minimum = 1, maximum = 30, default = 3)]
    pub nights: u8,
}

/// Who travels?
#[derive(Debug, ElicitForm)]
#[elicit(key = "travelers")]
pub struct Travelers {
    #[elicit(title = "Adults", minimum = 1, maximum = 9, default = 2)]
    pub adults: u8,
    #[elicit(title = "Children", minimum = 0, maximum = 9, default = 0)]
    pub children: u8,
}

/// Connect a third-party account: the user signs in on our page, never through the client.
#[elicit_url(
    message = "Connect your account in the browser to continue",
    url = "http://127.0.0.1/connect",
    key = "connect"
)]
#[derive(Debug, Clone)]
pub struct ConnectAccount {
    /// The service to connect (e.g. `github`), shown on the confirmation page.
    #[elicit(show = "Service")]
    pub service: String,
}

/// Include the cancelled reservations in the export?
#[derive(Debug, ElicitForm)]
pub struct ExportOptions {
    #[elicit(title = "Include cancelled reservations")]
    pub include_cancelled: bool,
}
