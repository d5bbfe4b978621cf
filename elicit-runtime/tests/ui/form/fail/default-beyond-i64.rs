use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Big default")]
struct BigDefault {
    #[elicit(default = 18446744073709551615)]
    big: u64,
}

fn main() {}
