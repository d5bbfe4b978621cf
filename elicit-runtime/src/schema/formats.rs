//! Checks for the four string `format`s a form may ask for.
//!
//! All of them work on bytes or `char`s, never slice a `str` unchecked, and accept any input
//! without panicking.

/// Whether `s` looks like a deliverable email address (`format: "email"`).
///
/// This is a pragmatic check, not the full RFC 5322 grammar:
/// - exactly one `@`, at most 254 bytes in total and at most 64 before the `@`;
/// - the local part is one or more dot-separated, non-empty runs of printable non-space ASCII
///   or non-ASCII characters (no quoted local parts, no leading, trailing or doubled dots);
/// - the domain has at least two dot-separated labels of at most 63 bytes, made of ASCII
///   letters, digits, `-` (not first or last) or non-ASCII letters and digits
///   (internationalized domain names). Address literals such as `[192.0.2.1]` are refused.
///
/// ```
/// use elicit_runtime::schema::is_valid_email;
///
/// assert!(is_valid_email("octocat@github.com"));
/// assert!(is_valid_email("jürgen.müller@bücher.de"));
/// assert!(!is_valid_email("octocat@localhost"));
/// assert!(!is_valid_email("two@@signs.com"));
/// assert!(!is_valid_email("with space@example.com"));
/// ```
pub fn is_valid_email(s: &str) -> bool {
    let bytes = s.as_bytes();
    if bytes.len() > 254 {
        return false;
    }
    // One pass over the bytes: runs of plain ASCII are skipped through a table lookup per byte,
    // and only non-ASCII characters are decoded. `i` only ever advances by whole characters, so
    // it is always on a character boundary.
    let next_char = |i: usize| s.get(i..).and_then(|rest| rest.chars().next());
    let skip = |i: usize, class: u8| {
        i + bytes.get(i..).map_or(0, |rest| {
            rest.iter()
                .take_while(|&&b| BYTE_CLASS[usize::from(b)] & class != 0)
                .count()
        })
    };

    // The local part, up to the `@`: atoms separated by single dots.
    let mut i = 0;
    let mut atom_start = 0;
    let at = loop {
        // Printable ASCII other than space, `.` and `@`.
        i = skip(i, LOCAL);
        match bytes.get(i) {
            None => return false, // no `@`
            Some(b'@') => break i,
            Some(b'.') => {
                if i == atom_start {
                    return false; // empty atom
                }
                atom_start = i + 1;
                i += 1;
            }
            Some(0x80..) => match next_char(i) {
                Some(c) if !c.is_whitespace() && !c.is_control() => i += c.len_utf8(),
                _ => return false,
            },
            Some(_) => return false, // ASCII space or control
        }
    };
    if at == atom_start || at > 64 {
        return false; // empty local part or last atom, or a local part over 64 bytes
    }

    // The domain: at least two labels separated by single dots. A second `@` is refused here.
    let mut i = at + 1;
    let mut label_start = i;
    let mut labels = 0usize;
    loop {
        // ASCII letters, digits and `-`.
        i = skip(i, LABEL);
        let b = bytes.get(i).copied();
        match b {
            None | Some(b'.') => {
                let label_ok = bytes.get(label_start..i).is_some_and(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && label.first() != Some(&b'-')
                        && label.last() != Some(&b'-')
                });
                if !label_ok {
                    return false;
                }
                labels += 1;
                if b.is_none() {
                    return labels >= 2;
                }
                i += 1;
                label_start = i;
            }
            Some(0x80..) => match next_char(i) {
                Some(c) if c.is_alphanumeric() => i += c.len_utf8(),
                _ => return false,
            },
            Some(_) => return false,
        }
    }
}

/// [`BYTE_CLASS`] bit: a byte that may appear as is in the local part of an email address.
const LOCAL: u8 = 1;
/// [`BYTE_CLASS`] bit: a byte that may appear as is in a domain label.
const LABEL: u8 = 2;

/// The classes of each byte value, for [`is_valid_email`]'s inner loops.
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b: u8 = 0x21;
    while b <= 0x7e {
        if b != b'.' && b != b'@' {
            table[b as usize] |= LOCAL;
        }
        if b.is_ascii_alphanumeric() || b == b'-' {
            table[b as usize] |= LABEL;
        }
        b += 1;
    }
    table
};

/// Whether `s` is an absolute URI in the sense of RFC 3986 (`format: "uri"`).
///
/// The scheme must be a letter followed by letters, digits, `+`, `-` or `.`, then `:` and a
/// non-empty remainder. The remainder must be printable ASCII without spaces or any of
/// `<` `>` `"` `{` `}` `|` `\` `^` `` ` ``, every `%` must start a two-hex-digit escape, and
/// there is at most one `#`. Relative references and non-ASCII IRIs are refused.
///
/// ```
/// use elicit_runtime::schema::is_valid_uri;
///
/// assert!(is_valid_uri("https://example.com/a?b=c#d"));
/// assert!(is_valid_uri("urn:isbn:0451450523"));
/// assert!(is_valid_uri("mailto:octocat@github.com"));
/// assert!(!is_valid_uri("/relative/path"));
/// assert!(!is_valid_uri("https://example.com/a b"));
/// assert!(!is_valid_uri("https:"));
/// ```
pub fn is_valid_uri(s: &str) -> bool {
    let bytes = s.as_bytes();
    let Some(colon) = bytes.iter().position(|&b| b == b':') else {
        return false;
    };
    let (scheme, rest) = (&bytes[..colon], &bytes[colon + 1..]);
    let scheme_ok = match scheme.split_first() {
        Some((first, tail)) => {
            first.is_ascii_alphabetic()
                && tail
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        }
        None => false,
    };
    if !scheme_ok || rest.is_empty() {
        return false;
    }
    let mut hashes = 0usize;
    let mut i = 0;
    while i < rest.len() {
        let b = rest[i];
        if !b.is_ascii_graphic()
            || matches!(
                b,
                b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`'
            )
        {
            return false;
        }
        match b {
            b'%' => {
                let escape_ok = rest
                    .get(i + 1..i + 3)
                    .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
                if !escape_ok {
                    return false;
                }
                i += 3;
                continue;
            }
            b'#' => {
                hashes += 1;
                if hashes > 1 {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// Whether `s` is an RFC 3339 `full-date` (`YYYY-MM-DD`) naming a real calendar day
/// (`format: "date"`).
///
/// ```
/// use elicit_runtime::schema::is_valid_date;
///
/// assert!(is_valid_date("2024-02-29"));
/// assert!(!is_valid_date("2023-02-29"));
/// assert!(!is_valid_date("2024-2-9"));
/// ```
pub fn is_valid_date(s: &str) -> bool {
    full_date(s.as_bytes())
}

/// Whether `s` is an RFC 3339 `date-time` (`format: "date-time"`).
///
/// Shape: `YYYY-MM-DD`, `T` or `t`, `HH:MM:SS`, an optional `.` with one or more digits, then
/// `Z`, `z` or `+HH:MM` / `-HH:MM`. Hours go up to 23, minutes up to 59 and seconds up to 60:
/// a leap second, only at 23:59:60 UTC (`15:59:60-08:00` is one, `00:00:60Z` is not).
///
/// ```
/// use elicit_runtime::schema::is_valid_date_time;
///
/// assert!(is_valid_date_time("2024-01-31T09:30:00Z"));
/// assert!(is_valid_date_time("2024-01-31t09:30:00.123456+05:30"));
/// assert!(!is_valid_date_time("2024-01-31T24:00:00Z"));
/// assert!(!is_valid_date_time("2024-01-31T09:30:00")); // the offset is mandatory
/// ```
pub fn is_valid_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !full_date(&b[..10]) || !matches!(b[10], b'T' | b't') {
        return false;
    }
    // partial-time: HH:MM:SS
    let (Some(hour), Some(minute), Some(second)) = (
        two_digits(b[11], b[12]).filter(|h| *h <= 23),
        two_digits(b[14], b[15]).filter(|m| *m <= 59),
        two_digits(b[17], b[18]).filter(|s| *s <= 60),
    ) else {
        return false;
    };
    if b[13] != b':' || b[16] != b':' {
        return false;
    }
    let mut rest = &b[19..];
    if let Some((b'.', tail)) = rest.split_first() {
        let digits = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &tail[digits..];
    }
    // The offset, in minutes east of UTC.
    let offset: i32 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(h), Some(m)) = (
                two_digits(*h1, *h2).filter(|h| *h <= 23),
                two_digits(*m1, *m2).filter(|m| *m <= 59),
            ) else {
                return false;
            };
            let minutes = i32::from(h) * 60 + i32::from(m);
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return false,
    };
    // A leap second is only ever inserted as 23:59:60 UTC (RFC 3339 §5.7; the JSON Schema test
    // suite agrees): in local time that is the minute before midnight, shifted by the offset.
    second < 60 || (i32::from(hour) * 60 + i32::from(minute) - offset).rem_euclid(1440) == 1439
}

/// `YYYY-MM-DD` on exactly ten bytes, with a real day of the month.
fn full_date(b: &[u8]) -> bool {
    let [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] = *b else {
        return false;
    };
    let (Some(hi), Some(lo), Some(month), Some(day)) = (
        two_digits(y1, y2),
        two_digits(y3, y4),
        two_digits(m1, m2),
        two_digits(d1, d2),
    ) else {
        return false;
    };
    let year = u32::from(hi) * 100 + u32::from(lo);
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

fn days_in_month(year: u32, month: u8) -> u8 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn two_digits(a: u8, b: u8) -> Option<u8> {
    (a.is_ascii_digit() && b.is_ascii_digit()).then(|| (a - b'0') * 10 + (b - b'0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The earlier `split`-based [`is_valid_email`], kept to check the one-pass version against.
    fn is_valid_email_reference(s: &str) -> bool {
        if s.len() > 254 {
            return false;
        }
        let mut parts = s.split('@');
        let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
            return false;
        };
        if local.len() > 64 {
            return false;
        }
        let local_ok = local.split('.').all(|atom| {
            !atom.is_empty()
                && atom.chars().all(|c| {
                    if c.is_ascii() {
                        c.is_ascii_graphic()
                    } else {
                        !c.is_whitespace() && !c.is_control()
                    }
                })
        });
        if !local_ok {
            return false;
        }
        let mut labels = 0usize;
        for label in domain.split('.') {
            labels += 1;
            let label_ok = !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| {
                    if c.is_ascii() {
                        c.is_ascii_alphanumeric() || c == '-'
                    } else {
                        c.is_alphanumeric()
                    }
                });
            if !label_ok {
                return false;
            }
        }
        labels >= 2
    }

    /// Characters that exercise every branch: separators, ASCII accepted in one part only,
    /// refused ASCII, non-ASCII letters and digits, non-ASCII symbols, spaces and controls.
    const EMAIL_ALPHABET: [char; 14] = [
        'a', '-', '.', '@', '_', ' ', '\u{0}', 'é', '٣', '😀', '\u{a0}', '\u{85}', '\u{200b}',
        '\u{7f}',
    ];

    #[track_caller]
    fn same_as_reference(s: &str) {
        assert_eq!(
            is_valid_email(s),
            is_valid_email_reference(s),
            "{s:?} ({} bytes)",
            s.len()
        );
    }

    #[test]
    fn email_matches_reference_on_every_short_string() {
        // Every string of up to 5 characters over the alphabet (about 580 000 strings).
        let mut current = vec![0usize; 0];
        let mut text = String::new();
        loop {
            text.clear();
            text.extend(current.iter().map(|&k| EMAIL_ALPHABET[k]));
            same_as_reference(&text);
            // Next string in shortlex order.
            let mut pos = current.len();
            loop {
                if pos == 0 {
                    current.insert(0, 0);
                    break;
                }
                pos -= 1;
                current[pos] += 1;
                if current[pos] < EMAIL_ALPHABET.len() {
                    break;
                }
                current[pos] = 0;
            }
            if current.len() > 5 {
                break;
            }
        }
    }

    #[test]
    fn email_matches_reference_at_the_length_limits() {
        // Runs of one-, two- and four-byte characters around 64 (local part), 63 (label) and
        // 254 (total) bytes, alone and with a leading or trailing dash or dot.
        let fills = ["a", "é", "用", "😀", "a-", "-a", "a.", "é.a"];
        let mut cases = Vec::new();
        for fill in fills {
            for n in 0..=70 {
                let run = fill.repeat(n);
                for (local, domain) in [
                    (run.as_str(), "example.com"),
                    ("a", run.as_str()),
                    ("a", &format!("{run}.com")),
                    ("a", &format!("b.{run}")),
                    (run.as_str(), &format!("{run}.{run}")),
                ] {
                    cases.push(format!("{local}@{domain}"));
                }
            }
            for total in 240..=260 {
                let mut s = String::from("a@b.");
                while s.len() < total {
                    s.push_str(fill);
                }
                cases.push(s);
            }
        }
        for s in &cases {
            same_as_reference(s);
            for cut in 0..=s.len() {
                if let Some(prefix) = s.get(..cut) {
                    same_as_reference(prefix);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        #[test]
        fn email_matches_reference_on_random_strings(
            chars in proptest::collection::vec(proptest::sample::select(&EMAIL_ALPHABET[..]), 0..300),
            any_text in "\\PC{0,80}",
        ) {
            let s: String = chars.into_iter().collect();
            same_as_reference(&s);
            same_as_reference(&any_text);
            same_as_reference(&format!("{any_text}@{any_text}.com"));
        }
    }

    #[test]
    fn email() {
        for ok in [
            "a@b.co",
            "first.last+tag@sub.example.org",
            "o'brien@example.ie",
            "用户@例子.广告",
            "x@xn--bcher-kva.example",
            "a-b@a-b.c-d",
        ] {
            assert!(is_valid_email(ok), "{ok}");
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        let long_total = format!("a@{}.com", "b".repeat(260));
        let long_label = format!("a@{}.com", "b".repeat(64));
        for bad in [
            "",
            "@",
            "a@",
            "@b.com",
            "plain",
            "a@b",
            "a@@b.com",
            "a@b@c.com",
            "a b@c.com",
            "a@b c.com",
            "a@b..com",
            "a@.b.com",
            "a@b.com.",
            "a@-b.com",
            "a@b-.com",
            ".a@b.com",
            "a.@b.com",
            "a..b@c.com",
            "a\u{0}@b.com",
            "a\u{a0}b@c.com",
            "a@[192.0.2.1]",
            "a@b_c.com",
            long_local.as_str(),
            long_total.as_str(),
            long_label.as_str(),
        ] {
            assert!(!is_valid_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn uri() {
        for ok in [
            "https://example.com",
            "http://[::1]:8080/x",
            "file:///etc/hosts",
            "urn:uuid:550e8400-e29b-41d4-a716-446655440000",
            "a:b",
            "git+ssh://host/repo.git",
            "https://example.com/%E2%82%AC?q=1&r=2#frag?ment/",
        ] {
            assert!(is_valid_uri(ok), "{ok}");
        }
        for bad in [
            "",
            ":",
            "https:",
            "1http://x",
            "ht tp://x",
            "//example.com",
            "example.com",
            "https://example.com/ a",
            "https://example.com/\t",
            "https://example.com/<x>",
            "https://example.com/{x}",
            "https://example.com/a|b",
            "https://example.com/a\\b",
            "https://example.com/a^b",
            "https://example.com/a`b",
            "https://example.com/\"",
            "https://example.com/%",
            "https://example.com/%4",
            "https://example.com/%zz",
            "https://example.com/#a#b",
            "https://bücher.de/",
            "https://example.com/\u{7f}",
            "é:x",
        ] {
            assert!(!is_valid_uri(bad), "{bad:?}");
        }
    }

    #[test]
    fn date() {
        for ok in [
            "2024-02-29",
            "2000-02-29",
            "2023-02-28",
            "0000-01-01",
            "9999-12-31",
            "2023-04-30",
            "2023-01-31",
        ] {
            assert!(is_valid_date(ok), "{ok}");
        }
        for bad in [
            "",
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "2023-04-31",
            "2023-00-10",
            "2023-13-01",
            "2023-01-00",
            "2023-01-32",
            "2023-1-01",
            "2023/01/01",
            "20230101",
            "2023-01-01 ",
            " 2023-01-01",
            "+2023-01-01",
            "2023-01-0a",
            "２０２３-01-01",
            "2023-01-01T00:00:00Z",
            "2023-01-é1",
        ] {
            assert!(!is_valid_date(bad), "{bad:?}");
        }
    }

    #[test]
    fn date_time() {
        for ok in [
            "2024-02-29T23:59:59Z",
            "2024-02-29t00:00:00z",
            "2016-12-31T23:59:60Z",
            "1998-12-31T15:59:60.123-08:00",
            "1999-01-01T05:29:60+05:30",
            "2024-01-01T12:00:00.5-08:00",
            "2024-01-01T12:00:00.000000001+23:59",
            "2024-01-01T12:00:00+00:00",
        ] {
            assert!(is_valid_date_time(ok), "{ok}");
        }
        for bad in [
            "",
            "2024-01-01",
            "2024-01-01T",
            "2024-01-01T24:00:00Z",
            "2024-01-01T23:60:00Z",
            "2024-01-01T23:59:61Z",
            "0000-01-01T00:00:60Z",
            "1998-12-31T23:58:60Z",
            "1998-12-31T22:59:60Z",
            "1998-12-31T23:59:60-08:00",
            "2024-01-01T12:00:00",
            "2024-01-01 12:00:00Z",
            "2024-01-01T12:00Z",
            "2024-01-01T12:00:00.Z",
            "2024-01-01T12:00:00+24:00",
            "2024-01-01T12:00:00+05:60",
            "2024-01-01T12:00:00+0530",
            "2024-01-01T12:00:00ZZ",
            "2024-01-01T12:00:00Z ",
            "2023-02-29T12:00:00Z",
            "2024-01-01T1é:00:00Z",
            "2024-01-01T12:00:00.1é",
            "2024-01-01T12:00:00＋05:30",
        ] {
            assert!(!is_valid_date_time(bad), "{bad:?}");
        }
    }

    #[test]
    fn never_panics_on_odd_input() {
        let samples = [
            "é",
            "€€€€€€€€€€",
            "2024-01-01T",
            "😀:😀",
            "@",
            "@@",
            "%",
            "a:%",
            "a:%e",
            "\u{0}",
            "2024-01-01T12:00:00.",
            "2024-01-01T12:00:00.😀",
        ];
        for s in samples {
            for cut in 0..=s.len() {
                if let Some(prefix) = s.get(..cut) {
                    let _ = is_valid_email(prefix);
                    let _ = is_valid_uri(prefix);
                    let _ = is_valid_date(prefix);
                    let _ = is_valid_date_time(prefix);
                }
            }
        }
        let huge = "9".repeat(1 << 20);
        assert!(!is_valid_date(&huge));
        assert!(!is_valid_date_time(&huge));
        assert!(!is_valid_email(&huge));
        assert!(!is_valid_uri(&huge));
        assert!(is_valid_uri(&format!("a:{huge}")));
    }
}
