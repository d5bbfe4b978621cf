use elicit_runtime::ElicitForm;

mod secrecy {
    pub struct SecretString(pub String);
}

#[derive(ElicitForm)]
#[elicit(message = "Connect")]
struct Connect {
    value: secrecy::SecretString,
}

fn main() {}
