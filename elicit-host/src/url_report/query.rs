//! Query and fragment parameters that look like they carry a credential or personal data.
//!
//! A heuristic by design: names are normalised (case, `-`, `_` and `.` dropped) and compared
//! with the usual spellings, and values are recognised by shape (an email address, a JWT, a card
//! number that passes the Luhn check, a long digit run that reads as a phone number). OAuth's
//! own parameters (`client_id`, `state`, `code_challenge`, `redirect_uri`, `scope`) are not
//! secrets and are never flagged.

use super::finding::Sensitive;

/// Names of credentials, normalised; a name ending in one of [`CREDENTIAL_SUFFIXES`] counts too.
const CREDENTIAL_NAMES: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "secret",
    "clientsecret",
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "sessiontoken",
    "authtoken",
    "apikey",
    "key",
    "privatekey",
    "auth",
    "authorization",
    "bearer",
    "jwt",
    "session",
    "sessionid",
    "sid",
    "credential",
    "credentials",
    "otp",
    "pin",
    "totp",
    "mfacode",
    "signature",
    "sig",
];
const CREDENTIAL_SUFFIXES: &[&str] = &["password", "secret", "token", "apikey", "privatekey"];

/// Names of personal data, normalised.
const PERSONAL_NAMES: &[&str] = &[
    "email",
    "emailaddress",
    "mail",
    "phone",
    "phonenumber",
    "tel",
    "mobile",
    "ssn",
    "socialsecuritynumber",
    "dob",
    "dateofbirth",
    "birthdate",
    "birthday",
    "address",
    "streetaddress",
    "postcode",
    "zip",
    "zipcode",
    "card",
    "cardnumber",
    "creditcard",
    "cc",
    "ccnumber",
    "pan",
    "cvv",
    "cvc",
    "iban",
    "passport",
    "passportnumber",
    "taxid",
    "nationalid",
];

/// What the parameter `name=value` looks like, if it looks sensitive.
pub(super) fn classify(name: &str, value: &str) -> Option<Sensitive> {
    let normal: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | '[' | ']'))
        .flat_map(char::to_lowercase)
        .collect();
    if CREDENTIAL_NAMES.contains(&normal.as_str())
        || CREDENTIAL_SUFFIXES.iter().any(|s| normal.ends_with(s))
    {
        return Some(Sensitive::Credential);
    }
    if PERSONAL_NAMES.contains(&normal.as_str()) {
        return Some(Sensitive::PersonalData);
    }
    if looks_like_jwt(value) {
        return Some(Sensitive::Credential);
    }
    if looks_like_email(value) || looks_like_card(value) || looks_like_phone(value) {
        return Some(Sensitive::PersonalData);
    }
    None
}

/// `xxx.yyy.zzz`, base64url, starting with the encoding of `{"` as every JWT header does.
fn looks_like_jwt(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    parts.len() == 3
        && value.starts_with("eyJ")
        && parts.iter().take(2).all(|p| {
            p.len() >= 4
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// `local@domain.tld`, no spaces.
fn looks_like_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !value.contains(char::is_whitespace)
        && domain.split('.').count() >= 2
        && domain.split('.').all(|label| !label.is_empty())
}

/// 13 to 19 digits (spaces and dashes allowed between) that pass the Luhn check.
fn looks_like_card(value: &str) -> bool {
    let Some(digits) = digits_only(value) else {
        return false;
    };
    if !(13..=19).contains(&digits.len()) {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let doubled = d * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// A `+` and 8 to 15 digits (E.164), spaces and dashes allowed between.
fn looks_like_phone(value: &str) -> bool {
    let Some(rest) = value.strip_prefix('+') else {
        return false;
    };
    digits_only(rest).is_some_and(|digits| (8..=15).contains(&digits.len()))
}

/// The digits of `value` when it holds nothing but digits, spaces and dashes.
fn digits_only(value: &str) -> Option<Vec<u32>> {
    let mut digits = Vec::new();
    for c in value.chars() {
        match c {
            '0'..='9' => digits.push(c.to_digit(10)?),
            ' ' | '-' => {}
            _ => return None,
        }
    }
    (!digits.is_empty()).then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_by_name() {
        for name in [
            "password",
            "API_KEY",
            "api-key",
            "access_token",
            "github.token",
            "client_secret",
        ] {
            assert_eq!(classify(name, "x"), Some(Sensitive::Credential), "{name}");
        }
    }

    #[test]
    fn personal_data_by_name_and_value() {
        assert_eq!(classify("Email", "x"), Some(Sensitive::PersonalData));
        assert_eq!(
            classify("login_hint", "ada@example.com"),
            Some(Sensitive::PersonalData)
        );
        assert_eq!(
            classify("n", "4111 1111 1111 1111"),
            Some(Sensitive::PersonalData)
        );
        assert_eq!(
            classify("n", "+44 20 7946 0958"),
            Some(Sensitive::PersonalData)
        );
        assert_eq!(classify("n", "4111 1111 1111 1112"), None, "fails Luhn");
    }

    #[test]
    fn a_jwt_by_its_shape() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl";
        assert_eq!(classify("x", jwt), Some(Sensitive::Credential));
    }

    #[test]
    fn oauths_own_parameters_are_not_secrets() {
        for (name, value) in [
            ("client_id", "Iv1.8a61f9b3a7aba766"),
            ("state", "k3Jx9"),
            (
                "code_challenge",
                "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            ),
            ("code_challenge_method", "S256"),
            ("redirect_uri", "https://app.example.com/oauth/callback"),
            ("scope", "repo read:user"),
            ("response_type", "code"),
            ("e", "12345"),
        ] {
            assert_eq!(classify(name, value), None, "{name}");
        }
    }
}
