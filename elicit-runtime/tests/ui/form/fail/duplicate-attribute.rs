use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Person {
    #[elicit(title = "Name", title = "Full name")]
    name: String,
}

fn main() {}
