use elicit_runtime::ElicitForm;

/// Book a table
#[derive(ElicitForm)]
struct Booking {
    /// How many people, including you
    guests: u8,
    /// Overridden
    #[elicit(description = "Explicit")]
    note: Option<String>,
}

fn main() {
    assert_eq!(Booking::message(), "Book a table");
    let schema = serde_json::to_value(Booking::requested_schema()).unwrap();
    assert_eq!(schema["properties"]["guests"]["description"], "How many people, including you");
    assert_eq!(schema["properties"]["note"]["description"], "Explicit");
}
