use elicit_runtime::ElicitEnum;

#[derive(ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Size {
    Small,
    #[elicit(rename = "small")]
    Tiny,
}

fn main() {}
