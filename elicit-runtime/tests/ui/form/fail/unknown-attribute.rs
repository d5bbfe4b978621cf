use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Age?")]
struct Age {
    #[elicit(minn = 3)]
    years: u8,
}

fn main() {}
