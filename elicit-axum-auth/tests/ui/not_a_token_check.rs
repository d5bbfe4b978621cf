use elicit_axum_auth::BearerAuth;

struct Tokens;

fn main() {
    let _ = BearerAuth::new("https://desk.example.com/mcp", Tokens);
}
