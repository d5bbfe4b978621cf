use elicit_runtime::elicit_url;

#[elicit_url(message = "Connect")]
struct Connect {
    provider: String,
}

fn main() {}
