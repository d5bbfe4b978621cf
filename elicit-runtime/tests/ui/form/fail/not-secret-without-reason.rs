use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Tokens")]
struct Budget {
    #[elicit(not_secret = "")]
    session_token: String,
}

fn main() {}
