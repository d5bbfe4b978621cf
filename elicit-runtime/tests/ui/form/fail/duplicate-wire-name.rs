use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Name?")]
struct Person {
    name: String,
    #[elicit(rename = "name")]
    nickname: String,
}

fn main() {}
