use elicit_runtime::ElicitForm;

// The form is refused, but code naming `BookingDefaults` reports nothing more.
#[derive(ElicitForm)]
#[elicit(message = "Book a table")]
struct Booking {
    #[elicit(min_length = 2)]
    guests: u8,
    note: Option<String>,
}

fn main() {
    let defaults = BookingDefaults {
        guests: Some(2),
        ..Default::default()
    };
    let _: Option<String> = defaults.note;
}
