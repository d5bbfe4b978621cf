use elicit_runtime::ElicitForm;

// Constants named like the fields: generated code that bound user names as locals would
// turn `let guests = …` into a refutable pattern against them.
#[allow(non_upper_case_globals)]
const guests: u8 = 3;
#[allow(non_upper_case_globals)]
const errors: &str = "";

/// Book a table
#[derive(Debug, ElicitForm)]
struct Booking {
    guests: u8,
    errors: String,
}

fn main() {
    let booking = Booking::from_content(&serde_json::json!({"guests": 4, "errors": "none"})).unwrap();
    assert_eq!((booking.guests, booking.errors.as_str()), (4, "none"));
    let _ = (guests, errors);
}
