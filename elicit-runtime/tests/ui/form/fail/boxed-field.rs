use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Person {
    name: Box<String>,
}

fn main() {}
