//! Tests of the string formats.

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
    labels >= 1
}

/// Characters that exercise every branch: separators, ASCII accepted in one part only,
/// refused ASCII, non-ASCII letters and digits, non-ASCII symbols, spaces and controls.
const EMAIL_ALPHABET: [char; 14] = [
    'a', '-', '.', '@', '_', ' ', '\u{0}', 'é', '٣', '😀', '\u{a0}', '\u{85}', '\u{200b}', '\u{7f}',
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

#[test]
fn email_matches_reference_for_every_ascii_byte_at_every_position() {
    // Each byte of a few ASCII addresses replaced by every ASCII byte, and a second `@`, dot
    // or dash added at every position.
    let long = format!("{}@{}.com", "x".repeat(30), "y".repeat(27));
    let addresses = [
        "ada.lovelace@analytical-engines.co.uk",
        "a@b.co",
        "first.last@sub-domain.example.org",
        "o'brien+tag@x-y.z9.io",
        long.as_str(),
    ];
    for address in addresses {
        same_as_reference(address);
        for i in 0..address.len() {
            for b in 0u8..0x80 {
                let mut bytes = address.as_bytes().to_vec();
                bytes[i] = b;
                same_as_reference(std::str::from_utf8(&bytes).expect("ASCII"));
                if b == b'@' || b == b'.' || b == b'-' {
                    bytes = address.as_bytes().to_vec();
                    bytes.insert(i, b);
                    same_as_reference(std::str::from_utf8(&bytes).expect("ASCII"));
                }
            }
        }
    }
}

#[test]
fn email_matches_reference_at_every_length_around_the_word_sizes() {
    // The short ASCII path reads eight bytes at a time and stops below 64 bytes: addresses of
    // every length from 3 to 70, each byte replaced by a separator or a refused byte.
    for n in 3..=70usize {
        let local = (n - 1) / 3;
        let domain = n - 1 - local;
        let address = if domain >= 3 {
            format!("{}@{}.{}", "l".repeat(local), "d".repeat(domain - 2), "t")
        } else {
            format!("{}@{}", "l".repeat(local), "d".repeat(domain))
        };
        assert_eq!(address.len(), n);
        same_as_reference(&address);
        for i in 0..n {
            for b in [
                b'@', b'.', b'-', b' ', b'!', b'~', 0x7f, 0, b'A', b'Z', b'0', b'9', b'_',
            ] {
                let mut bytes = address.as_bytes().to_vec();
                bytes[i] = b;
                same_as_reference(std::str::from_utf8(&bytes).expect("ASCII"));
            }
            let mut accented = address.clone();
            accented.insert(i, 'é');
            same_as_reference(&accented);
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
        "octocat@localhost",
        "a@b",
        "a@123",
        "postmaster@[192.0.2.1]",
        "postmaster@[IPv6:2001:db8::1]",
        "postmaster@[ipv6:::1]",
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
        "a@[192.0.2.256]",
        "a@[2001:db8::1]",
        "a@[IPv6:192.0.2.1]",
        "a@[192.0.2.1",
        "a@x.[192.0.2.1]",
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
        "https:",
        "git+ssh://host/repo.git",
        "https://example.com/%E2%82%AC?q=1&r=2#frag?ment/",
    ] {
        assert!(is_valid_uri(ok), "{ok}");
    }
    for bad in [
        "",
        ":",
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
        "2024-01-01 12:00:00Z",
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
        "2024-01-01_12:00:00Z",
        "2024-01-01  12:00:00Z",
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
