//! Every rule a form must obey, checked on all fields with errors accumulated. Produces the
//! validated `Form` that `expand` turns into code.

use std::collections::HashMap;

use darling::{Error, FromDeriveInput, FromField};
use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use super::ast::{FormField, FormInput};
use crate::case::RenameRule;
use crate::doc::doc_text;
use crate::lit::{Count, Format, Literal, Value};
use crate::secret::secret_in;
use crate::ty::{Shape, classify};

/// A form that passed every rule.
pub struct Form<'a> {
    pub ident: &'a Ident,
    pub vis: &'a syn::Visibility,
    pub message: String,
    pub schema_uri: Option<String>,
    pub key: String,
    pub fields: Vec<Field<'a>>,
}

/// A number written in an attribute, already checked against the field's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// What only the compiler can check, for field types syntax cannot see through.
pub struct KindCheck {
    pub rule: KindRule,
    pub message: String,
    pub span: Span,
}

/// The condition a `KindCheck` asserts on the field type's `ElicitField::KIND`.
pub enum KindRule {
    Text,
    /// A bound or default that must fit the numeric type.
    Int(i128),
    Float(f64),
    Multi,
    DefaultStr(String),
    DefaultBool,
    DefaultList(Vec<String>),
}

/// One validated field.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// The type a call-site default holds: `T` for a field of type `Option<T>`, else the type.
    pub value_ty: &'a Type,
    pub wire: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub format: Option<Format>,
    pub minimum: Option<Num>,
    pub maximum: Option<Num>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub default: Option<Value>,
    pub checks: Vec<KindCheck>,
}

/// Checks `input` against every rule; all problems are reported together.
pub fn validate(input: &DeriveInput) -> darling::Result<Form<'_>> {
    let mut errors = Error::accumulator();
    let container = errors.handle(FormInput::from_derive_input(input));

    // A form is a flat list of named questions: anything else has no schema.
    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(named),
            _ => {
                errors.push(
                    Error::custom("`ElicitForm` needs a struct with named fields: each field is one question of the form, named on the wire")
                        .with_span(&input.ident),
                );
                None
            }
        },
        _ => {
            errors.push(
                Error::custom("`ElicitForm` can only be derived for a struct with named fields; for the options of a select, derive `ElicitEnum` on a unit-only enum")
                    .with_span(&input.ident),
            );
            None
        }
    };
    // The form is a concrete schema, built once: there is nothing to fill a parameter with.
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        errors.push(
            Error::custom("`ElicitForm` cannot be derived for a generic struct: a form's schema is fixed at compile time")
                .with_span(&input.generics),
        );
    }

    let message = container.as_ref().and_then(|c| {
        let text = c.message.as_ref().map(|m| (m.value.clone(), m.span));
        match text {
            Some((m, span)) if m.trim().is_empty() => {
                errors.push(Error::custom("the form message must not be empty: it tells the user why they are asked").with_span(&span));
                None
            }
            Some((m, _)) => Some(m),
            None => {
                let doc = doc_text(&c.attrs);
                if doc.is_none() {
                    errors.push(
                        Error::custom("missing form message: add `#[elicit(message = \"…\")]` or a doc comment on the struct; it is the text the user sees")
                            .with_span(&input.ident),
                    );
                }
                doc
            }
        }
    });
    let rename_all = container
        .as_ref()
        .and_then(|c| c.rename_all.as_ref().map(|r| **r));

    let mut fields = Vec::new();
    if let Some(named) = named {
        for field in &named.named {
            let Some(parsed) = errors.handle(FormField::from_field(field)) else {
                continue;
            };
            if let Some(valid) = validate_field(field, parsed, rename_all, &mut errors) {
                fields.push(valid);
            }
        }
    }

    // Two fields under one wire name would overwrite each other's answers.
    let mut seen: HashMap<&str, &Ident> = HashMap::new();
    for field in &fields {
        if let Some(first) = seen.insert(&field.wire, field.ident) {
            errors.push(
                Error::custom(format!(
                    "wire name `{}` is already used by field `{first}`; give one of them another `#[elicit(rename = \"…\")]`",
                    field.wire
                ))
                .with_span(field.ident),
            );
        }
    }

    let (Some(container), Some(message)) = (container, message) else {
        return Err(errors
            .finish()
            .err()
            .unwrap_or_else(|| Error::custom("invalid form")));
    };
    let key = container
        .key
        .map(|k| k.value)
        .unwrap_or_else(|| crate::case::RenameRule::Snake.apply(&input.ident.to_string()));
    errors.finish_with(Form {
        ident: &input.ident,
        vis: &input.vis,
        message,
        schema_uri: container.schema_uri.map(|s| s.value),
        key,
        fields,
    })
}

fn validate_field<'a>(
    field: &'a syn::Field,
    attrs: FormField,
    rename_all: Option<RenameRule>,
    errors: &mut darling::error::Accumulator,
) -> Option<Field<'a>> {
    let ident = field.ident.as_ref()?;
    let rust_name = ident.to_string();
    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
    let wire = match (&attrs.rename, rename_all) {
        (Some(r), _) => r.value.clone(),
        (None, Some(rule)) => rule.apply(rust_name),
        (None, None) => rust_name.to_owned(),
    };
    let mut ok = true;
    let mut fail = |e: Error| {
        errors.push(e);
        ok = false;
    };

    if wire.is_empty() {
        fail(
            Error::custom("a wire name must not be empty")
                .with_span(&attrs.rename.as_ref().map_or(ident.span(), |r| r.span)),
        );
    }

    // Form mode must never collect secrets: the spec sends them through URL mode instead.
    let secret = secret_in(rust_name).or_else(|| secret_in(&wire));
    match (&attrs.not_secret, secret) {
        (Some(reason), _) if reason.value.trim().is_empty() => fail(
            Error::custom("`not_secret` needs the reason this field is not a secret, e.g. `not_secret = \"counts tokens, holds none\"`")
                .with_span(&reason.span),
        ),
        (None, Some(what)) => fail(
            Error::custom(format!(
                "field `{rust_name}` looks like it asks for {what}; MCP form mode must not collect secrets (passwords, API keys, tokens, payment data): ask for it with a URL-mode elicitation (`#[elicit_url]`) instead, or add `#[elicit(not_secret = \"…\")]` with the reason if it is not a secret"
            ))
            .with_span(ident),
        ),
        _ => {}
    }

    let ty = match classify(&field.ty) {
        Ok(ty) => Some(ty),
        Err(message) => {
            fail(Error::custom(message).with_span(&field.ty));
            None
        }
    };
    let shape = ty.as_ref().map(|t| t.shape.clone());
    let mut checks = Vec::new();
    let ty_name = type_name(&field.ty);

    let mut rule = |applies: bool,
                    opaque_rule: KindRule,
                    key: &str,
                    what: &str,
                    span: Span,
                    fail: &mut dyn FnMut(Error)| {
        match &shape {
            Some(Shape::Opaque) => checks.push(KindCheck {
                message: match &opaque_rule {
                    KindRule::Int(_) | KindRule::Float(_) => {
                        format!("`{key}` must be a number that `{ty_name}` can hold")
                    }
                    _ => {
                        format!("`{key}` applies only to {what} fields, and `{ty_name}` is not one")
                    }
                },
                rule: opaque_rule,
                span,
            }),
            Some(s) if !applies => fail(
                Error::custom(format!(
                    "`{key}` applies only to {what} fields, but `{rust_name}` is {}",
                    describe(s)
                ))
                .with_span(&span),
            ),
            _ => {}
        }
    };

    let is = |p: fn(&Shape) -> bool| shape.as_ref().is_some_and(p);
    let text = is(|s| matches!(s, Shape::Text));
    let numeric = is(|s| matches!(s, Shape::Integer { .. } | Shape::Float { .. }));
    let multi = is(|s| matches!(s, Shape::Multi));
    for (count, key) in [
        (&attrs.min_length, "min_length"),
        (&attrs.max_length, "max_length"),
    ] {
        if let Some(c) = count {
            rule(text, KindRule::Text, key, "text", c.span, &mut fail);
        }
    }
    if let Some(f) = &attrs.format {
        rule(text, KindRule::Text, "format", "text", f.span, &mut fail);
    }
    for (count, key) in [
        (&attrs.min_items, "min_items"),
        (&attrs.max_items, "max_items"),
    ] {
        if let Some(c) = count {
            rule(
                multi,
                KindRule::Multi,
                key,
                "multi-select",
                c.span,
                &mut fail,
            );
        }
    }
    let mut bound =
        |lit: &Option<Literal>, key: &str, fail: &mut dyn FnMut(Error)| -> Option<Num> {
            let lit = lit.as_ref()?;
            let num = number_for(&shape, lit, key, fail)?;
            let opaque_rule = match num {
                Num::Int(i) => KindRule::Int(i),
                Num::Float(f) => KindRule::Float(f),
            };
            rule(numeric, opaque_rule, key, "numeric", lit.span, fail);
            Some(num)
        };
    let minimum = bound(&attrs.minimum, "minimum", &mut fail);
    let maximum = bound(&attrs.maximum, "maximum", &mut fail);

    // A range nobody can satisfy is a mistake, not a form.
    order(
        attrs.min_length,
        attrs.max_length,
        "min_length",
        "max_length",
        &mut fail,
    );
    order(
        attrs.min_items,
        attrs.max_items,
        "min_items",
        "max_items",
        &mut fail,
    );
    if let (Some(lo), Some(hi), Some(span)) =
        (minimum, maximum, attrs.maximum.as_ref().map(|m| m.span))
        && lo.as_f64() > hi.as_f64()
    {
        fail(
            Error::custom("`minimum` is greater than `maximum`: no value could satisfy both")
                .with_span(&span),
        );
    }

    let default = attrs.default.as_ref().and_then(|lit| {
        let problem = check_default(&shape, lit, &attrs, minimum, maximum, &mut checks, &ty_name);
        match problem {
            Some(message) => {
                fail(Error::custom(message).with_span(&lit.span));
                None
            }
            None => Some(lit.value.clone()),
        }
    });

    let description = attrs
        .description
        .map(|d| d.value)
        .or_else(|| doc_text(&attrs.attrs));
    ok.then(|| Field {
        ident,
        ty: &field.ty,
        value_ty: crate::ty::option_inner(&field.ty).unwrap_or(&field.ty),
        wire,
        title: attrs.title.map(|t| t.value),
        description,
        min_length: attrs.min_length.map(|c| c.value),
        max_length: attrs.max_length.map(|c| c.value),
        format: attrs.format.map(|f| f.format),
        minimum,
        maximum,
        min_items: attrs.min_items.map(|c| c.value),
        max_items: attrs.max_items.map(|c| c.value),
        default,
        checks,
    })
}

fn order(
    lo: Option<Count>,
    hi: Option<Count>,
    lo_key: &str,
    hi_key: &str,
    fail: &mut dyn FnMut(Error),
) {
    if let (Some(lo), Some(hi)) = (lo, hi)
        && lo.value > hi.value
    {
        fail(
            Error::custom(format!(
                "`{lo_key}` ({}) is greater than `{hi_key}` ({}): no answer could satisfy both",
                lo.value, hi.value
            ))
            .with_span(&hi.span),
        );
    }
}

/// Reads `minimum`/`maximum` for the field's type.
fn number_for(
    shape: &Option<Shape>,
    lit: &Literal,
    key: &str,
    fail: &mut dyn FnMut(Error),
) -> Option<Num> {
    let Some(value) = lit.value.as_f64() else {
        fail(
            Error::custom(format!(
                "`{key}` must be a number, found {}",
                lit.value.kind()
            ))
            .with_span(&lit.span),
        );
        return None;
    };
    match (shape, &lit.value) {
        (Some(Shape::Integer { min, max }), Value::Int(i)) => {
            if i < min || i > max.min(&i128::from(i64::MAX)) {
                fail(
                    Error::custom(format!(
                        "`{key}` = {i} is outside the range of the field's type ({min}..={max})"
                    ))
                    .with_span(&lit.span),
                );
                return None;
            }
            Some(Num::Int(*i))
        }
        (Some(Shape::Integer { .. }), _) => {
            fail(
                Error::custom(format!(
                    "`{key}` of an integer field must be a whole number"
                ))
                .with_span(&lit.span),
            );
            None
        }
        (Some(Shape::Float { max }), _) if value.abs() > *max => {
            fail(
                Error::custom(format!("`{key}` is outside the range of the field's type"))
                    .with_span(&lit.span),
            );
            None
        }
        (_, Value::Int(i)) if *i > i128::from(u64::MAX) || *i < i128::from(i64::MIN) => {
            fail(
                Error::custom(format!("`{key}` does not fit in a 64-bit JSON number"))
                    .with_span(&lit.span),
            );
            None
        }
        (_, Value::Int(i)) => Some(Num::Int(*i)),
        _ => Some(Num::Float(value)),
    }
}

/// Why `lit` cannot be the default of this field, if it cannot.
fn check_default(
    shape: &Option<Shape>,
    lit: &Literal,
    attrs: &FormField,
    minimum: Option<Num>,
    maximum: Option<Num>,
    checks: &mut Vec<KindCheck>,
    ty_name: &str,
) -> Option<String> {
    let shape = shape.as_ref()?;
    // The constraints written beside the default apply whatever the type, alias or not.
    if let Some(problem) = literal_constraints(lit, attrs, minimum, maximum) {
        return Some(problem);
    }
    let wrong = |expected: &str| {
        Some(format!(
            "`default` must be {expected} for this field, found {}",
            lit.value.kind()
        ))
    };
    let mut check = |rule: KindRule, message: String| {
        checks.push(KindCheck {
            rule,
            message,
            span: lit.span,
        });
        None
    };
    match (shape, &lit.value) {
        (Shape::Text, Value::Str(_)) | (Shape::Boolean, Value::Bool(_)) => None,
        (Shape::Text, _) => wrong("a string"),
        (Shape::Boolean, _) => wrong("`true` or `false`"),
        (Shape::Integer { min, max }, Value::Int(i)) if i < min || i > max => Some(format!(
            "`default` = {i} is outside the range of the field's type ({min}..={max})"
        )),
        (Shape::Integer { .. }, Value::Int(_)) => None,
        (Shape::Integer { .. }, _) => wrong("a whole number"),
        (Shape::Float { max }, Value::Int(_) | Value::Float(_)) => {
            (lit.value.as_f64().unwrap_or_default().abs() > *max)
                .then(|| "`default` is outside the range of the field's type".into())
        }
        (Shape::Float { .. }, _) => wrong("a number"),
        (Shape::Multi, Value::List(items)) => check(
            KindRule::DefaultList(items.clone()),
            format!("`default` lists a value that is not one of the options of `{ty_name}`"),
        ),
        (Shape::Multi, _) => wrong("a list of option values such as `[\"a\", \"b\"]`"),
        (Shape::Opaque, Value::Str(s)) => check(
            KindRule::DefaultStr(s.clone()),
            format!(
                "`default` \"{s}\" is not one of the options of `{ty_name}` (and `{ty_name}` is not text)"
            ),
        ),
        (Shape::Opaque, Value::Int(i)) => check(
            KindRule::Int(*i),
            format!("`default` = {i} does not fit `{ty_name}`"),
        ),
        (Shape::Opaque, Value::Float(f)) => check(
            KindRule::Float(*f),
            format!("`default` is a number `{ty_name}` cannot hold"),
        ),
        (Shape::Opaque, Value::Bool(_)) => check(
            KindRule::DefaultBool,
            format!("`default` is a boolean, but `{ty_name}` is not `bool`"),
        ),
        (Shape::Opaque, Value::List(items)) => check(
            KindRule::DefaultList(items.clone()),
            format!("`default` must list options of `{ty_name}`, a multi-select"),
        ),
    }
}

/// The field's own constraints, checked on the default literal.
fn literal_constraints(
    lit: &Literal,
    attrs: &FormField,
    minimum: Option<Num>,
    maximum: Option<Num>,
) -> Option<String> {
    let in_range = |v: f64| {
        let low = minimum.is_some_and(|m| v < m.as_f64());
        let high = maximum.is_some_and(|m| v > m.as_f64());
        (low || high)
            .then(|| "`default` is outside the field's `minimum`..`maximum` range".to_owned())
    };
    match &lit.value {
        Value::Str(s) => {
            let n = s.chars().count() as u64;
            if attrs.min_length.is_some_and(|m| n < m.value)
                || attrs.max_length.is_some_and(|m| n > m.value)
            {
                return Some(
                    "`default` does not satisfy the field's `min_length`/`max_length`".into(),
                );
            }
            let format = attrs.format.as_ref()?.format;
            (!crate::format::is_valid(format, s)).then(|| {
                format!(
                    "`default` \"{s}\" is not a valid {}",
                    crate::format::name(format)
                )
            })
        }
        Value::Int(i) if *i > i128::from(i64::MAX) || *i < i128::from(i64::MIN) => Some(
            "`default` is outside the 64-bit signed range every whole number of a form lives in"
                .into(),
        ),
        Value::Int(i) => in_range(*i as f64),
        Value::Float(f) => in_range(*f),
        Value::List(items) => {
            let n = items.len() as u64;
            if attrs.min_items.is_some_and(|m| n < m.value)
                || attrs.max_items.is_some_and(|m| n > m.value)
            {
                return Some(
                    "`default` does not satisfy the field's `min_items`/`max_items`".into(),
                );
            }
            let dup = items
                .iter()
                .enumerate()
                .find(|(i, v)| items[..*i].contains(v));
            dup.map(|(_, v)| format!("`default` chooses \"{v}\" twice"))
        }
        Value::Bool(_) => None,
    }
}

fn describe(shape: &Shape) -> &'static str {
    match shape {
        Shape::Text => "text",
        Shape::Boolean => "a boolean",
        Shape::Integer { .. } => "an integer",
        Shape::Float { .. } => "a number",
        Shape::Multi => "a multi-select",
        // Never described: attributes on such types are checked by const assertions instead.
        Shape::Opaque => "a type checked by the compiler",
    }
}

fn type_name(ty: &Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace(" :: ", "::")
}
