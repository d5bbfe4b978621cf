//! `rename_all`: the case conventions a wire name can follow.

use darling::FromMeta;

/// A case convention, as serde spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl FromMeta for RenameRule {
    fn from_string(value: &str) -> darling::Result<Self> {
        RULES
            .iter()
            .find(|(name, _)| *name == value)
            .map(|(_, rule)| *rule)
            .ok_or_else(|| {
                let names: Vec<_> = RULES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                darling::Error::custom(format!(
                    "unknown `rename_all` rule \"{value}\"; expected one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// Splits an identifier (snake_case, camelCase or PascalCase) into lowercase words.
pub fn words(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = ident.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

impl RenameRule {
    /// Applies the rule to a Rust field or variant name.
    pub fn apply(self, ident: &str) -> String {
        let words = words(ident);
        let capitalized = || {
            words
                .iter()
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_uppercase().chain(c).collect::<String>())
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
        };
        match self {
            // As serde does: only the letters change, never the separators.
            RenameRule::Lower => ident.to_lowercase(),
            RenameRule::Upper => ident.to_uppercase(),
            RenameRule::Pascal => capitalized().concat(),
            RenameRule::Camel => {
                let mut out = words.first().cloned().unwrap_or_default();
                out.push_str(&capitalized().get(1..).unwrap_or_default().concat());
                out
            }
            RenameRule::Snake => words.join("_"),
            RenameRule::ScreamingSnake => words.join("_").to_uppercase(),
            RenameRule::Kebab => words.join("-"),
            RenameRule::ScreamingKebab => words.join("-").to_uppercase(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_renames() {
        assert_eq!(words("maxTokens"), ["max", "tokens"]);
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("github_token"), ["github", "token"]);
        assert_eq!(RenameRule::Camel.apply("party_size"), "partySize");
        assert_eq!(RenameRule::Kebab.apply("PartySize"), "party-size");
        assert_eq!(RenameRule::ScreamingSnake.apply("dateTime"), "DATE_TIME");
        assert_eq!(RenameRule::Lower.apply("Indoor"), "indoor");
        assert_eq!(RenameRule::Pascal.apply("dine_in"), "DineIn");
    }
}
