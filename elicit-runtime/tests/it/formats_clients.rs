//! The format rules against the validators clients use (Ajv, Python's `jsonschema`), issue 22:
//! whatever a client validator accepts, the server accepts too, unless the difference is pinned
//! to an RFC rule (listed in guide chapter 3).
//!
//! - the committed table `tests/formats/cases.json` holds each validator's verdict on chosen
//!   strings; here elicit's verdicts are checked against it, and every case a client accepts and
//!   elicit refuses must name the rule it is pinned to;
//! - with `ELICIT_FORMATS_GENERATED=<file>`, the generated strings (every single-character edit
//!   of valid and near-miss seeds) are written there with elicit's verdicts, for
//!   `tests/formats/differential.mjs` to run through Ajv (`scripts/formats-differential`).

use elicit_runtime::schema::{is_valid_date, is_valid_date_time, is_valid_email, is_valid_uri};
use serde_json::{Value, json};

fn elicit(format: &str, s: &str) -> bool {
    match format {
        "email" => is_valid_email(s),
        "uri" => is_valid_uri(s),
        "date" => is_valid_date(s),
        "date-time" => is_valid_date_time(s),
        other => panic!("unknown format {other}"),
    }
}

fn table() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/formats/cases.json");
    let text = std::fs::read_to_string(path).expect("tests/formats/cases.json");
    let table: Value = serde_json::from_str(&text).expect("JSON");
    table["cases"].as_array().expect("cases").clone()
}

#[test]
fn elicit_verdicts_match_the_table_and_every_client_accepted_refusal_is_pinned() {
    let cases = table();
    assert!(cases.len() >= 30);
    for case in cases {
        let (format, value) = (
            case["format"].as_str().unwrap(),
            case["value"].as_str().unwrap(),
        );
        let ours = elicit(format, value);
        assert_eq!(Some(ours), case["elicit"].as_bool(), "{format} {value:?}");
        let a_client_accepts = ["ajv", "ajvFast", "python"]
            .iter()
            .any(|k| case[k].as_bool() == Some(true));
        assert_eq!(
            a_client_accepts && !ours,
            case.get("pinned").is_some(),
            "{format} {value:?}: pinned exactly when a client accepts what elicit refuses"
        );
    }
}

/// Seeds per format: valid strings of many shapes and near misses.
const SEEDS: [(&str, &[&str]); 4] = [
    (
        "email",
        &[
            "a@b.co",
            "first.last+tag@sub.example.org",
            "octocat@localhost",
            "o'brien@example.ie",
            "postmaster@[192.0.2.1]",
            "x@[IPv6:::1]",
            "a..b@x-y.io",
        ],
    ),
    (
        "uri",
        &[
            "https://user@example.com:8080/a/b?q=1&r=%20#frag",
            "http://[::1]:80/",
            "urn:isbn:0451450523",
            "mailto:a@b.co?subject=x",
            "https:",
            "file:///tmp/x",
        ],
    ),
    (
        "date",
        &["2024-02-29", "2023-02-28", "1999-12-31", "2100-02-28"],
    ),
    (
        "date-time",
        &[
            "2024-02-29T23:59:59Z",
            "1998-12-31T15:59:60.5-08:00",
            "2024-01-31t09:30:00.123+05:30",
            "2024-01-31 09:30:00z",
        ],
    ),
];

/// Characters an edit puts in: separators, digits, letters the formats care about, characters
/// outside URIs, non-ASCII.
const EDITS: [char; 24] = [
    'a', 'Z', 'T', 't', '0', '2', '9', '.', '@', '-', '+', ':', '/', '#', '%', '[', ']', ' ', '_',
    '"', '<', '?', 'é', '\'',
];

/// Every string one deletion, insertion or replacement away from a seed, and the seeds.
fn generated() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (format, seeds) in SEEDS {
        for seed in seeds {
            let chars: Vec<char> = seed.chars().collect();
            out.push((format, seed.to_string()));
            for i in 0..=chars.len() {
                if i < chars.len() {
                    let mut c = chars.clone();
                    c.remove(i);
                    out.push((format, c.into_iter().collect()));
                }
                for e in EDITS {
                    let mut c = chars.clone();
                    c.insert(i, e);
                    out.push((format, c.into_iter().collect()));
                    if i < chars.len() {
                        let mut c = chars.clone();
                        c[i] = e;
                        out.push((format, c.into_iter().collect()));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn generated_strings_for_the_ajv_differential() {
    let strings = generated();
    assert!(strings.len() > 10_000, "{}", strings.len());
    let Ok(path) = std::env::var("ELICIT_FORMATS_GENERATED") else {
        return;
    };
    let cases: Vec<Value> = strings
        .into_iter()
        .map(|(format, value)| {
            let ours = elicit(format, &value);
            json!({"format": format, "value": value, "elicit": ours})
        })
        .collect();
    std::fs::write(&path, serde_json::to_vec(&cases).unwrap()).expect("written");
}
