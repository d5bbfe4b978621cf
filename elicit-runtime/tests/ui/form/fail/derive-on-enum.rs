use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Pick")]
enum Pick {
    A,
    B,
}

fn main() {}
