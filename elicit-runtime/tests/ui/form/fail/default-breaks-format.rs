use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Contact")]
struct Contact {
    #[elicit(format = "email", default = "nobody")]
    email: String,
}

fn main() {}
