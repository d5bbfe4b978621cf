use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Age?")]
struct Age {
    #[elicit(min_length = 1)]
    years: u8,
}

fn main() {}
