use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Guests?")]
struct Booking {
    #[elicit(minimum = -1)]
    guests: u8,
}

fn main() {}
