use elicit_runtime::ElicitForm;

pub struct Coordinates {
    pub lat: f64,
    pub lon: f64,
}

type Location = Coordinates;

#[derive(ElicitForm)]
#[elicit(message = "Where are you?")]
struct Checkin {
    location: Location,
}

fn main() {}
