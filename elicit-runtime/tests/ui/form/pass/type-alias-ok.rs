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
type Flag = bool;
type Ratio = f64;

#[derive(ElicitForm)]
#[elicit(message = "Order")]
struct Order {
    #[elicit(min_items = 1, max_items = 2, default = ["Bread"])]
    extras: Tags,
    #[elicit(format = "email", min_length = 3, max_length = 40)]
    email: Email,
    #[elicit(minimum = 1, maximum = 8, default = 2)]
    guests: Guests,
    #[elicit(default = "Water")]
    drink: Choice,
    #[elicit(default = true)]
    vip: Flag,
    #[elicit(minimum = 0.5, maximum = 2.5, default = 1.5)]
    ratio: Ratio,
}

fn main() {
    let schema = serde_json::to_value(Order::requested_schema()).unwrap();
    assert_eq!(schema["properties"]["extras"]["minItems"], 1);
    assert_eq!(schema["properties"]["email"]["format"], "email");
}
