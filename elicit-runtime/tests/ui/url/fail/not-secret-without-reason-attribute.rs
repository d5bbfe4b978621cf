use elicit_runtime::elicit_url;

#[elicit_url(message = "Pay", url = "https://pay.example.com/checkout")]
struct Checkout {
    #[elicit(not_secret = " ")]
    order_token: String,
}

fn main() {}
