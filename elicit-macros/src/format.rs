//! The four string formats, checked on `default` literals at compile time.
//!
//! Deliberately strict: a default the runtime would refuse must never compile, while an odd
//! but valid default only needs rewording.

use crate::lit::Format;

pub fn name(format: Format) -> &'static str {
    match format {
        Format::Email => "email address",
        Format::Uri => "absolute URI",
        Format::Date => "date (YYYY-MM-DD)",
        Format::DateTime => "date-time (RFC 3339)",
    }
}

pub fn is_valid(format: Format, s: &str) -> bool {
    match format {
        Format::Email => email(s),
        Format::Uri => uri(s),
        Format::Date => date(s.as_bytes()),
        Format::DateTime => date_time(s.as_bytes()),
    }
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = local.split('.').all(|atom| {
        !atom.is_empty()
            && atom
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-".contains(&b))
    });
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    s.len() <= 254 && local.len() <= 64 && local_ok && domain_ok
}

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut scheme_bytes = scheme.bytes();
    scheme_bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && scheme_bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        && !rest.is_empty()
        && !rest.contains('%')
        && rest.matches('#').count() <= 1
        && rest
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"<>\"{}|\\^`".contains(&b))
}

fn digits(b: &[u8]) -> Option<u32> {
    (!b.is_empty() && b.iter().all(u8::is_ascii_digit))
        .then(|| b.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
}

fn date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..])) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn date_time(b: &[u8]) -> bool {
    if b.len() < 20 || !date(&b[..10]) || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return false;
    }
    let (Some(h), Some(mi), Some(s)) = (digits(&b[11..13]), digits(&b[14..16]), digits(&b[17..19]))
    else {
        return false;
    };
    if h > 23 || mi > 59 || s > 59 {
        return false;
    }
    let mut rest = &b[19..];
    if let [b'.', tail @ ..] = rest {
        let n = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &tail[n..];
    }
    match rest {
        [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            matches!((digits(&[*h1, *h2]), digits(&[*m1, *m2])), (Some(h), Some(m)) if h <= 23 && m <= 59)
        }
        _ => false,
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
}
