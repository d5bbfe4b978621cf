use elicit_runtime::elicit_url;

#[elicit_url]
struct Connect {
    provider: String,
}

fn main() {}
