//! Values that break exactly one advertised rule of a property, each labelled with that rule.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::Rule;
use super::text;
use super::valid::{chosen, edges_and_between, multi_sizes, one_of, whole, whole_bounds};
use elicit_runtime::schema::{
    EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema, StringSchema,
};

/// What replaces the property in otherwise valid content: `None` removes it.
pub(super) type Breaking = BoxedStrategy<Option<Value>>;

/// Lengths beyond this are not generated (a `maxLength` this large is not worth a test case).
const LONGEST: u64 = 1 << 16;

/// Every rule `schema` advertises that an answer can break, with answers breaking it.
pub(super) fn breaking(schema: &PropertySchema, required: bool) -> Vec<(Rule, Breaking)> {
    let mut rules = Vec::new();
    if required {
        rules.push((
            Rule::Required,
            one_of(vec![Just(None).boxed(), Just(Some(Value::Null)).boxed()]),
        ));
    }
    let wrong_types: Vec<Value> = match schema {
        PropertySchema::String(_) => vec![json!(1), json!(true), json!(["x"]), json!({})],
        PropertySchema::Number(_) => vec![json!("3"), json!(true), json!([1]), json!({"n": 1})],
        PropertySchema::Boolean(_) => vec![json!("true"), json!(0), json!(1), json!([])],
        PropertySchema::SingleSelect(_) => vec![json!(1), json!(false), json!([]), json!({})],
        PropertySchema::MultiSelect(_) => vec![json!("x"), json!(1), json!({}), json!([1])],
        _ => crate::lockstep("property kind"),
    };
    rules.push((Rule::WrongType, values(wrong_types)));
    match schema {
        PropertySchema::String(s) => string(s, &mut rules),
        PropertySchema::Number(n) if n.integer => integer(n, &mut rules),
        PropertySchema::Number(n) => number(n, &mut rules),
        PropertySchema::Boolean(_) => {}
        PropertySchema::SingleSelect(s) => {
            rules.push((
                Rule::UnknownOption,
                values(vec![Value::String(unknown(&s.options))]),
            ));
        }
        PropertySchema::MultiSelect(m) => multi(m, &mut rules),
        _ => crate::lockstep("property kind"),
    }
    rules
}

fn values(values: Vec<Value>) -> Breaking {
    proptest::sample::select(values).prop_map(Some).boxed()
}

fn string(s: &StringSchema, rules: &mut Vec<(Rule, Breaking)>) {
    let format = s.format;
    // Met at the wrong length, the format still holds where it can; where it cannot, the
    // length is what the decoder reports (it checks length before format).
    let of_length = move |len: u64| -> Breaking {
        match format {
            Some(format) => any::<u64>()
                .prop_map(move |seed| {
                    let text = text::formatted(format, len, seed)
                        .unwrap_or_else(|| "x".repeat(len as usize));
                    Some(Value::String(text))
                })
                .boxed(),
            None => text::free(len).prop_map(|t| Some(Value::String(t))).boxed(),
        }
    };
    if let Some(min) = s.min_length.filter(|&min| (1..=LONGEST).contains(&min)) {
        rules.push((Rule::TooShort, of_length(min - 1)));
    }
    if let Some(max) = s.max_length.filter(|&max| max < LONGEST) {
        rules.push((Rule::TooLong, of_length(max + 1)));
    }
    if let Some(format) = format {
        let min = s.min_length.unwrap_or(0);
        let max = s.max_length.unwrap_or(min + text::UNBOUNDED_EXTRA);
        if min <= max && min <= LONGEST {
            let lengths = edges_and_between(min, max.min(LONGEST));
            let bad = (lengths, any::<u64>()).prop_map(move |(len, seed)| {
                Some(Value::String(text::misformatted(format, len, seed)))
            });
            // The near misses (calendar-impossible days, a doubled `@`, …) whose length is
            // allowed, as often as any other length.
            let near: Vec<Value> = text::near_misses(format)
                .iter()
                .filter(|s| (min..=max).contains(&(s.chars().count() as u64)))
                .map(|s| Value::from(*s))
                .collect();
            let bad = match near.is_empty() {
                true => bad.boxed(),
                false => one_of(vec![bad.boxed(), values(near)]),
            };
            rules.push((Rule::Format, bad));
        }
    }
}

fn integer(n: &NumberSchema, rules: &mut Vec<(Rule, Breaking)>) {
    let (lo, hi) = whole_bounds(n);
    let out_of_range = |v: i128| -> Value {
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(_), _) => whole(v),
            (_, Ok(u)) => Value::from(u),
            // Beyond every 64-bit integer: a whole float far outside.
            _ if v < 0 => Value::from(-1.0e19),
            _ => Value::from(1.0e20),
        }
    };
    // With no bound advertised, the 64-bit signed range is the bound: just past it, far past
    // it, and as floats (`9.3e18`, `1e20`), as a client holding a `u64` or a `double` sends.
    if n.minimum.is_none() {
        let below = vec![
            Value::from(-9.3e18),
            Value::from(-1.0e19),
            Value::from(-1.0e20),
            Value::from(f64::MIN),
        ];
        rules.push((Rule::BelowMinimum, values(below)));
    }
    if n.maximum.is_none() {
        let above = vec![
            Value::from(i64::MAX as u64 + 1),
            Value::from(u64::MAX),
            Value::from(9.3e18),
            Value::from(1.0e20),
            Value::from(f64::MAX),
        ];
        rules.push((Rule::AboveMaximum, values(above)));
    }
    if n.minimum.is_some() {
        let edge = lo - 1;
        let below = one_of(vec![
            Just(edge).boxed(),
            (i128::from(i64::MIN)..=edge.max(i64::MIN.into())).boxed(),
        ]);
        let below = below.prop_map(move |v| Some(out_of_range(v.min(edge))));
        rules.push((Rule::BelowMinimum, below.boxed()));
    }
    if n.maximum.is_some() {
        let edge = hi + 1;
        let above = one_of(vec![
            Just(edge).boxed(),
            (edge.min(i64::MAX.into())..=i128::from(i64::MAX)).boxed(),
        ]);
        let above = above.prop_map(move |v| Some(out_of_range(v.max(edge))));
        rules.push((Rule::AboveMaximum, above.boxed()));
    }
    // A half between two whole numbers in range (exact as a float).
    let (a, b) = (lo.max(-(1 << 52)), hi.min(1 << 52));
    if a < b {
        let half = (a..b).prop_map(|v| Some(Value::from(v as f64 + 0.5)));
        rules.push((Rule::NotWhole, half.boxed()));
    }
}

fn number(n: &NumberSchema, rules: &mut Vec<(Rule, Breaking)>) {
    let schema = PropertySchema::Number(n.clone());
    // The first finite candidate the model refuses: the next float past the bound, else
    // further out.
    let past = |bound: f64, step: fn(f64) -> f64, away: f64| -> Option<Value> {
        [
            step(bound),
            bound + away,
            bound + away * (1.0 + bound.abs()),
        ]
        .into_iter()
        .filter(|v| v.is_finite())
        .map(Value::from)
        .find(|v| schema.check(v).is_err())
    };
    let below = n
        .minimum
        .as_ref()
        .and_then(|m| past(m.as_f64()?, f64::next_down, -1.0));
    if let Some(below) = below {
        rules.push((Rule::BelowMinimum, Just(Some(below)).boxed()));
    }
    let above = n
        .maximum
        .as_ref()
        .and_then(|m| past(m.as_f64()?, f64::next_up, 1.0));
    if let Some(above) = above {
        rules.push((Rule::AboveMaximum, Just(Some(above)).boxed()));
    }
}

fn multi(m: &MultiSelectSchema, rules: &mut Vec<(Rule, Breaking)>) {
    let values: Vec<String> = m.options.values().map(str::to_owned).collect();
    let n = values.len() as u64;
    let (fewest, most) = multi_sizes(m);
    let list = |chosen: Vec<String>| {
        Some(Value::Array(
            chosen.into_iter().map(Value::String).collect(),
        ))
    };
    if let Some(min) = m.min_items.filter(|&min| (1..=n + 1).contains(&min)) {
        rules.push((
            Rule::TooFewItems,
            chosen(values.clone(), min - 1).prop_map(list).boxed(),
        ));
    }
    if let Some(max) = m.max_items.filter(|&max| max < n) {
        rules.push((
            Rule::TooManyItems,
            chosen(values.clone(), max + 1).prop_map(list).boxed(),
        ));
    }
    // One option chosen twice, the list's length still allowed.
    let (lo, hi) = (
        fewest.saturating_sub(1).max(1),
        n.min(m.max_items.unwrap_or(u64::MAX).saturating_sub(1)),
    );
    if lo <= hi {
        let twice = chosen_between(values.clone(), lo, hi)
            .prop_flat_map(|chosen| {
                let len = chosen.len();
                (Just(chosen), 0..len, 0..=len)
            })
            .prop_map(move |(mut chosen, from, at)| {
                chosen.insert(at, chosen[from].clone());
                list(chosen)
            });
        rules.push((Rule::Duplicate, twice.boxed()));
    }
    // An option that is not one, at an allowed length.
    let (lo, hi) = (fewest.max(1), most);
    let stranger = unknown(&m.options);
    if lo <= hi {
        let swapped = chosen_between(values.clone(), lo, hi)
            .prop_flat_map(|chosen| {
                let len = chosen.len();
                (Just(chosen), 0..len)
            })
            .prop_map(move |(mut chosen, at)| {
                chosen[at] = stranger.clone();
                list(chosen)
            });
        rules.push((Rule::UnknownOption, swapped.boxed()));
    }
}

/// A value none of `options` has.
/// Between `lo` and `hi` of `values`, distinct, in any order.
fn chosen_between(values: Vec<String>, lo: u64, hi: u64) -> impl Strategy<Value = Vec<String>> {
    (lo..=hi).prop_flat_map(move |size| chosen(values.clone(), size))
}

fn unknown(options: &EnumOptions) -> String {
    let mut stranger = String::from("not-an-option");
    while options.contains(&stranger) {
        stranger.push('!');
    }
    stranger
}
