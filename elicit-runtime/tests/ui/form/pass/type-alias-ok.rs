use elicit_runtime::{ElicitEnum, ElicitForm};

#[derive(Debug, Clone, Copy, PartialEq, ElicitEnum)]
enum Extra {
    Bread,
    Water,
}

type Tags = Vec<Extra>;
type Email = String;
type Guests = u8;
type Choice = Extra;

#[derive(ElicitForm)]
#[elicit(message = "Order")]
struct Order {
    #[elicit(min_items = 1, max_items = 2, default = ["Bread"])]
    extras: Tags,
    #[elicit(format = "email", min_length = 3)]
    email: Email,
    #[elicit(minimum = 1, maximum = 8, default = 2)]
    guests: Guests,
    #[elicit(default = "Water")]
    drink: Choice,
}

fn main() {
    let schema = serde_json::to_value(Order::requested_schema()).unwrap();
    assert_eq!(schema["properties"]["extras"]["minItems"], 1);
    assert_eq!(schema["properties"]["email"]["format"], "email");
}
