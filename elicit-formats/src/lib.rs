//! Implementation detail of `elicit-runtime`; depend on that instead (its `schema` module
//! re-exports these).
//!
//! The checks for the four string `format`s a form may ask for, in one place: `elicit-macros`
//! runs them on `default` literals at compile time and `elicit-runtime` on every answer, so a
//! default the compiler accepts is one the runtime accepts. And which characters of a text
//! from the other side are shown as their code point ([`is_marked`]), for the host's renderers
//! and the landing page alike.
//!
//! All of them work on bytes or `char`s, never slice a `str` unchecked, and accept any input
//! without panicking.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod shown;

pub use shown::is_marked;

/// Whether `s` looks like a deliverable email address (`format: "email"`).
///
/// This is a pragmatic check, not the full RFC 5322 grammar, and accepts every address Ajv's
/// `email` format (either mode) and Python `jsonschema`'s checker accept, but for the pinned
/// differences listed in the guide (chapter 3):
/// - exactly one `@`, at most 254 bytes in total and at most 64 before the `@` (RFC 5321
///   §4.5.3.1);
/// - the local part is one or more dot-separated, non-empty runs of printable non-space ASCII
///   or non-ASCII characters (no quoted local parts, no leading, trailing or doubled dots:
///   RFC 5322 `dot-atom`);
/// - the domain is one or more dot-separated labels of at most 63 bytes, made of ASCII
///   letters, digits, `-` (not first or last) or non-ASCII letters and digits
///   (internationalized domain names); a single label such as `localhost` is a domain too
///   (RFC 5321 `Domain`). Or an address literal (RFC 5321 §4.1.3): `[192.0.2.1]` or
///   `[IPv6:2001:db8::1]`.
///
/// ```
/// use elicit_formats::is_valid_email;
///
/// assert!(is_valid_email("octocat@github.com"));
/// assert!(is_valid_email("jürgen.müller@bücher.de"));
/// assert!(is_valid_email("octocat@localhost"));
/// assert!(is_valid_email("postmaster@[192.0.2.1]"));
/// assert!(!is_valid_email("two@@signs.com"));
/// assert!(!is_valid_email("with space@example.com"));
/// ```
pub fn is_valid_email(s: &str) -> bool {
    if s.len() > 254 {
        return false;
    }
    let Some(at) = local_part_end(s) else {
        return false;
    };
    // One `@` was found; a second one is refused by the domain's rules.
    let domain = &s[at + 1..];
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => is_address_literal(literal),
        None => is_valid_domain(domain),
    }
}

/// Where the local part of `s` ends (the index of its `@`): atoms of printable characters other
/// than space, `.` and `@`, separated by single dots, at most 64 bytes; `None` if it breaks a
/// rule or there is no `@`.
///
/// One pass over the bytes: runs of plain ASCII are skipped through a table lookup per byte,
/// and only non-ASCII characters are decoded. `i` only ever advances by whole characters, so
/// it is always on a character boundary.
fn local_part_end(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut atom_start = 0;
    let at = loop {
        i = skip(bytes, i, LOCAL);
        match bytes.get(i) {
            None => return None, // no `@`
            Some(b'@') => break i,
            Some(b'.') => {
                if i == atom_start {
                    return None; // empty atom
                }
                atom_start = i + 1;
                i += 1;
            }
            Some(0x80..) => match next_char(s, i) {
                Some(c) if !c.is_whitespace() && !c.is_control() => i += c.len_utf8(),
                _ => return None,
            },
            Some(_) => return None, // ASCII space or control
        }
    };
    // Not an empty local part or last atom, nor a local part over 64 bytes.
    (at != atom_start && at <= 64).then_some(at)
}

/// An address literal's inside: `IPv4` or `IPv6:…`.
fn is_address_literal(literal: &str) -> bool {
    match literal.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
            literal[5..].parse::<std::net::Ipv6Addr>().is_ok()
        }
        _ => literal.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

/// A domain of an email address: labels of letters, digits and `-` (not first or last, at most
/// 63 bytes), non-ASCII letters and digits allowed, separated by single dots.
fn is_valid_domain(domain: &str) -> bool {
    let bytes = domain.as_bytes();
    let mut i = 0;
    let mut label_start = 0;
    loop {
        i = skip(bytes, i, LABEL);
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
                if b.is_none() {
                    return true;
                }
                i += 1;
                label_start = i;
            }
            Some(0x80..) => match next_char(domain, i) {
                Some(c) if c.is_alphanumeric() => i += c.len_utf8(),
                _ => return false,
            },
            Some(_) => return false,
        }
    }
}

/// The first index at or after `i` whose byte is not in `class`.
fn skip(bytes: &[u8], mut i: usize, class: u8) -> usize {
    while let Some(&b) = bytes.get(i) {
        if BYTE_CLASS[usize::from(b)] & class == 0 {
            break;
        }
        i += 1;
    }
    i
}

/// The character at byte `i` of `s` (`None` at the end or off a character boundary).
fn next_char(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|rest| rest.chars().next())
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
/// remainder that may be empty (`https:` is a URI with an empty path, RFC 3986 `path-empty`). The remainder must be printable ASCII without spaces or any of
/// `<` `>` `"` `{` `}` `|` `\` `^` `` ` ``, every `%` must start a two-hex-digit escape, and
/// there is at most one `#`. Relative references and non-ASCII IRIs are refused.
///
/// ```
/// use elicit_formats::is_valid_uri;
///
/// assert!(is_valid_uri("https://example.com/a?b=c#d"));
/// assert!(is_valid_uri("urn:isbn:0451450523"));
/// assert!(is_valid_uri("mailto:octocat@github.com"));
/// assert!(!is_valid_uri("/relative/path"));
/// assert!(is_valid_uri("https:"));
/// assert!(!is_valid_uri("https://example.com/a b"));
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
    if !scheme_ok {
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
/// use elicit_formats::is_valid_date;
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
/// Shape: `YYYY-MM-DD`, `T`, `t` or a space (RFC 3339 §5.6 allows it for readability, and
/// Ajv accepts it), `HH:MM:SS`, an optional `.` with one or more digits, then
/// `Z`, `z` or `+HH:MM` / `-HH:MM`. Hours go up to 23, minutes up to 59 and seconds up to 60:
/// a leap second, only at 23:59:60 UTC (`15:59:60-08:00` is one, `00:00:60Z` is not).
///
/// ```
/// use elicit_formats::is_valid_date_time;
///
/// assert!(is_valid_date_time("2024-01-31T09:30:00Z"));
/// assert!(is_valid_date_time("2024-01-31t09:30:00.123456+05:30"));
/// assert!(is_valid_date_time("2024-01-31 09:30:00Z"));
/// assert!(!is_valid_date_time("2024-01-31T24:00:00Z"));
/// assert!(!is_valid_date_time("2024-01-31T09:30:00")); // the offset is mandatory
/// ```
pub fn is_valid_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !full_date(&b[..10]) || !matches!(b[10], b'T' | b't' | b' ') {
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
mod tests;
