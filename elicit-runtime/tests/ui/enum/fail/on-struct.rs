use elicit_runtime::ElicitEnum;

#[derive(ElicitEnum)]
struct Size {
    small: bool,
}

fn main() {}
