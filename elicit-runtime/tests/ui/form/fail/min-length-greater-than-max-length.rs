use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Person {
    #[elicit(min_length = 10, max_length = 2)]
    name: String,
}

fn main() {}
