//! What the rules leave for the compiler: numbers checked against a field's type, and the
//! checks on field types syntax cannot see through. Data only; `rules` and `default` make
//! them, `valid` collects them, `expand` writes them out.

use proc_macro2::Span;

/// A number written in an attribute, already checked against the field's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(super) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// What only the compiler can check, for field types syntax cannot see through: emitted as
/// `FieldType: __private::<bound><{ condition }>`, whose `on_unimplemented` message (in the
/// runtime) is the diagnostic.
pub(super) struct KindCheck {
    /// The check trait in `elicit_runtime::__private`, one per attribute and rule.
    pub bound: &'static str,
    pub rule: KindRule,
    /// The attribute value the diagnostic points at.
    pub span: Span,
}

/// The condition a `KindCheck` asserts on the field type's `ElicitField::KIND` (or, for
/// `Required`, its `OPTIONAL`).
pub(super) enum KindRule {
    Text,
    Multi,
    /// A bound or default that must fit the numeric type.
    Int(i128),
    Float(f64),
    /// A single-select offering this value, or text.
    OfferedOrText(String),
    Boolean,
    /// A multi-select offering all these values.
    OffersAll(Vec<String>),
    /// A field the form requires (not `ElicitField::OPTIONAL`).
    Required,
}
