//! String lengths and formats.

use super::*;

#[test]
fn string_lengths_count_characters() {
    // "é" is 2 bytes, "👍" 4 bytes, "e\u{301}" two chars (a combining accent).
    for ok in ["ab", "éé", "👍👍", "e\u{301}", "éééé", "👍👍👍👍", "a👍éz"] {
        assert_eq!(
            accepts::<Texts>(&json!({"short": ok})).short.as_deref(),
            Some(ok)
        );
    }
    for short in ["", "a", "é", "👍"] {
        rejects::<Texts>(
            &json!({"short": short}),
            &[("short", "must be at least 2 characters long")],
        );
    }
    for long in ["abcde", "ééééé", "👍👍👍👍👍", "e\u{301}e\u{301}e"] {
        rejects::<Texts>(
            &json!({"short": long}),
            &[("short", "must be at most 4 characters long")],
        );
    }
    rejects::<Texts>(
        &json!({"nonempty": ""}),
        &[("nonempty", "must be at least 1 character long")],
    );
    accepts::<Texts>(&json!({"nonempty": " ", "single": "👍"}));
    rejects::<Texts>(
        &json!({"single": "ab"}),
        &[("single", "must be at most 1 character long")],
    );
    rejects::<Texts>(
        &json!({"single": "e\u{301}"}),
        &[("single", "must be at most 1 character long")],
    );
}

#[test]
fn email_format() {
    for ok in [
        "octocat@github.com",
        "a@b.co",
        "first.last+tag@sub.example.org",
        "jürgen.müller@bücher.de",
        // A single-label domain and an address literal are RFC 5321 mailboxes; Ajv (fast
        // mode) accepts the first, Python's checker both.
        "octocat@localhost",
        "postmaster@[192.0.2.1]",
    ] {
        accepts::<Texts>(&json!({ "email": ok }));
    }
    for bad in [
        "",
        "octocat",
        "octocat@",
        "@github.com",
        "two@@signs.com",
        "a@b@c.com",
        "with space@example.com",
        ".dot@example.com",
        "dot.@example.com",
        "a..b@example.com",
        "a@-example.com",
        "a@example..com",
        "a@[192.0.2.256]",
    ] {
        rejects::<Texts>(
            &json!({ "email": bad }),
            &[("email", "must be a valid email address")],
        );
    }
    let long_local = format!("{}@example.com", "a".repeat(65));
    rejects::<Texts>(
        &json!({ "email": long_local }),
        &[("email", "must be a valid email address")],
    );
    // Length is checked before format.
    rejects::<Texts>(
        &json!({"short_email": "abc@example.com"}),
        &[("short_email", "must be at most 8 characters long")],
    );
    rejects::<Texts>(
        &json!({"short_email": "nope"}),
        &[("short_email", "must be a valid email address")],
    );
    accepts::<Texts>(&json!({"short_email": "a@b.co"}));
}

#[test]
fn uri_format() {
    for ok in [
        "https://example.com",
        "https://example.com/a/b?c=d&e=%20#frag",
        "urn:isbn:0451450523",
        "mailto:octocat@github.com",
        "x:y",
        // An empty path (RFC 3986 `path-empty`).
        "https:",
    ] {
        accepts::<Texts>(&json!({ "uri": ok }));
    }
    for bad in [
        "",
        "example.com",
        "/relative/path",
        "//example.com",
        "1http://example.com",
        "https://example.com/a b",
        "https://example.com/%zz",
        "https://example.com/%2",
        "https://example.com/#a#b",
        "https://exämple.com",
        "https://example.com/<tag>",
    ] {
        rejects::<Texts>(
            &json!({ "uri": bad }),
            &[("uri", "must be a valid absolute URI")],
        );
    }
}

#[test]
fn date_format() {
    for ok in ["2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"] {
        accepts::<Texts>(&json!({ "date": ok }));
    }
    for bad in [
        "",
        "2023-02-29",
        "1900-02-29",
        "2024-13-01",
        "2024-00-10",
        "2024-04-31",
        "2024-1-01",
        "2024-01-1",
        "24-01-01",
        "2024/01/01",
        "2024-01-01T00:00:00Z",
        " 2024-01-01",
        "２０２４-01-01",
    ] {
        rejects::<Texts>(
            &json!({ "date": bad }),
            &[("date", "must be a valid date like 2024-01-31")],
        );
    }
}

#[test]
fn date_time_format() {
    for ok in [
        "2024-02-29T23:59:59Z",
        "2024-02-29t23:59:59z",
        "2024-02-29T23:59:60Z",
        "2024-01-31T09:30:00.123456+05:30",
        "2024-01-31T09:30:00-00:00",
        // A space for the `T` (RFC 3339 §5.6 NOTE; Ajv accepts it).
        "2024-01-31 09:30:00Z",
    ] {
        accepts::<Texts>(&json!({ "date_time": ok }));
    }
    for bad in [
        "",
        "2024-02-29",
        "2024-02-29T24:00:00Z",
        "2024-02-29T23:60:00Z",
        "2024-02-29T23:59:61Z",
        "2024-01-31T09:30:00",
        "2024-01-31_09:30:00Z",
        "2024-01-31T09:30Z",
        "2024-01-31T09:30:00.Z",
        "2024-01-31T09:30:00+24:00",
        "2024-01-31T09:30:00+05:60",
        "2024-01-31T09:30:00+0530",
        "2023-02-29T09:30:00Z",
        "2024-01-31T09:30:00Zjunk",
    ] {
        rejects::<Texts>(
            &json!({ "date_time": bad }),
            &[(
                "date_time",
                "must be a valid date and time like 2024-01-31T09:30:00Z",
            )],
        );
    }
}
