//! The kit's valid answers are what a conforming client sends: every one is accepted by the
//! `jsonschema` crate against the form's own `requestedSchema`, formats checked, as a client
//! that validates before sending would check it. Optional fields are absent, never `null`;
//! `answers::lenient` adds the `null`s a sloppy client sends and the server still accepts.

use elicit_testing::answers;

use super::differential::validator;
use super::generated::Everything;
use super::*;

/// Every format with no length bound (so the generators' own shapes decide), whole numbers with
/// no advertised bound (`u64`, `i64`), optional fields of each kind.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Formats, unbounded")]
pub(super) struct Unbounded {
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "uri")]
    uri: String,
    #[elicit(format = "date")]
    day: String,
    #[elicit(format = "date-time")]
    at: String,
    #[elicit(format = "email")]
    other_email: Option<String>,
    #[elicit(format = "uri")]
    other_uri: Option<String>,
    count: u64,
    offset: i64,
    maybe_count: Option<u64>,
    maybe_offset: Option<i64>,
    maybe_ratio: Option<f64>,
    maybe_flag: Option<bool>,
    maybe_color: Option<Color>,
    maybe_colors: Option<Vec<Color>>,
}

fn accepted_by_jsonschema<T: ElicitForm>(
    validator: &jsonschema::Validator,
    content: Map<String, Json>,
) -> Result<(), TestCaseError> {
    let content = Json::Object(content);
    let errors: Vec<String> = validator
        .iter_errors(&content)
        .map(|e| e.to_string())
        .collect();
    prop_assert!(errors.is_empty(), "{} refused: {:?}", content, errors);
    prop_assert!(T::from_content(&content).is_ok(), "{} not decoded", content);
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn valid_rich_answers_pass_the_requested_schema(content in answers::valid::<Rich>()) {
        thread_local!(static V: jsonschema::Validator = validator::<Rich>());
        V.with(|v| accepted_by_jsonschema::<Rich>(v, content))?;
    }

    #[test]
    fn valid_loose_answers_pass_the_requested_schema(content in answers::valid::<Loose>()) {
        thread_local!(static V: jsonschema::Validator = validator::<Loose>());
        V.with(|v| accepted_by_jsonschema::<Loose>(v, content))?;
    }

    #[test]
    fn valid_everything_answers_pass_the_requested_schema(
        content in answers::valid::<Everything>()
    ) {
        thread_local!(static V: jsonschema::Validator = validator::<Everything>());
        V.with(|v| accepted_by_jsonschema::<Everything>(v, content))?;
    }

    #[test]
    fn valid_unbounded_answers_pass_the_requested_schema(
        content in answers::valid::<Unbounded>()
    ) {
        thread_local!(static V: jsonschema::Validator = validator::<Unbounded>());
        V.with(|v| accepted_by_jsonschema::<Unbounded>(v, content))?;
    }

    #[test]
    fn lenient_answers_decode(content in answers::lenient::<Unbounded>()) {
        prop_assert!(Unbounded::from_content(&Json::Object(content)).is_ok());
    }

    #[test]
    fn invalid_unbounded_answers_name_their_field(bad in answers::invalid::<Unbounded>()) {
        generated::refused::<Unbounded>(bad)?;
    }
}

fn share_with_null(contents: &[Map<String, Json>]) -> f64 {
    let with_null = contents
        .iter()
        .filter(|c| c.values().any(Json::is_null))
        .count();
    with_null as f64 / contents.len() as f64
}

/// No valid answer has a `null`; optional fields are absent in some and present in others;
/// the lenient ones have `null`s.
#[test]
fn valid_answers_have_no_null_and_lenient_ones_do() {
    let valid = generated::samples(answers::valid::<Unbounded>(), 2000);
    assert_eq!(share_with_null(&valid), 0.0);
    for field in ["other_email", "maybe_count", "maybe_colors"] {
        assert!(valid.iter().any(|c| !c.contains_key(field)), "{field}");
        assert!(valid.iter().any(|c| c.contains_key(field)), "{field}");
    }
    let lenient = generated::samples(answers::lenient::<Unbounded>(), 2000);
    assert!(
        share_with_null(&lenient) > 0.2,
        "{}",
        share_with_null(&lenient)
    );
}

/// Emails and URIs come in varied shapes; out-of-range 64-bit integers and calendar-impossible
/// dates are among the invalid answers.
#[test]
fn generated_answers_are_varied() {
    let valid = generated::samples(answers::valid::<Unbounded>(), 2000);
    let texts = |field: &str| -> Vec<String> {
        valid
            .iter()
            .map(|c| c[field].as_str().unwrap().to_owned())
            .collect()
    };
    let emails = texts("email");
    for shape in [
        "+tag@",
        "@localhost",
        "@[192.0.2.1]",
        "@mail.example.org",
        "o'brien@",
    ] {
        assert!(emails.iter().any(|e| e.contains(shape)), "{shape}");
    }
    let uris = texts("uri");
    for shape in [
        "://[::1]:8080/",
        "://192.0.2.1/",
        "?q=",
        "#frag",
        ":8443",
        "urn:",
        "mailto:",
    ] {
        assert!(uris.iter().any(|u| u.contains(shape)), "{shape}");
    }
    let invalid = generated::samples(answers::invalid::<Unbounded>(), 6000);
    let broke = |field: &str, rule: answers::Rule, value: Json| {
        invalid.iter().any(|bad| {
            bad.field == field && bad.rule == rule && bad.content.get(field) == Some(&value)
        })
    };
    use answers::Rule::*;
    assert!(broke("day", Format, json!("2023-02-29")));
    assert!(broke("count", BelowMinimum, json!(-1)));
    assert!(broke("count", AboveMaximum, json!(1.0e20)));
    assert!(broke("offset", AboveMaximum, json!(9.3e18)));
    assert!(broke("offset", BelowMinimum, json!(-9.3e18)));
}
