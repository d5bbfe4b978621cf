//! Code generation for a validated form. Creates no errors: every rule ran in `valid`.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::kinds::{KindCheck, KindRule, Num};
use super::valid::{Field, Form};
use crate::lit::{Format, Value};
use crate::paths::Runtime;

pub(super) fn expand(form: &Form<'_>, rt: &Runtime) -> TokenStream {
    let p = rt.private();
    let ident = form.ident;
    let bounds = field_bounds(form.fields.iter().map(|f| f.ty), rt);
    let schema_fns = schema_fns(form, &p);
    let content_fns = content_fns(form, &p);
    let names: Vec<_> = form.fields.iter().map(|f| f.ident).collect();
    // serde's convention: locals are `__field0`…, never the user's names, which could shadow
    // anything the generated code names.
    let locals: Vec<_> = (0..form.fields.len())
        .map(|i| quote::format_ident!("__field{}", i))
        .collect();
    // One pass over the answer finds every field's value; unknown keys fall through.
    let count = form.fields.len();
    let slot_arms = slot_arms(form, &p);
    let decodes = form
        .fields
        .iter()
        .zip(&locals)
        .enumerate()
        .map(|(i, (f, local))| {
            let ty = f.ty;
            quote! {
                let #local = #p::decode_slot::<#ty>(
                    __elicit_slots[#i],
                    __elicit_schema,
                    #i,
                    &mut __elicit_errors,
                );
            }
        });
    let checks = form
        .fields
        .iter()
        .flat_map(|f| f.checks.iter().map(move |c| kind_check(f, c, rt)));
    let defaults_struct = defaults_struct(form);
    quote! {
        #defaults_struct

        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)]
            impl #p::ElicitForm for #ident where #(#bounds,)* {
                #schema_fns

                fn decode_with(
                    __elicit_value: &#p::serde_json::Value,
                    __elicit_schema: &#p::RequestedSchema,
                ) -> #p::Result<Self, #p::ContentError> {
                    let #p::Option::Some(__elicit_content) = __elicit_value.as_object() else {
                        return #p::Result::Err(#p::not_an_object());
                    };
                    let mut __elicit_errors = #p::ContentError::new();
                    let mut __elicit_slots: [#p::Option<&#p::serde_json::Value>; #count] = [#p::Option::None; #count];
                    for (__elicit_key, __elicit_field_value) in __elicit_content {
                        let __elicit_key = __elicit_key.as_bytes();
                        match __elicit_key.len() {
                            #slot_arms
                            _ => {}
                        }
                    }
                    #(#decodes)*
                    match (#(#locals,)*) {
                        (#(#p::Option::Some(#locals),)*) if __elicit_errors.is_empty() => {
                            #p::Result::Ok(Self { #(#names: #locals,)* })
                        }
                        _ => #p::Result::Err(__elicit_errors),
                    }
                }

                #content_fns
            }

            #(#checks)*
        };
    }
}

/// The arms of the decoder's match on a key's length: within one length, the wire names of
/// that length compared as byte arrays of a size known at compile time, which the optimizer
/// turns into a few word comparisons (a `match` on `&str` compares the length arm by arm and
/// calls `memcmp`).
fn slot_arms(form: &Form<'_>, p: &TokenStream) -> TokenStream {
    let mut by_length: Vec<(usize, Vec<(usize, &str)>)> = Vec::new();
    for (i, f) in form.fields.iter().enumerate() {
        let len = f.wire.len();
        match by_length.iter_mut().find(|(l, _)| *l == len) {
            Some((_, names)) => names.push((i, &f.wire)),
            None => by_length.push((len, vec![(i, &f.wire)])),
        }
    }
    let arms = by_length.iter().map(|(len, names)| {
        let tests = names.iter().map(|(i, wire)| {
            let bytes = Literal::byte_string(wire.as_bytes());
            quote!(if __elicit_key == #bytes {
                __elicit_slots[#i] = #p::Option::Some(__elicit_field_value);
            })
        });
        quote!(#len => #(#tests)else*)
    });
    quote!(#(#arms)*)
}

/// `fn #name() -> &'static [&'static str]`, the wire names of the fields `marks` is true of;
/// nothing (the trait's empty default) when it is true of none.
fn marked(
    form: &Form<'_>,
    name: TokenStream,
    marks: fn(&Field<'_>) -> bool,
) -> Option<TokenStream> {
    let wires: Vec<&String> = form
        .fields
        .iter()
        .filter(|f| marks(f))
        .map(|f| &f.wire)
        .collect();
    (!wires.is_empty()).then(|| {
        quote! {
            fn #name() -> &'static [&'static str] {
                &[#(#wires),*]
            }
        }
    })
}

/// `key`, `message`, `__elicit_digest` and `requested_schema`.
fn schema_fns(form: &Form<'_>, p: &TokenStream) -> TokenStream {
    let (key, message) = (&form.key, &form.message);
    let schema_uri = form
        .schema_uri
        .as_ref()
        .map(|uri| quote!(.with_schema_uri(#uri)));
    let pushes = form.fields.iter().map(|f| {
        let ty = f.ty;
        let wire = &f.wire;
        let spec = field_spec(f, p);
        quote!(let __elicit_schema = #p::push_field::<#ty>(__elicit_schema, #wire, &#spec);)
    });
    let user_decides = marked(form, quote!(user_decides), |f| f.user_decides);
    let model_required = marked(form, quote!(model_required), |f| f.model_required);
    quote! {
    #user_decides
    #model_required

    fn key() -> &'static str {
        #key
    }

    fn message() -> &'static str {
        #message
    }

    fn __elicit_digest() -> &'static str {
        static __ELICIT_DIGEST: #p::OnceLock<::std::string::String> = #p::OnceLock::new();
        __ELICIT_DIGEST.get_or_init(|| {
            #p::question_digest(#key, #message, <Self as #p::ElicitForm>::requested_schema())
        })
    }

    fn requested_schema() -> &'static #p::RequestedSchema {
        static __ELICIT_SCHEMA: #p::OnceLock<#p::RequestedSchema> = #p::OnceLock::new();
        __ELICIT_SCHEMA.get_or_init(|| {
            let __elicit_schema = #p::RequestedSchema::new() #schema_uri;
            #(#pushes)*
            __elicit_schema
        })
    }
    }
}

/// `to_content`, `Defaults` and `defaults_content`.
fn content_fns(form: &Form<'_>, p: &TokenStream) -> TokenStream {
    let encodes = form.fields.iter().map(|f| {
        let (ty, name, wire) = (f.ty, f.ident, &f.wire);
        quote!(#p::encode_field::<#ty>(&mut __elicit_content, #wire, &self.#name);)
    });
    let defaults_ident = defaults_ident(form.ident);
    let default_encodes = form.fields.iter().map(|f| {
        let (ty, name, wire) = (f.value_ty, f.ident, &f.wire);
        quote! {
            if let #p::Option::Some(__elicit_value) = &__elicit_defaults.#name {
                #p::encode_field::<#ty>(&mut __elicit_content, #wire, __elicit_value);
            }
        }
    });
    quote! {
    fn to_content(&self) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
        let mut __elicit_content = #p::serde_json::Map::new();
        #(#encodes)*
        __elicit_content
    }

    type Defaults = #defaults_ident;

    fn defaults_content(
        __elicit_defaults: &#defaults_ident,
    ) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
        let mut __elicit_content = #p::serde_json::Map::new();
        #(#default_encodes)*
        __elicit_content
    }
    }
}

/// `Ty: ElicitField` for each field type, spanned on the type so a bad type is reported there.
pub(super) fn field_bounds<'a>(
    tys: impl Iterator<Item = &'a syn::Type>,
    rt: &Runtime,
) -> Vec<TokenStream> {
    // Every token of the bound must carry the type's span, or rustc reports the error on the
    // derive instead of the field.
    tys.map(|ty| {
        let p = rt.private_at(ty.span());
        quote_spanned!(ty.span()=> #ty: #p::ElicitField)
    })
    .collect()
}

fn field_spec(f: &Field<'_>, p: &TokenStream) -> TokenStream {
    let some_string = |s: &Option<String>| match s {
        Some(s) => quote!(#p::Option::Some(::std::string::String::from(#s))),
        None => quote!(#p::Option::None),
    };
    let some_u64 = |n: Option<u64>| match n {
        Some(n) => quote!(#p::Option::Some(#n)),
        None => quote!(#p::Option::None),
    };
    let number = |n: Option<Num>| match n {
        Some(n) => {
            let n = number(n, p);
            quote!(#p::Option::Some(#n))
        }
        None => quote!(#p::Option::None),
    };
    let title = some_string(&f.title);
    let description = some_string(&f.description);
    let (min_length, max_length) = (some_u64(f.min_length), some_u64(f.max_length));
    let (min_items, max_items) = (some_u64(f.min_items), some_u64(f.max_items));
    let (minimum, maximum) = (number(f.minimum), number(f.maximum));
    let format = string_format(f.format, p);
    let default = match &f.default {
        Some(v) => {
            let v = json(v, p);
            quote!(#p::Option::Some(#v))
        }
        None => quote!(#p::Option::None),
    };
    quote! {
        #p::FieldSpec {
            title: #title,
            description: #description,
            min_length: #min_length,
            max_length: #max_length,
            format: #format,
            minimum: #minimum,
            maximum: #maximum,
            min_items: #min_items,
            max_items: #max_items,
            default: #default,
        }
    }
}

/// `Option<StringFormat>` for a field's `format`.
fn string_format(format: Option<Format>, p: &TokenStream) -> TokenStream {
    match format {
        Some(fmt) => {
            let variant = match fmt {
                Format::Email => quote!(Email),
                Format::Uri => quote!(Uri),
                Format::Date => quote!(Date),
                Format::DateTime => quote!(DateTime),
            };
            quote!(#p::Option::Some(#p::StringFormat::#variant))
        }
        None => quote!(#p::Option::None),
    }
}

fn number(n: Num, p: &TokenStream) -> TokenStream {
    match n {
        Num::Int(i) if i >= 0 => {
            let lit = Literal::u64_suffixed(i as u64);
            quote!(#p::serde_json::Number::from(#lit))
        }
        Num::Int(i) => {
            let lit = Literal::i64_suffixed(i as i64);
            quote!(#p::serde_json::Number::from(#lit))
        }
        Num::Float(f) => {
            let lit = Literal::f64_suffixed(f);
            quote!(#p::number_f64(#lit))
        }
    }
}

fn json(v: &Value, p: &TokenStream) -> TokenStream {
    match v {
        Value::Str(s) => quote!(#p::serde_json::Value::from(#s)),
        Value::Bool(b) => quote!(#p::serde_json::Value::Bool(#b)),
        Value::Int(i) => {
            let n = number(Num::Int(*i), p);
            quote!(#p::serde_json::Value::Number(#n))
        }
        Value::Float(f) => {
            let n = number(Num::Float(*f), p);
            quote!(#p::serde_json::Value::Number(#n))
        }
        Value::List(items) => {
            quote!(#p::serde_json::Value::Array(::std::vec![#(#p::serde_json::Value::from(#items)),*]))
        }
    }
}

/// A `KindCheck` as a trivially true or false bound `FieldType: Check<{ condition }>`, spanned
/// on the attribute: when the condition fails, the check trait's `on_unimplemented` message
/// names the attribute and the type.
fn kind_check(f: &Field<'_>, check: &KindCheck, rt: &Runtime) -> TokenStream {
    // Every token must carry the attribute's span.
    let span = check.span;
    let p = rt.private_at(span);
    // The type too, or the error would stretch from the attribute to the field's type.
    let ty = respan(f.ty.to_token_stream(), span);
    let kind = quote_spanned!(span=> <#ty as #p::ElicitField>::KIND);
    let cond = match &check.rule {
        KindRule::Text => quote_spanned!(span=> #p::is_text(#kind)),
        KindRule::Multi => quote_spanned!(span=> #p::is_multi(#kind)),
        KindRule::Int(i) => {
            let lit = Literal::i128_unsuffixed(*i);
            quote_spanned!(span=> #p::int_fits(#kind, #lit))
        }
        KindRule::Float(x) => {
            let lit = Literal::f64_unsuffixed(*x);
            quote_spanned!(span=> #p::float_fits(#kind, #lit))
        }
        KindRule::OfferedOrText(s) => {
            quote_spanned!(span=> #p::single_offers(#kind, #s) || #p::is_text(#kind))
        }
        KindRule::Boolean => quote_spanned!(span=> #p::is_boolean(#kind)),
        KindRule::OffersAll(items) => {
            quote_spanned!(span=> #p::multi_offers(#kind, &[#(#items),*]))
        }
        KindRule::Required => quote_spanned!(span=> !<#ty as #p::ElicitField>::OPTIONAL),
    };
    let bound = syn::Ident::new(check.bound, span);
    quote_spanned! {span=>
        const _: () = {
            #[allow(dead_code)]
            fn __elicit_check() where #ty: #p::#bound<{ #cond }> {}
        };
    }
}

/// `tokens` with every token at `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(g) = &tree {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tree = group.into();
            }
            tree.set_span(span);
            tree
        })
        .collect()
}

/// `BookingDefaults` for `Booking`.
pub(super) fn defaults_ident(ident: &syn::Ident) -> syn::Ident {
    quote::format_ident!("{}Defaults", ident)
}

/// The call-site defaults struct: every field of the form, optional.
fn defaults_struct(form: &Form<'_>) -> TokenStream {
    let fields = form
        .fields
        .iter()
        .map(|f| (f.ident, f.value_ty, f.wire.clone()));
    defaults_struct_of(form.vis, form.ident, fields)
}

/// `<Form>Defaults` with one `Option` per `(field, value type, wire name)`; the fallback emits
/// it too, so code naming it compiles while the form's own errors are fixed.
pub(super) fn defaults_struct_of<'a>(
    vis: &syn::Visibility,
    ident: &syn::Ident,
    fields: impl Iterator<Item = (&'a syn::Ident, &'a syn::Type, String)>,
) -> TokenStream {
    let name = defaults_ident(ident);
    let doc = format!(
        "Call-site defaults for [`{ident}`]: each field set here is pre-filled in the form. \
         Pass it to `{ident}::question().defaults(…)`."
    );
    let fields = fields.map(|(name, ty, wire)| {
        let doc = format!("Pre-fills `{wire}`.");
        quote!(#[doc = #doc] pub #name: ::core::option::Option<#ty>,)
    });
    quote! {
        #[doc = #doc]
        #[derive(::core::default::Default)]
        #vis struct #name {
            #(#fields)*
        }
    }
}
