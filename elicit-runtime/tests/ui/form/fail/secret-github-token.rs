use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Connect GitHub")]
struct Connect {
    github_token: String,
}

fn main() {}
