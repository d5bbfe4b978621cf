use elicit_runtime::ElicitForm;

struct Address {
    street: String,
}

#[derive(ElicitForm)]
#[elicit(message = "Sign up")]
struct SignUp {
    address: Address,
    password: String,
    #[elicit(min_length = 2)]
    age: u8,
    #[elicit(format = "phone")]
    phone: String,
    #[elicit(minimum = 5, maximum = 1)]
    guests: u16,
}

fn main() {}
