//! The kit's generated answers (`testing::answers`) against the derived decoders: every valid
//! answer decodes, every invalid one is refused naming exactly its field, and the strategies
//! reach every edge and every rule the forms advertise.

use std::collections::BTreeSet;

use elicit_testing::answers::{self, Invalid, Rule};

use super::*;

/// What `Rich` and `Loose` leave out: formats with length bounds, an `i32` and an `f32` with
/// bounds, a titled single select, a multi-select whose `maxItems` is its option count, and a
/// set of at most one.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Everything at once")]
pub(super) struct Everything {
    #[elicit(format = "uri", min_length = 20)]
    site: String,
    #[elicit(format = "date-time", max_length = 30)]
    when: String,
    #[elicit(format = "date")]
    day: String,
    #[elicit(min_length = 2, max_length = 3)]
    code: String,
    #[elicit(minimum = -3, maximum = 3)]
    step: i32,
    /// Named like `SINGLE_PRECISION`'s field, so that (c) compares it at `f32` precision.
    #[elicit(minimum = 0, maximum = 1)]
    ratio: f32,
    hex: Hex,
    #[elicit(min_items = 1, max_items = 3)]
    hexes: Vec<Hex>,
    #[elicit(max_items = 1)]
    seats: HashSet<Seating>,
    consent: Option<bool>,
}

/// Every valid answer decodes (and round-trips, checked by (c)'s `valid_round_trips`).
fn decodes<T: ElicitForm + Debug + PartialEq>(
    content: Map<String, Json>,
) -> Result<(), TestCaseError> {
    valid_round_trips::<T>(&Json::Object(content))
}

/// Every invalid answer is refused by the decoder and the model, for its field alone.
pub(super) fn refused<T: ElicitForm + Debug>(bad: Invalid) -> Result<(), TestCaseError> {
    let content = Json::Object(bad.content.clone());
    let err = T::from_content(&content);
    prop_assert!(err.is_err(), "{:?} decoded", bad);
    let err = err.unwrap_err();
    let fields: Vec<&str> = err.errors().iter().map(|e| e.field.as_str()).collect();
    prop_assert_eq!(
        fields,
        [bad.field.as_str()],
        "{} broke {}: {}",
        content,
        bad.rule,
        err
    );
    prop_assert_eq!(Some(err), T::requested_schema().validate(&content).err());
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn generated_rich_valid_answers_decode(content in answers::valid::<Rich>()) {
        decodes::<Rich>(content)?;
    }

    #[test]
    fn generated_loose_valid_answers_decode(content in answers::valid::<Loose>()) {
        decodes::<Loose>(content)?;
    }

    #[test]
    fn generated_everything_valid_answers_decode(content in answers::valid::<Everything>()) {
        decodes::<Everything>(content)?;
    }

    #[test]
    fn generated_rich_invalid_answers_name_their_field(bad in answers::invalid::<Rich>()) {
        refused::<Rich>(bad)?;
    }

    #[test]
    fn generated_loose_invalid_answers_name_their_field(bad in answers::invalid::<Loose>()) {
        refused::<Loose>(bad)?;
    }

    #[test]
    fn generated_everything_invalid_answers_name_their_field(
        bad in answers::invalid::<Everything>()
    ) {
        refused::<Everything>(bad)?;
    }

    /// (a) and (b) on the generated answers, mutated as `content` mutates the hand-written ones.
    #[test]
    fn generated_rich_mutated_answers_agree_and_round_trip(
        content in content::<Rich>(answers::valid::<Rich>().prop_map(Json::Object))
    ) {
        decoder_agrees_with_model::<Rich>(&content)?;
        accepted_round_trips::<Rich>(&content)?;
    }
}

pub(super) fn samples<T: Debug>(strategy: impl Strategy<Value = T>, n: usize) -> Vec<T> {
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// Every field of `Everything` gets a missing value (when required) and a wrong type, and
/// exactly the rules it advertises.
#[test]
fn generated_invalid_answers_cover_every_advertised_rule() {
    use Rule::*;
    let drawn: BTreeSet<(String, Rule)> = samples(answers::invalid::<Everything>(), 4000)
        .into_iter()
        .map(|bad| (bad.field, bad.rule))
        .collect();
    let mut expected: BTreeSet<(String, Rule)> = BTreeSet::new();
    for (field, rules) in [
        ("site", &[Required, WrongType, TooShort, Format][..]),
        ("when", &[Required, WrongType, TooLong, Format]),
        ("day", &[Required, WrongType, Format]),
        ("code", &[Required, WrongType, TooShort, TooLong]),
        (
            "step",
            &[Required, WrongType, BelowMinimum, AboveMaximum, NotWhole],
        ),
        ("ratio", &[Required, WrongType, BelowMinimum, AboveMaximum]),
        ("hex", &[Required, WrongType, UnknownOption]),
        (
            "hexes",
            &[Required, WrongType, TooFewItems, Duplicate, UnknownOption],
        ),
        ("seats", &[Required, WrongType, TooManyItems, UnknownOption]),
        ("consent", &[WrongType]),
    ] {
        expected.extend(rules.iter().map(|&rule| (field.to_owned(), rule)));
    }
    assert_eq!(drawn, expected);
}

/// Valid answers reach both ends of every bound, every option, and optional fields present
/// and absent (`null` only among the lenient ones).
#[test]
fn generated_valid_answers_reach_every_edge() {
    let all = samples(answers::valid::<Everything>(), 2000);
    let seen = |field: &str, f: &dyn Fn(Option<&Json>) -> Json| -> BTreeSet<String> {
        all.iter().map(|c| f(c.get(field)).to_string()).collect()
    };
    let value = |v: Option<&Json>| v.cloned().unwrap_or(json!("absent"));
    let chars = |v: Option<&Json>| json!(v.unwrap().as_str().unwrap().chars().count());
    let count = |v: Option<&Json>| json!(v.unwrap().as_array().unwrap().len());
    let ints = |v: Option<&Json>| json!(v.unwrap().as_f64().unwrap() as i64);
    let set = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();

    assert_eq!(
        seen("consent", &value),
        set(&["\"absent\"", "false", "true"])
    );
    let lenient = samples(answers::lenient::<Everything>(), 500);
    assert!(
        lenient
            .iter()
            .any(|c| c.get("consent") == Some(&Json::Null))
    );
    assert_eq!(
        seen("step", &ints),
        set(&["-1", "-2", "-3", "0", "1", "2", "3"])
    );
    assert_eq!(seen("code", &chars), set(&["2", "3"]));
    assert_eq!(seen("hexes", &count), set(&["1", "2", "3"]));
    assert_eq!(seen("seats", &count), set(&["0", "1"]));
    assert_eq!(
        seen("hex", &value),
        set(&["\"#0000FF\"", "\"#00FF00\"", "\"#FF0000\""])
    );
    let ratios = seen("ratio", &value);
    assert!(ratios.contains("0") && ratios.contains("1"), "{ratios:?}");
    let lengths = seen("when", &chars);
    assert!(
        lengths.contains("20") && lengths.contains("30"),
        "{lengths:?}"
    );
    // `Loose`'s defaults are drawn as answers too.
    let loose = samples(answers::valid::<Loose>(), 500);
    assert!(loose.iter().any(|c| c.get("share") == Some(&json!(0.5))));
    assert!(loose.iter().any(|c| c.get("label") == Some(&json!("x"))));
}
