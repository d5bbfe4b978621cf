use elicit_runtime::ElicitForm;

/// How many guests?
#[derive(ElicitForm)]
#[elicit(crate = elicit_runtime)]
struct Guests {
    count: u8,
}

fn main() {}
