use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Agree?")]
struct Consent {
    #[elicit(format = "email")]
    agree: bool,
}

fn main() {}
