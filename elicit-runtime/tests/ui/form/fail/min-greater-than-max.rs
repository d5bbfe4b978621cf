use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Guests?")]
struct Booking {
    #[elicit(minimum = 10, maximum = 2)]
    guests: u8,
}

fn main() {}
