use elicit_runtime::{ElicitEnum, ElicitForm};

#[derive(ElicitEnum)]
enum Size {
    Small,
    Large,
}

#[derive(ElicitForm)]
#[elicit(message = "Size?")]
struct Order {
    #[elicit(min_items = 1)]
    size: Size,
}

fn main() {}
