use elicit_runtime::ElicitForm;

struct Address {
    street: String,
}

#[derive(ElicitForm)]
#[elicit(message = "Where to?")]
struct Delivery {
    address: Address,
}

fn main() {}
