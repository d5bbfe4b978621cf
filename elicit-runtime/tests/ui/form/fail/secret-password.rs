use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Log in")]
struct Login {
    username: String,
    password: String,
}

fn main() {}
