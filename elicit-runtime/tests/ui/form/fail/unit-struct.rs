use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Nothing?")]
struct Nothing;

fn main() {}
