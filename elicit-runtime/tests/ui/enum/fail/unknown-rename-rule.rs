use elicit_runtime::ElicitEnum;

#[derive(ElicitEnum)]
#[elicit(rename_all = "Title Case")]
enum Size {
    Small,
}

fn main() {}
