use elicit_runtime::ElicitForm;

/// How many guests?
#[derive(ElicitForm)]
#[elicit(crate = elicit_runtime)]
struct Guests {
    count: u8,
}

// The form is still derived (with the default path): naming it raises no second error.
fn uses(guests: Guests) -> u8 {
    let _ = Guests::message();
    guests.count
}

fn main() {
    let _ = uses;
}
