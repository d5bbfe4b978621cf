use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Guests?")]
struct Booking {
    #[elicit(maximum = 12, default = 20)]
    guests: u8,
}

fn main() {}
