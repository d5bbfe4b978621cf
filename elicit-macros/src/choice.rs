//! `#[derive(ElicitEnum)]`: a unit-only enum whose variants are the options of a select.

use std::collections::HashMap;

use darling::error::Accumulator;
use darling::util::Flag;
use darling::{Error, FromDeriveInput, FromVariant};
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, Ident};

use crate::case::RenameRule;
use crate::doc::doc_text;
use crate::lit::Text;
use crate::paths::Runtime;

#[derive(FromDeriveInput)]
#[darling(attributes(elicit))]
struct EnumInput {
    rename_all: Option<RenameRule>,
    /// Use each variant's doc comment as its title when it has no `title`.
    doc_titles: Flag,
}

#[derive(FromVariant)]
#[darling(attributes(elicit), forward_attrs(doc))]
struct EnumVariant {
    ident: Ident,
    fields: darling::ast::Fields<darling::util::Ignored>,
    attrs: Vec<syn::Attribute>,
    rename: Option<Text>,
    title: Option<Text>,
}

struct Choice<'a> {
    ident: &'a Ident,
    value: String,
    title: Option<String>,
}

pub(crate) fn derive(input: &DeriveInput, rt: &Runtime) -> TokenStream {
    match validate(input) {
        Ok(choices) => expand(&input.ident, &choices, rt),
        Err(errors) => {
            let mut out = errors.write_errors();
            out.extend(fallback(input, rt));
            out
        }
    }
}

fn validate(input: &DeriveInput) -> darling::Result<Vec<Choice<'_>>> {
    let mut errors = Error::accumulator();
    let container = errors.handle(EnumInput::from_derive_input(input));
    let Data::Enum(data) = &input.data else {
        errors.push(Error::custom("`ElicitEnum` can only be derived for a unit-only enum: its variants are the options of a select").with_span(&input.ident));
        return Err(errors.finish().unwrap_err());
    };
    if !input.generics.params.is_empty() {
        errors.push(Error::custom("`ElicitEnum` cannot be derived for a generic enum: its options are fixed at compile time").with_span(&input.generics));
    }
    if data.variants.is_empty() {
        errors.push(Error::custom("an `ElicitEnum` needs at least one variant: a select with no options cannot be answered").with_span(&input.ident));
    }
    let rename_all = container.as_ref().and_then(|c| c.rename_all);
    let doc_titles = container
        .as_ref()
        .is_some_and(|c| c.doc_titles.is_present());
    let mut choices = Vec::new();
    for variant in &data.variants {
        // Only a name can be an option on the wire; data would need a nested form.
        if !matches!(variant.fields, Fields::Unit) {
            errors.push(
                Error::custom(format!(
                    "variant `{}` carries data, but an option of a select is only a name: make it a unit variant",
                    variant.ident
                ))
                .with_span(&variant.fields),
            );
            continue;
        }
        let Some(parsed) = errors.handle(EnumVariant::from_variant(variant)) else {
            continue;
        };
        debug_assert!(parsed.fields.is_empty());
        let name = parsed.ident.to_string();
        let value = match (&parsed.rename, rename_all) {
            (Some(r), _) => r.value.clone(),
            (None, Some(rule)) => rule.apply(&name),
            (None, None) => name,
        };
        if value.is_empty() {
            errors.push(
                Error::custom("an option's wire value must not be empty").with_span(&variant.ident),
            );
        }
        let title = parsed
            .title
            .map(|t| t.value)
            .or_else(|| doc_titles.then(|| doc_text(&parsed.attrs)).flatten());
        choices.push(Choice {
            ident: &variant.ident,
            value,
            title,
        });
    }
    check_distinct(&choices, &mut errors);
    errors.finish_with(choices)
}

/// Two options with one wire value, or one label, cannot be told apart by the user or the
/// server: each repeat is an error on the later variant.
fn check_distinct(choices: &[Choice<'_>], errors: &mut Accumulator) {
    let mut values: HashMap<&str, &Ident> = HashMap::new();
    let mut titles: HashMap<&str, &Ident> = HashMap::new();
    for c in choices {
        if let Some(first) = values.insert(&c.value, c.ident) {
            errors.push(
                Error::custom(format!(
                    "wire value \"{}\" is already used by variant `{first}`",
                    c.value
                ))
                .with_span(c.ident),
            );
        }
        if let Some(title) = &c.title
            && let Some(first) = titles.insert(title, c.ident)
        {
            errors.push(
                Error::custom(format!(
                    "title \"{title}\" is already used by variant `{first}`"
                ))
                .with_span(c.ident),
            );
        }
    }
}

fn expand(ident: &Ident, choices: &[Choice<'_>], rt: &Runtime) -> TokenStream {
    let p = rt.private();
    let variants: Vec<_> = choices.iter().map(|c| c.ident).collect();
    let values: Vec<_> = choices.iter().map(|c| &c.value).collect();
    let titled = choices.iter().any(|c| c.title.is_some());
    let titles: Vec<&String> = if titled {
        choices
            .iter()
            .map(|c| c.title.as_ref().unwrap_or(&c.value))
            .collect()
    } else {
        Vec::new()
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #p::ElicitEnum for #ident {
                const VALUES: &'static [&'static str] = &[#(#values),*];
                const TITLES: &'static [&'static str] = &[#(#titles),*];
                fn from_value(__elicit_value: &str) -> #p::Option<Self> {
                    match __elicit_value {
                        #(#values => #p::Option::Some(Self::#variants),)*
                        _ => #p::Option::None,
                    }
                }
                fn value(&self) -> &'static str {
                    match self {
                        #(Self::#variants => #values,)*
                    }
                }
            }
            #[automatically_derived]
            impl #p::ElicitField for #ident {
                const KIND: #p::FieldKind = #p::FieldKind::SingleSelect(<Self as #p::ElicitEnum>::VALUES);
                fn property(__elicit_spec: &#p::FieldSpec) -> #p::PropertySchema {
                    #p::single_select::<Self>(__elicit_spec)
                }
                fn decode(__elicit_value: &#p::serde_json::Value) -> #p::Result<Self, #p::InvalidValue> {
                    #p::decode_choice::<Self>(__elicit_value)
                }
                fn encode(&self) -> #p::Option<#p::serde_json::Value> {
                    #p::Option::Some(#p::serde_json::Value::from(<Self as #p::ElicitEnum>::value(self)))
                }
            }
        };
    }
}

/// Impls with no options, so uses of the enum report nothing beyond the derive's own errors.
fn fallback(input: &DeriveInput, rt: &Runtime) -> TokenStream {
    let p = rt.private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #p::ElicitEnum for #ident {
                const VALUES: &'static [&'static str] = &[];
                const TITLES: &'static [&'static str] = &[];
                fn from_value(_: &str) -> #p::Option<Self> {
                    ::core::unreachable!()
                }
                fn value(&self) -> &'static str {
                    ::core::unreachable!()
                }
            }
            #[automatically_derived]
            impl #p::ElicitField for #ident {
                const KIND: #p::FieldKind = #p::FieldKind::SingleSelect(&[]);
                fn property(_: &#p::FieldSpec) -> #p::PropertySchema {
                    ::core::unreachable!()
                }
                fn decode(_: &#p::serde_json::Value) -> #p::Result<Self, #p::InvalidValue> {
                    ::core::unreachable!()
                }
                fn encode(&self) -> #p::Option<#p::serde_json::Value> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
