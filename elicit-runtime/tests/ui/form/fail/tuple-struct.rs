use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Name(String);

fn main() {}
