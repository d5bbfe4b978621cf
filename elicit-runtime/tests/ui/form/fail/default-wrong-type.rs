use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Guests?")]
struct Booking {
    #[elicit(default = "two")]
    guests: u8,
}

fn main() {}
