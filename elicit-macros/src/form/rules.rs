//! The rules on one field's attributes, as data: which attribute applies to which kind of
//! field, and the ranges it must respect. Each check reports through a `Sink`, so every rule
//! runs and every problem is reported in one compile.

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::Span;

use super::ast::FormField;
use super::kinds::{KindCheck, KindRule, Num};
use crate::lit::{Count, Literal, Value};
use crate::ty::{FieldType, Shape};

/// Where a field's problems go; remembers whether there was one.
pub(super) struct Sink<'e> {
    errors: &'e mut Accumulator,
    pub ok: bool,
}

impl<'e> Sink<'e> {
    pub(super) fn new(errors: &'e mut Accumulator) -> Self {
        Sink { errors, ok: true }
    }

    pub(super) fn fail(&mut self, message: impl std::fmt::Display, span: Span) {
        self.errors.push(Error::custom(message).with_span(&span));
        self.ok = false;
    }
}

/// A kind of field an attribute can apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    Numeric,
    Multi,
}

impl Kind {
    /// How the kind is named in "applies only to … fields".
    fn name(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::Numeric => "numeric",
            Kind::Multi => "multi-select",
        }
    }

    fn accepts(self, shape: &Shape) -> bool {
        match self {
            Kind::Text => matches!(shape, Shape::Text),
            Kind::Numeric => matches!(shape, Shape::Integer { .. } | Shape::Float { .. }),
            Kind::Multi => matches!(shape, Shape::Multi),
        }
    }
}

/// Attribute `key` applies only to fields of `kind`; on a type syntax cannot see through, the
/// runtime's check trait `bound` says so instead (its message is the diagnostic).
pub(super) struct AttrRule {
    pub key: &'static str,
    pub kind: Kind,
    pub bound: &'static str,
}

/// Every constraint attribute, the kind of field it constrains, and its compiler check.
#[rustfmt::skip]
pub(super) const ATTR_RULES: &[AttrRule] = &[
    AttrRule { key: "min_length", kind: Kind::Text, bound: "MinLengthOnText" },
    AttrRule { key: "max_length", kind: Kind::Text, bound: "MaxLengthOnText" },
    AttrRule { key: "format", kind: Kind::Text, bound: "FormatOnText" },
    AttrRule { key: "minimum", kind: Kind::Numeric, bound: "MinimumFits" },
    AttrRule { key: "maximum", kind: Kind::Numeric, bound: "MaximumFits" },
    AttrRule { key: "min_items", kind: Kind::Multi, bound: "MinItemsOnMulti" },
    AttrRule { key: "max_items", kind: Kind::Multi, bound: "MaxItemsOnMulti" },
];

/// The constraint attributes written on a field, with their spans (and numbers for bounds).
fn written(
    attrs: &FormField,
    minimum: Option<Num>,
    maximum: Option<Num>,
) -> Vec<(&'static AttrRule, Span, Option<Num>)> {
    let count = |c: &Option<Count>| c.map(|c| (c.span, None));
    let number = |l: &Option<Literal>, n: Option<Num>| Some((l.as_ref()?.span, Some(n?)));
    let spans = [
        count(&attrs.min_length),
        count(&attrs.max_length),
        attrs.format.map(|f| (f.span, None)),
        number(&attrs.minimum, minimum),
        number(&attrs.maximum, maximum),
        count(&attrs.min_items),
        count(&attrs.max_items),
    ];
    ATTR_RULES
        .iter()
        .zip(spans)
        .filter_map(|(rule, at)| at.map(|(span, num)| (rule, span, num)))
        .collect()
}

/// Checks that each constraint written on the field applies to its type. For a type syntax
/// cannot see through, the check is left to the compiler as a trait bound.
pub(super) fn applies(
    attrs: &FormField,
    (minimum, maximum): (Option<Num>, Option<Num>),
    shape: Option<&Shape>,
    rust_name: &str,
    checks: &mut Vec<KindCheck>,
    sink: &mut Sink<'_>,
) {
    let Some(shape) = shape else { return };
    for (rule, span, num) in written(attrs, minimum, maximum) {
        let (key, kind) = (rule.key, rule.kind);
        if *shape == Shape::Opaque {
            let check = match (kind, num) {
                (Kind::Text, _) => KindRule::Text,
                (Kind::Multi, _) => KindRule::Multi,
                (Kind::Numeric, Some(Num::Int(i))) => KindRule::Int(i),
                (Kind::Numeric, Some(Num::Float(f))) => KindRule::Float(f),
                (Kind::Numeric, None) => continue,
            };
            checks.push(KindCheck {
                bound: rule.bound,
                rule: check,
                span,
            });
        } else if !kind.accepts(shape) {
            sink.fail(
                format!(
                    "`{key}` applies only to {} fields, but `{rust_name}` is {}",
                    kind.name(),
                    describe(shape)
                ),
                span,
            );
        }
    }
}

/// A range nobody can satisfy is a mistake, not a form.
pub(super) fn order(
    attrs: &FormField,
    minimum: Option<Num>,
    maximum: Option<Num>,
    sink: &mut Sink<'_>,
) {
    let counts = [
        (
            attrs.min_length,
            attrs.max_length,
            "min_length",
            "max_length",
        ),
        (attrs.min_items, attrs.max_items, "min_items", "max_items"),
    ];
    for (lo, hi, lo_key, hi_key) in counts {
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo.value > hi.value
        {
            sink.fail(
                format!(
                    "`{lo_key}` ({}) is greater than `{hi_key}` ({}): no answer could satisfy both",
                    lo.value, hi.value
                ),
                hi.span,
            );
        }
    }
    if let (Some(lo), Some(hi), Some(at)) = (minimum, maximum, &attrs.maximum)
        && lo.as_f64() > hi.as_f64()
    {
        sink.fail(
            "`minimum` is greater than `maximum`: no value could satisfy both",
            at.span,
        );
    }
}

/// Reads `minimum`/`maximum` for the field's type.
pub(super) fn number(
    shape: Option<&Shape>,
    lit: Option<&Literal>,
    key: &str,
    sink: &mut Sink<'_>,
) -> Option<Num> {
    let lit = lit?;
    let found = number_for(shape, &lit.value, key);
    found.map_err(|message| sink.fail(message, lit.span)).ok()
}

fn number_for(shape: Option<&Shape>, value: &Value, key: &str) -> Result<Num, String> {
    let Some(float) = value.as_f64() else {
        return Err(format!("`{key}` must be a number, found {}", value.kind()));
    };
    match (shape, value) {
        (Some(Shape::Integer { min, max }), Value::Int(i)) => {
            if i < min || i > max.min(&i128::from(i64::MAX)) {
                return Err(format!(
                    "`{key}` = {i} is outside the range of the field's type ({min}..={max})"
                ));
            }
            Ok(Num::Int(*i))
        }
        (Some(Shape::Integer { .. }), _) => Err(format!(
            "`{key}` of an integer field must be a whole number"
        )),
        (Some(Shape::Float { max }), _) if float.abs() > *max => {
            Err(format!("`{key}` is outside the range of the field's type"))
        }
        (_, Value::Int(i)) if *i > i128::from(u64::MAX) || *i < i128::from(i64::MIN) => {
            Err(format!("`{key}` does not fit in a 64-bit JSON number"))
        }
        (_, Value::Int(i)) => Ok(Num::Int(*i)),
        _ => Ok(Num::Float(float)),
    }
}

fn describe(shape: &Shape) -> &'static str {
    match shape {
        Shape::Text => "text",
        Shape::Boolean => "a boolean",
        Shape::Integer { .. } => "an integer",
        Shape::Float { .. } => "a number",
        Shape::Multi => "a multi-select",
        // Never described: attributes on such types are checked by trait bounds instead.
        Shape::Opaque => "a type checked by the compiler",
    }
}

/// `model_required` asks the model for a field the form itself requires: what the user may
/// leave out (an `Option`, a field with a `default`), the model may leave out too, or the tool
/// would demand of the model what the form does not. A type syntax cannot see through (an
/// alias) is left to the compiler.
pub(super) fn model_required(
    attrs: &FormField,
    field: Option<&FieldType>,
    checks: &mut Vec<KindCheck>,
    sink: &mut Sink<'_>,
) {
    let flag = &attrs.model_required;
    if !flag.is_present() {
        return;
    }
    if attrs.default.is_some() {
        sink.fail(
            "`model_required` on a field with a `default`: the form does not require it, so the \
             tool cannot require it of the model; drop `model_required` or the `default`",
            flag.span(),
        );
    }
    match field {
        Some(FieldType { optional: true, .. }) => sink.fail(
            "`model_required` on an optional field: what the user may leave out, the model may \
             leave out too; drop `model_required`, or make the field required (not an `Option`)",
            flag.span(),
        ),
        Some(FieldType {
            shape: Shape::Opaque,
            ..
        }) => checks.push(KindCheck {
            bound: "ModelRequiredIsRequired",
            rule: KindRule::Required,
            span: flag.span(),
        }),
        _ => {}
    }
}
