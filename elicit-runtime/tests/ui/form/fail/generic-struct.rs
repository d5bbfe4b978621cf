use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Value?")]
struct Wrapper<T> {
    value: T,
}

fn main() {}
