use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Guests?")]
struct Booking {
    #[elicit(default = 300)]
    guests: u8,
}

fn main() {}
