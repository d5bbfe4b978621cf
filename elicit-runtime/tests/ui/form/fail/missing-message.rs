use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
struct Person {
    name: String,
}

fn main() {}
