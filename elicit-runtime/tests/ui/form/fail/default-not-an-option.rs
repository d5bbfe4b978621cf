use elicit_runtime::{ElicitEnum, ElicitForm};

#[derive(ElicitEnum)]
enum Color {
    Red,
    Green,
}

#[derive(ElicitForm)]
#[elicit(message = "Color?")]
struct Paint {
    #[elicit(default = "Purple")]
    color: Color,
}

fn main() {}
