//! Values every property accepts, with the edges (bounds, defaults, set sizes) weighted in.

use proptest::prelude::*;
use proptest::strategy::Union;
use serde_json::{Number, Value};

use super::text;
use elicit_runtime::schema::{MultiSelectSchema, NumberSchema, PropertySchema, StringSchema};

/// One of `strategies` (never empty), each as likely as the others.
pub(super) fn one_of<T: std::fmt::Debug + 'static>(
    strategies: Vec<BoxedStrategy<T>>,
) -> BoxedStrategy<T> {
    Union::new(strategies).boxed()
}

/// `lo`, `hi` or anything between (inclusive): both edges are drawn as often as the middle.
pub(super) fn edges_and_between(lo: u64, hi: u64) -> BoxedStrategy<u64> {
    one_of(vec![Just(lo).boxed(), Just(hi).boxed(), (lo..=hi).boxed()])
}

/// The values `schema` accepts, its default among them; `None` when it accepts none (its
/// bounds cannot be met).
pub(super) fn value(schema: &PropertySchema) -> Option<BoxedStrategy<Value>> {
    let values = match schema {
        PropertySchema::String(s) => string(s)?,
        PropertySchema::Number(n) if n.integer => integer(n)?,
        PropertySchema::Number(n) => number(n)?,
        PropertySchema::Boolean(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        PropertySchema::SingleSelect(s) => {
            let values: Vec<Value> = s.options.values().map(Value::from).collect();
            if values.is_empty() {
                return None;
            }
            proptest::sample::select(values).boxed()
        }
        PropertySchema::MultiSelect(m) => multi(m)?,
        _ => crate::lockstep("property kind"),
    };
    Some(match schema.default_value() {
        Some(default) => one_of(vec![Just(default).boxed(), values]),
        None => values,
    })
}

fn string(s: &StringSchema) -> Option<BoxedStrategy<Value>> {
    let min = s.min_length.unwrap_or(0);
    let Some(format) = s.format else {
        let max = s.max_length.unwrap_or(min + text::UNBOUNDED_EXTRA);
        return (min <= max).then(|| {
            edges_and_between(min, max)
                .prop_flat_map(text::free)
                .prop_map(Value::String)
                .boxed()
        });
    };
    let first = text::feasible(format)[0].0;
    let max = s
        .max_length
        .unwrap_or((min.max(first) + text::UNBOUNDED_EXTRA).max(min + text::unbounded_max(format)));
    let lengths: Vec<_> = text::feasible_within(format, min, max)
        .into_iter()
        .map(|(lo, hi)| edges_and_between(lo, hi))
        .collect();
    (!lengths.is_empty()).then(|| {
        (one_of(lengths), any::<u64>())
            .prop_map(move |(len, seed)| {
                Value::String(text::formatted(format, len, seed).expect("a feasible length"))
            })
            .boxed()
    })
}

/// The whole numbers within `n`'s bounds and the 64-bit signed range, as `(lowest, highest)`.
pub(super) fn whole_bounds(n: &NumberSchema) -> (i128, i128) {
    let lo = n
        .minimum
        .as_ref()
        .map_or(i128::from(i64::MIN), |m| rounded(m, f64::ceil));
    let hi = n
        .maximum
        .as_ref()
        .map_or(i128::from(i64::MAX), |m| rounded(m, f64::floor));
    (lo.max(i64::MIN.into()), hi.min(i64::MAX.into()))
}

fn rounded(n: &Number, round: fn(f64) -> f64) -> i128 {
    match (n.as_i64(), n.as_u64(), n.as_f64()) {
        (Some(i), _, _) => i.into(),
        (_, Some(u), _) => u.into(),
        // Saturates far beyond the 64-bit range, which is all that matters here.
        (_, _, Some(f)) => round(f) as i128,
        _ => 0,
    }
}

/// A whole number of the 64-bit signed range as JSON.
pub(super) fn whole(v: i128) -> Value {
    Value::Number(Number::from(
        i64::try_from(v).expect("within the 64-bit range"),
    ))
}

/// Whole numbers beyond ±2^53 lose precision as floats.
const EXACT_FLOAT: i128 = 1 << 53;

fn integer(n: &NumberSchema) -> Option<BoxedStrategy<Value>> {
    let (lo, hi) = whole_bounds(n);
    if lo > hi {
        return None;
    }
    let mut picks = vec![Just(lo).boxed(), Just(hi).boxed(), (lo..=hi).boxed()];
    if lo <= 0 && 0 <= hi {
        picks.push(Just(0).boxed());
    }
    // A client may send a whole number as a float (`3.0`); the model accepts it.
    Some(
        (one_of(picks), any::<bool>())
            .prop_map(|(v, as_float)| match as_float && v.abs() <= EXACT_FLOAT {
                true => Value::from(v as f64),
                false => whole(v),
            })
            .boxed(),
    )
}

fn number(n: &NumberSchema) -> Option<BoxedStrategy<Value>> {
    let lo = n
        .minimum
        .as_ref()
        .and_then(Number::as_f64)
        .unwrap_or(-f64::MAX);
    let hi = n
        .maximum
        .as_ref()
        .and_then(Number::as_f64)
        .unwrap_or(f64::MAX);
    if lo > hi {
        return None;
    }
    // The bounds exactly as advertised, fractions between them, and whole numbers.
    let mut picks: Vec<BoxedStrategy<Value>> = [&n.minimum, &n.maximum]
        .into_iter()
        .flatten()
        .map(|bound| Just(Value::Number(bound.clone())).boxed())
        .collect();
    picks.push(
        (0.0..=1.0f64)
            .prop_map(move |t| Value::from((lo * (1.0 - t) + hi * t).clamp(lo, hi)))
            .boxed(),
    );
    let (whole_lo, whole_hi) = whole_bounds(n);
    if whole_lo <= whole_hi {
        picks.push((whole_lo..=whole_hi).prop_map(whole).boxed());
    }
    let schema = PropertySchema::Number(n.clone());
    let fallback = Value::from(lo);
    // Rounding between an advertised bound and its nearest `f64` can step just outside it.
    Some(
        one_of(picks)
            .prop_map(move |v| match schema.check(&v) {
                Ok(()) => v,
                Err(_) => fallback.clone(),
            })
            .boxed(),
    )
}

/// The sizes a multi-select accepts, within the options it has: `(fewest, most)`.
pub(super) fn multi_sizes(m: &MultiSelectSchema) -> (u64, u64) {
    let n = m.options.len() as u64;
    (m.min_items.unwrap_or(0), m.max_items.unwrap_or(n).min(n))
}

/// `size` distinct options of `values`, in any order.
pub(super) fn chosen(values: Vec<String>, size: u64) -> BoxedStrategy<Vec<String>> {
    proptest::sample::subsequence(values, size as usize)
        .prop_shuffle()
        .boxed()
}

fn multi(m: &MultiSelectSchema) -> Option<BoxedStrategy<Value>> {
    let (fewest, most) = multi_sizes(m);
    if fewest > most {
        return None;
    }
    let values: Vec<String> = m.options.values().map(str::to_owned).collect();
    Some(
        edges_and_between(fewest, most)
            .prop_flat_map(move |size| chosen(values.clone(), size))
            .prop_map(|chosen| Value::Array(chosen.into_iter().map(Value::String).collect()))
            .boxed(),
    )
}
