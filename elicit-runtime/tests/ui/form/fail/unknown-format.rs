use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Phone?")]
struct Contact {
    #[elicit(format = "phone")]
    phone: String,
}

fn main() {}
