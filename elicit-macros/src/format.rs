//! The four string formats, checked on `default` literals at compile time with the very rules
//! the runtime applies to answers (`elicit-formats`): a default that compiles always decodes.

use crate::lit::Format;

pub(crate) fn name(format: Format) -> &'static str {
    match format {
        Format::Email => "email address",
        Format::Uri => "absolute URI",
        Format::Date => "date (YYYY-MM-DD)",
        Format::DateTime => "date-time (RFC 3339)",
    }
}

pub(crate) fn is_valid(format: Format, s: &str) -> bool {
    match format {
        Format::Email => elicit_formats::is_valid_email(s),
        Format::Uri => elicit_formats::is_valid_uri(s),
        Format::Date => elicit_formats::is_valid_date(s),
        Format::DateTime => elicit_formats::is_valid_date_time(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_formats() {
        assert!(is_valid(Format::Email, "user@example.com"));
        assert!(!is_valid(Format::Email, "nobody"));
        assert!(is_valid(Format::Uri, "https://example.com/a?b=c#d"));
        assert!(!is_valid(Format::Uri, "example"));
        assert!(is_valid(Format::Date, "2024-02-29"));
        assert!(!is_valid(Format::Date, "2023-02-29"));
        assert!(is_valid(Format::DateTime, "2024-02-29T23:59:59.5+01:00"));
        assert!(!is_valid(Format::DateTime, "2024-02-29T24:00:00Z"));
    }

    /// Issue 9 item 9: the macro once accepted defaults the runtime refused, so every answer
    /// omitting the field failed to decode. Both now run the same rules.
    #[test]
    fn defaults_follow_the_runtime_rules() {
        let long_label = format!("a@{}.com", "b".repeat(64));
        assert!(!is_valid(Format::Email, &long_label));
        assert!(is_valid(Format::Email, "jürgen@bücher.de"));
        assert!(is_valid(Format::DateTime, "2016-12-31T23:59:60Z"));
        assert!(!is_valid(Format::DateTime, "2016-12-31T00:00:60Z"));
    }
}
