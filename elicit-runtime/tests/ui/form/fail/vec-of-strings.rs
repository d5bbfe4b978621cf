use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Tag it")]
struct Tagging {
    tags: Vec<String>,
}

fn main() {}
