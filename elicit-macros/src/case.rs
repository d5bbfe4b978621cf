//! `rename_all`: the case conventions a wire name can follow.

use darling::FromMeta;
use heck::{
    ToKebabCase, ToLowerCamelCase, ToShoutyKebabCase, ToShoutySnakeCase, ToSnakeCase,
    ToUpperCamelCase,
};

/// A case convention, as serde spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
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

/// Splits an identifier (snake_case, camelCase or PascalCase) into lowercase words, as heck
/// splits it for `snake_case`.
pub(crate) fn words(ident: &str) -> Vec<String> {
    ident
        .to_snake_case()
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

impl RenameRule {
    /// Applies the rule to a Rust field or variant name (without its `r#`).
    ///
    /// heck's conversions, checked to give the same names as the hand-written splitter this
    /// replaced on snake, camel, Pascal, acronym (`APIKey`, `IOError`), digit (`x86_64`,
    /// `item2Name`) and non-ASCII names.
    pub(crate) fn apply(self, ident: &str) -> String {
        match self {
            // As serde does: only the letters change, never the separators.
            RenameRule::Lower => ident.to_lowercase(),
            RenameRule::Upper => ident.to_uppercase(),
            RenameRule::Pascal => ident.to_upper_camel_case(),
            RenameRule::Camel => ident.to_lower_camel_case(),
            RenameRule::Snake => ident.to_snake_case(),
            RenameRule::ScreamingSnake => ident.to_shouty_snake_case(),
            RenameRule::Kebab => ident.to_kebab_case(),
            RenameRule::ScreamingKebab => ident.to_shouty_kebab_case(),
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
        assert_eq!(words("IOError"), ["io", "error"]);
        assert_eq!(words("x86_64"), ["x86", "64"]);
        assert_eq!(words("item2Name"), ["item2", "name"]);
        assert_eq!(RenameRule::Camel.apply("TOTPCode"), "totpCode");
        assert_eq!(
            RenameRule::ScreamingKebab.apply("über_größe"),
            "ÜBER-GRÖSSE"
        );
    }
}
