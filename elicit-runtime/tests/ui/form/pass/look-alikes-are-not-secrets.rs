use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Settings")]
struct Settings {
    max_tokens: u32,
    token_count: Option<u32>,
    tokenizer: String,
    author: String,
    passenger: String,
    secretary: String,
    keyboard: String,
    #[elicit(not_secret = "the name of a token type, not a token")]
    preferred_token: String,
}

fn main() {}
