//! The enum trait: unit-only enums whose variants are the options of a select.

use crate::schema::{EnumOptions, TitledOption};

/// A unit-only enum whose variants are the options of a single- or multi-select.
///
/// Derive it with `#[derive(ElicitEnum)]`; the derive also makes the enum usable as a form
/// field (a single-select) and inside `Vec`/`BTreeSet`/`HashSet` (a multi-select).
///
/// ```
/// use elicit_runtime::ElicitEnum;
///
/// #[derive(Debug, Clone, Copy, PartialEq, ElicitEnum)]
/// #[elicit(rename_all = "lowercase")]
/// enum Seating {
///     Indoor,
///     #[elicit(title = "On the terrace")]
///     Terrace,
/// }
///
/// assert_eq!(Seating::VALUES, ["indoor", "terrace"]);
/// assert_eq!(Seating::from_value("terrace"), Some(Seating::Terrace));
/// assert_eq!(Seating::Indoor.value(), "indoor");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a choice enum of an elicitation form",
    label = "does not derive `ElicitEnum`",
    note = "a multi-select is a `Vec`, `BTreeSet` or `HashSet` of a unit-only enum with `#[derive(ElicitEnum)]`; free-form lists are not allowed in MCP forms"
)]
pub trait ElicitEnum: Sized + 'static {
    /// The wire value of every variant, in declaration order.
    const VALUES: &'static [&'static str];
    /// The title of every variant (same order as [`ElicitEnum::VALUES`]); empty when no
    /// variant has a title.
    const TITLES: &'static [&'static str];
    /// The variant with this wire value.
    fn from_value(value: &str) -> Option<Self>;
    /// This variant's wire value.
    fn value(&self) -> &'static str;
    /// The options as they appear in the schema: `enum` when untitled, `{const, title}` when
    /// titled (a variant without a title is labelled with its wire value).
    fn options() -> EnumOptions {
        if Self::TITLES.is_empty() {
            EnumOptions::Untitled(Self::VALUES.iter().map(|v| (*v).to_owned()).collect())
        } else {
            EnumOptions::Titled(
                Self::VALUES
                    .iter()
                    .zip(Self::TITLES)
                    .map(|(value, title)| TitledOption {
                        value: (*value).to_owned(),
                        title: (*title).to_owned(),
                    })
                    .collect(),
            )
        }
    }
}

/// `` `a`, `b`, `c` `` for error messages, at most ten values.
pub(crate) fn list_values(values: &[&str]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().take(10).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('`');
        out.push_str(v);
        out.push('`');
    }
    if values.len() > 10 {
        out.push_str(", …");
    }
    out
}
