//! Strings of an exact length that pass (or fail) a `format`, built to the rules of
//! `elicit-formats`, the same functions the decoder checks with.

use proptest::prelude::*;

use elicit_runtime::schema::StringFormat;

/// The characters free text is made of: ASCII, a space, and characters of two, three and four
/// UTF-8 bytes, so that lengths are counted in characters, not bytes.
const CHARACTERS: [char; 8] = ['a', 'Z', '0', ' ', '-', 'é', '中', '🎉'];

/// How far past `minLength` free text goes when there is no `maxLength`.
pub(super) const UNBOUNDED_EXTRA: u64 = 24;

/// Free text of exactly `len` characters.
pub(super) fn free(len: u64) -> BoxedStrategy<String> {
    proptest::collection::vec(proptest::sample::select(&CHARACTERS[..]), len as usize)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// The lengths (inclusive ranges) at which `format` can be met; each is reached by
/// [`formatted`].
pub(super) fn feasible(format: StringFormat) -> &'static [(u64, u64)] {
    match format {
        // `a@b.co` up to the 254 bytes an address may have.
        StringFormat::Email => &[(6, 254)],
        // `a:b` and longer.
        StringFormat::Uri => &[(3, u64::MAX)],
        StringFormat::Date => &[(10, 10)],
        // `…:SSZ`; a fraction takes at least two characters (`.5`).
        StringFormat::DateTime => &[(20, 20), (22, u64::MAX)],
        _ => crate::lockstep("string format"),
    }
}

/// The length up to which unbounded text of `format` is drawn: enough for every shape
/// [`formatted`] has.
pub(super) fn unbounded_max(format: StringFormat) -> u64 {
    let longest = match format {
        StringFormat::Email => EMAILS.iter().map(|(l, d)| l.len() + 1 + d.len()).max(),
        StringFormat::Uri => URIS.iter().map(|u| u.len()).max(),
        StringFormat::Date | StringFormat::DateTime => None,
        _ => crate::lockstep("string format"),
    };
    longest.unwrap_or(0) as u64 + UNBOUNDED_EXTRA
}

/// The lengths in `[min, max]` at which `format` can be met, as inclusive ranges.
pub(super) fn feasible_within(format: StringFormat, min: u64, max: u64) -> Vec<(u64, u64)> {
    feasible(format)
        .iter()
        .map(|&(lo, hi)| (lo.max(min), hi.min(max)))
        .filter(|(lo, hi)| lo <= hi)
        .collect()
}

/// A string of exactly `len` (ASCII) characters that passes `format`, varied by `seed`; `None`
/// when `len` is not [`feasible`].
pub(super) fn formatted(format: StringFormat, len: u64, seed: u64) -> Option<String> {
    feasible(format)
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&len))
        .then(|| build(format, len as usize, seed))
}

fn build(format: StringFormat, len: usize, seed: u64) -> String {
    match format {
        StringFormat::Email => email(len, seed).unwrap_or_else(|| plain_email(len, seed)),
        StringFormat::Uri => uri(len, seed),
        StringFormat::Date => date(seed),
        StringFormat::DateTime => {
            let (hh, mm, ss) = ((seed / 7) % 24, (seed / 11) % 60, (seed / 13) % 60);
            let stem = format!("{}T{hh:02}:{mm:02}:{ss:02}", date(seed));
            // `Z` or an offset, and a fraction filling the rest.
            let offset = if len == 25 || (len >= 27 && seed.is_multiple_of(2)) {
                format!(
                    "{}{:02}:{:02}",
                    ["+", "-"][(seed % 3 % 2) as usize],
                    seed % 24,
                    seed % 60
                )
            } else {
                "Z".to_owned()
            };
            let fraction = len - stem.len() - offset.len();
            match fraction {
                0 => format!("{stem}{offset}"),
                n => format!("{stem}.{}{offset}", "5".repeat(n - 1)),
            }
        }
        _ => crate::lockstep("string format"),
    }
}

/// Addresses of varied shapes, as `(local part, domain)`: plus tags, subdomains, a single-label
/// domain, address literals, quotes and underscores.
const EMAILS: [(&str, &str); 8] = [
    ("a", "b.co"),
    ("first.last+tag", "mail.example.org"),
    ("o'brien", "example.ie"),
    ("user_name-1", "sub.sub.example.travel"),
    ("octocat", "localhost"),
    ("postmaster", "[192.0.2.1]"),
    ("x", "xn--bcher-kva.example"),
    ("a.b.c", "a-b.c-d.io"),
];

/// An address of one of [`EMAILS`]' shapes (from `seed` on), padded to exactly `len` bytes:
/// letters before the local part (up to its 64 bytes), then labels before the domain.
fn email(len: usize, seed: u64) -> Option<String> {
    (0..EMAILS.len()).find_map(|k| {
        let (local, domain) = EMAILS[(seed as usize + k) % EMAILS.len()];
        let extra = len.checked_sub(local.len() + 1 + domain.len())?;
        let mut take = extra.min(64 - local.len());
        let mut rest = extra - take;
        if rest == 1 && take > 0 {
            // A label takes at least two bytes (`b.`).
            take -= 1;
            rest = 2;
        }
        if rest > 0 && domain.starts_with('[') {
            return None;
        }
        let mut labels = String::new();
        while rest > 0 {
            let mut label = (rest - 1).min(62);
            if rest - (label + 1) == 1 {
                label -= 1;
            }
            labels.push_str(&"b".repeat(label));
            labels.push('.');
            rest -= label + 1;
        }
        Some(format!("{}{local}@{labels}{domain}", "a".repeat(take)))
    })
}

/// `a…@b….co`: every length from 6 to 254.
fn plain_email(len: usize, seed: u64) -> String {
    let local = (len - 5).min(64).min(1 + (seed as usize % 64));
    // The domain: labels of at most 63 bytes, then `.co`.
    let mut rest = len - local - 1 - 3;
    let mut domain = String::new();
    while rest > 63 {
        domain.push_str(&"b".repeat(62));
        domain.push('.');
        rest -= 63;
    }
    domain.push_str(&"b".repeat(rest));
    format!("{}@{domain}.co", "a".repeat(local))
}

/// Absolute URIs of varied shapes: schemes with and without an authority, IP literals, user
/// info, ports, queries, fragments, an empty path. Each is padded with letters at its end.
const URIS: [&str; 10] = [
    "a:b",
    "https:",
    "urn:isbn:0451450523",
    "https://example.com/",
    "http://[::1]:8080/",
    "http://192.0.2.1/",
    "https://user@sub.example.co.uk:8443/a/b?q=1&r=x#frag",
    "mailto:octocat@github.com?subject=",
    "file:///tmp/",
    "https://example.org/search?q=",
];

fn uri(len: usize, seed: u64) -> String {
    let fitting: Vec<&str> = URIS.iter().copied().filter(|u| u.len() <= len).collect();
    let base = fitting[seed as usize % fitting.len()];
    format!("{base}{}", "p".repeat(len - base.len()))
}

/// A real calendar day, including leap days.
fn date(seed: u64) -> String {
    const DAYS: [u64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if seed.is_multiple_of(5) {
        return [
            "2024-02-29",
            "2000-02-29",
            "1999-12-31",
            "2026-01-01",
            "0001-01-01",
        ][(seed / 5 % 5) as usize]
            .to_owned();
    }
    let year = 1900 + seed % 200;
    let month = 1 + (seed / 200) % 12;
    let day = 1 + (seed / 2400) % DAYS[(month - 1) as usize];
    format!("{year:04}-{month:02}-{day:02}")
}

/// Near misses of `format`: one character or one calendar fact away from valid.
pub(super) fn near_misses(format: StringFormat) -> &'static [&'static str] {
    match format {
        StringFormat::Email => &[
            "octocat@",
            "@example.com",
            "two@@signs.com",
            "no-at-sign.example",
            "a..b@example.com",
            "with space@example.com",
            "a@b_c.com",
            "a@-example.com",
            "a@[192.0.2.256]",
        ],
        StringFormat::Uri => &[
            "/relative/path",
            "1http:",
            "example.com",
            "//example.com/a",
            "https://example.com/a b",
            "https://example.com/%zz",
            "https://exämple.com/",
            "https://example.com/#a#b",
        ],
        StringFormat::Date => &[
            "2023-02-29",
            "2100-02-29",
            "2024-04-31",
            "2024-13-01",
            "2024-00-10",
            "2024-2-9",
        ],
        StringFormat::DateTime => &[
            "2024-02-29T24:00:00Z",
            "2024-02-29T10:00:00+0530",
            "2023-02-29T10:00:00Z",
            "2024-04-31T10:00:00Z",
            "2024-01-01T10:00:60Z",
        ],
        _ => crate::lockstep("string format"),
    }
}

/// A string of exactly `len` characters that fails `format`.
pub(super) fn misformatted(format: StringFormat, len: u64, seed: u64) -> String {
    let near = near_misses(format);
    let fitting: Vec<&str> = near
        .iter()
        .copied()
        .filter(|s| s.chars().count() as u64 == len)
        .collect();
    match fitting.get(seed as usize % fitting.len().max(1)) {
        Some(s) => (*s).to_owned(),
        // No scheme, no `@`, no digits: no format accepts it (nor the empty string).
        None => "x".repeat(len as usize),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use elicit_runtime::schema::{is_valid_date, is_valid_date_time, is_valid_email, is_valid_uri};

    fn passes(format: StringFormat, s: &str) -> bool {
        match format {
            StringFormat::Email => is_valid_email(s),
            StringFormat::Uri => is_valid_uri(s),
            StringFormat::Date => is_valid_date(s),
            StringFormat::DateTime => is_valid_date_time(s),
            _ => crate::lockstep("string format"),
        }
    }

    #[test]
    fn testing_formatted_strings_pass_at_every_feasible_length_and_misformatted_fail() {
        use StringFormat::*;
        for format in [Email, Uri, Date, DateTime] {
            for len in 0..=300u64 {
                for seed in 0..40 {
                    match formatted(format, len, seed) {
                        Some(s) => {
                            assert_eq!(s.chars().count() as u64, len, "{format:?} {s}");
                            assert!(passes(format, &s), "{format:?} {s}");
                        }
                        None => assert!(
                            feasible_within(format, len, len).is_empty(),
                            "{format:?} {len}"
                        ),
                    }
                    let bad = misformatted(format, len, seed);
                    assert_eq!(bad.chars().count() as u64, len);
                    assert!(!passes(format, &bad), "{format:?} {bad}");
                }
            }
        }
        assert_eq!(formatted(Date, 11, 0), None);
        assert_eq!(formatted(DateTime, 21, 0), None);
        assert_eq!(formatted(Email, 255, 0), None);
    }
}
