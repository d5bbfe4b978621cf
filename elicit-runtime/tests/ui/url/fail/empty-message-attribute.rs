use elicit_runtime::elicit_url;

#[elicit_url(message = "", url = "https://mcp.example.com/connect")]
struct Connect {
    provider: String,
}

fn main() {}
