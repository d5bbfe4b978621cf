use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Person {
    name: &'static str,
}

fn main() {}
