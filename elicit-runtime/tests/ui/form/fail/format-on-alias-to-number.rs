use elicit_runtime::ElicitForm;

type Age = u8;

#[derive(ElicitForm)]
#[elicit(message = "Age?")]
struct Person {
    #[elicit(format = "date")]
    age: Age,
}

fn main() {}
