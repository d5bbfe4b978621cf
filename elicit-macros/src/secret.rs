//! Names that ask for a secret. MCP form mode must never collect passwords, keys, tokens or
//! payment data: those belong in URL mode, where they never pass through the client.

use crate::case::words;

/// Words that are a secret on their own.
const SECRET_WORDS: &[(&str, &str)] = &[
    ("password", "a password"),
    ("passwords", "a password"),
    ("passphrase", "a passphrase"),
    ("passwd", "a password"),
    ("passcode", "a passcode"),
    ("secret", "a secret"),
    ("secrets", "a secret"),
    ("apikey", "an API key"),
    ("privatekey", "a private key"),
    ("clientsecret", "a client secret"),
    ("accesstoken", "an access token"),
    ("refreshtoken", "a refresh token"),
    ("authtoken", "an auth token"),
    ("bearertoken", "a bearer token"),
    ("cardnumber", "a card number"),
    ("creditcard", "credit card data"),
    ("cvv", "a card security code"),
    ("cvc", "a card security code"),
    ("cvv2", "a card security code"),
    ("ssn", "a social security number"),
    ("pincode", "a PIN"),
    ("pin", "a PIN"),
    ("otp", "a one-time password"),
    ("totp", "a one-time password"),
    ("mfacode", "a one-time code"),
];

/// Why `name` looks like a secret, if it does.
///
/// Matching is on whole words, so `max_tokens`, `tokenizer`, `author`, `passenger`,
/// `secretary` and `keyboard` pass, while `api_key`, `apiKey`, `github_token` and
/// `creditCardNumber` do not.
pub(crate) fn secret_in(name: &str) -> Option<&'static str> {
    let words = words(name);
    // A token of any kind: `github_token`, `sessionToken`.
    if words.last().is_some_and(|w| w == "token") {
        return Some("a token");
    }
    let lookup = |w: &str| {
        SECRET_WORDS
            .iter()
            .find(|(s, _)| *s == w)
            .map(|(_, why)| *why)
    };
    for (i, word) in words.iter().enumerate() {
        if let Some(why) = lookup(word) {
            return Some(why);
        }
        // Two words that together name a secret: `api_key`, `card_number`, `pin_code`.
        if let Some(next) = words.get(i + 1)
            && let Some(why) = lookup(&format!("{word}{next}"))
        {
            return Some(why);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::secret_in;

    #[test]
    fn flags_secrets() {
        for name in [
            "password",
            "userPassword",
            "passphrase",
            "passwd",
            "client_secret",
            "api_key",
            "apiKey",
            "apikey",
            "APIKey",
            "access_token",
            "refreshToken",
            "auth_token",
            "bearer_token",
            "github_token",
            "private_key",
            "card_number",
            "creditCardNumber",
            "credit_card",
            "cvv",
            "cvc",
            "ssn",
            "pin_code",
            "otp",
            "totp_code",
            "secret",
        ] {
            assert!(secret_in(name).is_some(), "{name} should be flagged");
        }
    }

    #[test]
    fn passes_look_alikes() {
        for name in [
            "max_tokens",
            "maxTokens",
            "token_count",
            "tokenizer",
            "author",
            "passenger",
            "secretary",
            "keyboard",
            "key_signature",
            "username",
            "email",
            "spinner",
            "opinion",
            "pinned",
        ] {
            assert!(secret_in(name).is_none(), "{name} should pass");
        }
    }
}
