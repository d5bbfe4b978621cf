use elicit_runtime::ElicitForm;

struct Tag(String);

#[derive(ElicitForm)]
#[elicit(message = "Tag it")]
struct Tagging {
    tags: Vec<Tag>,
}

fn main() {}
