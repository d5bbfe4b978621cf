//! Every rule a form must obey, checked on all fields with errors accumulated. Produces the
//! validated `Form` that `expand` turns into code.

use std::collections::HashMap;

use darling::{Error, FromDeriveInput, FromField};
use syn::{Data, DeriveInput, Fields, Ident, Type};

use super::ast::{FormField, FormInput};
use super::kinds::{KindCheck, Num};
use super::rules::{self, Sink};
use crate::case::RenameRule;
use crate::doc::doc_text;
use crate::lit::{Format, Text, Value};
use crate::secret::secret_in;
use crate::ty::{Shape, classify};

/// A form that passed every rule.
pub(super) struct Form<'a> {
    pub ident: &'a Ident,
    pub vis: &'a syn::Visibility,
    pub message: String,
    pub schema_uri: Option<String>,
    pub key: String,
    pub fields: Vec<Field<'a>>,
}

/// One validated field.
pub(super) struct Field<'a> {
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
    /// `#[elicit(user_decides)]`.
    pub user_decides: bool,
    /// `#[elicit(model_required)]`.
    pub model_required: bool,
}

/// Checks `input` against every rule; all problems are reported together.
pub(super) fn validate(input: &DeriveInput) -> darling::Result<Form<'_>> {
    let mut errors = Error::accumulator();
    let container = errors.handle(FormInput::from_derive_input(input));

    let named = named_fields(input, &mut errors);
    let message = container
        .as_ref()
        .and_then(|c| form_message(input, c, &mut errors));
    let rename_all = container
        .as_ref()
        .and_then(|c| c.rename_all.as_ref().map(|r| **r));

    let mut fields = Vec::new();
    if let Some(named) = named {
        for field in &named.named {
            if let Some(valid) = validate_field(field, rename_all, &mut errors) {
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
        .unwrap_or_else(|| RenameRule::Snake.apply(&input.ident.to_string()));
    errors.finish_with(Form {
        ident: &input.ident,
        vis: &input.vis,
        message,
        schema_uri: container.schema_uri.map(|s| s.value),
        key,
        fields,
    })
}

/// The named fields of `input`, or an error: a form is a flat list of named questions, with a
/// concrete schema.
fn named_fields<'a>(
    input: &'a DeriveInput,
    errors: &mut darling::error::Accumulator,
) -> Option<&'a syn::FieldsNamed> {
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

    named
}

/// The message the user sees: `message = "…"` or the struct's doc comment.
fn form_message(
    input: &DeriveInput,
    c: &FormInput,
    errors: &mut darling::error::Accumulator,
) -> Option<String> {
    let text = c.message.as_ref().map(|m| (m.value.clone(), m.span));
    match text {
        Some((m, span)) if m.trim().is_empty() => {
            errors.push(
                Error::custom(
                    "the form message must not be empty: it tells the user why they are asked",
                )
                .with_span(&span),
            );
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
}

/// Parses a field's attributes, checks them, and builds the validated field. The type and
/// secret checks run even when the attributes do not parse, so all errors come at once.
fn validate_field<'a>(
    field: &'a syn::Field,
    rename_all: Option<RenameRule>,
    errors: &mut darling::error::Accumulator,
) -> Option<Field<'a>> {
    let ident = field.ident.as_ref()?;
    let parsed = errors.handle(FormField::from_field(field));
    let mut sink = Sink::new(errors);
    let rust_name = ident.to_string();
    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
    let classified = classify(&field.ty)
        .map_err(|message| sink.fail(message, syn::spanned::Spanned::span(&field.ty)))
        .ok();
    let shape = classified.as_ref().map(|t| t.shape.clone());
    let Some(attrs) = parsed else {
        let not_secret = lenient_not_secret(&field.attrs);
        check_secret(ident, rust_name, rust_name, not_secret.as_ref(), &mut sink);
        return None;
    };
    let wire = match (&attrs.rename, rename_all) {
        (Some(r), _) => r.value.clone(),
        (None, Some(rule)) => rule.apply(rust_name),
        (None, None) => rust_name.to_owned(),
    };
    if wire.is_empty() {
        let span = attrs.rename.as_ref().map_or(ident.span(), |r| r.span);
        sink.fail("a wire name must not be empty", span);
    }
    check_secret(
        ident,
        rust_name,
        &wire,
        attrs.not_secret.as_ref(),
        &mut sink,
    );
    let mut checked = check_attrs(&attrs, shape.as_ref(), rust_name, &mut sink);
    rules::model_required(&attrs, classified.as_ref(), &mut checked.checks, &mut sink);
    sink.ok
        .then(|| build_field(field, ident, wire, attrs, checked))
}

/// What `check_attrs` found: the numbers, the default and the checks left to the compiler.
struct Checked {
    bounds: (Option<Num>, Option<Num>),
    default: Option<Value>,
    checks: Vec<KindCheck>,
}

fn check_attrs(
    attrs: &FormField,
    shape: Option<&Shape>,
    rust_name: &str,
    sink: &mut Sink<'_>,
) -> Checked {
    let minimum = rules::number(shape, attrs.minimum.as_ref(), "minimum", sink);
    let maximum = rules::number(shape, attrs.maximum.as_ref(), "maximum", sink);
    let mut checks = Vec::new();
    rules::applies(
        attrs,
        (minimum, maximum),
        shape,
        rust_name,
        &mut checks,
        sink,
    );
    rules::order(attrs, minimum, maximum, sink);
    let default = attrs.default.as_ref().and_then(|lit| {
        let shape = shape?;
        match super::default::check(shape, lit, attrs, (minimum, maximum), &mut checks) {
            Some(message) => {
                sink.fail(message, lit.span);
                None
            }
            None => Some(lit.value.clone()),
        }
    });
    Checked {
        bounds: (minimum, maximum),
        default,
        checks,
    }
}

fn build_field<'a>(
    field: &'a syn::Field,
    ident: &'a Ident,
    wire: String,
    attrs: FormField,
    checked: Checked,
) -> Field<'a> {
    let description = attrs
        .description
        .map(|d| d.value)
        .or_else(|| doc_text(&attrs.attrs));
    Field {
        ident,
        ty: &field.ty,
        value_ty: crate::ty::option_inner(&field.ty).unwrap_or(&field.ty),
        wire,
        title: attrs.title.map(|t| t.value),
        description,
        min_length: attrs.min_length.map(|c| c.value),
        max_length: attrs.max_length.map(|c| c.value),
        format: attrs.format.map(|f| f.format),
        minimum: checked.bounds.0,
        maximum: checked.bounds.1,
        min_items: attrs.min_items.map(|c| c.value),
        max_items: attrs.max_items.map(|c| c.value),
        default: checked.default,
        checks: checked.checks,
        user_decides: attrs.user_decides.is_present(),
        model_required: attrs.model_required.is_present(),
    }
}

/// Form mode must never collect secrets: the spec sends them through URL mode instead.
fn check_secret(
    ident: &Ident,
    rust_name: &str,
    wire: &str,
    not_secret: Option<&Text>,
    sink: &mut Sink<'_>,
) {
    let secret = secret_in(rust_name).or_else(|| secret_in(wire));
    match (not_secret, secret) {
        (Some(reason), _) if reason.value.trim().is_empty() => sink.fail(
            "`not_secret` needs the reason this field is not a secret, e.g. `not_secret = \"counts tokens, holds none\"`",
            reason.span,
        ),
        (None, Some(what)) => sink.fail(
            format!(
                "field `{rust_name}` looks like it asks for {what}; MCP form mode must not collect secrets (passwords, API keys, tokens, payment data): ask for it with a URL-mode elicitation (`#[elicit_url]`) instead, or add `#[elicit(not_secret = \"…\")]` with the reason if it is not a secret"
            ),
            ident.span(),
        ),
        _ => {}
    }
}

/// `not_secret` read from attributes darling refused as a whole, so that the secret check of
/// a field with, say, a misspelt attribute still honours it. Anything else is skipped.
fn lenient_not_secret(attrs: &[syn::Attribute]) -> Option<Text> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("elicit")) {
        let _ = attr.parse_nested_meta(|meta| {
            let value = meta.value().and_then(|v| v.parse::<syn::Expr>());
            if meta.path.is_ident("not_secret")
                && let Ok(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) = &value
            {
                found = Some(Text {
                    value: s.value(),
                    span: s.span(),
                });
            }
            Ok(())
        });
    }
    found
}
